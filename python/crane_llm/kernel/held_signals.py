"""A notebook's own signal handlers (a sampling profiler's SIGPROF timer, a SIGUSR1 handler) would
run between any two steps of a check. While the facts are gathered each handler written in Python
is swapped for one that only notes the signal; afterwards the notebook's handlers are put back and
each noted signal is raised once more, so they run then (Ctrl-C's too: an interrupt waits for the
check, at most its budget). The hard stop's SIGALRM is the check's own (deadline.py)."""

from __future__ import annotations

import _signal
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List

from .. import interpreter_functions as _f
from ..checks.signal_handlers import HELD

# (SIGALRM is the hard stop's; the other two cannot be caught)
_UNTOUCHABLE = {int(getattr(_signal, name)) for name in ("SIGKILL", "SIGALRM", "SIGSTOP") if hasattr(_signal, name)}


@contextmanager
def held_signals() -> Iterator[None]:
    if _f.getsignal is None or _f.valid_signals is None or _f.set_signal is None:
        yield
        return
    pending: List[int] = []

    def note(signum: int, frame: Any) -> None:  # noqa: ARG001
        if signum not in pending:
            pending.append(signum)

    swapped: Dict[int, Any] = {}
    try:
        for signum in _f.valid_signals():
            if int(signum) in _UNTOUCHABLE:
                continue
            handler = _f.getsignal(signum)
            # (a builtin too: `breakpoint` as a handler calls `sys.breakpointhook`, which may be the
            # notebook's; Ctrl-C's default handler waits as well, at most the check's budget)
            if callable(handler):
                _f.set_signal(signum, note)
                swapped[signum] = handler
    except (ValueError, OSError):  # not the main thread (only it may set handlers): nothing held
        pass
    HELD.append(swapped)  # (the checks still see whose handlers stand behind the stand-ins)
    try:
        yield
    finally:
        HELD.pop()
        for signum, handler in swapped.items():
            _f.set_signal(signum, handler)
        for signum in pending:
            if signum in swapped:
                _f.raise_signal(signum)
