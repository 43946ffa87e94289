"""A str method of the notebook's text is one C call the budget's alarm cannot cut short: the
checker runs it only on texts of at most 100,000 characters (red team, 3 Dec: `text.split()` of a
144 MB corpus held a 2 s check for 9 s)."""

from __future__ import annotations

from crane_llm.checks import run_checks

CELL = "words = text.split()\nundefined_after"


def test_a_long_text_is_not_split_by_the_checker():
    outcome = run_checks(CELL, {"text": "ab " * 200_000})
    assert outcome.crash is None
    assert "600,000 characters" in outcome.stopped_at.reason


def test_a_short_text_is_and_the_reading_goes_on():
    outcome = run_checks(CELL, {"text": "ab " * 1000})
    assert outcome.crash is not None and outcome.crash.exception == "NameError"
