"""One check's time budget: a deadline every stage consults, and a hard stop behind it.

Each stage (the built-in checks, the runtime information) looks at the deadline between steps of
its own and ends early, saying what it skipped. The hard stop is the safety net for a step that
cannot be bounded in advance (a library call on a huge object, a hook that should never have
run): a SIGALRM timer that raises `OutOfTime` where the step is. It only exists on POSIX and in
the main thread (where IPython runs cells); elsewhere the deadline checks alone bound the check.

`OutOfTime` derives from BaseException so that an `except Exception` in code the hard stop
interrupts cannot swallow it.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator, Optional

DEFAULT_SECONDS = 2.0


class OutOfTime(BaseException):
    """The hard stop fired: the time budget ran out inside a step."""


class Deadline:
    """A point in time `seconds` from now (monotonic clock)."""

    def __init__(self, seconds: float):
        self.seconds = float(seconds)
        self.start = time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self) -> float:
        return self.seconds - self.elapsed()

    def passed(self) -> bool:
        return self.left() <= 0

    def within(self, seconds: float) -> "Deadline":
        """A deadline `seconds` from now, but never later than this one."""
        return Deadline(max(min(seconds, self.left()), 0.0))

    def describe(self) -> str:
        return "%g s" % self.seconds


def _alarm_usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def hard_stop(seconds: Optional[float]) -> Iterator[None]:
    """Raise OutOfTime inside the block once `seconds` pass (where the platform allows).

    Nests: an enclosing hard stop with less time left keeps its own, earlier moment, and whatever
    timer was running before (the user's own, or an enclosing stop) gets its remaining time back.
    """
    if seconds is None or not _alarm_usable():
        yield
        return
    previous_timer = signal.getitimer(signal.ITIMER_REAL)
    if previous_timer[0] > 0:
        seconds = min(seconds, previous_timer[0])
    seconds = max(seconds, 0.001)  # zero would disarm the timer instead of firing it

    def on_alarm(signum, frame):  # noqa: ARG001
        raise OutOfTime("took longer than %g s" % seconds)

    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    started = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # even when the alarm fires on the way out, the handler and timer are put back
            signal.signal(signal.SIGALRM, previous_handler)
            if previous_timer[0] > 0:  # the enclosing timer keeps its remaining time
                remaining = max(previous_timer[0] - (time.monotonic() - started), 0.001)
                signal.setitimer(signal.ITIMER_REAL, remaining, previous_timer[1])
