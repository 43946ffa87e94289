"""Every rule proven on real objects: the crash cell raises what the checker claims, where it
claims it; the safe twin runs clean and gets no claim; the checker leaves the namespace unchanged."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cases import NAME_ERROR, SYNTAX_ERROR
from every_case import ALL_PAIRS, NO_CLAIM

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "crane_llm" / "schema" / "check-result.json"


def _key(setup, cell):
    return setup + "\x00" + cell


def _ids(pairs):
    return [f"{p.rule}:{p.crash.splitlines()[-1][:40]}" for p in pairs]


@pytest.mark.parametrize("pair", ALL_PAIRS, ids=_ids(ALL_PAIRS))
def test_crash_cell_raises_what_is_claimed(pair, ground_truth):
    r = ground_truth[_key(pair.setup, pair.crash)]
    assert r["setup_error"] is None and r["checker_error"] is None, r
    assert r["raised"] is not None, "the crash cell ran clean: the case itself is wrong"
    assert r["raised"]["exception"] in pair.exception.split("|"), r["raised"]
    claim = r["claim"]
    assert claim is not None, f"no claim; stopped at {r['stop']}"
    assert claim["exception"] == r["raised"]["exception"]
    assert claim["line"] == r["raised"]["line"], (claim, r["raised"])
    assert not r["mutated"], "the checker changed the namespace"


@pytest.mark.parametrize("pair", ALL_PAIRS, ids=_ids(ALL_PAIRS))
def test_safe_twin_runs_clean_without_claim(pair, ground_truth):
    r = ground_truth[_key(pair.setup, pair.safe)]
    assert r["setup_error"] is None and r["checker_error"] is None, r
    assert r["raised"] is None, f"the safe twin raised {r['raised']}"
    assert r["claim"] is None, r["claim"]
    assert not r["mutated"], "the checker changed the namespace"


@pytest.mark.parametrize("cell,setup", NO_CLAIM)
def test_uncertain_crashes_get_no_claim(cell, setup, ground_truth):
    r = ground_truth[_key(setup, cell)]
    assert r["setup_error"] is None and r["checker_error"] is None, r
    assert r["raised"] is not None, "these cells do crash; the point is that the checker cannot be sure"
    assert r["claim"] is None, r["claim"]


def test_enough_pairs_per_rule():
    counts = Counter(p.rule for p in ALL_PAIRS)
    assert len(NAME_ERROR) >= 30 and len(SYNTAX_ERROR) >= 10
    assert all(n >= 10 for n in counts.values()), counts
    assert len(ALL_PAIRS) >= 150


def test_claims_and_stops_match_the_wire_schema(ground_truth):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text())
    checks = schema["properties"]["checks"]
    defs = {k: v for k, v in schema.items() if k.startswith("$") and k != "$schema"}
    crash_schema = dict(checks["properties"]["crash"], **defs)
    stop_schema = dict(checks["properties"]["stoppedAt"], **defs)
    seen_crash = seen_stop = 0
    for r in ground_truth.values():
        if r["claim"] is not None:
            jsonschema.validate(r["claim"], crash_schema)
            seen_crash += 1
        if r["stop"] is not None:
            jsonschema.validate(r["stop"], stop_schema)
            assert r["stop"]["reason"].startswith(f"line {r['stop']['line']}:") or r["stop"]["line"] is None
            seen_stop += 1
    assert seen_crash > 100 and seen_stop > 20
