"""The check's time budget: the shared deadline, its hard stop, and the checker honouring it."""

import signal
import time

import pytest

from crane_llm.checks import run_checks
from crane_llm.deadline import Deadline, OutOfTime, hard_stop

LONG_CELL = "\n".join(f"x{i} = {i}" for i in range(200)) + "\nundefined_name\n"


def test_the_checker_reads_the_whole_cell_while_time_is_left():
    outcome = run_checks(LONG_CELL, {}, deadline=Deadline(60))
    assert outcome.crash is not None and outcome.crash.exception == "NameError"


def test_the_checker_stops_at_the_first_statement_after_the_deadline():
    outcome = run_checks(LONG_CELL, {}, deadline=Deadline(0))
    assert outcome.crash is None
    assert outcome.stopped_at.line == 1
    assert "time budget (0 s) ran out" in outcome.stopped_at.reason


def test_the_checker_stops_inside_a_long_comprehension():
    outcome = run_checks("y = [i for i in range(1000)]\nundefined_name\n", {}, deadline=Deadline(0))
    assert outcome.crash is None and "time budget" in outcome.stopped_at.reason


def test_hard_stop_interrupts_a_sleep_that_catches_exception():
    def hook():
        try:
            time.sleep(10)
        except Exception:  # a hook cannot swallow the stop
            pass

    started = time.monotonic()
    with pytest.raises(OutOfTime):
        with hard_stop(0.2):
            hook()
    assert time.monotonic() - started < 1.5


def test_hard_stop_gives_the_users_timer_and_handler_back():
    fired = []
    handler = lambda signum, frame: fired.append(signum)  # noqa: E731
    previous = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 5.0)
        with hard_stop(0.05):
            pass
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 4.0 < remaining <= 5.0
        assert signal.getsignal(signal.SIGALRM) is handler
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert fired == []


def test_an_inner_stop_never_outlives_the_enclosing_one():
    started = time.monotonic()
    with pytest.raises(OutOfTime):
        with hard_stop(0.2):
            with hard_stop(5):
                time.sleep(10)
    assert time.monotonic() - started < 1.5
