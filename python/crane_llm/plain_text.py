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
from typing import Any

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
    return _masked(text, _runs(secrets))


def _runs(secrets: "list[str]") -> "set[str]":
    return {secret[i:i + _SHARED_RUN] for secret in secrets if secret and len(secret) >= _SHARED_RUN
            for i in range(len(secret) - _SHARED_RUN + 1)}


def _masked(text: str, runs: "set[str]") -> str:
    if not runs or not text:
        return text
    return _WORDS.sub(lambda m: _mask_word(m.group(0)) if _holds_run(m.group(0), runs) else m.group(0), text)


def _mask_word(word: str) -> str:
    # (its trailing backslashes stay: in JSON text, `sk-...\"` inside a quoted string escapes the quote)
    return "***" + word[len(word.rstrip("\\")):]


def strings_without_secrets(value: Any, secrets: "list[str]") -> Any:
    """`value` (JSON-like: dicts, lists, texts) with `without_secrets` applied to every text in it,
    keys aside: a prompt, a request body."""
    runs = _runs(secrets)
    if not runs:
        return value

    def walk(v: Any) -> Any:
        if type(v) is str:
            return _masked(v, runs)
        if type(v) is dict:
            return {k: walk(x) for k, x in v.items()}
        if type(v) is list:
            return [walk(x) for x in v]
        return v

    return walk(value)


_SEPARATORS = " \t\n\r\f\v\"'`,;()[]{}<>"
_HELD_MAX = 64 * 1024  # of one word held back: past it, it is passed on (masked) as it stands


class SecretStream:
    """`without_secrets` over a text that arrives in pieces (a streamed answer): the last word of
    each piece, which the next may continue, is held back until a separator ends it."""

    def __init__(self, secrets: "list[str]") -> None:
        self._runs = _runs(secrets)
        self._held = ""

    def feed(self, piece: str) -> str:
        if not self._runs:
            return piece
        text = self._held + piece
        end = max(text.rfind(c) for c in _SEPARATORS) + 1
        if end == 0 and len(text) <= _HELD_MAX:
            self._held = text
            return ""
        end = end or len(text)
        self._held = text[end:]
        return _masked(text[:end], self._runs)

    def end(self) -> str:
        held, self._held = self._held, ""
        return _masked(held, self._runs)


def _holds_run(word: str, runs: "set[str]") -> bool:
    return len(word) >= _SHARED_RUN and any(word[i:i + _SHARED_RUN] in runs for i in range(len(word) - _SHARED_RUN + 1))
