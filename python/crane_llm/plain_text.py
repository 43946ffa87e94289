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
