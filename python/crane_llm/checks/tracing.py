"""Trace and profile functions (`sys.settrace`, `sys.setprofile`, `sys.monitoring`): a notebook's
own runs with every line and call of the cell, so it may define names or change anything before a
line runs; with one installed the checker claims nothing. While a check runs the kernel entry
takes them off (and puts them back after, `kernel/entry.py`), so none of their code runs during it:
a monitoring tool stays registered with its events set, only its callbacks are unregistered.
"""

from __future__ import annotations

import gc
import sys
import types
from typing import Any, List, Tuple

from .. import interpreter_functions as _f

# The collector's own list, as it was at import: rebinding `gc.callbacks` later hides nothing from us.
_GC_CALLBACKS = gc.callbacks
# Whether each enclosing check took one off (kernel/entry.py): the checks inside still know.
TAKEN: List[bool] = []


_MONITORING = getattr(sys, "monitoring", None)
# One bit each, the events that fire for Python code first (PY_START, CALL, LINE...): the callbacks
# that could still run while they are being taken off go first.
_EVENTS = tuple(sorted(v for k, v in vars(_MONITORING.events).items()
                       if not k.startswith("_") and type(v) is int and v > 0 and v & (v - 1) == 0)) if _MONITORING else ()


def take_off_callbacks() -> List[Tuple[int, int, Any]]:
    """Unregisters every monitoring callback; returns what `put_back_callbacks` registers again.
    The interpreter may still call one for this function's first lines, as a trace function sees
    the call into the check; one that registered callbacks again then is met by another pass."""
    taken: List[Tuple[int, int, Any]] = []
    for _ in range(3) if _MONITORING else ():
        found = False
        for tool in range(6):
            if _MONITORING.get_tool(tool) is None:
                continue
            for event in _EVENTS:
                try:
                    old = _MONITORING.register_callback(tool, event, None)
                except ValueError:  # an event this Python takes no callback for
                    continue
                if old is not None:
                    found = True
                    taken.append((tool, event, old))
        if not found:
            break
    return taken


def put_back_callbacks(taken: List[Tuple[int, int, Any]]) -> None:
    for tool, event, callback in reversed(taken):  # a callback taken twice: the first one wins
        if _MONITORING.get_tool(tool) is not None:  # the tool was not freed meanwhile
            _MONITORING.register_callback(tool, event, callback)


def _monitoring_in_use() -> bool:
    return _MONITORING is not None and any(_MONITORING.get_tool(tool) is not None for tool in range(6))


def installed() -> bool:
    """A trace or profile function or a monitoring tool is installed for the cell's thread, or a
    garbage-collector callback (which runs at any allocation, between any two lines)."""
    return (_f.gettrace() is not None or _f.getprofile() is not None or any(TAKEN)
            or _monitoring_in_use() or not all(_library_callback(cb) for cb in list(_GC_CALLBACKS)))


def _library_callback(cb: Any) -> bool:
    """A garbage-collector callback a library registered (ipykernel 6 cleans its threads' frames in
    one): its own method, bound to an object of its own class, or its own function."""
    from .provenance import class_module, own  # (provenance imports this module's neighbours)
    from .threads import library_file

    if type(cb) is types.MethodType:
        fn, package = cb.__func__, class_module(type(cb.__self__)).split(".", 1)[0]
    elif type(cb) is types.FunctionType:
        home = cb.__globals__.get("__name__")
        fn, package = cb, home.split(".", 1)[0] if type(home) is str else ""
    else:
        return False
    return type(fn) is types.FunctionType and package not in ("", "builtins", "__main__") \
        and library_file(fn.__code__.co_filename) and own(fn, package)


TRACED = ("a trace, profile or garbage-collector callback is installed: it runs between the lines of the cell, "
          "and may change anything")

__all__ = ["installed", "TAKEN", "TRACED", "take_off_callbacks", "put_back_callbacks"]
