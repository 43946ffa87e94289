"""Documents the real magic produced, kept in apps/magic-renderer/fixtures/ for its vitest suite.

Each fixture holds the MIME document and what the static HTML shows for it (colour, title,
badge); vitest renders the document and must show the same. A fixture whose verdict, colour,
title, badge or shape no longer match fails here; rewrite them with CRANE_WRITE_FIXTURES=1.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from crane_llm.magic import MIME_TYPE

from .conftest import Html, verdict_json
from .test_magic_shell import check, run

FIXTURES = Path(__file__).resolve().parents[3] / "apps" / "magic-renderer" / "fixtures"


def _normalised(document):
    text = json.dumps(document, ensure_ascii=False, sort_keys=True)
    text = text.replace(document["displayId"], "crane-llm-fixture")
    text = re.sub(r"\(\d+\.\d ms\)", "(0.0 ms)", text)
    text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:8000", text)
    return json.loads(text)


def _expect(bundle):
    html = Html(bundle["text/html"])
    box = html.by_class("crane-verdict")[0]
    badge = html.by_class("crane-badge")
    usage = html.by_class("crane-usage")
    return {
        "colour": box["attrs"].get("data-colour"),
        "title": html.one("crane-title")["text"],
        "badge": badge[0]["text"] if badge else None,
        "usage": usage[0]["text"] if usage else None,  # once a model answered, what it cost
    }


def _compare(name, bundle):
    fixture = {"document": _normalised(bundle[MIME_TYPE]), "expect": _expect(bundle)}
    path = FIXTURES / (name + ".json")
    if os.environ.get("CRANE_WRITE_FIXTURES") or not path.exists():
        FIXTURES.mkdir(exist_ok=True)
        path.write_text(json.dumps(fixture, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    stored = json.loads(path.read_text(encoding="utf-8"))
    # What the renderer must agree on; prompt wording and step details may move on without it.
    def essentials(f):
        state = f["document"]["state"]
        return (f["expect"], state["phase"], state["stale"], (state["verdict"] or {}).get("kind"),
                sorted(f["document"]), sorted(state))
    assert essentials(stored) == essentials(fixture), "stale fixture %s: rerun with CRANE_WRITE_FIXTURES=1" % path.name


def test_fixtures_for_each_verdict_kind(shell, chat_api):
    run(shell, "df = {'a': [1, 2, 3]}")
    red, red_id = check(shell, "dff['a']", "--no-llm")
    _compare("certain-crash", red)
    _compare("nothing-certain", check(shell, "df['a']", "--no-llm")[0])
    chat_api.script({"text": verdict_json(explanation="Fine.", crash=False)})
    no_crash = check(shell, "len(df)")[0]
    _compare("no-crash", no_crash)
    assert re.search(r"^Tokens: 100 in, \d+ out$", no_crash["text/plain"], re.M)  # the fake server's usage
    # Once answered, the model step says whom it asked; the count is the provider's, in the detail.
    [model] = [step for step in no_crash[MIME_TYPE]["state"]["steps"] if step["id"] == "model"]
    assert re.fullmatch(r"Asked \S+ at \S+", model["label"]) and re.fullmatch(r"answered \(\d+ tokens\)", model["detail"]), model
    chat_api.script({"text": verdict_json(explanation="No key b.", crash=True, exception="KeyError", line=1, variables=["df"])})
    _compare("predicted-crash", check(shell, "while True:\n    df['b']\n    break")[0])
    chat_api.script({"text": "not json"})
    _compare("unreadable", check(shell, "len(df)")[0])
    run(shell, "y = 1")
    _compare("stale", shell.displays.latest(red_id))


def test_fixture_for_a_failure(shell, model_env, monkeypatch):
    from crane_llm.settings import OPENAI_URL_OVERRIDE

    monkeypatch.setenv(OPENAI_URL_OVERRIDE, model_env.base_url)
    _compare("no-key", check(shell, "x = 1")[0])
