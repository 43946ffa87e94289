"""Trace and profile functions (`sys.settrace`, `sys.setprofile`, `sys.monitoring`): a notebook's
own runs with every line and call of the cell, so it may define names or change anything before a
line runs; with one installed the checker claims nothing. While a check runs the kernel entry
takes them off (and puts them back after, `kernel/entry.py`), so none of their code runs during it.
"""

from __future__ import annotations

import sys
from typing import List

# Whether each enclosing check took one off (kernel/entry.py): the checks inside still know.
TAKEN: List[bool] = []


def _monitoring_in_use() -> bool:
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return False
    return any(monitoring.get_tool(tool) is not None for tool in range(6))


def installed() -> bool:
    """A trace or profile function or a monitoring tool is installed for the cell's thread."""
    return (sys.gettrace() is not None or sys.getprofile() is not None or any(TAKEN)
            or _monitoring_in_use())


TRACED = "a trace or profile function is installed: it runs with every line of the cell, and may change anything"

__all__ = ["installed", "TAKEN", "TRACED"]
