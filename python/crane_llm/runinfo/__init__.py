"""Runtime information: what a cell uses from the live kernel, summarised fast and harmlessly.

`used_names(source, namespace)` lists the kernel names the cell reads; `collect(source,
namespace)` summarises each of them as JSON matching `crane_llm/schema/runtime-info.json`
(the zod `RuntimeInfo` in libs/core). Neither runs the cell nor any user code (DataLoader
samples excepted, see `torch_info`), and neither imports a library the user has not imported.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .names import kernel_reads
from .safe import type_name
from .summarize import summarize

__all__ = ["collect", "kernel_reads", "used_names", "summarize"]


def used_names(source: str, namespace: Dict[str, Any]) -> List[str]:
    """Names the cell reads that exist in the kernel, in first-use order."""
    return [name for name, _ in kernel_reads(source, namespace)]


def collect(source: str, namespace: Dict[str, Any], reads: Optional[List[tuple]] = None) -> Dict[str, Any]:
    """The runtime information for one cell: a summary per used name, with its attributes.
    `reads`: the cell's `kernel_reads`, when the caller already has them."""
    variables = []
    for name, attributes in (reads if reads is not None else kernel_reads(source, namespace)):
        value = namespace[name]
        variables.append({
            "name": name,
            "type": type_name(value),
            "attributes": list(attributes),
            "summary": summarize(value),
        })
    return {"variables": variables}
