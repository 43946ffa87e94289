"""The magic's output as plain text, for terminals and anything that shows only text/plain."""

from __future__ import annotations

from typing import Any, Dict, List

from ..plain_text import without_terminal_controls
from ..present import (CANCELLED, CHECKER_RAN_FIRST, CHECKING, CODE_ONLY_NOTE, ICON, PROBLEM_TITLE, STEP_ICON, badge_of,
                      colour_of, fix_actions, headline_of, model_fix, stale_text, usage_line)


def _steps(steps: List[Dict[str, Any]]) -> List[str]:
    out = []
    for step in steps:
        line = "  %s %s" % (STEP_ICON.get(step["status"], ""), step["label"])
        if step.get("detail"):
            line += ": %s" % step["detail"]
        out.append(line)
    return out


def render_text(doc: Dict[str, Any]) -> str:
    """The check as plain text. Model text (explanation, raw answer, exception names) and provider
    messages may hold terminal escape sequences: none reach the output."""
    return without_terminal_controls(_render(doc))


def _render(doc: Dict[str, Any]) -> str:
    state = doc["state"]
    phase = state["phase"]
    if phase in ("running", "cancelled"):
        head = CHECKING if phase == "running" else "CRANE-LLM: " + CANCELLED
        return "\n".join([head] + _steps(state["steps"]))
    verdict = state.get("verdict")
    if phase == "failed" or not verdict:
        title = PROBLEM_TITLE.get(state.get("problem") or "internal", PROBLEM_TITLE["internal"])
        lines = ["\u26a0 CRANE-LLM: %s" % title, state.get("error") or "The check could not finish."]
        lines += _steps(state["steps"]) + list(doc.get("notes") or [])
        return "\n".join(lines + _prompt_and_raw(state))
    colour = colour_of(verdict["kind"], state.get("stale") is not None)
    lines = ["%s %s  [%s]  (%s)" % (ICON[colour], headline_of(verdict), badge_of(verdict), colour)]
    if verdict.get("explanation"):
        lines.append(verdict["explanation"])
    if verdict["source"]["type"] == "llm" and verdict.get("checkerRanFirst"):
        lines.append(CHECKER_RAN_FIRST)
    if verdict["source"]["type"] == "llm" and not verdict.get("checkerRanFirst"):
        lines.append(CODE_ONLY_NOTE)
    lines.extend("Fix: %s (line %d)." % (a["label"], a["correction"]["line"]) for a in fix_actions(state) if a["kind"] == "replace")
    fix = model_fix(state)
    if fix:
        lines.append("Suggested fix (the whole cell):")
        lines.extend("    " + line for line in fix.split("\n"))
    stale = stale_text(state.get("stale"))
    if stale:
        lines.append(stale)
    origin = state.get("origin") or []
    if origin:
        lines.append("Origin of the crash:")
        for item in origin:
            if item.get("sentence"):
                lines.append("  - %s" % item["sentence"])
                continue
            where = "In [%s] " % item["executionCount"] if item.get("executionCount") is not None else ""
            extra = " (known from its code only)" if item.get("codeOnly") else ""
            lines.append("  - %s%s: %s%s" % (where, item.get("variable"), item.get("note"), extra))
    lines.extend(doc.get("notes") or [])
    lines.extend(_prompt_and_raw(state))
    return "\n".join(lines)


def _prompt_and_raw(state: Dict[str, Any]) -> List[str]:
    if state.get("prompt") is None and not state.get("raw"):
        return []
    out = ["", "\u2500\u2500 Prompt and raw response \u2500\u2500"]
    if state.get("prompt") is not None:
        out += ["Prompt:", state["prompt"]]
    out += ["Raw response:", state.get("raw") or ""]
    if "usage" in state:
        out.append(usage_line(state["usage"]))
    return out
