import pytest


# pytest-jupyter's fixtures and hooks (jp_fetch, jp_serverapp, async tests), scoped to this folder:
# `pytest_plugins` is only allowed in the top-level conftest, which other suites share.
from pytest_jupyter.jupyter_server import *  # noqa: E402,F401,F403

from crane_llm.settings import ENV_NAMES, OPENAI_URL_OVERRIDE  # noqa: E402

PROVIDER_KEY = "sk-provider-secret-0123456789"


@pytest.fixture
def jp_server_config():
    return {"ServerApp": {"jpserver_extensions": {"crane_llm": True}}}


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """A clean HOME and no model variables; the server's .env search starts in tmp_path."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ENV_NAMES + (OPENAI_URL_OVERRIDE,):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def provider(isolated, fake_openai, monkeypatch, jp_serverapp):
    """The server resolves to the fake provider, through a base_url, with a key."""
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("CRANE_LLM_API_KEY", PROVIDER_KEY)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", "fake-model")
    return fake_openai
