"""The kernel's model call (the magic's and the CLI's) against a provider that misbehaves: one that
trickles keep-alive bytes and never sends an event ends at the call's deadline, and one that quotes
the key back in its error never gets it shown."""

from __future__ import annotations

import json
import time

import pytest

from crane_llm.prompt import build_prompt
from crane_llm.provider import call_model
from misbehaving_provider import MisbehavingProvider

KEY = "sk-misbehaving-secret-0123456789abcdef"
PROMPT = build_prompt([], "", "x + 1", 4000, "paper")


@pytest.fixture
def provider(request):
    p = MisbehavingProvider(request.param)
    yield p
    p.stop()


@pytest.mark.parametrize("provider", ["trickle"], indirect=True)
def test_a_trickling_provider_ends_at_the_deadline(provider):
    started = time.monotonic()
    result = call_model(PROMPT, model="m", api_kind="chat", base_url=provider.base_url, api_key=KEY, timeout=2.0)
    took = time.monotonic() - started
    assert result["problem"]["kind"] == "timeout", result["problem"]
    assert took < 4.0, took


@pytest.mark.parametrize("provider", ["echo"], indirect=True)
def test_a_provider_quoting_the_key_never_gets_it_shown(provider):
    result = call_model(PROMPT, model="m", api_kind="chat", base_url=provider.base_url, api_key=KEY, timeout=10.0,
                        max_retries=0)
    message = result["problem"]["message"]
    assert provider.requests >= 1 and "bad request, you sent" in message, message
    assert KEY not in message and KEY[:12] not in message and KEY[-12:] not in message, message


def test_a_redirect_is_reported_not_followed():
    elsewhere = MisbehavingProvider("echo")
    redirecting = MisbehavingProvider("redirect", elsewhere.base_url + "/chat/completions")
    try:
        result = call_model(PROMPT, model="m", api_kind="chat", base_url=redirecting.base_url, api_key=KEY,
                            timeout=10.0, max_retries=0)
    finally:
        redirecting.stop()
        elsewhere.stop()
    assert redirecting.requests == 1 and elsewhere.requests == 0
    assert "answered with a redirect (HTTP 307)" in result["problem"]["message"], result["problem"]


@pytest.mark.parametrize("provider", ["html"], indirect=True)
def test_a_web_page_is_said_to_be_one_not_blamed_on_the_model(provider):
    result = call_model(PROMPT, model="m", api_kind="chat", base_url=provider.base_url, api_key=KEY, timeout=10.0,
                        max_retries=0)
    assert result["problem"] is not None and "answered with text/html" in result["problem"]["message"], result
    assert "check the base_url" in result["problem"]["message"]


@pytest.mark.parametrize("provider", ["echo-ok"], indirect=True)
def test_an_answer_quoting_the_key_and_a_prompt_holding_it_never_show_or_send_it(provider):
    """A gateway that echoes its request headers in a 200 answer (the key split across two
    writes), and a notebook variable that holds the configured key in a shape no rule knows."""
    prompt = build_prompt([], f'cfg (str): = "{KEY[3:]}"', "x + 1", 4000, "paper")
    assert KEY[3:] in prompt["text"]
    pieces = []
    result = call_model(prompt, model="m", api_kind="chat", base_url=provider.base_url, api_key=KEY, timeout=10.0,
                        max_retries=0, on_text=pieces.append)
    assert result["problem"] is None and result["parsed"]["explanation"] == "echo: Bearer ***", result
    shown = "".join(pieces) + result["raw"] + json.dumps(result["parsed"])
    assert KEY[3:11] not in shown and "***" in "".join(pieces)
    sent = b"".join(provider.bodies).decode()
    assert provider.requests == 1 and KEY[3:11] not in sent and "***" in sent
