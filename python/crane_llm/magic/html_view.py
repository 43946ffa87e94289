"""The magic's output as self-contained static HTML: inline styles, no script, every text escaped.

Colab, Kaggle, VS Code, nbviewer and HTML exports show this; JupyterLab and Notebook 7 prefer the
richer apps/magic-renderer view of the same document. Class names and data attributes match the
JupyterLab verdict box (`crane-verdict`, `data-colour`, `crane-badge`, ...), so both read alike.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, List

from ..present import (CANCELLED, CHECKER_RAN_FIRST, CHECKING, CODE_ONLY_NOTE, GREY_TEXT, HEX, ICON, PROBLEM_TITLE, STEP_ICON, badge_of,
                      colour_of, fix_actions, headline_of, model_fix, stale_text, usage_line)

FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;font-size:13px;line-height:1.45"
MUTED = "color:#616161;font-size:12px"
PRE = ("white-space:pre-wrap;word-break:break-word;max-height:24em;overflow:auto;margin:4px 0;padding:6px;"
       "background:rgba(127,127,127,0.08);border-radius:3px;font-size:12px")


def _t(text: Any) -> str:
    return escape("" if text is None else str(text), quote=True)


def _box(colour_hex: str, classes: str, attrs: str, inner: List[str]) -> str:
    style = (
        "%s;border:1px solid %s;border-left:4px solid %s;border-radius:3px;padding:6px 10px;margin:2px 0"
        % (FONT, colour_hex, colour_hex)
    )
    if colour_hex == HEX["grey"]:
        style += ";color:%s" % GREY_TEXT
    return '<div class="crane-llm-magic crane-verdict %s"%s style="%s">%s</div>' % (classes, attrs, style, "".join(inner))


def _steps(steps: List[Dict[str, Any]]) -> str:
    if not steps:
        return ""
    items = []
    for step in steps:
        detail = ' <span class="crane-step-detail" style="%s">%s</span>' % (MUTED, _t(step["detail"])) if step.get("detail") else ""
        items.append(
            '<li class="crane-step crane-step-%s" data-step="%s"><span class="crane-step-icon">%s</span> '
            '<span class="crane-step-label">%s</span>%s</li>'
            % (_t(step["status"]), _t(step["id"]), _t(STEP_ICON.get(step["status"], "")), _t(step["label"]), detail)
        )
    return '<ol class="crane-steps" style="list-style:none;margin:4px 0 0;padding-left:0">%s</ol>' % "".join(items)


def _origin(items: List[Dict[str, Any]]) -> str:
    if not items:
        return ""
    rows = []
    for item in items:
        if item.get("sentence"):
            body = _t(item["sentence"])
        else:
            where = "In [%s] " % item["executionCount"] if item.get("executionCount") is not None else ""
            body = "%s<code>%s</code>: %s" % (_t(where), _t(item.get("variable")), _t(item.get("note")))
            if item.get("codeOnly"):
                body += ' <span style="%s">(known from its code only: it ran before recording began)</span>' % MUTED
        rows.append('<li class="crane-origin-item" data-variable="%s">%s</li>' % (_t(item.get("variable")), body))
    return (
        '<div class="crane-origin" style="margin-top:6px"><div class="crane-origin-title" style="font-weight:600">'
        'Origin of the crash</div><ul style="margin:2px 0 0;padding-left:18px">%s</ul></div>' % "".join(rows)
    )


def _prompt_and_raw(state: Dict[str, Any]) -> str:
    if state.get("prompt") is None and not state.get("raw"):
        return ""
    parts = ['<details class="crane-prompt-raw" style="margin-top:6px"><summary style="cursor:pointer">Prompt and raw response</summary>']
    if state.get("prompt") is not None:
        parts.append('<div style="%s">Prompt</div><pre class="crane-prompt" style="%s">%s</pre>' % (MUTED, PRE, _t(state["prompt"])))
    parts.append('<div style="%s">Raw response</div><pre class="crane-raw" style="%s">%s</pre>' % (MUTED, PRE, _t(state.get("raw") or "")))
    if "usage" in state:
        parts.append('<div class="crane-usage" style="%s">%s</div>' % (MUTED, _t(usage_line(state["usage"]))))
    parts.append("</details>")
    return "".join(parts)


def _fixes(state: Dict[str, Any]) -> str:
    # The magic cannot edit or run cells: the actions are words, the model's fix is code to copy.
    parts = ['<div class="crane-actions" style="margin-top:4px"><span class="crane-action-hint" data-action="replace">%s</span></div>'
             % _t(a["label"]) for a in fix_actions(state) if a["kind"] == "replace"]
    fix = model_fix(state)
    if fix:
        parts.append('<div class="crane-fix" style="margin-top:6px"><div class="crane-section-label" style="%s">Suggested fix</div>'
                     '<pre class="crane-fix-code" style="margin:2px 0;white-space:pre-wrap">%s</pre></div>' % (MUTED, _t(fix)))
    return "".join(parts)


def _notes(notes: List[str]) -> str:
    if not notes:
        return ""
    return '<div class="crane-settings-source" style="%s;margin-top:4px">%s</div>' % (MUTED, _t(" ".join(notes)))


def render_html(doc: Dict[str, Any]) -> str:
    """`doc` is the magic's document: {"state": CheckState, "notes": [...], ...}."""
    state = doc["state"]
    phase = state["phase"]
    if phase in ("running", "cancelled"):
        title = CHECKING if phase == "running" else CANCELLED
        inner = ['<div class="crane-headline" style="font-weight:600"><span class="crane-title">%s</span></div>' % _t(title),
                 _steps(state["steps"])]
        if state.get("raw"):
            inner.append('<pre class="crane-raw crane-raw-live" style="%s">%s</pre>' % (PRE, _t(state["raw"])))
        # --jp-brand-color1, the accent of a running check in apps/jlab.
        return _box("#1976d2" if phase == "running" else HEX["grey"], "crane-progress" if phase == "running" else "crane-cancelled",
                    ' data-phase="%s"' % phase, inner)
    verdict = state.get("verdict")
    if phase == "failed" or not verdict:
        problem = state.get("problem") or "internal"
        inner = [
            '<div class="crane-headline" style="font-weight:600"><span class="crane-icon">\u26a0</span> '
            '<span class="crane-title">%s</span></div>' % _t(PROBLEM_TITLE.get(problem, PROBLEM_TITLE["internal"])),
            '<div class="crane-explanation" style="margin-top:4px">%s</div>' % _t(state.get("error") or "The check could not finish."),
            _steps(state["steps"]),
            _notes(doc.get("notes") or []),
            _prompt_and_raw(state),
        ]
        return _box(HEX["amber"], "crane-error", ' data-phase="failed" data-problem="%s"' % _t(problem), inner)
    colour = colour_of(verdict["kind"], state.get("stale") is not None)
    hexa = HEX[colour]
    head = (
        '<div class="crane-headline" style="display:flex;align-items:center;gap:8px;font-weight:600">'
        '<span class="crane-icon" style="color:%s">%s</span><span class="crane-title">%s</span>'
        '<span class="crane-badge" style="margin-left:auto;padding:1px 8px;border-radius:10px;border:1px solid %s;'
        'font-weight:500;font-size:12px;white-space:nowrap">%s</span></div>'
        % (hexa, ICON[colour], _t(headline_of(verdict)), hexa, _t(badge_of(verdict)))
    )
    inner = [head]
    if verdict.get("explanation"):
        inner.append('<div class="crane-explanation" style="margin-top:4px">%s</div>' % _t(verdict["explanation"]))
    if verdict["source"]["type"] == "llm" and verdict.get("checkerRanFirst"):
        inner.append('<div class="crane-note" style="%s;margin-top:4px">%s</div>' % (MUTED, _t(CHECKER_RAN_FIRST)))
    if verdict["source"]["type"] == "llm" and not verdict.get("checkerRanFirst"):
        inner.append('<div class="crane-note" style="%s;margin-top:4px">%s</div>' % (MUTED, _t(CODE_ONLY_NOTE)))
    inner.append(_fixes(state))
    stale = stale_text(state.get("stale"))
    if stale:
        inner.append('<div class="crane-stale" style="%s;margin-top:4px">%s</div>' % (MUTED, _t(stale)))
    inner.append(_origin(state.get("origin") or []))
    inner.append(_notes(doc.get("notes") or []))
    inner.append(_prompt_and_raw(state))
    style_colour = ' data-phase="done" data-colour="%s" data-kind="%s"' % (colour, _t(verdict["kind"]))
    classes = "crane-%s%s" % (colour, " crane-stale-verdict" if stale else "")
    return _box(hexa, classes, style_colour, inner)
