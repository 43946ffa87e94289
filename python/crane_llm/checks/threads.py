"""Threads of the notebook's own: one running beside the cell may bind a name or change an object
between any two of its lines, so while one is alive the checker claims nothing.

A thread is the notebook's when it is running notebook code now (a frame of its stack comes from
no library file) or will run it (its target, or a timer's function, is not a library's). The
kernel's own threads (ipykernel's IOPub, heartbeat, control and shell channel threads, IPython's
history saver) and idle library workers are none of those. Only C slots are read: frames' code
and file names, the thread objects' instance dictionaries.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import threading
import types
from functools import lru_cache
from typing import Any, Optional, Tuple

from .. import interpreter_functions as _f
from .provenance import instance_dict, lookup_static

RUNNING = "a thread the notebook started is running beside the cell, and may change what the cell reads at any time"
_MAX_DEPTH = 200


@lru_cache(maxsize=1)
def _library_roots() -> Tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots |= {p for p in sys.path if p and ("site-packages" in p or "dist-packages" in p)}
    roots.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # CRANE-LLM's own, wherever it lies
    return tuple(sorted(r.rstrip("/") + "/" for r in roots if r))


def library_file(filename: Any) -> bool:
    return type(filename) is str and filename.startswith(_library_roots())


# Library code that runs callables handed to it at a later time (a scheduler's delayed events, a
# server's handlers, an event loop's callbacks): a thread in it, or started on it, runs the
# notebook's code later, whatever file it is in now. (ipykernel's own threads run asyncio loops: only a thread
# *started on* a loop's method counts, not one that is in loop code.)
# (An idle pool worker, `concurrent.futures` or `multiprocessing.pool`'s, waits for tasks only running
# code can hand it, and a busy one runs the notebook's code, which its stack shows: neither is here.
# Nor is a server waiting for requests: a handler of the notebook's runs only when one comes from
# outside, a known limit.)
_DISPATCHING = ("/sched.py",)
_DISPATCHING_TARGETS = _DISPATCHING + ("/asyncio/", "/tornado/")


def _library_callable(fn: Any) -> bool:
    """A library's function or a bound method of one that runs no callables handed to it (None, a
    thread's own `run`, counts too)."""
    if fn is None:
        return True
    if type(fn) is types.MethodType:
        fn = fn.__func__
    if type(fn) is types.FunctionType:
        filename = fn.__code__.co_filename
        return library_file(filename) and not _dispatching(filename, _DISPATCHING_TARGETS)
    return False


def _dispatching(filename: Any, places: Tuple[str, ...]) -> bool:
    return type(filename) is not str or any(p in filename for p in places)


def _stack_in_libraries(frame: Any) -> bool:
    for _ in range(_MAX_DEPTH):
        if frame is None:
            return True
        filename = frame.f_code.co_filename
        if not library_file(filename) or _dispatching(filename, _DISPATCHING):
            return False
        frame = frame.f_back
    return False


def notebook_thread() -> Optional[str]:
    """RUNNING when a thread of the notebook's own is alive beside the one the check runs on."""
    me = threading.get_ident()
    frames = _f.current_frames()
    try:
        if type(frames) is not dict or any(ident != me and not _stack_in_libraries(frame)
                                           for ident, frame in frames.items()):
            return RUNNING
    finally:
        # (the table holds this very frame: a cycle that would keep every caller's locals alive, the
        # namespace among them, until the collector runs)
        frames = None
    active = threading.__dict__.get("_active")
    if type(active) is not dict:
        return RUNNING
    for ident, thread in list(active.items()):
        if ident == me:
            continue
        own = instance_dict(thread)
        if own is None or not all(_library_callable(own.get(k)) for k in ("_target", "function")):
            return RUNNING
        run = lookup_static(type(thread), "run")
        if type(run) is not types.FunctionType or not library_file(run.__code__.co_filename):
            return RUNNING
    return None


__all__ = ["notebook_thread", "RUNNING"]
