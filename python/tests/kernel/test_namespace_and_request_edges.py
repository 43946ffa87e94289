"""What a notebook's namespace, its classes' names, its files and a malformed request can make of a
check (seventh red team, 3 Dec): a namespace of 300,000 names read by a cell naming 1,000 of them
(each read scanned the whole namespace again: 47 s), a class whose `__module__` has 60,000 parts
past a spent budget (22 s, listed with no hard stop), a `.env` of a megabyte parsed at every check
(13 s), a `config.json` nested past the JSON parser's depth (a traceback), and requests whose
fields are of the wrong type (`"useLlm": "no"` turned the LLM on)."""

from __future__ import annotations

import json
import time

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry
from crane_llm.settings import resolve_settings

SETTINGS_VARIABLES = ("CRANE_LLM_API_KEY", "CRANE_LLM_BASE_URL", "CRANE_LLM_MODEL", "CRANE_LLM_CHECK_BUDGET")


@pytest.fixture
def shell(tmp_path, monkeypatch):
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    sh = InteractiveShell.instance()
    yield sh
    sh.run_cell("for _n in [n for n in globals() if n.startswith('v_')]:\n    del globals()[_n]")


def _gather(shell, cell, **extra):
    started = time.perf_counter()
    reply = entry.gather({"protocol": 1, "source": cell, "useLlm": True, "includeRuntimeInfo": True, **extra},
                         shell.user_ns, shell)
    return reply, time.perf_counter() - started


def test_a_namespace_of_many_names_read_by_many(shell):
    shell.user_ns.update({f"v_{i}": i for i in range(300_000)})
    reply, took = _gather(shell, "print(" + ", ".join(f"v_{i}" for i in range(1000)) + ")")
    assert took < 4.0, (took, reply["budget"])
    assert len(reply["usedNames"]) == 1000


def test_a_class_module_of_many_parts_past_a_spent_budget(shell):
    shell.run_cell("class C:\n    pass\nC.__module__ = '.'.join(['m'] * 60_000)\nv_c = C()")
    reply, took = _gather(shell, "print(v_c)\n" + "a = 1 + 1\n" * 9000, budgetSeconds=0.05)
    assert took < 1.5 and reply["budget"]["ranOut"], (took, reply["budget"])


def test_a_large_dotenv_is_read_only_for_its_own_lines(shell, tmp_path):
    (tmp_path / ".env").write_text("A=1\n" * 250_000 + "CRANE_LLM_CHECK_BUDGET=1.5\n")
    (tmp_path / "sub").mkdir()
    shell.run_cell(f"import os\nos.chdir({str(tmp_path / 'sub')!r})")
    reply, took = _gather(shell, "x = 1")
    assert took < 1.5 and reply["budget"]["seconds"] == 1.5, (took, reply["budget"])


def test_a_dotenv_with_quotes_left_open_is_read_whole(tmp_path, monkeypatch):
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    # (python-dotenv reads the quoted value over three lines: the second is no setting of its own)
    (tmp_path / ".env").write_text('NOTE="first\nCRANE_LLM_MODEL=inside-a-value\n"\nCRANE_LLM_BASE_URL=http://127.0.0.1:9/v1\n')
    settings = resolve_settings(cwd=str(tmp_path))
    assert settings.model.value != "inside-a-value" and settings.base_url.value == "http://127.0.0.1:9/v1"


def test_a_config_nested_past_the_parsers_depth_is_a_warning(shell, tmp_path):
    (tmp_path / ".crane_llm").mkdir()
    config = tmp_path / ".crane_llm" / "config.json"
    config.write_text("[" * 200_000)
    config.chmod(0o600)
    reply, _ = _gather(shell, "x = 1")
    assert reply.get("problem") is None, reply.get("problem")
    settings = resolve_settings(cwd=str(tmp_path))
    assert any("is not valid JSON" in w and str(config) in w for w in settings.warnings), settings.warnings


@pytest.mark.parametrize("request_, said", [
    ({"source": "a = 1\n", "useLlm": "no"}, "`useLlm` must be true or false"),
    ({"source": "a = 1\n", "includeRuntimeInfo": 0}, "`includeRuntimeInfo` must be true or false"),
    ({"source": ["a = 1"]}, "the cell's source as text"),
    ({}, "the cell's source as text"),
    ([1, 2], "must be a JSON object"),
])
def test_a_malformed_request_gets_a_plain_message(shell, request_, said):
    reply = entry.check(json.dumps(request_), shell)
    problem = reply.payload["problem"]
    assert problem["message"].startswith("The check request") and said in problem["message"], problem
