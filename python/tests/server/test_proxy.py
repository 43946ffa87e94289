"""The server extension against a real Jupyter server and the real local OpenAI-compatible server."""

# jp_fetch is requested even where unused: it is what starts the HTTP server listening.

import json
import time

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPRequest

from crane_llm_testing.fake_openai import verdict_text

from .conftest import PROVIDER_KEY

CRASH = verdict_text(True, "no column b", "KeyError", 1, ["df"])
CHAT_BODY = {"model": "fake-model", "messages": [{"role": "user", "content": "df['b']"}], "stream": True}


async def post(jp_fetch, path, body, headers=None):
    return await jp_fetch(
        "crane-llm",
        "v1",
        *path.split("/"),
        method="POST",
        body=json.dumps(body),
        headers=headers or {},
        raise_error=False,
    )


# -- settings -------------------------------------------------------------------------------------
async def test_settings_say_where_each_came_from_but_never_the_key(provider, jp_fetch):
    res = await jp_fetch("crane-llm", "settings")
    text = res.body.decode()
    assert PROVIDER_KEY not in text
    data = json.loads(text)
    assert data["model"] == "fake-model" and data["baseUrl"] == provider.base_url
    assert data["apiKind"] == "chat" and data["keyFound"] is True and data["keyRequired"] is False
    assert data["providerHost"] == provider.url.split("//")[1]
    assert data["sources"]["apiKey"] == {
        "source": "env",
        "name": "CRANE_LLM_API_KEY",
        "label": "environment variable CRANE_LLM_API_KEY",
    }


async def test_settings_explicit_model_and_openai_default(isolated, jp_fetch, jp_serverapp):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    (isolated / ".env").write_text("OPENAI_API_KEY=sk-from-dotenv\n")
    data = json.loads((await jp_fetch("crane-llm", "settings", params={"model": "gpt-5-mini"})).body)
    assert data["apiKind"] == "responses" and data["providerHost"] == "api.openai.com"
    assert data["model"] == "gpt-5-mini" and data["sources"]["model"]["source"] == "argument"
    assert data["keyFound"] is True and data["sources"]["apiKey"]["source"] == "dotenv"
    assert "sk-from-dotenv" not in json.dumps(data)


# -- proxy ----------------------------------------------------------------------------------------
async def test_proxy_replaces_auth_and_streams_chat(provider, jp_fetch):
    provider.script({"text": CRASH})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY, {"X-Browser-Auth-Check": "1"})
    assert res.code == 200
    assert res.headers["Content-Type"].startswith("text/event-stream")
    body = res.body.decode()
    assert body.rstrip().endswith("data: [DONE]")
    deltas = [
        json.loads(line[6:])["choices"][0]["delta"].get("content", "")
        for line in body.splitlines()
        if line.startswith("data: {")
    ]
    assert "".join(deltas) == CRASH
    [req] = provider.requests()
    assert req["path"] == "/v1/chat/completions" and req["body"] == CHAT_BODY
    assert req["headers"]["authorization"] == "Bearer " + PROVIDER_KEY
    assert "x-browser-auth-check" not in req["headers"]  # nothing but what the call needs goes on


async def test_proxy_streams_chunk_by_chunk(provider, jp_fetch, jp_base_url, jp_http_port, jp_auth_header):
    provider.script({"text": CRASH, "chunk_size": 20, "chunk_delay": 0.25})
    arrivals = []
    url = "http://localhost:%d%scrane-llm/v1/chat/completions" % (jp_http_port, jp_base_url)
    request = HTTPRequest(
        url,
        method="POST",
        body=json.dumps(CHAT_BODY),
        headers=dict(jp_auth_header),
        streaming_callback=lambda c: arrivals.append(time.monotonic()),
    )
    res = await AsyncHTTPClient().fetch(request)
    assert res.code == 200
    assert len(arrivals) >= 3 and arrivals[-1] - arrivals[0] > 0.5


async def test_the_python_sdk_works_through_the_proxy(provider, jp_fetch, jp_base_url, jp_http_port, jp_serverapp):
    import openai

    provider.script({"preset": "rate_limited", "retry_after": 1}, {"text": CRASH})
    # The SDK's key here is the Jupyter token: it authenticates to Jupyter, and the proxy swaps it.
    client = openai.AsyncOpenAI(
        api_key=jp_serverapp.identity_provider.token,
        base_url="http://localhost:%d%scrane-llm/v1" % (jp_http_port, jp_base_url),
        max_retries=2,
    )
    stream = await client.chat.completions.create(**CHAT_BODY)
    text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
    assert text == CRASH
    first, second = provider.requests()
    assert second["time"] - first["time"] >= 0.9  # Retry-After came back through the proxy
    assert {first["headers"]["authorization"], second["headers"]["authorization"]} == {"Bearer " + PROVIDER_KEY}
    await client.close()


