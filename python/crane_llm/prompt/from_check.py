"""The prompt input from what the kernel gathered (a check-result dict), twin of from-check.ts."""

from __future__ import annotations

from typing import Any, Dict, Optional


def prompt_input_from_check(check: Dict[str, Any], target: str, budget_tokens: Optional[int] = None) -> Dict[str, Any]:
    """{"executed", "runtime_info_text", "target", "budget_tokens"}: the keyword arguments of
    build_prompt and check_with_model. runtimeInfo is None exactly when it was switched off."""
    from .runinfo_text import runtime_info_text

    info = check.get("runtimeInfo")
    return {
        "executed": list(check.get("executed") or []),
        "runtime_info_text": None if info is None else runtime_info_text(info),
        "target": target,
        "budget_tokens": budget_tokens,
    }
