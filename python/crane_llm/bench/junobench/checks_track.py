"""The checks track: the built-in checks on each target cell, against the recorded facts.

The checker's questions are answered by the replay adapter of crane_llm.checks from the paper's
recorded runtime information; anything the facts do not say is unknown. The recorded facts list
the variables the paper's tool found relevant, not every name that existed, so a name missing from
them is unknown too (`names_complete=False`): on the dev half, treating them as complete makes
the checker claim NameError on four fixed cells whose names simply were not recorded.
"""

from __future__ import annotations

import importlib
import time
from typing import Any, Dict, List, Optional

from .cases import Case, Version


def _facts_for_checker(version: Version) -> Optional[Dict[str, Any]]:
    """The facts in the form the replay adapter reads (its own parser, from the same file)."""
    from ...checks import parse_runinfo

    if version.runinfo_path is None:
        return None
    with open(version.runinfo_path, encoding="utf-8") as fh:
        facts, _target = parse_runinfo(fh.read())
    return facts


def check_version(version: Version) -> Dict[str, Any]:
    """{"claim": CertainCrash JSON or None, "stoppedAt", "error", "elapsedMs"} for one target cell."""
    from ...checks import run_checks_on_facts

    started = time.perf_counter()
    try:
        facts = _facts_for_checker(version)
        if facts is None:
            return {"claim": None, "stoppedAt": None, "error": version.facts_problem or "no recorded facts", "elapsedMs": 0.0}
        outcome = run_checks_on_facts(version.target, facts, names_complete=False)
    except Exception as exc:  # the benchmark reports a failing case, it does not stop
        return {"claim": None, "stoppedAt": None, "error": "%s: %s" % (type(exc).__name__, exc),
                "elapsedMs": round((time.perf_counter() - started) * 1000, 3)}
    return {
        "claim": outcome.crash.to_json() if outcome.crash else None,
        "stoppedAt": outcome.stopped_at.to_json() if outcome.stopped_at else None,
        "error": None,
        "elapsedMs": round((time.perf_counter() - started) * 1000, 3),
    }


# The libraries whose behaviour the rules model. The checker never imports anything itself (in a
# user's kernel it only looks at what the user imported); here this process stands in for the
# notebooks' kernels, which had imported them, so the figures do not depend on what else happened
# to be imported before the track ran.
MODELLED_LIBRARIES = ("numpy", "pandas", "sklearn")


def _import_modelled_libraries() -> None:
    for name in MODELLED_LIBRARIES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # not installed here: the checker says "unknown" for its calls


def run_checks_track(cases: List[Case]) -> List[Dict[str, Any]]:
    """One record per case, as `metrics.checks_figures` reads them."""
    _import_modelled_libraries()
    records = []
    for case in cases:
        crash = check_version(case.versions["crash"])
        fixed = check_version(case.versions["fixed"])
        records.append({
            "case": case.name, "library": case.library, "rootCause": case.root_cause, "ename": case.ename,
            "crash": crash["claim"], "fixed": fixed["claim"],
            "crashStoppedAt": crash["stoppedAt"], "fixedStoppedAt": fixed["stoppedAt"],
            "error": crash["error"] or fixed["error"],
        })
    return records
