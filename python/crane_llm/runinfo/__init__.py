"""Runtime information: what a cell uses from the live kernel, summarised fast and harmlessly.

`used_names(source, namespace)` lists the kernel names the cell reads; `collect(source,
namespace)` summarises each of them as JSON matching `crane_llm/schema/runtime-info.json`
(the zod `RuntimeInfo` in libs/core). Neither runs the cell nor any user code (DataLoader
samples excepted, see `torch_info`), and neither imports a library the user has not imported.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .. import interpreter_functions as _f
from ..checks.provenance import new_audit
from ..deadline import Deadline, OutOfTime
from .budget import BUDGET_RAN_OUT
from .names import held, kernel_reads
from .safe import type_name
from .summarize import summarize

__all__ = ["collect", "kernel_reads", "used_names", "summarize", "not_summarised"]




def used_names(source: str, namespace: Dict[str, Any], shell: Any = None) -> List[str]:
    """Names the cell reads that exist in the kernel, in first-use order (as `shell` compiles it)."""
    return [name for name, _ in kernel_reads(source, namespace, shell)]


def collect(source: str, namespace: Dict[str, Any], deadline: Optional[Deadline] = None, shell: Any = None,
            reads: Optional[List[tuple]] = None) -> Dict[str, Any]:
    """The runtime information for one cell: a summary per used name, with its attributes.

    Within `deadline` (the check's time budget) when one is given: each summary gets at most the
    time left, and once it has run out the remaining variables keep their name and type only.
    `reads`: the cell's `kernel_reads`, when the caller already has them (the kernel reply).
    """
    variables: List[Dict[str, Any]] = []
    new_audit()  # pandas' classes may have been patched since the last check: audited afresh
    for name, attributes in (reads if reads is not None else kernel_reads(source, namespace, shell)):
        value = held(namespace, name)
        variables.append({"name": name, "type": type_name(value), "attributes": list(attributes), "summary": None})
    modules_untouched = _f.modules_untouched()  # (libraries are found in `sys.modules`; asked once)
    for entry in variables:
        if not _f.GENUINE:  # its time limits rest on the interpreter's own clock and alarm
            entry["summary"] = {"kind": "unavailable", "reason": _f.REPLACED}
            continue
        if not modules_untouched:
            entry["summary"] = {"kind": "unavailable", "reason": _f.MODULES_REBOUND}
            continue
        if deadline is not None and deadline.passed():
            entry["summary"] = {"kind": "unavailable", "reason": BUDGET_RAN_OUT % deadline.describe()}
            continue
        try:
            entry["summary"] = summarize(held(namespace, entry["name"]), deadline)
        except OutOfTime:  # the enclosing budget fired between two summaries
            entry["summary"] = {"kind": "unavailable", "reason": BUDGET_RAN_OUT % deadline.describe()}
    return {"variables": variables}


def not_summarised(info: Dict[str, Any]) -> List[str]:
    """The variables `collect` left without a summary because the time budget ran out."""
    return [v["name"] for v in info["variables"]
            if v["summary"].get("kind") == "unavailable" and "time budget" in v["summary"].get("reason", "")]
