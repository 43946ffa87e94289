"""Whether the process state lets library calls run as the rules model them: warnings that stay
warnings, NumPy errors that do not raise, pandas writes to a copy that do not raise. Every rule that
models a library call asks first."""

from __future__ import annotations

import re
import types
import warnings
from typing import Any

from ..static_reads import checked, loaded_module
from ..library_code import genuine, library_module
from ..outcome import Stop
from ..provenance import class_module, own_call
from .streams import stderr_is_plain, stdout_is_plain


def _warnings_plain() -> bool:
    """Library calls the rules model may warn: under a filter that turns warnings into errors, or a
    replaced `showwarning`, a warning could raise, so no library behaviour is modelled then."""
    filters = checked(warnings.__dict__).get("filters")
    if type(filters) is not list:
        return False
    for f in filters:
        # (an action of a `str` subclass would answer the comparisons below with its own `__eq__`,
        # while the warnings machinery compares the text in C; it calls the message and module
        # patterns' `.match` and asks the category's metaclass about subclasses)
        if type(f) is not tuple or len(f) != 5 or type(f[0]) is not str or type(f[2]) is not type or \
                type(f[4]) is not int or not all(p is None or type(p) is str or type(p) is re.Pattern for p in (f[1], f[3])):
            return False
        if f[0] == "error" and class_module(f[2]).startswith("IPython."):
            continue  # IPython's own (its completer's provisional API): no library raises it
        if f[0] not in _QUIET:
            return False
    # Where no filter matches, the default action applies: the module's, or the C module's own.
    c_warnings = loaded_module("_warnings")
    for holder, name in ((warnings, "defaultaction"), (c_warnings, "_defaultaction")):
        if holder is None:
            continue
        action = checked(holder.__dict__).get(name, "default")
        if type(action) is not str or action not in _QUIET:
            return False
    # The functions libraries call to warn: the C module's (or, without it, the module's own).
    for name in ("warn", "warn_explicit"):
        fn = checked(warnings.__dict__).get(name)
        own_c = checked(c_warnings.__dict__).get(name) if c_warnings is not None else None
        if fn is None or (fn is not own_c and not _warnings_function(fn, name)):
            return False
    return all(_warnings_function(checked(warnings.__dict__).get(attr), attr)
               for attr in ("showwarning", "formatwarning", "_showwarnmsg")) and stderr_is_plain()


def _warnings_function(fn, name: str) -> bool:
    """The standard library's own Python function of that name (or IPython's), by its code and
    globals: `__module__` is anyone's to write (`raiser.__module__ = 'warnings'`)."""
    if type(fn) is not types.FunctionType or fn.__code__.co_name != name or not genuine(fn):
        return False
    mod = library_module(fn)
    return mod is not None and checked(mod.__dict__).get("__name__") in _WARNING_MODULES


_QUIET = ("default", "ignore", "always", "module", "once")
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
    # ('print' writes to sys.stdout, 'warn' shows a warning, judged with the warnings)
    return type(state) is dict and all(v in ("ignore", "warn") or (v == "print" and stdout_is_plain())
                                       for v in state.values())


def _pandas_copies_plain() -> bool:
    """pandas' `mode.chained_assignment` is not 'raise': under it, pandas 2 raises
    SettingWithCopyError where it would warn (`sub = df[df.a > 0]; sub['e'] = 1`), in a column
    assignment the rules read past. The option is read from pandas' own option store, as a plain
    dictionary; anything unexpected there counts as 'raise'."""
    if loaded_module("pandas") is None:
        return True
    setting = pandas_option("mode", "chained_assignment")
    return setting is None or (type(setting) is str and setting == "warn")


_UNREADABLE = object()


def pandas_option(section: str, key: str) -> Any:
    """pandas' option `section.key`, read from its own option store as plain dictionaries (nothing
    of pandas' option machinery runs); `_UNREADABLE` when the store is not plain."""
    config = loaded_module("pandas._config.config")
    store = checked(config.__dict__).get("_global_config") if config is not None else None
    part = checked(store).get(section) if type(store) is dict else None
    return checked(part).get(key) if type(part) is dict else _UNREADABLE
