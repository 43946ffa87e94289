"""Whether the process state lets library calls run as the rules model them: warnings that stay
warnings, NumPy errors that do not raise, pandas writes to a copy that do not raise. Every rule that
models a library call asks first."""

from __future__ import annotations

import types
import warnings

from ..static_reads import checked, loaded_module
from ..library_code import genuine, library_module
from ..outcome import Stop
from ..provenance import class_module, own_call, plain_class


def _warnings_plain() -> bool:
    """Library calls the rules model may warn: under a filter that turns warnings into errors, or a
    replaced `showwarning`, a warning could raise, so no library behaviour is modelled then."""
    filters = warnings.filters
    if type(filters) is not list:
        return False
    for f in filters:
        # (an action of a `str` subclass would answer the comparisons below with its own `__eq__`,
        # while the warnings machinery compares the text in C)
        if type(f) is not tuple or len(f) != 5 or type(f[0]) is not str:
            return False
        if f[0] == "error" and plain_class(f[2]) and class_module(f[2]).startswith("IPython."):
            continue  # IPython's own (its completer's provisional API): no library raises it
        if f[0] not in ("default", "ignore", "always", "module", "once"):
            return False
    for attr in ("showwarning", "formatwarning", "_showwarnmsg"):
        # The standard library's own function of that name (or IPython's), by its code and globals:
        # `__module__` is anyone's to write (`raiser.__module__ = 'warnings'`).
        fn = checked(warnings.__dict__).get(attr)
        if type(fn) is not types.FunctionType or fn.__code__.co_name != attr or not genuine(fn):
            return False
        mod = library_module(fn)
        if mod is None or checked(mod.__dict__).get("__name__") not in _WARNING_MODULES:
            return False
    return True


_WARNING_MODULES = ("warnings", "_py_warnings", "IPython.core.interactiveshell")


def library_calls_plain() -> bool:
    """Warnings stay warnings and NumPy errors do not raise (for a check without an interpreter's
    memo: what printing an array or a frame runs)."""
    return _warnings_plain() and _numpy_errstate_plain() and _pandas_copies_plain()


def library_state_plain(interp, node) -> None:
    """Stop unless the process state lets library calls run as modelled (warnings, NumPy errstate)."""
    ok = interp.memo.get("library_state")
    if ok is None:
        ok = library_calls_plain()
        interp.memo["library_state"] = ok
    if not ok:
        raise Stop(node.lineno, "warnings, NumPy errors or pandas' writes to a copy are set to raise, "
                                "so a library call may raise")


def _numpy_errstate_plain() -> bool:
    if loaded_module("numpy") is None:
        return True
    geterr = own_call("numpy", "geterr", "numpy")
    if geterr is None:
        return False
    try:
        state = geterr()
    except Exception:
        return False
    return type(state) is dict and all(v in ("ignore", "warn", "print") for v in state.values())


def _pandas_copies_plain() -> bool:
    """pandas' `mode.chained_assignment` is not 'raise': under it, pandas 2 raises
    SettingWithCopyError where it would warn (`sub = df[df.a > 0]; sub['e'] = 1`), in a column
    assignment the rules read past. The option is read from pandas' own option store, as a plain
    dictionary; anything unexpected there counts as 'raise'."""
    if loaded_module("pandas") is None:
        return True
    config = loaded_module("pandas._config.config")
    store = checked(config.__dict__).get("_global_config") if config is not None else None
    mode = checked(store).get("mode") if type(store) is dict else None
    if type(mode) is not dict:
        return False
    setting = checked(mode).get("chained_assignment")
    return setting is None or (type(setting) is str and setting == "warn")
