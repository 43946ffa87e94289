"""The prompt input from what the kernel gathered (a check-result dict), twin of from-check.ts.

This is the one road from kernel facts to a prompt, so the masking of secrets (always on) and the
"Include data values" switch are applied here, for every host.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .mask import mask_code, mask_executed, mask_runtime_info
from .runinfo_text import runtime_info_text


def executed_cells(check: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The cells the kernel ran, in order, as the prompt takes them: read from the reply's log,
    the one place the kernel sends them."""
    runs = (check.get("log") or {}).get("runs") or []
    cells = []
    for r in runs:
        cell: Dict[str, Any] = {"executionCount": r.get("executionCount"), "cellId": r.get("cellId"), "code": r["code"]}
        raised = r.get("raised")
        if raised:  # the prompt says which cells raised (JupyterLab and --keep-going logs hold them)
            cell["raised"] = {"exception": raised.get("exception") or "an exception", "line": raised.get("line")}
        cells.append(cell)
    return cells


def prompt_input_from_check(
    check: Dict[str, Any], target: str, budget_tokens: Optional[int] = None, include_values: bool = True
) -> Dict[str, Any]:
    """{"executed", "runtime_info_text", "target", "budget_tokens", "disclosure"}: build_prompt's
    arguments, and what the prompt holds back. runtimeInfo is None
    exactly when it was switched off. "disclosure" says what the prompt holds back:
    {"masked": how many secrets were masked, "valuesLeftOut": bool, "runtimeInfoLeftOut": bool}.
    """
    executed, masked = mask_executed(executed_cells(check))
    target_text, in_target = mask_code(target)
    info = check.get("runtimeInfo")
    text = None
    if info is not None:
        masked_info, in_info = mask_runtime_info(info, include_values)
        text = runtime_info_text(masked_info, include_values)
        masked += in_info
    return {
        "executed": executed,
        "runtime_info_text": text,
        "target": target_text,
        "budget_tokens": budget_tokens,
        "disclosure": {
            "masked": masked + in_target,
            "valuesLeftOut": info is not None and not include_values,
            "runtimeInfoLeftOut": info is None,
        },
    }
