import json
from pathlib import Path

import pytest

from crane_llm.switches import checks_run

GOLDEN = json.loads((Path(__file__).resolve().parents[3] / "libs" / "core" / "fixtures" / "switches.json").read_text("utf-8"))


def test_the_golden_vector_covers_every_setting():
    assert {(c["useLlm"], c["includeRuntimeInfo"]) for c in GOLDEN["cases"]} == {
        (True, True), (True, False), (False, True), (False, False)}


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: "llm=%s,runinfo=%s" % (c["useLlm"], c["includeRuntimeInfo"]))
def test_checks_run_as_the_typescript_twin_says(case):
    assert checks_run(case["useLlm"], case["includeRuntimeInfo"]) is case["checksRun"]