async def test_responses_api_without_base_url(isolated, fake_openai, monkeypatch, jp_fetch, jp_serverapp):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("CRANE_LLM_OPENAI_URL", fake_openai.base_url)
    fake_openai.script({"text": CRASH})
    body = {"model": "gpt-5", "input": "x", "stream": True}
    res = await post(jp_fetch, "responses", body)
    assert res.code == 200 and b"event: response.completed" in res.body
    [req] = fake_openai.requests()
    assert req["path"] == "/v1/responses" and req["headers"]["authorization"] == "Bearer " + PROVIDER_KEY


@pytest.mark.parametrize(
    "preset,status", [("unauthorized", 401), ("model_not_found", 404), ("server_error", 500), ("context_length", 400)]
)
async def test_provider_errors_pass_through_as_openai_errors(provider, jp_fetch, preset, status):
    provider.script({"preset": preset})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == status
    assert "message" in json.loads(res.body)["error"]


async def test_retry_after_is_passed_back(provider, jp_fetch):
    provider.script({"preset": "rate_limited", "retry_after": 7})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 429 and res.headers["Retry-After"] == "7"


async def test_only_the_openai_paths_are_forwarded(provider, jp_fetch):
    for path in ("files", "../../etc/passwd", "chat/completions/../../x", "responses/x"):
        res = await jp_fetch("crane-llm", "v1", path, method="POST", body="{}", raise_error=False)
        assert res.code == 404, path
    assert provider.requests() == []


async def test_redirects_are_not_followed(provider, jp_fetch):
    provider.script({"redirect": "http://127.0.0.1:9/v1/chat/completions"})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 502
    assert json.loads(res.body)["error"]["type"] == "crane_llm_proxy_redirect"
    assert len(provider.requests()) == 1


async def test_an_unreachable_provider_is_said_plainly(isolated, monkeypatch, jp_fetch, jp_serverapp):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 502
    error = json.loads(res.body)["error"]
    assert error["type"] == "crane_llm_proxy_unreachable" and "127.0.0.1:9" in error["message"]


async def test_a_local_provider_gets_no_authorization(isolated, fake_openai, monkeypatch, jp_fetch, jp_serverapp):
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", fake_openai.base_url)
    fake_openai.script({"text": CRASH})
    res = await post(jp_fetch, "chat/completions", CHAT_BODY, {"Authorization": "Bearer browser-placeholder"})
    assert res.code in (200, 403)  # the browser's Bearer is not a Jupyter token: refused, or forwarded keyless
    res = await post(jp_fetch, "chat/completions", CHAT_BODY)
    assert res.code == 200
    for req in fake_openai.requests():
        assert "authorization" not in req["headers"]


async def test_unauthenticated_requests_are_refused(provider, jp_fetch, jp_base_url, jp_http_port, jp_serverapp):
    client = AsyncHTTPClient()
    base = "http://localhost:%d%scrane-llm/" % (jp_http_port, jp_base_url)
    res = await client.fetch(base + "settings", raise_error=False)
    assert res.code == 403
    res = await client.fetch(base + "v1/chat/completions", method="POST", body=json.dumps(CHAT_BODY), raise_error=False)
    assert res.code == 403
    assert provider.requests() == []


async def test_post_with_a_session_cookie_but_no_xsrf_token_is_refused(
    provider, jp_fetch, jp_base_url, jp_http_port, jp_serverapp
):
    # Log in with the token to get the session cookie a browser would hold, then POST without the
    # XSRF header, as a cross-site form would.
    client = AsyncHTTPClient()
    root = "http://localhost:%d%s" % (jp_http_port, jp_base_url)
    token = jp_serverapp.identity_provider.token
    login = await client.fetch(root + "?token=" + token, follow_redirects=False, raise_error=False)
    cookies = "; ".join(c.split(";", 1)[0] for c in login.headers.get_list("Set-Cookie"))
    assert cookies
    res = await client.fetch(
        root + "crane-llm/v1/chat/completions",
        method="POST",
        body=json.dumps(CHAT_BODY),
        headers={"Cookie": cookies},
        raise_error=False,
    )
    assert res.code == 403
    assert provider.requests() == []
