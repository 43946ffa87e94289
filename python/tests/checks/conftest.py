"""Runs every case of the checks suite for real once per session, in two parallel subprocesses."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from every_case import ALL_PAIRS, NO_CLAIM  # noqa: E402
from harness import run_parallel  # noqa: E402


def executed_cases() -> List[Dict[str, str]]:
    cases = []
    for p in ALL_PAIRS:
        cases.append({"setup": p.setup, "cell": p.crash})
        cases.append({"setup": p.setup, "cell": p.safe})
    for cell, setup in NO_CLAIM:
        cases.append({"setup": setup, "cell": cell})
    return cases


@pytest.fixture(scope="session")
def ground_truth() -> Dict[str, Dict[str, Any]]:
    """(setup, cell) -> what the checker claimed and what really happened."""
    cases = executed_cases()
    results = run_parallel(cases)
    return {c["setup"] + "\x00" + c["cell"]: r for c, r in zip(cases, results)}
