"""The proxy never hands the key to the browser or its log: a provider's error that quotes the key
back is passed on with the key masked, and a key HTTP cannot carry (a line break, a character
outside ASCII) is refused as a setting, naming where it came from, before anything is sent."""

import json

import pytest

from misbehaving_provider import MisbehavingProvider

from .conftest import PROVIDER_KEY

CHAT_BODY = {"model": "fake-model", "messages": [{"role": "user", "content": "x + 1"}], "stream": True}


def _configured(mode, isolated, monkeypatch, jp_serverapp):
    """A provider that echoes what it was sent (`mode` of MisbehavingProvider), set up as the proxy's."""
    provider = MisbehavingProvider(mode)
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("CRANE_LLM_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", provider.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", "fake-model")
    yield provider
    provider.stop()


@pytest.fixture
def echoing(isolated, monkeypatch, jp_serverapp):
    yield from _configured("echo", isolated, monkeypatch, jp_serverapp)


async def _post(jp_fetch):
    return await jp_fetch("crane-llm", "v1", "chat", "completions", method="POST", body=json.dumps(CHAT_BODY),
                          raise_error=False)


async def test_an_error_quoting_the_key_reaches_the_browser_without_it(echoing, jp_fetch):
    res = await _post(jp_fetch)
    text = res.body.decode()
    assert res.code == 400 and echoing.requests == 1
    assert "bad request, you sent Bearer ***" in json.loads(text)["error"]["message"], text
    assert PROVIDER_KEY not in text and PROVIDER_KEY[3:15] not in text


@pytest.mark.parametrize("key", ["sk-line1\nline2", "sk-cr\rInjected: yes", "sk-ünicode€secret"])
async def test_a_key_http_cannot_carry_is_a_setting_problem(echoing, jp_fetch, monkeypatch, key, caplog):
    monkeypatch.setenv("CRANE_LLM_API_KEY", key)
    res = await _post(jp_fetch)
    text = res.body.decode()
    assert res.code == 400 and echoing.requests == 0, text
    message = json.loads(text)["error"]["message"]
    assert "api_key from environment variable CRANE_LLM_API_KEY cannot be used" in message, message
    assert key not in text and "line2" not in text and "secret" not in text
    assert key not in caplog.text


@pytest.fixture
def echoing_ok(isolated, monkeypatch, jp_serverapp):
    yield from _configured("echo-ok", isolated, monkeypatch, jp_serverapp)


async def test_an_answer_quoting_the_key_and_a_prompt_holding_it_never_show_or_send_it(echoing_ok, jp_fetch):
    """A 200 answer that echoes the Authorization header (split across two writes) reaches the
    browser with the key masked; a prompt holding the key (a notebook variable) leaves without it."""
    body = {**CHAT_BODY, "messages": [{"role": "user", "content": f'cfg = "{PROVIDER_KEY}"\nx + 1'}]}
    res = await jp_fetch("crane-llm", "v1", "chat", "completions", method="POST", body=json.dumps(body),
                         raise_error=False)
    text = res.body.decode()
    assert res.code == 200 and PROVIDER_KEY not in text and PROVIDER_KEY[3:11] not in text, text
    events = [json.loads(line[len("data: "):]) for line in text.splitlines()
              if line.startswith("data: ") and line != "data: [DONE]"]
    verdict = json.loads("".join(e["choices"][0]["delta"]["content"] for e in events))  # (still JSON in JSON)
    assert verdict["explanation"] == "echo: Bearer ***", verdict
    sent = b"".join(echoing_ok.bodies).decode()
    assert echoing_ok.requests == 1 and PROVIDER_KEY[3:11] not in sent and "x + 1" in sent


@pytest.fixture
def echoing_events(isolated, monkeypatch, jp_serverapp):
    yield from _configured("echo-events", isolated, monkeypatch, jp_serverapp)


async def test_a_key_quoted_back_a_few_characters_per_event_never_reaches_the_browser(echoing_events, jp_fetch):
    """Each event holds fewer characters of the key than any masking run: the browser, which joins
    the pieces, still gets the key masked, and every other word as it was sent."""
    res = await _post(jp_fetch)
    text = res.body.decode()
    assert res.code == 200 and echoing_events.requests == 1, text
    events = [json.loads(line[len("data: "):]) for line in text.splitlines()
              if line.startswith("data: ") and line != "data: [DONE]"]
    chat = "".join((e["choices"][0]["delta"] or {}).get("content") or "" for e in events if e.get("choices"))
    responses = "".join(e["delta"] for e in events if e.get("type") == "response.output_text.delta")
    for joined in (chat, responses):
        assert joined == "echo: Bearer *** end", joined
    assert PROVIDER_KEY[3:11] not in text and text.rstrip().endswith("data: [DONE]"), text
