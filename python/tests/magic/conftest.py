"""A real IPython InteractiveShell with crane_llm loaded, whose displays are recorded, and the
local OpenAI-compatible server, with model settings pointed at it and nowhere else."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.magic import MIME_TYPE
from crane_llm.settings import ENV_NAMES, OPENAI_URL_OVERRIDE

FAKES = str(Path(__file__).parent / "fakes")
API_KEY = "sk-test-0123456789-never-shown"


class RecordingPublisher(DisplayPublisher):
    """Keeps every display and display update the shell publishes, as a kernel would send them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.events: List[Dict[str, Any]] = []

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        self.events.append({"data": data, "transient": transient or {}, "update": update})

    def clear_output(self, wait=False):
        pass


class Displays:
    def __init__(self, publisher: RecordingPublisher):
        self.publisher = publisher

    @property
    def events(self) -> List[Dict[str, Any]]:
        return self.publisher.events

    def magic_events(self) -> List[Dict[str, Any]]:
        return [e for e in self.events if MIME_TYPE in e["data"]]

    def latest(self, display_id: Optional[str] = None) -> Dict[str, Any]:
        """The bundle a front end would now show for that display (default: the newest check's)."""
        events = self.magic_events()
        assert events, "no %%crane_llm output was published"
        if display_id is None:
            display_id = [e for e in events if not e["update"]][-1]["transient"]["display_id"]
        return [e for e in events if e["transient"].get("display_id") == display_id][-1]["data"]

    def clear(self) -> None:
        self.events.clear()


@pytest.fixture
def fake(fake_openai):
    return fake_openai


@pytest.fixture
def model_env(monkeypatch, tmp_path, fake):
    """No settings from the machine: an empty home, no .env, none of our variables."""
    for name in ENV_NAMES + (OPENAI_URL_OVERRIDE, "FAKE_KAGGLE_SECRETS", "FAKE_COLAB_SECRETS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    fake.reset()
    yield fake
    fake.reset()


@pytest.fixture
def responses_api(model_env, monkeypatch):
    """No base_url (so the Responses API), with OpenAI's address redirected to the local server."""
    monkeypatch.setenv(OPENAI_URL_OVERRIDE, model_env.base_url)
    monkeypatch.setenv("CRANE_LLM_API_KEY", API_KEY)
    return model_env


@pytest.fixture
def chat_api(model_env, monkeypatch):
    """A base_url (so Chat Completions) on the local server, with a model named."""
    monkeypatch.setenv("CRANE_LLM_BASE_URL", model_env.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", "local-model")
    monkeypatch.setenv("CRANE_LLM_API_KEY", API_KEY)
    return model_env


@pytest.fixture
def fake_hosted(monkeypatch):
    """kaggle_secrets and google.colab importable, as on those hosts."""
    import sys

    monkeypatch.syspath_prepend(FAKES)
    for name in ("kaggle_secrets", "google.colab", "google.colab.userdata"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield
    for name in ("kaggle_secrets", "google.colab", "google.colab.userdata"):
        sys.modules.pop(name, None)


@pytest.fixture
def shell(model_env):
    """The process's InteractiveShell (IPython's display() always uses that one), reset per test."""
    sh = InteractiveShell.instance()
    publisher = RecordingPublisher(shell=sh)
    # (IPython registers each publisher's `_on_pre_execute`; this one is the test's own class, which
    # the built-in checks would rightly count as a notebook's hook)
    hook = getattr(publisher, "_on_pre_execute", None)  # (IPython 9's)
    if hook is not None and hook in sh.events.callbacks.get("pre_execute", []):
        sh.events.unregister("pre_execute", hook)
    original = sh.display_pub
    sh.display_pub = publisher
    sh.reset(new_session=True)
    import crane_llm

    crane_llm.unload_ipython_extension(sh)
    vars(sh).pop("_crane_llm_recorder", None)  # a fresh execution log, as in a new kernel
    sh.run_cell("%load_ext crane_llm", store_history=True)
    crane_llm.load_ipython_extension(sh)  # loaded by an earlier test, %load_ext was a no-op
    sh.displays = Displays(publisher)
    yield sh
    crane_llm.unload_ipython_extension(sh)
    sh.display_pub = original


class Html(HTMLParser):
    """The static HTML as elements: tag, attributes, text inside, and where it sits."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: List[Dict[str, Any]] = []
        self.stack: List[Dict[str, Any]] = []
        self.tags: List[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": "", "parents": [p["tag"] for p in self.stack]}
        self.elements.append(element)
        self.tags.append(tag)
        if tag not in ("br", "img", "hr", "meta", "input"):
            self.stack.append(element)

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"] += data

    def by_class(self, cls: str) -> List[Dict[str, Any]]:
        return [e for e in self.elements if cls in (e["attrs"].get("class") or "").split()]

    def one(self, cls: str) -> Dict[str, Any]:
        found = self.by_class(cls)
        assert len(found) == 1, "expected one .%s, found %d" % (cls, len(found))
        return found[0]

    @property
    def text(self) -> str:
        return self.elements[0]["text"] if self.elements else ""


def verdict_json(**fields: Any) -> str:
    base = {"explanation": "", "crash": False, "exception": None, "line": None, "variables": []}
    base.update(fields)
    return json.dumps(base)
