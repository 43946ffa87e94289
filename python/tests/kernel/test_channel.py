"""The front end's comm channel through a real ipykernel: a check asked through it runs none of the
notebook's code, even where the notebook shadows the names a `user_expressions` request reads; the
twin shows the older path would have called the notebook's `__import__`."""

import json
import queue
import uuid

import pytest
from kernels import running_kernel

pytest.importorskip("jupyter_client")
pytest.importorskip("comm")

# The notebook's own `__import__` and `get_ipython`, counting every call.
HOSTILE = (
    "calls = []\n"
    "def __import__(*a, **k):\n    calls.append(a[0] if a else '?')\n    return __builtins__.__import__(*a, **k)\n"
    "def get_ipython():\n    calls.append('get_ipython')\n"
    "df = {'a': [1, 2, 3]}\n"
)


@pytest.fixture(scope="module")
def kernel():
    with running_kernel() as (_, kc):
        run(kc, "import crane_llm\ncrane_llm.load_ipython_extension(get_ipython())")
        yield kc


def run(kc, code, **kw):
    return kc.execute_interactive(code, timeout=60, **kw)["content"]


def calls(kc):
    content = run(kc, "pass", user_expressions={"n": "calls"})
    return content["user_expressions"]["n"]["data"]["text/plain"]


def through_comm(kc, data, target="crane_llm"):
    """Open a comm with `data`; the data of the first message back, or None when the kernel closes
    it without one (no such target)."""
    comm_id = uuid.uuid4().hex
    msg = kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": target, "data": data})
    kc.shell_channel.send(msg)
    while True:
        m = kc.get_iopub_msg(timeout=60)
        if m["content"].get("comm_id") != comm_id:
            continue
        if m["msg_type"] == "comm_msg":
            return m["content"]["data"]
        if m["msg_type"] == "comm_close":
            return None


def check_request(source, use_llm=False):
    return json.dumps({"protocol": 1, "source": source, "cellId": None, "useLlm": use_llm, "includeRuntimeInfo": True})


def test_a_check_through_the_channel_runs_none_of_the_notebooks_code(kernel):
    run(kernel, HOSTILE)
    reply = through_comm(kernel, {"op": "check", "request": check_request("dff['a']\ndf['a']")})
    assert reply is not None
    crash = reply["reply"]["checks"]["crash"]
    assert crash["exception"] == "NameError" and "dff" in crash["variables"]
    clean = through_comm(kernel, {"op": "check", "request": check_request("df['a']", use_llm=True)})["reply"]
    assert clean["checks"]["ran"] is True and clean["checks"]["crash"] is None
    assert "df" in json.dumps(clean["runtimeInfo"])
    assert calls(kernel) == "[]"
    # The twin: the same request as a user expression calls the notebook's `__import__`.
    expression = "__import__('crane_llm.kernel.entry', fromlist=['check']).check(%s)" % json.dumps(check_request("df"))
    content = run(kernel, "", silent=True, store_history=False, user_expressions={"crane": expression})
    assert content["user_expressions"]["crane"]["status"] == "ok"
    assert "crane_llm.kernel.entry" in calls(kernel)


def test_history_ping_and_malformed_requests_get_answers_not_tracebacks(kernel):
    assert through_comm(kernel, {"op": "ping"})["reply"]["ready"] is True
    log = through_comm(kernel, {"op": "history", "runs": 1})["reply"]
    assert log["protocol"] == 1 and "log" in log
    for bad in ({"op": "check", "request": "{not json"}, {"op": "nonsense"}, "just a string", None):
        reply = through_comm(kernel, bad)
        assert reply is not None and reply["reply"]["problem"]["kind"] == "internal", (bad, reply)


def test_a_kernel_without_the_extension_closes_the_comm_and_the_front_end_falls_back():
    with running_kernel() as (_, kc):
        assert through_comm(kc, {"op": "ping"}) is None
        run(kc, "import crane_llm\ncrane_llm.load_ipython_extension(get_ipython())\n"
                "crane_llm.load_ipython_extension(get_ipython())")  # (idempotent: one target)
        assert through_comm(kc, {"op": "ping"})["reply"]["ready"] is True


