"""Time limits for one variable's summary.

Two limits: a soft deadline that the summarisers consult to choose a sample over an exact figure,
and a hard stop (SIGALRM, main thread on POSIX only) for code that cannot be bounded in advance,
such as a dataset's `__getitem__`. The user's own alarm handler and timer are put back afterwards.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator, Optional

SOFT_SECONDS = 0.12  # what a big-data summary plans for; leaves headroom under the 250 ms target
HARD_SECONDS = 2.0  # beyond this a summary is abandoned as "took too long"


class SummaryTimeout(Exception):
    pass


class Deadline:
    def __init__(self, seconds: Optional[float] = None):
        self.start = time.perf_counter()
        self.seconds = SOFT_SECONDS if seconds is None else seconds

    def left(self) -> float:
        return self.seconds - (time.perf_counter() - self.start)

    def passed(self) -> bool:
        return self.left() <= 0


def _alarm_usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def hard_limit(seconds: Optional[float] = None) -> Iterator[None]:
    """Raise SummaryTimeout inside the block once `seconds` pass (where the platform allows)."""
    seconds = HARD_SECONDS if seconds is None else seconds
    if not _alarm_usable() or seconds <= 0:
        yield
        return

    def on_alarm(signum, frame):  # noqa: ARG001
        raise SummaryTimeout(f"took longer than {seconds:g} s")

    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    previous_timer = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_timer[0] > 0:  # the user's own timer keeps its remaining time
            remaining = max(previous_timer[0] - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, remaining, previous_timer[1])
