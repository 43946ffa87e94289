"""Time limits for one variable's summary.

Two limits: a soft deadline that the summarisers consult to choose a sample over an exact figure,
and a hard stop (`crane_llm.deadline.hard_stop`) for code that cannot be bounded in advance, such
as a dataset's `__getitem__`. Both stay inside the whole check's budget when one is given.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Optional

from .. import interpreter_functions as _f
from ..deadline import OutOfTime, hard_stop

SOFT_SECONDS = 0.12  # what a big-data summary plans for; leaves headroom under the 250 ms target
HARD_SECONDS = 2.0  # beyond this a summary is abandoned as "took too long"

SummaryTimeout = OutOfTime

BUDGET_RAN_OUT = "not summarised: the check's time budget (%s) ran out"


class Deadline:
    def __init__(self, seconds: Optional[float] = None):
        self.start = _f.perf_counter()
        self.seconds = SOFT_SECONDS if seconds is None else seconds

    def left(self) -> float:
        return self.seconds - (_f.perf_counter() - self.start)

    def passed(self) -> bool:
        return self.left() <= 0


@contextmanager
def hard_limit(seconds: Optional[float] = None) -> Iterator[None]:
    """Raise SummaryTimeout inside the block once `seconds` pass (where the platform allows)."""
    with hard_stop(HARD_SECONDS if seconds is None else seconds):
        yield
