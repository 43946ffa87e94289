"""The interpreter's own C functions a check calls itself: the clock, the alarm behind the hard
stop, the garbage collector's switch and the trace hooks.

They are taken once, when crane_llm is imported, and kept only if each is the C function its
module defines under that name (a builtin function, bound to that very module). A notebook that
later rebinds `time.monotonic`, `signal.setitimer`, `gc.disable` or `sys.settrace` cannot make a
check call its code or stop its clock: the check calls what was taken. One that rebound them
before the import leaves `GENUINE` false, and then no check runs (the time budget could not be
kept).
"""

from __future__ import annotations

import _signal  # (signal.signal is a Python wrapper around it)
import gc
import os
import sys
import time
import types
import warnings
from typing import Any, Callable, Dict, Tuple

from .checks.static_reads import plain_keys

# module -> (the name its C functions give as their module, the functions taken)
_WANTED: Tuple[Tuple[Any, Tuple[str, ...], Tuple[str, ...]], ...] = (
    (time, ("time",), ("monotonic", "perf_counter")),
    (_signal, ("_signal",), ("signal", "getitimer", "setitimer", "getsignal", "raise_signal", "valid_signals")),
    (gc, ("gc",), ("disable", "enable", "isenabled")),
    (sys, ("sys",), ("gettrace", "settrace", "getprofile", "setprofile", "_current_frames", "getrecursionlimit",
                     "setrecursionlimit")),
)


def _take() -> Tuple[Dict[str, Callable[..., Any]], bool]:
    taken: Dict[str, Callable[..., Any]] = {}
    genuine = True
    for module, homes, names in _WANTED:
        if not plain_keys(module.__dict__):
            genuine = False
            continue
        for name in names:
            fn = module.__dict__.get(name)
            if fn is None:  # (no setitimer on this platform: the hard stop is not used)
                continue
            owner = getattr(fn, "__self__", None) if type(fn) is types.BuiltinFunctionType else None
            home = owner.__dict__.get("__name__") if type(owner) is types.ModuleType else None
            # A builtin function's name and the module it is bound to are C slots nobody can write.
            if type(home) is not str or home not in homes or fn.__name__ != name:
                genuine = False
                continue
            taken[name] = fn
    return taken, genuine


def _nothing(*_args: Any) -> None:
    return None


_TAKEN, GENUINE = _take()

# Where a function was not the interpreter's own, nothing of the notebook's is called in its place:
# no check runs then (GENUINE is false), and these stand-ins only keep the callers simple.
monotonic: Callable[[], float] = _TAKEN.get("monotonic", lambda: 0.0)
perf_counter: Callable[[], float] = _TAKEN.get("perf_counter", lambda: 0.0)
gc_disable = _TAKEN.get("disable", _nothing)
gc_enable = _TAKEN.get("enable", _nothing)
gc_isenabled: Callable[[], bool] = _TAKEN.get("isenabled", lambda: False)
gettrace = _TAKEN.get("gettrace", _nothing)
settrace = _TAKEN.get("settrace", _nothing)
getprofile = _TAKEN.get("getprofile", _nothing)
setprofile = _TAKEN.get("setprofile", _nothing)
current_frames: Callable[[], Dict[int, Any]] = _TAKEN.get("_current_frames", dict)
getrecursionlimit: Callable[[], int] = _TAKEN.get("getrecursionlimit", lambda: 1000)
setrecursionlimit = _TAKEN.get("setrecursionlimit", _nothing)
# The hard stop's alarm, or None where it cannot be used (another platform, or not genuine).
set_signal = _TAKEN.get("signal") if GENUINE else None
getitimer = _TAKEN.get("getitimer") if GENUINE else None
setitimer = _TAKEN.get("setitimer") if GENUINE else None
# Reading and raising signals, to hold a notebook's handlers back while a check runs (or None).
getsignal = _TAKEN.get("getsignal") if GENUINE else None
raise_signal = _TAKEN.get("raise_signal") if GENUINE else None
valid_signals = _TAKEN.get("valid_signals") if GENUINE else None

REPLACED = ("the kernel's clock, alarm, garbage-collector or trace functions (time, signal, gc, sys) "
            "were replaced before CRANE-LLM was loaded: its time budget could not be kept")

# The interpreter's own table of loaded modules, as it was when crane_llm was imported. `import`
# reads that table in C whatever `sys.modules` is bound to later, while the checks and the runtime
# information read `sys.modules` in many places to find a library.
_MODULES = sys.modules if type(sys.modules) is dict else None

MODULES_REBOUND = ("`sys.modules` was rebound, or its `warnings` replaced: `import` still reads the interpreter's "
                   "own table of modules, while CRANE-LLM and the libraries it asks would read the other one "
                   "(and could run its code)")


def modules_untouched() -> bool:
    """`sys.modules` is still the table taken at import (a notebook's rebinding, to a copy with
    other modules in it or to a mapping of its own, would have the checks find modules `import`
    does not give, and call that mapping's `get`), its keys are plain strings (a lookup in it
    could call another key's `__eq__`), and its `warnings` is the standard library's."""
    d = sys.__dict__
    return _MODULES is not None and plain_keys(d) and d.get("modules") is _MODULES and plain_keys(_MODULES) \
        and _MODULES.get("warnings") is warnings  # (the libraries' `catch_warnings()` looks it up there)


# The process environment's own store, as `os` keeps it: `os.environ._data`, bytes to bytes on POSIX.
# A check reads it directly, never through `os.environ`'s methods (its class may be patched, and
# `os.environ` rebound to anything: the process environment is what `putenv` has set).
_ENVIRON_OBJECT = os.environ


def environ_now() -> Dict[str, str]:
    """The process environment as text, read without calling any method a notebook can replace;
    empty when its store is not the plain dictionary of bytes `os` keeps."""
    try:
        store = object.__getattribute__(_ENVIRON_OBJECT, "__dict__").get("_data")
    except Exception:
        return {}
    if type(store) is not dict:
        return {}
    out: Dict[str, str] = {}
    for key, value in list(store.items()):
        if type(key) is bytes and type(value) is bytes:
            out[key.decode(_FS_ENCODING, "surrogateescape")] = value.decode(_FS_ENCODING, "surrogateescape")
        elif type(key) is str and type(value) is str:  # (Windows keeps text)
            out[key] = value
    return out


_FS_ENCODING = sys.getfilesystemencoding()
