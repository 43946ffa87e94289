"""The front end's request, end to end through a real ipykernel: silent, no execution count, no history,
JSON that matches the exported schema."""

import json
from pathlib import Path

import pytest
from kernels import running_kernel

jupyter_client = pytest.importorskip("jupyter_client")
jsonschema = pytest.importorskip("jsonschema")

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "crane_llm" / "schema"


def expression(request):
    # The same expression apps/jlab/src/kernel-bridge.ts sends (a JSON string is a Python literal).
    return "__import__('crane_llm.kernel.entry', fromlist=['check']).check(%s)" % json.dumps(json.dumps(request))


@pytest.fixture(scope="module")
def kernel():
    with running_kernel() as (_, kc):
        yield kc


def run(kc, code, **kw):
    reply = kc.execute_interactive(code, timeout=60, **kw)
    return reply["content"]


def ask(kc, request):
    content = run(kc, "", silent=True, store_history=False, user_expressions={"crane": expression(request)})
    answer = content["user_expressions"]["crane"]
    assert answer["status"] == "ok", answer
    return answer["data"]["application/json"]


def request(source, **kw):
    return {"protocol": 1, "source": source, "cellId": None, "useLlm": False, "includeRuntimeInfo": True, **kw}


def test_reply_matches_schema_and_finds_a_certain_name_error(kernel):
    run(kernel, "df = {'a': [1, 2, 3]}")
    result = ask(kernel, request("dff['a']"))
    schema = json.loads((SCHEMA_DIR / "check-result.json").read_text())
    jsonschema.validate(result, schema)
    crash = result["checks"]["crash"]
    assert crash["exception"] == "NameError"
    assert crash["line"] == 1
    assert "dff" in crash["variables"]


def test_defined_name_gets_no_claim(kernel):
    run(kernel, "df = {'a': [1, 2, 3]}")
    result = ask(kernel, request("df['a']"))
    assert result["checks"]["ran"] is True
    assert result["checks"]["crash"] is None


def history_length(kc):
    content = run(kc, "pass", user_expressions={"n": "len(In)"})
    return content["execution_count"], int(content["user_expressions"]["n"]["data"]["text/plain"])


def test_silent_request_leaves_no_trace(kernel):
    count_before, history_before = history_length(kernel)
    ask(kernel, request("undefined_thing + 1"))
    ask(kernel, request("df"))
    count_after, history_after = history_length(kernel)
    # Only the second `pass` counted: the two checks added no execution count and no history.
    assert count_after == count_before + 1
    assert history_after == history_before + 1


def test_the_target_cell_is_never_executed(kernel):
    run(kernel, "side_effects = []")
    ask(kernel, request("side_effects.append(1)"))
    ask(kernel, request("side_effects.append(1)", useLlm=True))
    content = run(kernel, "assert side_effects == [], side_effects")
    assert content["status"] == "ok"


def test_bad_request_is_a_problem_not_a_traceback(kernel):
    content = run(kernel, "", silent=True, store_history=False,
                  user_expressions={"crane": "__import__('crane_llm.kernel.entry', fromlist=['check']).check('not json')"})
    answer = content["user_expressions"]["crane"]["data"]["application/json"]
    assert answer["problem"]["kind"] == "internal"
    assert "CRANE-LLM" in answer["problem"]["message"]


def test_missing_package_is_reported_by_name(kernel):
    content = run(kernel, "", silent=True, store_history=False,
                  user_expressions={"crane": "__import__('crane_llm_not_here.kernel.entry', fromlist=['check'])"})
    answer = content["user_expressions"]["crane"]
    assert answer["status"] == "error"
    assert answer["ename"] == "ModuleNotFoundError"  # what kernel-bridge.ts turns into the install hint


def test_a_closed_stderr_makes_the_line_that_warns_raise():
    """A warning is written to the kernel's own stream: once the notebook closed it, the line that
    warns raises ValueError there, so nothing after it is claimed. Its twin, the stream open."""
    cell = "c = a / 0\nd = a + b"
    with running_kernel() as (_, kc):
        run(kc, "import numpy as np\na = np.array([1.0, 2.0]); b = np.zeros(3)")
        crash = ask(kc, request(cell))["checks"]["crash"]
        assert (crash["exception"], crash["line"]) == ("ValueError", 2)
        assert run(kc, cell)["ename"] == "ValueError"
        run(kc, "import sys\nsys.stderr.close()")
        assert ask(kc, request(cell))["checks"]["crash"] is None
        raised = run(kc, cell)
        assert raised["ename"] == "ValueError" and "closed file" in raised["evalue"], raised
