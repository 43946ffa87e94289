"""The server extension with settings it cannot use, credentials in a base_url, oversized requests
and answers that are not JSON: a message that names the cause, never HTTP 500."""

import json

import pytest

from crane_llm.server.handlers import MAX_BODY_BYTES

from .conftest import PROVIDER_KEY
from .test_proxy import CHAT_BODY, post


@pytest.mark.parametrize("url, why", [
    ("localhost:11434/v1", "does not start with http:// or https://"),
    ("ftp://files.example.com/v1", "not ftp://"),
    ("file:///etc/passwd", "not file://"),
    ("http://local host/v1", "contains a space"),
    ("http://[::1/v1", "not a valid IPv6 address"),
])
async def test_a_base_url_that_cannot_be_used_is_a_400_naming_it(isolated, jp_fetch, jp_serverapp, monkeypatch, url, why):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("CRANE_LLM_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    res = await jp_fetch("crane-llm", "settings", raise_error=False)
    assert res.code == 400
    message = json.loads(res.body)["message"]
    assert why in message and "from environment variable OPENAI_BASE_URL" in message and "base_url" in message
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 400
    error = json.loads(res.body)["error"]
    assert error["type"] == "crane_llm_settings" and error["message"] == message
    assert PROVIDER_KEY not in res.body.decode()


async def test_a_base_url_in_a_dotenv_file_is_named_with_the_file(isolated, jp_fetch, jp_serverapp):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    (isolated / ".env").write_text("CRANE_LLM_BASE_URL=ftp://x/v1\n")
    res = await jp_fetch("crane-llm", "settings", raise_error=False)
    assert res.code == 400 and "CRANE_LLM_BASE_URL in %s" % (isolated / ".env") in json.loads(res.body)["message"]


async def test_credentials_in_the_base_url_reach_the_provider_but_never_the_browser(provider, jp_fetch, monkeypatch):
    with_credentials = provider.base_url.replace("http://", "http://someone:hunter2-secret@")
    monkeypatch.setenv("CRANE_LLM_BASE_URL", with_credentials)
    res = await jp_fetch("crane-llm", "settings")
    text = res.body.decode()
    assert "hunter2" not in text and "someone" not in text
    data = json.loads(text)
    assert data["baseUrl"] == provider.base_url.replace("http://", "http://***@")
    assert data["providerHost"] == provider.url.split("//")[1]
    provider.script({"preset": "server_error"})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 500 and "hunter2" not in res.body.decode()
    assert len(provider.requests()) == 1


async def test_a_body_over_the_limit_is_refused_before_the_provider(provider, jp_fetch):
    body = dict(CHAT_BODY, messages=[{"role": "user", "content": "x" * (MAX_BODY_BYTES + 1)}])
    res = await post(jp_fetch, "chat/completions", body)
    assert res.code == 413 and json.loads(res.body)["error"]["type"] == "crane_llm_proxy_too_large"
    assert provider.requests() == []
    res = await post(jp_fetch, "chat/completions", dict(CHAT_BODY, stream=False))  # under it: forwarded
    assert res.code == 200 and len(provider.requests()) == 1


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", "application/javascript", "image/svg+xml"])
async def test_only_json_and_event_streams_come_back(provider, jp_fetch, content_type):
    page = "<html><script>alert(document.cookie)</script>Log in to the Wi-Fi</html>"
    provider.script({"page": page, "content_type": content_type})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 502 and res.headers["Content-Type"].startswith("application/json")
    error = json.loads(res.body)["error"]
    assert error["type"] == "crane_llm_proxy_content_type"
    assert content_type.split(";")[0] in error["message"] and "<script" not in res.body.decode()


async def test_a_json_page_with_a_charset_still_comes_back(provider, jp_fetch):
    provider.script({"page": '{"id": "c1", "choices": []}', "content_type": "Application/JSON; charset=utf-8"})
    res = await post(jp_fetch, "chat/completions", dict(CHAT_BODY, stream=False))
    assert res.code == 200 and json.loads(res.body) == {"id": "c1", "choices": []}


async def test_an_unreadable_config_file_is_named_in_the_settings(isolated, jp_fetch, jp_serverapp):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    folder = isolated / "home" / ".crane_llm"
    folder.mkdir()
    (folder / "config.json").write_text('{"api_key": "sk-half-written-0123456789",')
    data = json.loads((await jp_fetch("crane-llm", "settings")).body)
    [warning] = data["warnings"]
    assert str(folder / "config.json") in warning and "not valid JSON" in warning
    assert "sk-half-written" not in json.dumps(data) and data["keyFound"] is False
