"""Text from a model, made safe to print in a terminal: no escape sequences, no control characters.

A model (or whoever wrote the data it read) can answer with ANSI colour codes, cursor moves, OSC
sequences (window titles, clickable links, clipboard writes) or backspaces and carriage returns
that overwrite what was printed before. In a terminal those act instead of being shown, so a
verdict could be repainted or a link planted. Bidirectional controls (U+202E and kin) reorder what
follows them, so a column name could make a message read otherwise. Line breaks and tabs stay;
everything else that is a control goes.
"""

from __future__ import annotations

import re

_SEQUENCES = re.compile(
    r"(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC ... (BEL or ST), unterminated too
    r"|(?:\x1bP|\x90|\x1b_|\x9f|\x1b\^|\x9e|\x1bX|\x98)[^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # DCS, APC, PM, SOS
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI: colours, cursor moves, erasing
    r"|\x1b[ -/]*[0-~]?"  # any other escape (charset switches, resets)
)
# C0 and C1 controls and DEL, but not \t and \n; and the bidirectional controls (marks, embeddings,
# overrides, isolates), with which a quoted name or a model's sentence would read otherwise than it is.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def without_terminal_controls(text: str) -> str:
    return _CONTROLS.sub("", _SEQUENCES.sub("", text))


def escaped_controls(json_text: str) -> str:
    """JSON text with every control character above ASCII's (C1, the bidirectional ones) written as
    a `\\uXXXX` escape, as JSON's own writer does only for those below 0x20: the same data, and
    nothing a terminal acts on (they only occur inside strings)."""
    return _CONTROLS.sub(lambda m: "\\u%04x" % ord(m.group(0)), json_text)


# A secret quoted in part (`sk-proj-abc...xyz`, "Incorrect API key provided: sk-ab****yz89") still
# gives it away: a word sharing this many characters in a row with a secret is masked whole.
_SHARED_RUN = 8
_WORDS = re.compile(r"[^\s\"'`,;()\[\]{}<>]+")


def without_secrets(text: str, secrets: "list[str]") -> str:
    """`text` with every word that holds a secret, or a run of 8 of its characters, written `***`."""
    runs = {secret[i:i + _SHARED_RUN] for secret in secrets if secret and len(secret) >= _SHARED_RUN
            for i in range(len(secret) - _SHARED_RUN + 1)}
    if not runs or not text:
        return text
    return _WORDS.sub(lambda m: "***" if _holds_run(m.group(0), runs) else m.group(0), text)


def _holds_run(word: str, runs: "set[str]") -> bool:
    return len(word) >= _SHARED_RUN and any(word[i:i + _SHARED_RUN] in runs for i in range(len(word) - _SHARED_RUN + 1))
