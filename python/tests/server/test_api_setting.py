"""GET /crane-llm/settings with the extension's own api setting (?api=), and the output limit."""

import json

import pytest
from tornado.httpclient import HTTPClientError


async def test_the_extension_api_setting_ranks_first_and_says_so(provider, jp_fetch, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_API", "chat")
    monkeypatch.setenv("CRANE_LLM_MAX_OUTPUT_TOKENS", "900")
    data = json.loads((await jp_fetch("crane-llm", "settings", params={"api": "responses"})).body)
    assert (data["api"], data["apiKind"]) == ("responses", "responses")
    assert data["sources"]["api"] == {"source": "argument", "name": None, "label": "the argument"}
    assert data["maxOutputTokens"] == 900
    assert data["sources"]["maxOutputTokens"]["name"] == "CRANE_LLM_MAX_OUTPUT_TOKENS"
    plain = json.loads((await jp_fetch("crane-llm", "settings")).body)
    assert (plain["api"], plain["apiKind"], plain["sources"]["api"]["source"]) == ("chat", "chat", "env")


async def test_an_unusable_api_is_a_400_with_the_reason(provider, jp_fetch):
    with pytest.raises(HTTPClientError) as info:
        await jp_fetch("crane-llm", "settings", params={"api": "fastest"})
    assert info.value.code == 400
    assert 'it must be "auto", "responses" or "chat"' in json.loads(info.value.response.body)["message"]
