"""A real ipykernel driven through jupyter_client, as Colab and VS Code drive theirs: the magic's
display and its later updates arrive on the iopub channel, and an interrupt cancels the check."""

from __future__ import annotations

import os
import time
from typing import Any, Dict, List

import pytest
from kernels import running_kernel

from crane_llm.magic import MIME_TYPE
from crane_llm_testing.fake_openai import FakeOpenAI

from .conftest import Html, verdict_json



@pytest.fixture(scope="module")
def server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture(scope="module")
def kernel(server, tmp_path_factory):
    home = tmp_path_factory.mktemp("kernel-home")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CRANE_LLM_", "OPENAI_"))}
    env.update({
        "HOME": str(home),
        "CRANE_LLM_BASE_URL": server.base_url,
        "CRANE_LLM_MODEL": "kernel-model",
    })
    with running_kernel(env, cwd=str(home)) as (km, kc):
        yield km, kc


def execute(kc, code: str, timeout: float = 30, during=None) -> List[Dict[str, Any]]:
    """Run a cell; the iopub messages it caused, up to the kernel going idle."""
    msg_id = kc.execute(code)
    out = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.2)
        except Exception:
            if during is not None:
                during()
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        out.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            reply = kc.get_shell_msg(timeout=10)
            assert reply["content"]["status"] == "ok", reply["content"]
            return out
    raise AssertionError("the kernel did not finish %r" % code)


def displays(messages):
    return [m for m in messages if m["msg_type"] in ("display_data", "update_display_data")]


def test_display_then_updates_then_stale_on_iopub(kernel):
    km, kc = kernel
    execute(kc, "%load_ext crane_llm")
    execute(kc, "df = {'a': [1, 2, 3]}")
    messages = displays(execute(kc, "%%crane_llm --no-llm\ndff['a']"))
    assert messages[0]["msg_type"] == "display_data"
    assert all(m["msg_type"] == "update_display_data" for m in messages[1:])
    display_id = messages[0]["content"]["transient"]["display_id"]
    assert all(m["content"]["transient"]["display_id"] == display_id for m in messages)
    first, last = messages[0]["content"]["data"], messages[-1]["content"]["data"]
    assert set(first) == {"text/plain", "text/html", MIME_TYPE}
    assert first[MIME_TYPE]["state"]["phase"] == "running"
    assert last[MIME_TYPE]["state"]["verdict"]["kind"] == "certain-crash"
    box = Html(last["text/html"]).by_class("crane-verdict")[0]
    assert box["attrs"]["data-colour"] == "red"

    # Another %%crane_llm executes nothing: the first verdict stays fresh.
    other = displays(execute(kc, "%%crane_llm --no-llm\ndf['a']"))
    assert all(m["content"]["transient"]["display_id"] != display_id for m in other)

    # Any other cell: both verdicts go grey in place, through update_display_data.
    later = displays(execute(kc, "df = {'b': 1}"))
    assert [m["msg_type"] for m in later] == ["update_display_data", "update_display_data"]
    stale = [m for m in later if m["content"]["transient"]["display_id"] == display_id][0]["content"]["data"]
    assert stale[MIME_TYPE]["state"]["stale"] == "other-cell-ran"
    assert Html(stale["text/html"]).by_class("crane-verdict")[0]["attrs"]["data-colour"] == "grey"


def test_interrupting_the_kernel_during_the_model_call_cancels_the_check(kernel, server):
    km, kc = kernel
    execute(kc, "%load_ext crane_llm")
    server.reset()
    server.script({"hang": True})
    interrupted = []

    def interrupt_when_asked():
        if server.requests() and not interrupted:
            interrupted.append(time.monotonic())
            km.interrupt_kernel()

    messages = execute(kc, "%%crane_llm\nx = 1", during=interrupt_when_asked)
    server.reset()
    assert interrupted, "the model was never asked"
    assert not [m for m in messages if m["msg_type"] == "error"]
    final = displays(messages)[-1]["content"]["data"]
    assert final[MIME_TYPE]["state"]["phase"] == "cancelled"
    # The kernel is usable at once, and the model answers the next check.
    server.script({"text": verdict_json(explanation="fine", crash=False)})
    final = displays(execute(kc, "%%crane_llm\nx = 1"))[-1]["content"]["data"]
    assert final[MIME_TYPE]["state"]["verdict"]["source"] == {"type": "llm", "model": "kernel-model"}
    assert Html(final["text/html"]).by_class("crane-verdict")[0]["attrs"]["data-colour"] == "green"
