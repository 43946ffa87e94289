"""The model's raw answer becomes a verdict, or is declared unreadable (twin of parse.ts).

Tolerant of what models wrap around JSON (code fences, prose, a <think> block), strict about the
verdict itself: only a JSON object with a boolean "crash" counts, and objects that disagree make
the answer unreadable. A verdict is never guessed from free text.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Dict, List, Optional

UNREADABLE_EXPLANATION = "The model's answer did not contain a verdict in the JSON form the prompt asks for."


def cut_explanation(limit: int) -> str:
    return (
        "The answer was cut at the output limit of {:,} tokens, before the model finished it. "
        "Raise the limit (max_output_tokens) if this model needs more room.".format(limit)
    )


_THINK = re.compile(r"<think>.*?</think>", re.S)


def _reject_constant(name: str) -> Any:
    # JavaScript's JSON.parse refuses NaN and Infinity; so must we, or the twins would disagree.
    raise ValueError(name)


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _balanced_objects(text: str) -> List[str]:
    """Every top-level {...} span, braces balanced outside JSON strings, in order of appearance."""
    spans: List[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] != "{":
            i += 1
            continue
        depth, j, in_str, esc = 0, i, False, False
        end = -1
        while j < n:
            c = text[j]
            if in_str:
                if esc:
                    esc = False
                elif c == "\\":
                    esc = True
                elif c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    end = j
                    break
            j += 1
        if end < 0:
            i += 1
            continue
        spans.append(text[i : end + 1])
        i = end + 1
    return spans


def _candidates(raw: str) -> List[Dict[str, Any]]:
    text = _THINK.sub("", raw).strip()
    try:
        whole = _loads(text)
        if isinstance(whole, dict):
            return [whole]
    except ValueError:
        pass
    found = []
    for span in _balanced_objects(text):
        try:
            obj = _loads(span)
        except ValueError:
            continue
        if isinstance(obj, dict):
            found.append(obj)
    return found


def _line(value: Any) -> Optional[int]:
    # bool is an int in Python but not a line number, and JavaScript would not accept it either.
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or value != int(value) or value < 1:
        return None
    return int(value)


def parse_verdict(raw: str) -> Dict[str, Any]:
    """{"kind": "predicted-crash" | "no-crash" | "unreadable", "exception", "line", "explanation", "variables"}."""
    verdicts = [c for c in _candidates(raw) if isinstance(c.get("crash"), bool)]
    if not verdicts or any(v["crash"] != verdicts[0]["crash"] for v in verdicts):
        return {
            "kind": "unreadable",
            "exception": None,
            "line": None,
            "explanation": UNREADABLE_EXPLANATION,
            "variables": [],
        }
    v = verdicts[0]
    crash = v["crash"]
    explanation = v.get("explanation")
    exception = v.get("exception")
    variables = v.get("variables")
    parsed = {
        "kind": "predicted-crash" if crash else "no-crash",
        "exception": exception.strip() or None if crash and isinstance(exception, str) else None,
        "line": _line(v.get("line")) if crash else None,
        "explanation": explanation.strip() if isinstance(explanation, str) else "",
        "variables": [x for x in variables if isinstance(x, str)] if isinstance(variables, list) else [],
    }
    # A fix only makes sense for a crash, and only as code (not blank); trailing blank lines go.
    fix = v.get("fix").rstrip(" \t\r\n") if crash and isinstance(v.get("fix"), str) else ""
    if fix.lstrip(" \t\r\n"):
        parsed["fix"] = fix
    return parsed


def cut_verdict(limit: int) -> Dict[str, Any]:
    """An answer the output limit cut short is unreadable, whatever part of it looks like a verdict."""
    return {"kind": "unreadable", "exception": None, "line": None, "explanation": cut_explanation(limit), "variables": []}


def to_verdict(parsed: Dict[str, Any], model: str, checker_ran_first: bool) -> Dict[str, Any]:
    """The libs/core Verdict shape for a model verdict."""
    return {
        "kind": parsed["kind"],
        "source": {"type": "llm", "model": model},
        "exception": parsed["exception"],
        "line": parsed["line"],
        "explanation": parsed["explanation"],
        "variables": list(parsed["variables"]),
        "checkerRanFirst": checker_ran_first,
        **({"fix": parsed["fix"]} if "fix" in parsed else {}),
    }
