"""Whether the process state lets library calls run as the rules model them: warnings that stay
warnings, NumPy errors that do not raise. Every rule that models a library call asks first."""

from __future__ import annotations

import sys
import types
import warnings

from ..static_reads import checked
from ..outcome import Stop
from ..provenance import class_module, own_module_function, plain_class


def _warnings_plain() -> bool:
    """Library calls the rules model may warn: under a filter that turns warnings into errors, or a
    replaced `showwarning`, a warning could raise, so no library behaviour is modelled then."""
    filters = warnings.filters
    if type(filters) is not list:
        return False
    for f in filters:
        if type(f) is not tuple or len(f) != 5:
            return False
        if f[0] == "error" and plain_class(f[2]) and class_module(f[2]).startswith("IPython."):
            continue  # IPython's own (its completer's provisional API): no library raises it
        if f[0] not in ("default", "ignore", "always", "module", "once"):
            return False
    for attr in ("showwarning", "formatwarning", "_showwarnmsg"):
        fn = checked(warnings.__dict__).get(attr)
        if type(fn) is not types.FunctionType or (fn.__module__ != "warnings" and fn.__module__ != "IPython.core.interactiveshell"):
            return False
    return True


def library_state_plain(interp, node) -> None:
    """Stop unless the process state lets library calls run as modelled (warnings, NumPy errstate)."""
    ok = interp.memo.get("library_state")
    if ok is None:
        ok = _warnings_plain() and _numpy_errstate_plain()
        interp.memo["library_state"] = ok
    if not ok:
        raise Stop(node.lineno, "warnings or NumPy errors are set to raise, so a library call may raise")


def _numpy_errstate_plain() -> bool:
    np = sys.modules.get("numpy")
    if np is None:
        return True
    geterr = checked(np.__dict__).get("geterr")
    if geterr is None or not own_module_function("numpy", "geterr", geterr, "numpy"):
        return False
    try:
        state = geterr()
    except Exception:
        return False
    return type(state) is dict and all(v in ("ignore", "warn", "print") for v in state.values())
