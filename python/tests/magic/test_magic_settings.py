"""The magic with settings it cannot use or must not show: a message naming the setting and its
source, nothing sent, never the credentials of a base_url, a warning for an unreadable config file."""

import json

import pytest

from crane_llm.magic import MIME_TYPE

from .conftest import API_KEY
from .test_magic_shell import check


@pytest.mark.parametrize("url, why", [
    ("localhost:11434/v1", "does not start with http:// or https://"),
    ("ftp://example.com/v1", "not ftp://"),
    ("http://[::1/v1", "not a valid IPv6 address"),
])
def test_a_base_url_that_cannot_be_used_fails_with_its_source_and_sends_nothing(shell, model_env, monkeypatch, url, why):
    monkeypatch.setenv("CRANE_LLM_API_KEY", API_KEY)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", url)
    bundle, _ = check(shell, "x = 1", "some-model")
    state = bundle[MIME_TYPE]["state"]
    assert state["phase"] == "failed" and state["problem"] == "settings"
    assert why in state["error"] and "from environment variable CRANE_LLM_BASE_URL" in state["error"]
    assert why in bundle["text/plain"] and "Traceback" not in bundle["text/plain"]
    assert "The model settings cannot be used" in bundle["text/plain"] and "No API key" not in bundle["text/plain"]
    assert model_env.requests() == []


def test_credentials_in_the_base_url_are_used_but_never_shown(shell, chat_api, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_BASE_URL", chat_api.base_url.replace("http://", "http://someone:hunter2-secret@"))
    chat_api.script({"preset": "unauthorized"})
    bundle, _ = check(shell, "x = 1")
    assert "127.0.0.1:%d refused the API key" % chat_api.port in bundle[MIME_TYPE]["state"]["error"]
    for event in shell.displays.events:
        text = json.dumps(event["data"], ensure_ascii=False)
        assert "hunter2" not in text and "someone" not in text and API_KEY not in text
    assert len(chat_api.requests()) == 1


def test_an_unreadable_config_file_is_named_in_the_notes(shell, chat_api, tmp_path):
    folder = tmp_path / "home" / ".crane_llm"
    folder.mkdir()
    (folder / "config.json").write_text('{"model": "m",')  # cut short
    chat_api.script({"text": "{}"})
    bundle, _ = check(shell, "x = 1")
    notes = bundle[MIME_TYPE]["state"].get("notes") or bundle[MIME_TYPE].get("notes")
    assert any(str(folder / "config.json") in n and "not valid JSON" in n for n in notes), notes
