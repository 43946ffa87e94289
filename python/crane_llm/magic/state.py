"""The state of one magic check as the JSON shape of libs/core's CheckState.

Pure functions over plain dicts, each returning a new dict: the display is redrawn from the whole
state at every step, and the renderer in apps/magic-renderer reads the same shape.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

State = Dict[str, Any]


def started() -> State:
    return {
        "cellId": None,
        "phase": "running",
        "steps": [],
        "verdict": None,
        "error": None,
        "problem": None,
        "stale": None,
        "prompt": None,
        "raw": "",
        "origin": [],
    }


def _copy(s: State) -> State:
    return copy.deepcopy(s)


def step_started(s: State, step_id: str, label: str) -> State:
    d = _copy(s)
    for step in d["steps"]:
        if step["id"] == step_id:
            step.update(label=label, status="running", detail=None)
            return d
    d["steps"].append({"id": step_id, "label": label, "status": "running", "detail": None})
    return d


def step_ended(s: State, step_id: str, status: str, detail: Optional[str] = None) -> State:
    d = _copy(s)
    for step in d["steps"]:
        if step["id"] == step_id:
            step.update(status=status, detail=detail)
    return d


def prompt_built(s: State, prompt: str) -> State:
    if s["phase"] != "running":
        return s
    d = _copy(s)
    d["prompt"] = prompt
    return d


def raw_received(s: State, chunk: str) -> State:
    if s["phase"] != "running" or not chunk:
        return s
    d = dict(s)  # only "raw" changes, and strings are immutable: a shallow copy is enough
    d["raw"] = s["raw"] + chunk
    return d


def usage_reported(s: State, usage: Optional[Dict[str, Optional[int]]]) -> State:
    """The answer's token usage, {"input", "output"} (None: not reported; present.token_usage);
    absent until a model answered, as check-state.ts's usageReported."""
    return dict(s, usage=usage)


def concluded(s: State, verdict: Dict[str, Any]) -> State:
    if s["phase"] != "running":
        return s
    d = _copy(s)
    d["phase"] = "done"
    d["verdict"] = verdict
    return d


def failed(s: State, message: str, problem: str = "internal") -> State:
    if s["phase"] != "running":
        return s
    d = _copy(s)
    d["phase"] = "failed"
    d["error"] = message
    d["problem"] = problem
    for step in d["steps"]:
        if step["status"] == "running":
            step["status"] = "failed"
    return d


def cancelled(s: State) -> State:
    if s["phase"] != "running":
        return s
    d = _copy(s)
    d["phase"] = "cancelled"
    for step in d["steps"]:
        if step["status"] == "running":
            step["status"] = "skipped"
    return d


def origin_found(s: State, items: List[Dict[str, Any]]) -> State:
    if s["phase"] != "done" or s["stale"] is not None:
        return s
    d = _copy(s)
    d["origin"] = [dict(i) for i in items]
    return d


def made_stale(s: State, reason: str) -> State:
    """As in libs/core: a stale verdict drops its origin list, which described the old state."""
    if s["phase"] != "done" or s["stale"] is not None:
        return s
    d = _copy(s)
    d["stale"] = reason
    d["origin"] = []
    return d
