"""Under a JupyterHub-style prefix, the endpoints live under it."""

import json

import pytest

from crane_llm_testing.fake_openai import verdict_text


@pytest.fixture
def jp_base_url():
    return "/user/someone/"


async def test_endpoints_honour_the_server_base_url(provider, jp_fetch, jp_base_url):
    provider.script({"text": verdict_text(False, "fine")})
    assert jp_base_url == "/user/someone/"
    settings = json.loads((await jp_fetch("crane-llm", "settings")).body)
    assert settings["model"] == "fake-model"
    res = await jp_fetch(
        "crane-llm",
        "v1",
        "chat",
        "completions",
        method="POST",
        body=json.dumps({"model": "fake-model", "messages": [], "stream": True}),
    )
    assert res.code == 200
    assert res.request.url.split("?")[0].endswith("/user/someone/crane-llm/v1/chat/completions")
    assert len(provider.requests()) == 1
