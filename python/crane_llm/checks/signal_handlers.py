"""Signal handlers of the notebook's own: a handler written in Python runs between any two of the
cell's bytecodes when its signal comes (an interval timer's, a child process ending, another
process's `kill`), so while one is installed the checker claims nothing, as it does beside a
notebook's thread.

A handler is the notebook's unless it is the interpreter's own default (`default_int_handler`) or
a function of a library file (ipykernel's and IPython's SIGINT handlers). While the facts are
gathered, the kernel holds such handlers back (kernel/held_signals.py); that protects the check,
this protects the claim.
"""

from __future__ import annotations

import _signal
import types
from typing import Any, Dict, List

from .. import interpreter_functions as _f
from .threads import library_file

HANDLED = ("a signal handler of the notebook's is installed: it may run between any two steps of the cell "
           "(when a timer, a child process or another process sends its signal) and change what the cell reads")
_DEFAULT_INT = _signal.__dict__.get("default_int_handler")
# The notebook's handlers the kernel holds back while it gathers the facts (kernel/held_signals.py),
# innermost last: signal number -> the handler that stands behind the kernel's stand-in.
HELD: List[Dict[int, Any]] = []


def _library_handler(handler: Any) -> bool:
    if not callable(handler) or handler is _DEFAULT_INT:
        return True
    fn = handler.__func__ if type(handler) is types.MethodType else handler
    return type(fn) is types.FunctionType and library_file(fn.__code__.co_filename)


def notebook_signal_handler() -> bool:
    """A signal has a handler of the notebook's."""
    if _f.getsignal is None or _f.valid_signals is None:
        return False
    held = HELD[-1] if HELD else {}
    try:
        return not all(_library_handler(held[signum] if signum in held else _f.getsignal(signum))
                       for signum in _f.valid_signals())
    except (ValueError, OSError):
        return False