# The notebook's hook: notes each event raised while CRANE-LLM's code is on the stack.
AUDIT_HOOK = """import sys
seen, busy = [], [False]
def hook(event, args):
    if busy[0]:
        return
    busy[0] = True
    try:
        f = sys._getframe(1)
        while f is not None:
            if '/crane_llm/' in f.f_code.co_filename:
                seen.append(event)
                break
            f = f.f_back
    finally:
        busy[0] = False
sys.addaudithook(hook)
"""


def test_after_the_notebook_adds_an_audit_hook_a_check_reads_nothing_and_calls_it_never():
    """Python calls audit hooks on the checker's own steps (`__code__` reads, `id()`, `compile`).
    Before the hook, a check claims the NameError; once the notebook adds one, a check stands aside
    and the hook sees no event raised from CRANE-LLM's code. The twin: the gathering called past
    the gate raises hundreds."""
    with running_kernel() as (_, kc):
        run(kc, "import crane_llm\ncrane_llm.load_ipython_extension(get_ipython())\ndf = {'a': 1}")
        before = through_comm(kc, {"op": "check", "request": check_request("undefined_name + df['a']")})["reply"]
        assert before["checks"]["crash"]["exception"] == "NameError"
        run(kc, AUDIT_HOOK)

        def seen():
            return run(kc, "", silent=True, user_expressions={"n": "list(seen)"})["user_expressions"]["n"]["data"]["text/plain"]

        reply = through_comm(kc, {"op": "check", "request": check_request("undefined_name + df['a']", use_llm=True)})["reply"]
        history = through_comm(kc, {"op": "history", "runs": 1})["reply"]
        assert seen() == "[]"
        assert reply["checks"]["crash"] is None and "audit hook" in reply["checks"]["stoppedAt"]["reason"]
        assert reply["runtimeInfo"] is None and reply["usedNames"] == []
        assert reply["log"]["runs"][-1]["code"].startswith("import sys") and history["log"]["runs"]
        run(kc, "from crane_llm.kernel import entry\n_r = entry._gather({'source': 'undefined_name', 'useLlm': True}, "
                "get_ipython().user_ns, get_ipython())")
        counted = run(kc, "", silent=True, user_expressions={"n": "seen.count('builtins.id') + seen.count('compile')"})
        assert int(counted["user_expressions"]["n"]["data"]["text/plain"]) > 10  # (counted there: a long list's text is cut)


def test_a_request_on_a_kernel_subshell_is_refused_with_a_message():
    """ipykernel 7 runs a subshell's messages beside the cells: a check there could read state a
    cell is changing, and its time limit works on the main thread only."""
    with running_kernel() as (_, kc):
        run(kc, "import crane_llm\ncrane_llm.load_ipython_extension(get_ipython())")
        create = kc.session.msg("create_subshell_request", {})
        kc.control_channel.send(create)
        try:
            reply = kc.control_channel.get_msg(timeout=10)
        except queue.Empty:
            reply = {"content": {}}  # (ipykernel 6 does not answer the request)
        if reply["content"].get("status") != "ok":
            pytest.skip("this ipykernel has no subshells")
        subshell = reply["content"]["subshell_id"]
        comm_id = uuid.uuid4().hex
        msg = kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "crane_llm", "data": {"op": "ping"}})
        msg["header"]["subshell_id"] = subshell
        kc.shell_channel.send(msg)
        while True:
            m = kc.get_iopub_msg(timeout=60)
            if m["content"].get("comm_id") == comm_id and m["msg_type"] in ("comm_msg", "comm_close"):
                break
        assert m["msg_type"] == "comm_msg"
        assert "subshell" in m["content"]["data"]["reply"]["problem"]["message"]
        assert through_comm(kc, {"op": "ping"})["reply"]["ready"] is True  # (the main shell answers)
