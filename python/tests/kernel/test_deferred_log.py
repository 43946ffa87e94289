"""`deferLog`: the reply carries the execution log only when a prompt is built from it; otherwise
the front end asks `history()` for the log as the check saw it, after the verdict is drawn."""

import json
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry
from crane_llm.lineage import recorder

jsonschema = pytest.importorskip("jsonschema")
SCHEMA_DIR = Path(__file__).resolve().parents[2] / "crane_llm" / "schema"


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    recorder.install(sh)
    sh.run_cell("df = {'a': [1, 2]}", store_history=True)
    sh.run_cell("n = 3", store_history=True)
    yield sh
    recorder.uninstall(sh)


def request(source, use_llm, defer=True):
    return {"protocol": 1, "source": source, "cellId": None, "useLlm": use_llm, "includeRuntimeInfo": True,
            **({"deferLog": True} if defer else {})}


def valid(name, value):
    jsonschema.validate(value, json.loads((SCHEMA_DIR / ("%s.json" % name)).read_text()))
    return value


@pytest.mark.parametrize("use_llm", [True, False])
def test_a_certain_crash_leaves_the_log_out_and_history_gives_it_as_the_check_saw_it(shell, use_llm):
    whole = entry.gather(request("dff['a']", use_llm, defer=False), shell.user_ns, shell)
    result = valid("check-result", entry.gather(request("dff['a']", use_llm), shell.user_ns, shell))
    assert result["checks"]["crash"]["exception"] == "NameError"
    assert result["log"] is None
    runs = len(whole["log"]["runs"])
    assert result["logDeferred"] == {"runs": runs}
    # The did-you-mean's defining run is worked out in the kernel either way, the same.
    assert result["definedIn"] == whole["definedIn"] is not None
    assert whole["definedIn"] == [r["executionCount"] for r in whole["log"]["runs"] if r["code"].startswith("df =")][-1]
    shell.run_cell("later = 1", store_history=True)  # a cell that runs after the verdict
    answer = valid("deferred-log", entry.history(runs).payload)
    assert answer["log"] == whole["log"]
    # A log shorter than the check's (a restarted kernel) is no log, never another one.
    assert entry.history(runs + 5).payload == {"protocol": 1, "log": None}


def test_the_prompt_still_gets_the_log_at_once(shell):
    result = valid("check-result", entry.gather(request("df['a']", True), shell.user_ns, shell))
    assert result["checks"]["crash"] is None
    assert [run["code"] for run in result["log"]["runs"]][-2:] == ["df = {'a': [1, 2]}", "n = 3"]
    assert result["logDeferred"] is None


def test_nothing_certain_with_the_llm_off_needs_no_log(shell):
    result = entry.gather(request("df['a']", False), shell.user_ns, shell)
    assert result["checks"]["crash"] is None
    assert result["log"] is None and result["logDeferred"]["runs"] >= 2


def test_without_defer_the_reply_is_as_before(shell):
    result = entry.gather(request("dff['a']", False, defer=False), shell.user_ns, shell)
    assert result["log"]["runs"] and result["logDeferred"] is None


def test_history_through_the_formatter_is_json_only(shell):
    data, _ = shell.display_formatter.format(entry.history(1))
    assert data["application/json"]["log"]["runs"][0]["executionCount"] is not None
    assert len(data["text/plain"]) < 40
