"""One check in the kernel stays within its time budget and says what the budget cut."""

import json
import time
from pathlib import Path

import jsonschema
import pytest

from crane_llm.kernel.entry import gather
from crane_llm.present import budget_detail
from crane_llm.settings import resolve_check_budget

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "crane_llm" / "schema" / "check-result.json").read_text())


def _valid(reply):
    jsonschema.Draft202012Validator(SCHEMA).validate(reply)
    return reply


def _request(source, budget=None, use_llm=True):
    request = {"protocol": 1, "source": source, "cellId": None, "useLlm": use_llm, "includeRuntimeInfo": True}
    if budget is not None:
        request["budgetSeconds"] = budget
    return request


def test_a_dataset_that_sleeps_cannot_hang_the_check():
    torch = pytest.importorskip("torch")

    class Sleepy(torch.utils.data.Dataset):  # the documented DataLoader exception runs __getitem__
        def __len__(self):
            return 4

        def __getitem__(self, i):
            time.sleep(10)
            return i

    namespace = {"loader": torch.utils.data.DataLoader(Sleepy(), batch_size=2), "rows": [1, 2, 3]}
    started = time.monotonic()
    reply = _valid(gather(_request("loader\nrows", budget=1), namespace))
    assert time.monotonic() - started < 1.0 + 1.0
    by_name = {v["name"]: v["summary"] for v in reply["runtimeInfo"]["variables"]}
    assert by_name["loader"]["kind"] == "unavailable"
    assert by_name["rows"] == {"kind": "unavailable", "reason": "not summarised: the check's time budget (1 s) ran out"}
    assert reply["budget"]["ranOut"] is True
    assert reply["budget"]["cut"] == ["runtime information for loader, rows"]
    assert "time budget of 1 s ran out" in budget_detail(reply)


def test_the_checker_stops_when_the_budget_is_spent():
    source = "\n".join("a%d = [%d] * 3" % (i, i) for i in range(4000)) + "\nundefined_name\n"
    reply = _valid(gather(_request(source, budget=0.001, use_llm=False), {}))
    assert reply["checks"]["crash"] is None
    assert "time budget (0.001 s) ran out" in reply["checks"]["stoppedAt"]["reason"]
    assert reply["budget"]["cut"] == ["the rest of the built-in checks"]


def test_within_budget_nothing_is_cut_and_the_claim_stands():
    reply = _valid(gather(_request("rows.nope", budget=5), {"rows": [1, 2]}))
    assert reply["checks"]["crash"]["exception"] == "AttributeError"
    assert reply["budget"] == {"seconds": 5.0, "source": "the argument", "ranOut": False, "cut": [], "warning": None}
    assert budget_detail(reply) == ""


def test_the_setting_resolves_like_the_others(tmp_path):
    home = tmp_path / "home"
    (home / ".crane_llm").mkdir(parents=True)
    (home / ".crane_llm" / "config.json").write_text(json.dumps({"check_budget": 3}))
    cwd = str(tmp_path)
    assert resolve_check_budget(None, cwd, {}, home).seconds == 3.0
    env = resolve_check_budget(None, cwd, {"CRANE_LLM_CHECK_BUDGET": "0.5"}, home)
    assert (env.seconds, env.setting.label, env.warning) == (0.5, "environment variable CRANE_LLM_CHECK_BUDGET", None)
    assert resolve_check_budget("7", cwd, {"CRANE_LLM_CHECK_BUDGET": "0.5"}, home).seconds == 7.0
    (tmp_path / ".env").write_text("CRANE_LLM_CHECK_BUDGET=4\n")
    assert resolve_check_budget(None, cwd, {}, home).seconds == 4.0


@pytest.mark.parametrize("bad", ["abc", "0", "-2", "nan", "inf", "1e9"])
def test_an_unusable_setting_is_named_and_the_default_is_used(tmp_path, bad):
    budget = resolve_check_budget(None, str(tmp_path), {"CRANE_LLM_CHECK_BUDGET": bad}, tmp_path)
    assert budget.seconds == 2.0 and budget.setting.source == "env"
    assert "environment variable CRANE_LLM_CHECK_BUDGET" in budget.warning
    assert "not a number of seconds" in budget.warning and "default of 2 s was used" in budget.warning


def test_the_steps_name_an_unusable_setting(monkeypatch):
    monkeypatch.setenv("CRANE_LLM_CHECK_BUDGET", "soon")
    reply = _valid(gather(_request("rows"), {"rows": [1]}))
    assert reply["budget"]["seconds"] == 2.0 and not reply["budget"]["ranOut"]
    assert "CRANE_LLM_CHECK_BUDGET cannot be used" in budget_detail(reply)


def test_the_steps_say_what_was_cut_in_the_same_words_as_jupyterlab():
    # apps/jlab/src/run-check.test.ts holds budgetDetail to the same sentence.
    facts = {"budget": {"seconds": 2, "source": "default (2 s)", "ranOut": True,
                        "cut": ["runtime information for df, model"], "warning": None}}
    assert budget_detail(facts) == "; the time budget of 2 s ran out, so the kernel left out runtime information for df, model"


def test_a_cell_too_long_to_parse_within_the_budget_is_not_read():
    """Python's parser cannot be interrupted: a 1.2 MB cell would take seconds to parse twice and
    walk; it is not read at all, the reply says so, and a cell under the limit is still read."""
    huge = "x = 1\n" * 200_000 + "x.nope\n"
    started = time.monotonic()
    reply = _valid(gather(_request(huge, budget=2.0), {}))
    assert time.monotonic() - started < 2.0
    assert reply["checks"]["crash"] is None and "too long" in reply["checks"]["stoppedAt"]["reason"]
    assert reply["budget"]["ranOut"] and "reading of the cell" in reply["budget"]["cut"][0]
    twin = _valid(gather(_request("x = 1\n" * 2_000 + "x.nope\n", budget=2.0), {}))
    assert twin["checks"]["crash"]["exception"] == "AttributeError"


@pytest.mark.parametrize("terms", [600, 3_000])
def test_an_expression_nested_deeper_than_the_stack_gets_an_answer(terms):
    """`a + a + ... + a` nests one level per term: the used names' visitor and the checks run out of
    stack, never out of the reply (the shell itself runs 600 terms and refuses 3,000)."""
    source = "x = " + " + ".join(["a"] * terms) + "\nundefined_after"
    reply = _valid(gather(_request(source, budget=2.0), {"a": 1}))
    assert reply["problem"] is None
    crash = reply["checks"]["crash"]
    # (where the stack is deep enough to read it all, as on Python 3.9, the claim is the true one:
    # the shell runs 600 terms, then line 2 raises)
    assert crash is None or (terms == 600 and crash["exception"] == "NameError" and crash["line"] == 2)
