"""Golden vectors shared with libs/lineage (vitest reads the same files): a difference fails both."""

import json

import pytest

from crane_llm.lineage.defines import binding_lines
from crane_llm.lineage.origin import defined_in, origin

from .scenarios import FIXTURES, SCENARIOS

SCHEMA = FIXTURES.parents[2] / "python" / "crane_llm" / "schema" / "execution-log.json"
ORIGIN_FILES = sorted(p for p in FIXTURES.glob("*.json") if p.name not in ("defines.json", "defined-in.json"))


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_scenario_has_its_fixture():
    assert sorted(p.stem for p in ORIGIN_FILES) == sorted(SCENARIOS)


@pytest.mark.parametrize("path", ORIGIN_FILES, ids=lambda p: p.stem)
def test_origin_matches_golden_vector(path):
    fixture = _load(path)
    i = fixture["input"]
    assert origin(i["log"], i["variables"], i["defined"], i["cells"], i["targetCellId"]) == fixture["expected"]


@pytest.mark.parametrize("path", ORIGIN_FILES, ids=lambda p: p.stem)
def test_fixture_log_is_what_the_recorder_records(path):
    """The vectors' logs come from real executions, and still do."""
    fresh = SCENARIOS[path.stem]()
    assert fresh["input"] == _load(path)["input"]


@pytest.mark.parametrize("path", ORIGIN_FILES, ids=lambda p: p.stem)
def test_fixture_log_matches_the_wire_schema(path):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(_load(path)["input"]["log"], _load(SCHEMA))


def test_defines_matches_golden_vector():
    for case in _load(FIXTURES / "defines.json"):
        assert [list(b) for b in binding_lines(case["source"])] == case["bindings"], case["source"]


def test_golden_entries_say_what_the_seed_asks():
    """Spot checks of the reviewed vectors, so a regenerated fixture cannot quietly go wrong."""
    drop = _load(FIXTURES / "drop-in-place.json")["expected"]
    assert [(e["kind"], e["index"], e["line"]) for e in drop] == [("assigned", 0, 2), ("modified", 2, 2)]
    assert drop[1]["sentence"] == "Cell 3 (In [3]), line 2, dropped columns of `df` in place."
    tf = _load(FIXTURES / "not-run-out-of-order.json")["expected"][0]
    assert tf["kind"] == "not-run" and tf["cellId"] == "cell-13" and tf["executionCount"] is None
    assert "has not run since the kernel started" in tf["sentence"]
    raised = _load(FIXTURES / "raised-before-assignment.json")["expected"][0]
    assert (raised["kind"], raised["line"]) == ("raised-before", 3)
    assert "raised IndexError at line 2, before reaching the assignment of `features` at line 3" in raised["sentence"]
    user = _load(FIXTURES / "user-function-globals.json")["expected"]
    assert {e["kind"] for e in user if e["executionCount"] == 3} <= {"maybe", "conditional"}
    late = _load(FIXTURES / "recording-began-late.json")["expected"]
    assert [e["recorded"] for e in late] == [False, False, True]


DEFINED_IN = json.loads((FIXTURES / "defined-in.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", DEFINED_IN, ids=lambda c: "%s-%s" % (c["log"], c["name"]))
def test_defined_in_matches_golden_vector(case):
    assert defined_in(_load(FIXTURES / case["log"])["input"]["log"], case["name"]) == case["expected"]
