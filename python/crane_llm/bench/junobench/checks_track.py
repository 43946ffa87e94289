"""The checks track: the built-in checks on each target cell, against the recorded facts.

The checker's questions are answered by the replay adapter of crane_llm.checks from the paper's
recorded runtime information; anything the facts do not say is unknown. The recorded facts list
the variables the paper's tool found relevant, not every name that existed, so a name missing from
them alone proves nothing (treated as complete, they made the checker claim NameError on four fixed
dev cells whose names simply were not recorded). The executed cells settle it: a name none of them
binds, when none can bind one dynamically, is undefined (crane_llm.checks.recorded_kernel).
"""

from __future__ import annotations

import importlib
import re
import time
from typing import Any, Dict, List, Optional, Tuple

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
        cells = [cell.get("code") or "" for cell in version.executed]
        outcome = run_checks_on_facts(version.target, facts, executed=cells)
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
MODELLED_LIBRARIES = ("numpy", "pandas", "sklearn", "matplotlib", "matplotlib.pyplot", "seaborn", "torch",
                      "torch.nn", "torch.nn.functional")


def _import_modelled_libraries(cases: List[Case]) -> None:
    for name in MODELLED_LIBRARIES + _modelled_submodules(cases):
        try:
            importlib.import_module(name)
        except Exception:
            pass  # not installed here: the checker says "unknown" for its calls


def _modelled_submodules(cases: List[Case]) -> Tuple[str, ...]:
    """The submodules of the modelled libraries the cases import (`sklearn.linear_model`, ...): the
    notebooks' kernels had them, and importing a package does not import them all."""
    found = set()
    for case in cases:
        for version in case.versions.values():
            for code in [c.get("code") or "" for c in version.executed] + [version.target]:
                found.update(m for m in _SUBMODULE.findall(code) if m.split(".")[0] in MODELLED_LIBRARIES)
    return tuple(sorted(found))


_SUBMODULE = re.compile(r"^\s*(?:from|import)\s+((?:numpy|pandas|sklearn|matplotlib|seaborn|torch)(?:\.\w+)+)", re.M)


def run_checks_track(cases: List[Case]) -> List[Dict[str, Any]]:
    """One record per case, as `metrics.checks_figures` reads them."""
    _import_modelled_libraries(cases)
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
