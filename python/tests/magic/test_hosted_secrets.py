"""On Kaggle and Colab the key comes from the notebook secret, with no setup cell."""

from __future__ import annotations

import json

import pytest

from crane_llm.magic import MIME_TYPE

from .conftest import API_KEY, Html, verdict_json
from .test_magic_shell import assert_no_key_anywhere, check


@pytest.fixture
def openai_redirected(model_env, monkeypatch):
    from crane_llm.settings import OPENAI_URL_OVERRIDE

    monkeypatch.setenv(OPENAI_URL_OVERRIDE, model_env.base_url)
    return model_env


def test_the_fakes_fail_like_the_real_modules(fake_hosted, monkeypatch):
    monkeypatch.setenv("FAKE_KAGGLE_SECRETS", json.dumps({"A": "1"}))
    monkeypatch.setenv("FAKE_COLAB_SECRETS", json.dumps({"A": "1", "OFF": None}))
    from google.colab import userdata
    from kaggle_secrets import BackendError, UserSecretsClient

    assert UserSecretsClient().get_secret("A") == "1"
    with pytest.raises(BackendError):
        UserSecretsClient().get_secret("B")
    assert userdata.get("A") == "1"
    with pytest.raises(userdata.SecretNotFoundError):
        userdata.get("B")
    with pytest.raises(userdata.NotebookAccessError):
        userdata.get("OFF")


def test_kaggle_secret_is_used_and_named_never_shown(shell, fake_hosted, openai_redirected, monkeypatch):
    monkeypatch.setenv("FAKE_KAGGLE_SECRETS", json.dumps({"CRANE_LLM_API_KEY": API_KEY}))
    openai_redirected.script({"text": verdict_json(crash=False)})
    bundle, _ = check(shell, "x = 1")
    (request,) = openai_redirected.requests()
    assert request["headers"]["authorization"] == "Bearer " + API_KEY
    notes = Html(bundle["text/html"]).one("crane-settings-source")["text"]
    assert "API key from Kaggle secret CRANE_LLM_API_KEY." in notes
    assert "API key from Kaggle secret CRANE_LLM_API_KEY." in bundle["text/plain"]
    assert_no_key_anywhere(shell)


def test_colab_secret_named_openai_api_key_is_used(shell, fake_hosted, openai_redirected, monkeypatch):
    monkeypatch.setenv("FAKE_COLAB_SECRETS", json.dumps({"OPENAI_API_KEY": API_KEY}))
    openai_redirected.script({"text": verdict_json(crash=False)})
    bundle, _ = check(shell, "x = 1")
    (request,) = openai_redirected.requests()
    assert request["headers"]["authorization"] == "Bearer " + API_KEY
    assert "API key from Colab secret OPENAI_API_KEY." in bundle["text/plain"]
    assert_no_key_anywhere(shell)


def test_colab_secret_without_notebook_access_is_not_found(shell, fake_hosted, openai_redirected, monkeypatch):
    monkeypatch.setenv("FAKE_COLAB_SECRETS", json.dumps({"CRANE_LLM_API_KEY": None}))
    bundle, _ = check(shell, "x = 1")
    state = bundle[MIME_TYPE]["state"]
    assert state["problem"] == "no-key"
    assert "notebook secret named CRANE_LLM_API_KEY" in state["error"]
    assert openai_redirected.requests() == []


def test_an_environment_key_wins_over_the_secret(shell, fake_hosted, openai_redirected, monkeypatch):
    monkeypatch.setenv("FAKE_KAGGLE_SECRETS", json.dumps({"CRANE_LLM_API_KEY": "sk-from-secret"}))
    monkeypatch.setenv("CRANE_LLM_API_KEY", API_KEY)
    openai_redirected.script({"text": verdict_json(crash=False)})
    bundle, _ = check(shell, "x = 1")
    assert openai_redirected.requests()[0]["headers"]["authorization"] == "Bearer " + API_KEY
    assert "API key from environment variable CRANE_LLM_API_KEY." in bundle["text/plain"]
