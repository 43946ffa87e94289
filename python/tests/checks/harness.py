"""Runs batches of cases for real in parallel subprocesses (two, one per core) and keeps the order;
the assertions every corpus of (setup, cell, ...) cases makes on their results."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Sequence

from exec_runner import run_batch


def run_parallel(cases: List[Dict[str, Any]], workers: int = 2, optimize: bool = False) -> List[Dict[str, Any]]:
    chunks = [cases[i::workers] for i in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(lambda chunk: run_batch(chunk, optimize=optimize), chunks))
    out: List[Any] = [None] * len(cases)
    for w, part in enumerate(parts):
        for j, r in enumerate(part):
            out[w + j * workers] = r
    return out


def case_ids(cases: Sequence[Sequence[Any]]) -> List[str]:
    """Test ids: the start of each case's cell (its second item)."""
    return [repr(c[1])[:40] for c in cases]


def assert_no_false_claim(r: Dict[str, Any], cell: str) -> None:
    """Nothing claimed but what the cell raised, on its line, and no code of the notebook's ran."""
    assert r["setup_error"] is None and r["checker_error"] is None, r
    claim, raised = r["claim"], r["raised"]
    assert claim is None or (raised is not None and (claim["exception"], claim["line"]) ==
                             (raised["exception"], raised["line"])), (cell, claim, raised)
    assert not r["mutated"], "the notebook's own code ran during the check"


def assert_no_false_claim_either(r: Dict[str, Any], cell: str) -> None:
    """`assert_no_false_claim`, and the replay's claim too, when the case was replayed."""
    assert_no_false_claim(r, cell)
    replayed = r.get("replay_claim")
    assert replayed is None or (r["raised"] is not None and (replayed["exception"], replayed["line"]) ==
                                (r["raised"]["exception"], r["raised"]["line"])), (cell, replayed, r["raised"])


def assert_claimed(r: Dict[str, Any], exception: str, line: int) -> None:
    """The cell raised `exception` on `line`, and that is what was claimed."""
    assert r["raised"] is not None and (r["raised"]["exception"], r["raised"]["line"]) == (exception, line), r
    assert r["claim"] is not None and (r["claim"]["exception"], r["claim"]["line"]) == (exception, line), r


def replayed(cases: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The cases judged by the replay adapter too, with their setup read as the executed cells."""
    return [dict(case, replay=True, replay_executed=True) for case in cases]


def assert_replay_pair(crash: Dict[str, Any], twin: Dict[str, Any], exception: str) -> None:
    """A cell that raised `exception` and the replay claimed as raised; its twin ran clean, unclaimed."""
    for r in (crash, twin):
        assert r["setup_error"] is None and r["checker_error"] is None, r
    assert crash["raised"] is not None and crash["raised"]["exception"] == exception, crash["raised"]
    assert crash["replay_claim"] is not None and (crash["replay_claim"]["exception"], crash["replay_claim"]["line"]) == \
        (exception, crash["raised"]["line"]), (crash["replay_claim"], crash.get("replay_stop"))
    assert twin["raised"] is None and twin["replay_claim"] is None, twin


def assert_clean_and_unclaimed(r: Dict[str, Any], what: Any) -> None:
    """`what` (a hostile history) left the target running clean, and the replay claimed nothing."""
    assert r["setup_error"] is None and r["checker_error"] is None, (what, r)
    assert r["raised"] is None, (what, r["raised"])
    assert r["replay_claim"] is None, (what, r["replay_claim"])
