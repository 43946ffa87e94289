"""%%crane_llm in a real IPython InteractiveShell, against the local OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

from crane_llm.magic import MIME_TYPE, USAGE
from crane_llm.present import CHECKER_RAN_FIRST, CODE_ONLY_NOTE, HEX, STALE_TEXT

from .conftest import API_KEY, Html, verdict_json


def run(sh, code):
    result = sh.run_cell(code, store_history=True)
    assert result.error_in_exec is None and result.error_before_exec is None, result
    return result


def check(sh, body, line=""):
    before = len(sh.displays.magic_events())
    run(sh, "%%crane_llm" + (" " + line if line else "") + "\n" + body)
    events = sh.displays.magic_events()[before:]
    assert events, "the magic published nothing"
    display_id = events[0]["transient"]["display_id"]
    bundle = sh.displays.latest(display_id)
    return bundle, display_id


def verdict_of(bundle):
    html = Html(bundle["text/html"])
    box = html.by_class("crane-verdict")[0]
    return html, box


def assert_no_key_anywhere(sh):
    for event in sh.displays.events:
        assert API_KEY not in json.dumps(event["data"], ensure_ascii=False)


# -- built-in checks ---------------------------------------------------------------------------

def test_did_you_mean_names_the_run_that_defined_the_suggested_name(shell, model_env):
    run(shell, "x = 1")
    defined = run(shell, 'df = {"a": [1, 2, 3]}').execution_count
    run(shell, "y = 2")
    bundle, _ = check(shell, "dff['a']", "--no-llm")
    said = "Did you mean `df` (defined in In [%d])?" % defined
    assert said in verdict_of(bundle)[0].one("crane-explanation")["text"]
    assert said in bundle["text/plain"]
    assert bundle[MIME_TYPE]["state"]["verdict"]["correction"] == {"old": "dff", "new": "df", "line": 1}
    assert model_env.requests() == []
    # The claim holds: the cell really raises the NameError.
    assert isinstance(shell.run_cell("dff['a']").error_in_exec, NameError)


def test_did_you_mean_names_no_run_when_the_log_does_not_know_one(shell, model_env):
    shell.user_ns["df"] = {"a": [1]}  # put there without a run the recorder saw
    bundle, _ = check(shell, "dff['a']", "--no-llm")
    text = verdict_of(bundle)[0].one("crane-explanation")["text"]
    assert text.endswith("Did you mean `df`?") and "In [" not in text


def test_a_certain_crash_is_red_with_the_builtin_badge_and_nothing_is_executed_or_sent(shell, model_env):
    run(shell, 'df = {"a": [1, 2, 3]}')
    bundle, _ = check(shell, "ran_it = True\ndff['a']", "--no-llm")
    html, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "red"
    assert HEX["red"] in box["attrs"]["style"]
    assert html.one("crane-title")["text"] == "This cell will crash: NameError at line 2"
    assert html.one("crane-badge")["text"] == "Built-in check · certain"
    assert "dff" in html.one("crane-explanation")["text"]
    assert "ran_it" not in shell.user_ns  # analysed, never executed
    assert model_env.requests() == []
    doc = bundle[MIME_TYPE]
    assert doc["state"]["verdict"]["kind"] == "certain-crash"
    assert doc["state"]["steps"][0]["status"] == "done"


def test_a_certain_crash_needs_no_model_even_with_the_llm_on(shell, responses_api):
    run(shell, "import numpy as np\na = np.zeros((2, 3))\nb = np.zeros((4, 5))")
    bundle, _ = check(shell, "c = a @ b")
    html, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "red"
    assert html.one("crane-badge")["text"] == "Built-in check · certain"
    assert responses_api.requests() == []
    assert not html.by_class("crane-prompt-raw")  # nothing was sent, so nothing to unfold


def test_nothing_certain_with_the_llm_off_is_blue_and_says_it_is_no_prediction(shell, model_env):
    run(shell, 'df = {"a": [1, 2, 3]}')
    bundle, _ = check(shell, "df['a']", "--no-llm")
    html, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "blue"
    assert html.one("crane-badge")["text"] == "Built-in checks only"
    assert 'not a "no crash" prediction' in html.one("crane-explanation")["text"]
    assert model_env.requests() == []


def test_no_runinfo_has_no_effect_while_the_llm_is_off(shell, model_env):
    bundle, _ = check(shell, "undefined_name + 1", "--no-llm --no-runinfo")
    _, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "red"


# -- the model ---------------------------------------------------------------------------------

def test_no_crash_through_the_responses_api_is_green_with_the_model_badge(shell, responses_api):
    run(shell, "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})")
    responses_api.script({"text": verdict_json(explanation="Column a exists.", crash=False)})
    bundle, _ = check(shell, "df['a'].sum()")
    html, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "green"
    assert html.one("crane-title")["text"] == "No crash predicted"
    assert html.one("crane-badge")["text"] == "LLM prediction · gpt-5"
    assert html.one("crane-explanation")["text"] == "Column a exists."
    assert html.one("crane-note")["text"] == CHECKER_RAN_FIRST
    (request,) = responses_api.requests()
    assert request["path"] == "/v1/responses"
    assert request["body"]["model"] == "gpt-5"
    assert request["headers"]["authorization"] == "Bearer " + API_KEY
    assert "# Current relevant runtime information" in request["body"]["input"]
    assert "df['a'].sum()" in request["body"]["input"]
    folded = html.one("crane-prompt-raw")
    assert folded["tag"] == "details"
    summary = [e for e in html.elements if e["tag"] == "summary"]
    assert summary[0]["text"] == "Prompt and raw response"
    assert html.one("crane-prompt")["text"] == request["body"]["instructions"] + "\n\n" + request["body"]["input"]
    assert "Column a exists." in html.one("crane-raw")["text"]
    notes = html.one("crane-settings-source")["text"]
    assert "Model gpt-5 from the default." in notes
    assert "API key from environment variable CRANE_LLM_API_KEY." in notes
    assert_no_key_anywhere(shell)


def test_a_predicted_crash_through_chat_with_a_model_override_shows_the_origin(shell, chat_api):
    run(shell, "import pandas as pd")
    run(shell, "df = pd.DataFrame({'a': [1, 2]})")
    run(shell, "df.drop(columns=['a'], inplace=True)")
    chat_api.script({"text": verdict_json(explanation="Column a was dropped.", crash=True, exception="KeyError", line=1, variables=["df"])})
    bundle, _ = check(shell, "while True:\n    df['a']\n    break", "gpt-5-mini")
    html, box = verdict_of(bundle)
    (request,) = chat_api.requests()
    assert request["path"] == "/v1/chat/completions"
    assert request["body"]["model"] == "gpt-5-mini"
    assert box["attrs"]["data-colour"] == "red"
    assert html.one("crane-title")["text"] == "Crash predicted: KeyError at line 1"
    assert html.one("crane-badge")["text"] == "LLM prediction · gpt-5-mini"
    origin = html.one("crane-origin")
    assert html.one("crane-origin-title")["text"] == "Origin of the crash"
    items = [e["text"] for e in html.by_class("crane-origin-item")]
    assert any("In [3]" in t and "assigned" in t for t in items), items
    assert any("In [4]" in t and "dropped columns" in t for t in items), items
    assert not any("not run yet" in t or "has not run" in t for t in origin["text"].splitlines())
    notes = html.one("crane-settings-source")["text"]
    assert "Model gpt-5-mini from the %%crane_llm line." in notes


def test_an_unreadable_answer_is_amber_and_shows_the_raw_text(shell, chat_api):
    chat_api.script({"text": "I think it is probably fine?"})
    bundle, _ = check(shell, "x = 1")
    html, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "amber"
    assert html.one("crane-title")["text"] == "The response could not be read as a verdict"
    assert html.one("crane-raw")["text"] == "I think it is probably fine?"


def test_no_runinfo_sends_the_code_alone_and_skips_the_checks(shell, chat_api):
    run(shell, "secret_value = 'do-not-send-this-string'")
    chat_api.script({"text": verdict_json(crash=True, exception="NameError", line=1, variables=["dff"])})
    bundle, _ = check(shell, "print(secret_value)\ndff['a']", "--no-runinfo")
    (request,) = chat_api.requests()
    user = request["body"]["messages"][1]["content"]
    assert "runtime information" not in user
    assert "do-not-send-this-string" not in user.split("# Target Cell:")[1].replace("print(secret_value)", "")
    doc = bundle[MIME_TYPE]
    assert doc["state"]["steps"][0]["status"] == "skipped"
    assert Html(bundle["text/html"]).one("crane-note")["text"] == CODE_ONLY_NOTE
    assert doc["state"]["verdict"]["source"] == {"type": "llm", "model": "local-model"}
    assert doc["options"] == {"useLlm": True, "includeRuntimeInfo": False, "includeValues": True, "model": None}


def test_magic_cells_are_not_sent_as_executed_cells(shell, chat_api):
    run(shell, "first = 1")
    check(shell, "first + 1", "--no-llm")
    chat_api.script({"text": verdict_json(crash=False)})
    check(shell, "first + 2")
    user = chat_api.requests()[0]["body"]["messages"][1]["content"]
    executed = user.split("# Target Cell:")[0]
    assert "first = 1" in executed
    assert "%%crane_llm" not in executed and "first + 1" not in executed


def test_a_provider_error_is_a_clear_message_without_the_key(shell, responses_api):
    responses_api.script({"preset": "unauthorized"})
    bundle, _ = check(shell, "x = 1")
    html = Html(bundle["text/html"])
    assert html.one("crane-title")["text"] == "The model call failed"
    message = html.one("crane-explanation")["text"]
    # The host the request went to (OpenAI's address is redirected to the local server here).
    assert "127.0.0.1:%d refused the API key (HTTP 401)" % responses_api.port in message
    assert bundle[MIME_TYPE]["state"]["problem"] == "provider"
    assert_no_key_anywhere(shell)


def test_without_a_key_nothing_is_sent_and_the_message_says_what_to_do(shell, model_env, monkeypatch):
    from crane_llm.settings import OPENAI_URL_OVERRIDE

    monkeypatch.setenv(OPENAI_URL_OVERRIDE, model_env.base_url)
    bundle, _ = check(shell, "x = 1")
    state = bundle[MIME_TYPE]["state"]
    assert state["phase"] == "failed" and state["problem"] == "no-key"
    assert "No API key was found for api.openai.com" in state["error"]
    assert "--no-llm" in state["error"] and "secret named CRANE_LLM_API_KEY" in state["error"]
    assert model_env.requests() == []


# -- the output itself -------------------------------------------------------------------------

def test_hostile_strings_from_data_code_and_model_are_escaped(shell, chat_api):
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    run(shell, "import pandas as pd\ndf = pd.DataFrame({'name': [%r, 'ok']})" % hostile)
    chat_api.script({"text": verdict_json(explanation="Boom " + hostile, crash=True, exception="<script>E</script>",
                                          line=1, variables=["df"])})
    bundle, _ = check(shell, "df['name'].str.upper()  # </details>" + hostile)
    html = Html(bundle["text/html"])
    assert "script" not in html.tags and "img" not in html.tags
    assert not any(k.startswith("on") for e in html.elements for k in e["attrs"])
    assert hostile in html.one("crane-explanation")["text"]
    assert "<script>E</script>" in html.one("crane-title")["text"]
    prompt = html.one("crane-prompt")["text"]
    assert hostile in prompt  # the data value (runtime information) and the cell, as text
    assert prompt.count(hostile) >= 2
    assert html.one("crane-prompt-raw")["tag"] == "details"


def test_plain_text_says_colour_headline_and_badge(shell, chat_api):
    chat_api.script({"text": verdict_json(explanation="Fine.", crash=False)})
    bundle, _ = check(shell, "x = 1")
    text = bundle["text/plain"]
    first = text.splitlines()[0]
    assert "No crash predicted" in first and "[LLM prediction · local-model]" in first and "(green)" in first
    assert CHECKER_RAN_FIRST in text
    assert "Prompt and raw response" in text and "# Target Cell:\nx = 1" in text


def test_usage_message_for_an_unknown_option_and_no_traceback(shell, capsys):
    result = shell.run_cell("%%crane_llm --fast\nx = 1")
    assert result.error_in_exec is None
    err = capsys.readouterr().err
    assert "does not know the option --fast" in err and USAGE in err
    assert "Traceback" not in err
    assert shell.displays.magic_events() == []
    assert "x" not in shell.user_ns


def test_an_empty_body_gets_the_usage(shell, capsys):
    shell.run_cell("%%crane_llm --no-llm\n\n")
    assert USAGE in capsys.readouterr().err


# -- live updates: steps, staleness, interrupt -------------------------------------------------

def test_steps_are_shown_while_waiting_and_updated_in_place(shell, chat_api, monkeypatch):
    import crane_llm.magic.flow as flow

    monkeypatch.setattr(flow, "RAW_REDRAW_SECONDS", 0.0)
    chat_api.script({"text": verdict_json(explanation="A long explanation " * 5, crash=False), "chunk_size": 20, "chunk_delay": 0.01})
    _, display_id = check(shell, "x = 1")
    events = [e for e in shell.displays.magic_events() if e["transient"]["display_id"] == display_id]
    assert not events[0]["update"] and all(e["update"] for e in events[1:])
    states = [e["data"][MIME_TYPE]["state"] for e in events]
    assert states[0]["phase"] == "running"
    waiting = [s for s in states if s["phase"] == "running" and any(st["id"] == "model" and st["status"] == "running" for st in s["steps"])]
    assert waiting, "no update showed the model step running"
    assert any(0 < len(s["raw"]) < len(states[-1]["raw"]) for s in waiting), "the answer was not shown as it streamed"
    html = Html(events[0]["data"]["text/html"])
    assert html.one("crane-title")["text"] == "CRANE-LLM is checking this cell…"
    assert [s["id"] for s in states[-1]["steps"]] == ["checks", "prompt", "model"]
    # The large prompt travels once, with the finished check, not with every streamed update.
    assert all(s["prompt"] is None for s in states if s["phase"] == "running")
    assert states[-1]["prompt"] and "# Target Cell:\nx = 1" in states[-1]["prompt"]


def test_another_cell_makes_it_grey_but_another_magic_does_not(shell, model_env):
    run(shell, "df = {'a': 1}")
    _, first = check(shell, "dff", "--no-llm")
    _, second = check(shell, "df['a']", "--no-llm")
    assert shell.displays.latest(first)[MIME_TYPE]["state"]["stale"] is None  # a magic ran: not stale
    updates_before = len(shell.displays.events)
    run(shell, "df = {'b': 2}")
    new = shell.displays.events[updates_before:]
    assert sorted(e["transient"]["display_id"] for e in new) == sorted([first, second])
    assert all(e["update"] for e in new)
    html, box = verdict_of(shell.displays.latest(first))
    assert box["attrs"]["data-colour"] == "grey" and HEX["grey"] in box["attrs"]["style"]
    assert html.one("crane-stale")["text"] == STALE_TEXT["other-cell-ran"]
    assert html.one("crane-title")["text"].startswith("This cell will crash")  # the verdict stays readable
    assert "(grey)" in shell.displays.latest(first)["text/plain"].splitlines()[0]
    count = len(shell.displays.events)
    run(shell, "y = 3")  # already stale: no further update
    assert len(shell.displays.events) == count


def test_loading_twice_and_the_silent_install_keep_one_magic_and_one_hook(shell, model_env):
    import crane_llm

    shell.run_cell("%load_ext crane_llm")
    # JupyterLab's silent start-up calls the entry point itself, at every kernel start.
    crane_llm.load_ipython_extension(shell)
    crane_llm.load_ipython_extension(shell)
    _, display_id = check(shell, "nope", "--no-llm")
    before = len(shell.displays.events)
    run(shell, "z = 1")
    assert len(shell.displays.events) - before == 1


def test_a_keyboard_interrupt_during_the_model_call_cancels_cleanly(shell, chat_api):
    chat_api.script({"hang": True})
    main = threading.main_thread().ident

    def interrupt_once_asked():
        deadline = time.monotonic() + 10
        while not chat_api.requests() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)
        signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=interrupt_once_asked, daemon=True).start()
    started = time.monotonic()
    bundle, display_id = check(shell, "x = 1")
    assert time.monotonic() - started < 8
    state = bundle[MIME_TYPE]["state"]
    assert state["phase"] == "cancelled"
    assert [s["status"] for s in state["steps"]] == ["done", "done", "skipped"]
    assert Html(bundle["text/html"]).one("crane-title")["text"] == "Check cancelled. Nothing was changed."
    assert "cancelled" in bundle["text/plain"]
    chat_api.reset()
    # The shell carries on, and a cancelled check is not made stale later.
    before = len(shell.displays.events)
    run(shell, "after = 1")
    assert shell.user_ns["after"] == 1
    assert len(shell.displays.events) == before


def test_a_certain_crash_lists_its_origin_without_the_not_run_yet_part(shell, model_env):
    run(shell, "result = {'k': 1}")
    run(shell, "result = None")
    bundle, _ = check(shell, "result.keys()", "--no-llm")
    html, box = verdict_of(bundle)
    assert box["attrs"]["data-colour"] == "red"
    assert "AttributeError" in html.one("crane-title")["text"]
    items = [e["text"] for e in html.by_class("crane-origin-item")]
    assert items and all("result" in t for t in items), items
    assert any("In [3]" in t for t in items), items  # the run that left it None
    text = bundle["text/plain"]
    assert "Origin of the crash:" in text
    # Only what ran is described: the magic cannot see the notebook's unrun cells.
    assert not any("has not run" in t for t in items)


def test_an_internal_failure_is_a_message_not_a_traceback(shell, chat_api):
    from crane_llm.magic import wiring
    from crane_llm.magic.cell_magic import crane_llm

    class Broken:
        resolve_settings = staticmethod(wiring.resolve_settings)
        origin_items = staticmethod(wiring.origin_items)

        @staticmethod
        def prompt_input(*args):
            raise RuntimeError("renderer broke")

    crane_llm("", "x = 1", shell=shell, wiring=Broken)
    state = shell.displays.latest()[MIME_TYPE]["state"]
    assert state["phase"] == "failed" and state["problem"] == "internal"
    assert "RuntimeError: renderer broke" in state["error"]
    assert chat_api.requests() == []


def test_a_terminal_shows_only_the_finished_check_once(shell, model_env, monkeypatch):
    from crane_llm.magic import cell_magic

    monkeypatch.setattr(cell_magic, "is_terminal", lambda sh: True)
    run(shell, "v = 1")
    check(shell, "w", "--no-llm")
    run(shell, "v = 2")  # would make it stale: a terminal is not redrawn
    (event,) = shell.displays.magic_events()
    assert event["data"][MIME_TYPE]["state"]["phase"] == "done"


def test_cells_run_before_load_ext_are_known_from_their_code_only(shell, model_env):
    import crane_llm

    crane_llm.unload_ipython_extension(shell)
    vars(shell).pop("_crane_llm_recorder", None)
    run(shell, "early = None")  # before %load_ext: not recorded as it ran
    run(shell, "%load_ext crane_llm")
    crane_llm.load_ipython_extension(shell)  # the extension was loaded by an earlier test, so %load_ext was a no-op
    bundle, _ = check(shell, "early.shape", "--no-llm")
    items = [e["text"] for e in Html(bundle["text/html"]).by_class("crane-origin-item")]
    assert any("early" in t and "known from its code only" in t for t in items), items
