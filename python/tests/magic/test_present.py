"""The magic shows the same words as the JupyterLab verdict: read them from libs/core itself."""

import re
from pathlib import Path

import pytest

from crane_llm import present

CORE = Path(__file__).resolve().parents[3] / "libs" / "core" / "src"


def _record(source: str, name: str) -> dict:
    body = re.search(r"const %s[^=]*=\s*\{(.*?)\};" % name, source, re.S).group(1)
    return {k: v for k, v in re.findall(r"'?([\w-]+)'?:\s*'((?:[^'\\]|\\.)*)'", body)}


def test_colours_and_headlines_are_those_of_present_ts():
    source = (CORE / "present.ts").read_text()
    assert _record(source, "COLOUR") == present.COLOUR
    assert _record(source, "HEADLINE") == present.HEADLINE
    assert "CERTAIN_BADGE = '%s'" % present.CERTAIN_BADGE in source
    assert "'%s'" % present.CHECKS_ONLY_BADGE in source
    assert "`LLM prediction · ${verdict.source.model}`" in source


def test_stale_texts_are_those_of_check_state_ts():
    assert _record((CORE / "check-state.ts").read_text(), "STALE_TEXT") == present.STALE_TEXT


def test_fixed_sentences_are_those_of_the_jupyterlab_flow():
    # The JupyterLab flow (apps/jlab) and the verdict view it draws with (libs/core).
    apps = CORE.parents[2] / "apps" / "jlab" / "src"
    text = "".join(p.read_text() for p in [*apps.glob("*.ts"), CORE / "verdict-view.ts"])
    assert "CHECKER_RAN_FIRST" in text
    assert present.NOTHING_CERTAIN_EXPLANATION.replace('"', '\\"') in text or present.NOTHING_CERTAIN_EXPLANATION in text


@pytest.mark.parametrize("verdict, headline, badge", [
    ({"kind": "certain-crash", "source": {"type": "checks"}, "exception": "NameError", "line": 2}, "This cell will crash: NameError at line 2", "Built-in check · certain"),
    ({"kind": "predicted-crash", "source": {"type": "llm", "model": "m"}, "exception": "KeyError", "line": None}, "Crash predicted: KeyError", "LLM prediction · m"),
    ({"kind": "no-crash", "source": {"type": "llm", "model": "m"}, "exception": None, "line": None}, "No crash predicted", "LLM prediction · m"),
    ({"kind": "nothing-certain", "source": {"type": "checks"}, "exception": None, "line": None}, "The built-in checks found no certain crash", "Built-in checks only"),
])
def test_headline_and_badge(verdict, headline, badge):
    assert present.headline_of(verdict) == headline
    assert present.badge_of(verdict) == badge
    assert present.colour_of(verdict["kind"], True) == "grey"


def test_problem_titles_icons_and_notes_are_those_of_present_ts():
    source = (CORE / "present.ts").read_text()
    assert _record(source, "PROBLEM_TITLE") == present.PROBLEM_TITLE
    assert _record(source, "ICON") == present.ICON
    assert _record(source, "STEP_ICON") == present.STEP_ICON
    for sentence in (present.CODE_ONLY_NOTE, present.CHECKER_RAN_FIRST):
        assert sentence in source
    view = (CORE / "verdict-view.ts").read_text()
    for sentence in (present.CHECKING, present.CANCELLED):
        assert sentence in view


def test_static_html_colours_are_those_jupyterlab_gives_the_verdict_box():
    import sys

    theme = Path(sys.prefix) / "share/jupyter/lab/themes/@jupyterlab/theme-light-extension/index.css"
    if not theme.exists():
        pytest.skip("JupyterLab's light theme is not installed here")
    theme_css = theme.read_text()
    style = (CORE.parents[2] / "apps" / "jlab" / "style" / "index.css").read_text()
    for colour, hex_value in present.HEX.items():
        variable = re.search(r"\.crane-%s \{ --crane-accent: var\((--jp-[\w-]+)\)" % colour, style).group(1)
        fallback = re.search(re.escape(variable) + r":var\(--[\w-]+,(#[0-9a-fA-F]{6})\)", theme_css).group(1)
        assert fallback.lower() == hex_value, colour


CERTAIN_CRASH = __import__("json").loads((CORE.parent / "fixtures" / "certain-crash.json").read_text("utf-8"))


@pytest.mark.parametrize("case", CERTAIN_CRASH["cases"], ids=[c["name"] for c in CERTAIN_CRASH["cases"]])
def test_certain_crash_verdict_is_that_of_verdict_ts(case):
    assert present.certain_crash_verdict(case["crash"], case["definedIn"]) == case["expected"]


FIX_ACTIONS = __import__("json").loads((CORE.parent / "fixtures" / "fix-actions.json").read_text("utf-8"))


@pytest.mark.parametrize("case", FIX_ACTIONS["cases"], ids=[c["name"] for c in FIX_ACTIONS["cases"]])
def test_fix_actions_are_those_of_fix_actions_ts(case):
    assert present.fix_actions(case["state"]) == case["expected"]


def test_the_magic_shows_a_correction_and_a_model_fix_as_words():
    from crane_llm.magic.html_view import render_html
    from crane_llm.magic.text_view import render_text

    certain = {"cellId": None, "phase": "done", "steps": [], "error": None, "problem": None, "stale": None, "prompt": None,
               "raw": "", "origin": [], "verdict": present.certain_crash_verdict(
                   {"exception": "NameError", "line": 1, "message": "name 'dff' is not defined", "variables": ["dff"],
                    "correction": {"old": "dff", "new": "df", "line": 1}})}
    assert "Fix: Replace dff with df (line 1)." in render_text({"state": certain})
    assert 'data-action="replace">Replace dff with df<' in render_html({"state": certain})
    predicted = dict(certain, verdict={"kind": "predicted-crash", "source": {"type": "llm", "model": "m"}, "exception": "KeyError",
                                       "line": 1, "explanation": "no b", "variables": ["df"], "checkerRanFirst": True,
                                       "fix": "df['a'].sum()"})
    assert "Suggested fix (the whole cell):\n    df['a'].sum()" in render_text({"state": predicted})
    assert "df[&#x27;a&#x27;].sum()</pre>" in render_html({"state": predicted})
    assert "Suggested fix" not in render_text({"state": dict(predicted, stale="edited")})


USAGE = __import__("json").loads((CORE.parent / "fixtures" / "usage.json").read_text("utf-8"))


@pytest.mark.parametrize("case", USAGE["cases"], ids=[c["name"] for c in USAGE["cases"]])
def test_the_tokens_line_is_that_of_usage_ts(case):
    assert present.token_usage(case["reported"]) == case["usage"]
    assert present.usage_line(present.token_usage(case["reported"])) == case["line"]
