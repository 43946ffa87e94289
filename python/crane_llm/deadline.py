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

import _signal
from contextlib import contextmanager
from typing import Iterator, Optional

from . import interpreter_functions as _f

DEFAULT_SECONDS = 2.0


class OutOfTime(BaseException):
    """The hard stop fired: the time budget ran out inside a step."""


class Deadline:
    """A point in time `seconds` from now (monotonic clock)."""

    def __init__(self, seconds: float):
        self.seconds = float(seconds)
        self.start = _f.monotonic()

    def elapsed(self) -> float:
        return _f.monotonic() - self.start

    def left(self) -> float:
        return self.seconds - self.elapsed()

    def passed(self) -> bool:
        return self.left() <= 0

    def within(self, seconds: float) -> "Deadline":
        """A deadline `seconds` from now, but never later than this one."""
        return Deadline(max(min(seconds, self.left()), 0.0))

    def describe(self) -> str:
        return "%g s" % self.seconds


# (taken now: `signal.SIGALRM` is the notebook's to rebind)
_SIGALRM = _signal.__dict__.get("SIGALRM")
_ITIMER_REAL = _signal.__dict__.get("ITIMER_REAL")


def _alarm_usable() -> bool:
    return _f.set_signal is not None and _f.setitimer is not None and _f.getitimer is not None \
        and type(_SIGALRM) is int and type(_ITIMER_REAL) is int


# When each hard stop in force ends, innermost last.
_ENDS: list = []


def after_foreign_code() -> None:
    """Called after running code that is not ours (a dataset's `__getitem__`): it may have caught the
    hard stop's OutOfTime and gone on, so past the moment, it is raised again here."""
    if _ENDS and _f.monotonic() >= _ENDS[-1]:
        raise OutOfTime("the time ran out in code that caught the hard stop")


@contextmanager
def hard_stop(seconds: Optional[float]) -> Iterator[None]:
    """Raise OutOfTime inside the block once `seconds` pass (where the platform allows).

    Nests: an enclosing hard stop with less time left keeps its own, earlier moment, and whatever
    timer was running before (the user's own, or an enclosing stop) gets its remaining time back.
    """
    if seconds is None or not _alarm_usable():
        yield
        return
    previous_timer = _f.getitimer(_ITIMER_REAL)
    if previous_timer[0] > 0:
        seconds = min(seconds, previous_timer[0])
    seconds = max(seconds, 0.001)  # zero would disarm the timer instead of firing it

    def on_alarm(signum, frame):  # noqa: ARG001
        raise OutOfTime("took longer than %g s" % seconds)

    try:
        previous_handler = _f.set_signal(_SIGALRM, on_alarm)
    except ValueError:  # not the main thread, where alone signals are delivered: no hard stop
        previous_handler = on_alarm
    if previous_handler is on_alarm:
        yield
        return
    started = _f.monotonic()
    _ENDS.append(started + seconds)
    _f.setitimer(_ITIMER_REAL, seconds)
    try:
        yield
    finally:
        _ENDS.pop()
        try:
            _f.setitimer(_ITIMER_REAL, 0)
        finally:  # even when the alarm fires on the way out, the handler and timer are put back
            _f.set_signal(_SIGALRM, previous_handler)
            if previous_timer[0] > 0:  # the enclosing timer keeps its remaining time
                remaining = max(previous_timer[0] - (_f.monotonic() - started), 0.001)
                _f.setitimer(_ITIMER_REAL, remaining, previous_timer[1])
