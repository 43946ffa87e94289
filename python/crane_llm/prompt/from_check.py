"""The prompt input from what the kernel gathered (a check-result dict), twin of from-check.ts."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


def executed_cells(check: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The cells the kernel ran, in order, as the prompt takes them: read from the reply's log,
    the one place the kernel sends them."""
    runs = (check.get("log") or {}).get("runs") or []
    return [{"executionCount": r.get("executionCount"), "cellId": r.get("cellId"), "code": r["code"]} for r in runs]


def prompt_input_from_check(check: Dict[str, Any], target: str, budget_tokens: Optional[int] = None) -> Dict[str, Any]:
    """{"executed", "runtime_info_text", "target", "budget_tokens"}: the keyword arguments of
    build_prompt and check_with_model. runtimeInfo is None exactly when it was switched off."""
    from .runinfo_text import runtime_info_text

    info = check.get("runtimeInfo")
    return {
        "executed": executed_cells(check),
        "runtime_info_text": None if info is None else runtime_info_text(info),
        "target": target,
        "budget_tokens": budget_tokens,
    }
