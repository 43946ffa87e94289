"""Operations the checker runs for real on constants are bounded by the size of what they would
build, not only by their inputs: one C call (`str.replace`) cannot be cut short by the time
budget's hard stop, and a followed loop can double a text pass after pass. Found by the red-team
pass of 2 Dec (a 10 GB string built inside the kernel by a check)."""

from __future__ import annotations

import pytest

from crane_llm.checks import run_checks

LARGE = [
    "x = ('a' * 60000).replace('a', 'b' * 60000)\nundefined_q",
    "x = ('a' * 1000).replace('', 'c' * 1000)\nundefined_q",
    "x = 'a'\nfor i in range(32):\n    x = x + x\nundefined_q",
]
SMALL = [
    "x = 'abc'.replace('a', 'b' * 10)\nundefined_q",
    "x = 'a'\nfor i in range(8):\n    x = x + x\nundefined_q",
]


@pytest.mark.parametrize("cell", LARGE)
def test_a_result_that_may_be_large_is_not_built(cell):
    out = run_checks(cell, {})
    assert out.crash is None
    assert "large" in out.stopped_at.reason or "fit in memory" in out.stopped_at.reason, out.stopped_at.reason


@pytest.mark.parametrize("cell", SMALL)
def test_small_results_are_still_computed_and_the_crash_after_them_claimed(cell):
    out = run_checks(cell, {})
    assert out.crash is not None and out.crash.exception == "NameError" and out.crash.line == cell.count("\n") + 1
    exec(compile("\n".join(cell.splitlines()[:-1]), "<cell>", "exec"), {})  # the lines before run clean
    with pytest.raises(NameError):
        exec(compile(cell, "<cell>", "exec"), {})
