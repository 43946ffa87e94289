"""The magic's text/plain output never carries terminal escape sequences from model text."""

import json
import re

from crane_llm.magic import MIME_TYPE
from crane_llm.plain_text import without_terminal_controls
from crane_llm_testing.fake_openai import verdict_text

from .test_magic_shell import check, run

HOSTILE = ("\x1b[2J\x1b[H\x1b[32mNo crash\x1b[0m \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ "
           "\x1b]52;c;c2VjcmV0\x07\x1b]0;owned\x07\rover\x08written \x9b31mC1\x1bc done \u202eesrever\u202c \u2066iso\u2069")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_escape_sequences_in_the_model_answer_never_reach_the_text(shell, chat_api):
    run(shell, "x = 1")
    chat_api.script({"text": verdict_text(True, HOSTILE, "Key\x1b[1mError", 1, ["x"])})
    bundle, _ = check(shell, "x + 1")
    text = bundle["text/plain"]
    assert not CONTROL.search(text), repr(text)
    assert "No crash click" in text and "written C1 done esrever iso" in text  # the words stay, the controls go
    shown = text.split("Prompt and raw response")[0]  # the raw JSON below quotes them as \u001b text
    assert "evil.example" not in shown and "c2VjcmV0" not in shown and "owned" not in shown
    # The document keeps what the model said; only the plain text is cleaned.
    assert json.loads(bundle[MIME_TYPE]["state"]["raw"])["explanation"] == HOSTILE


def test_bidirectional_controls_go():
    # U+202E would show "df['total\u202edeliver']" as "df['totalreviled']"; marks and isolates alike.
    assert without_terminal_controls("a\u202eb\u202dc\u202ad\u202be\u202cf\u2066g\u2067h\u2068i\u2069j\u200ek\u200fl\u061cm") \
        == "abcdefghijklm"


def test_what_is_kept():
    assert without_terminal_controls("tab\tnew\nline é 中 🙂") == "tab\tnew\nline é 中 🙂"
    assert without_terminal_controls("\u05e9\u05dc\u05d5\u05dd \u202f\u200d") == "\u05e9\u05dc\u05d5\u05dd \u202f\u200d"
    assert without_terminal_controls("a\x1b]0;unterminated title") == "a"
    assert without_terminal_controls("\x1b[38;2;255;0;0mred\x1b[m") == "red"


def test_a_claim_quoting_a_column_named_with_a_bidi_control_reads_as_it_is(shell, model_env):
    # The column is "total" + U+202E + "deliver": shown raw, the rest of the line would read backwards.
    run(shell, "import pandas as pd\ndf = pd.DataFrame({'total\u202edeliver': [1, 2]})")
    bundle, _ = check(shell, "df['total\u202edelivery']")
    doc = bundle[MIME_TYPE]
    assert doc["state"]["verdict"]["kind"] == "certain-crash"
    text = bundle["text/plain"]
    assert "KeyError" in text and not CONTROL.search(text), repr(text)
    assert "total\\u202edeliver" in text  # the name is shown with the control spelled out
