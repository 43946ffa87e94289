"""%%crane_llm through LiteLLM's proxy (in front of llama-server), with the `api` setting both
ways: the Responses API and Chat Completions behind the same base_url. The proxy's own access log
says which API was asked; whatever the tiny model answers, the check ends in a product state."""

import pytest

from crane_llm.magic import MIME_TYPE

from .test_magic_llama import assert_a_product_state
from .test_magic_shell import check, run, verdict_of

pytestmark = pytest.mark.real_model

PATHS = {"responses": "/v1/responses", "chat": "/v1/chat/completions"}
SAID = {"responses": "the Responses API, as api=responses", "chat": "Chat Completions, as api=chat"}


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_the_api_setting_picks_the_api_litellm_is_asked_with(shell, model_env, litellm_proxy, monkeypatch, api):
    monkeypatch.setenv("CRANE_LLM_BASE_URL", litellm_proxy.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", litellm_proxy.model)
    monkeypatch.setenv("CRANE_LLM_API_KEY", litellm_proxy.api_key)
    monkeypatch.setenv("CRANE_LLM_MAX_OUTPUT_TOKENS", "32")
    monkeypatch.setenv("CRANE_LLM_API", api)
    asked = {path: litellm_proxy.requests_to(path) for path in PATHS.values()}
    run(shell, "import pandas as pd")
    run(shell, "df = pd.DataFrame({'a': [1, 2, 3]})")
    run(shell, "def column_total(frame, name):\n    return frame[name].sum()")
    bundle, _ = check(shell, "total = column_total(df, 'b')\nprint(total)")
    state = bundle[MIME_TYPE]["state"]
    html, box = verdict_of(bundle)
    assert_a_product_state(state, html, box)
    assert {path: litellm_proxy.requests_to(path) - n for path, n in asked.items()} == {
        path: int(path == PATHS[api]) for path in PATHS.values()}
    notes = html.one("crane-settings-source")["text"]
    assert "%s from environment variable CRANE_LLM_API says." % SAID[api] in notes
    assert state["raw"].lstrip().startswith("{")  # the schema was enforced either way
    assert litellm_proxy.api_key not in str(bundle)
