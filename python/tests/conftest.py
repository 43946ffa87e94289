import sys
from pathlib import Path

import pytest

# Tests run against the source tree, whether or not the package is installed; shared test helpers
# (kernels.py) import from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


try:  # the server extension's tests need jupyter_server and its pytest plugin (the [lab] extra)
    import pytest_jupyter.jupyter_server  # noqa: F401
except ImportError:
    collect_ignore = ["server"]


def pytest_collection_modifyitems(config, items):
    # Server-extension tests need the [lab] extra; the Python 3.9/3.13 kernel-side runs deselect
    # them with -m "not server".
    for item in items:
        if "server" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.server)


# Every variable a setting reads (the settings table's), so no test sees the machine's settings.
from crane_llm.settings import ENV_NAMES as SETTINGS_VARIABLES  # noqa: E402


@pytest.fixture
def fake_openai():
    """The local OpenAI-compatible server (python/crane_llm_testing), one per test: its serving
    thread ends with the test (a server thread alive in the test process is one the built-in
    checks rightly stop for: it runs handlers whenever a request comes)."""
    from crane_llm_testing.fake_openai import FakeOpenAI

    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def settings_from_fake(fake_openai, tmp_path, monkeypatch):
    """No settings from the machine; the provider is the local server (model "fake-model"), and the
    test runs in tmp_path, which is also HOME."""
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CRANE_LLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", "fake-model")
    monkeypatch.chdir(tmp_path)
    return fake_openai


# llama.cpp's llama-server with a real tiny model (python/crane_llm_testing/llama_server.py), one
# for the whole run. Never skipped: if it cannot be built or started, the tests fail saying why.
@pytest.fixture(scope="session")
def llama_server():
    from crane_llm_testing.llama_server import LlamaServer, LlamaUnavailable

    try:
        server = LlamaServer().start()
    except LlamaUnavailable as why:
        pytest.fail("the real model server is unavailable: %s" % why, pytrace=False)
    yield server
    server.stop()


# LiteLLM's proxy in front of that llama-server (python/crane_llm_testing/litellm_proxy.py), one
# for the whole run; the Responses API path with an enforced schema. Never skipped either.
@pytest.fixture(scope="session")
def litellm_proxy(llama_server):
    from crane_llm_testing.litellm_proxy import LiteLLMProxy, LiteLLMUnavailable

    try:
        proxy = LiteLLMProxy(llama_server).start()
    except LiteLLMUnavailable as why:
        pytest.fail("LiteLLM's proxy is unavailable: %s" % why, pytrace=False)
    yield proxy
    proxy.stop()


@pytest.fixture
def settings_from_litellm(litellm_proxy, tmp_path, monkeypatch):
    """No settings from the machine; the provider is LiteLLM's proxy through a base_url, with its
    key, and the same short output limit as for llama-server. Set CRANE_LLM_API to pick the API."""
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CRANE_LLM_BASE_URL", litellm_proxy.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", litellm_proxy.model)
    monkeypatch.setenv("CRANE_LLM_API_KEY", litellm_proxy.api_key)
    monkeypatch.setenv("CRANE_LLM_MAX_OUTPUT_TOKENS", "32")
    monkeypatch.chdir(tmp_path)
    return litellm_proxy


@pytest.fixture
def settings_from_llama(llama_server, tmp_path, monkeypatch):
    """No settings from the machine; the provider is llama-server through a base_url (Chat
    Completions), with a short output limit: the 135M model runs at a few tokens a second when the
    machine is busy."""
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CRANE_LLM_BASE_URL", llama_server.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", llama_server.model)
    monkeypatch.setenv("CRANE_LLM_MAX_OUTPUT_TOKENS", "32")
    monkeypatch.chdir(tmp_path)
    return llama_server
