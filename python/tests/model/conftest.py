import pytest

from crane_llm_testing.fake_openai import FakeOpenAI


@pytest.fixture(scope="session")
def _fake_server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def fake_openai(_fake_server):
    """The local OpenAI-compatible server, emptied for each test."""
    _fake_server.reset()
    yield _fake_server
    _fake_server.reset()
