"""%%crane_llm against a real OpenAI-compatible server with a real (tiny) model: llama.cpp's
llama-server with SmolLM2-135M-Instruct, through a base_url (Chat Completions), streaming, with
the verdict's JSON schema enforced. Whatever the model answers, the check ends in one of the
product's states, never an error."""

import pytest

from crane_llm.magic import MIME_TYPE

from .test_magic_shell import check, run, verdict_of

pytestmark = pytest.mark.real_model


@pytest.fixture
def llama_api(model_env, llama_server, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_BASE_URL", llama_server.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", llama_server.model)
    monkeypatch.setenv("CRANE_LLM_MAX_OUTPUT_TOKENS", "32")  # seconds when idle; minutes on a loaded machine
    return llama_server


def assert_a_product_state(state, html, box):
    """red/green with an explanation, or amber with the raw text; never a failure."""
    assert state["phase"] == "done", (state.get("error"), state.get("raw"))
    verdict = state["verdict"]
    colour = box["attrs"]["data-colour"]
    if verdict["kind"] in ("predicted-crash", "no-crash"):
        assert colour == ("red" if verdict["kind"] == "predicted-crash" else "green")
        assert verdict["source"] == {"type": "llm", "model": "smollm2"}
        assert html.one("crane-badge")["text"] == "LLM prediction · smollm2"
    else:
        assert verdict["kind"] == "unreadable" and colour == "amber"
        assert state["raw"].strip()
        assert html.one("crane-raw")["text"].strip()
    model_step = [s for s in state["steps"] if s["id"] == "model"][0]
    assert model_step["status"] == "done"
    assert model_step["detail"].startswith(("answered (", "cut at the output limit of 32 tokens"))


def test_the_magic_gets_a_verdict_state_from_llama_server(shell, llama_api):
    run(shell, "import pandas as pd")
    run(shell, "df = pd.DataFrame({'a': [1, 2, 3]})")
    run(shell, "def column_total(frame, name):\n    return frame[name].sum()")
    # A call to a user function: the built-in checks stop there, so the model decides.
    bundle, _ = check(shell, "total = column_total(df, 'b')\nprint(total)")
    state = bundle[MIME_TYPE]["state"]
    html, box = verdict_of(bundle)
    assert_a_product_state(state, html, box)
    notes = html.one("crane-settings-source")["text"]
    assert "Chat Completions (the default rule: a base_url)." in notes
    assert "Output limit 32 tokens from environment variable CRANE_LLM_MAX_OUTPUT_TOKENS." in notes
    # The schema was enforced: the answer streamed as one JSON object (or was cut inside it).
    assert state["raw"].lstrip().startswith("{")
