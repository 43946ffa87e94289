"""The golden vectors in libs/prompt/fixtures: vitest runs the same files against the TypeScript twin."""

import json

import pytest

from crane_llm.prompt import parse_verdict
from crane_llm.provider import describe_failure

from .golden import FIXTURES, WRITE, error_expected, mask_expected, preview_expected, prompt_expected, settings_expected, write_all

if WRITE:
    write_all()

PROMPT_FILES = sorted((FIXTURES / "prompt").glob("*.json"))
PARSE_CASES = json.loads((FIXTURES / "parse" / "cases.json").read_text(encoding="utf-8"))
SETTINGS = json.loads((FIXTURES / "settings" / "cases.json").read_text(encoding="utf-8"))
ERRORS = json.loads((FIXTURES / "errors" / "cases.json").read_text(encoding="utf-8"))


def test_there_are_vectors_of_every_kind():
    assert len(PROMPT_FILES) >= 8 and len(PARSE_CASES) >= 20 and len(ERRORS["describe"]) >= 15


@pytest.mark.parametrize("path", PROMPT_FILES, ids=lambda p: p.stem)
def test_prompt_and_request_bodies(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    actual = prompt_expected(data["input"])
    assert actual == data["expected"]
    # Byte-identical, not just equal: the key order of each body is part of the contract.
    assert json.dumps(actual) == json.dumps(data["expected"])


@pytest.mark.parametrize("case", PARSE_CASES, ids=lambda c: c["name"])
def test_parse(case):
    assert parse_verdict(case["raw"]) == case["expected"]


@pytest.mark.parametrize("case", ERRORS["describe"], ids=lambda c: c["name"])
def test_error_messages(case):
    assert describe_failure(case["failure"]) == case["expected"]


@pytest.mark.parametrize("case", ERRORS["classify"], ids=lambda c: c["name"])
def test_error_classification(case):
    assert error_expected(case) == case["expected"]


@pytest.mark.parametrize("case", SETTINGS, ids=lambda c: c["name"])
def test_public_settings(case, monkeypatch):
    monkeypatch.delenv("CRANE_LLM_OPENAI_URL", raising=False)
    assert settings_expected(case) == case["expected"]


MASK = json.loads((FIXTURES / "mask" / "cases.json").read_text(encoding="utf-8"))
RUNINFO_FILES = sorted((FIXTURES / "runinfo").glob("*.json"))


@pytest.mark.parametrize("kind,case", [(k, c) for k in ("code", "text", "runinfo") for c in MASK[k]],
                         ids=lambda x: x if isinstance(x, str) else x["name"])
def test_masking(kind, case):
    assert mask_expected(kind, case) == case["expected"]


@pytest.mark.parametrize("path", RUNINFO_FILES, ids=lambda p: p.stem)
def test_runtime_information_without_values(path):
    from crane_llm.prompt.runinfo_text import runtime_info_text

    data = json.loads(path.read_text(encoding="utf-8"))
    assert runtime_info_text(data["input"], False) == data["textWithoutValues"]


PREVIEW = json.loads((FIXTURES / "preview" / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", PREVIEW, ids=lambda c: c["name"])
def test_request_preview(case):
    """What --preview prints and the "Ask before sending" dialog shows, held to the TypeScript twin."""
    assert preview_expected(case) == case["expected"]
