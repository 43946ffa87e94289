"""The cells this kernel has executed, in the order they ran."""

from typing import Any, Dict, List


def executed_cells(shell: Any) -> List[Dict[str, Any]]:
    """Prefer the execution recorder (it knows cell ids); fall back to IPython's input history."""
    from ..lineage import recorder

    log = recorder.current(shell)
    if log is not None:
        return log.executed_cells()
    cells = []
    for count, code in enumerate(getattr(shell, "user_ns", {}).get("In", [])[1:], start=1):
        if code.strip():
            cells.append({"executionCount": count, "cellId": None, "code": code})
    return cells
