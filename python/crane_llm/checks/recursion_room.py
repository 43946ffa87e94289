"""The notebook's recursion limit. The cell runs under it: a limit set low makes IPython's own
frames, or a library call a rule models, overflow before the crashing line is reached, and the
cell then raises RecursionError instead. While the facts are gathered the kernel sets a limit of
its own (kernel/entry.py), so it records the notebook's here first, and the checks ask about that
one.
"""

from __future__ import annotations

from typing import List

from .. import interpreter_functions as _f

LOWERED = ("the notebook lowered Python's recursion limit: the cell may overflow it (RecursionError) "
           "before it reaches the line that would crash")
# Python's default: a cell is run a few dozen frames deep, and the library calls the rules model
# stay well within it.
_FLOOR = 1000
# The notebook's limits the kernel stands in for while it gathers the facts, innermost last.
NOTEBOOK_LIMITS: List[int] = []


def lowered() -> bool:
    """The limit the cell will run under is below Python's default."""
    limit = NOTEBOOK_LIMITS[-1] if NOTEBOOK_LIMITS else _f.getrecursionlimit()
    return limit < _FLOOR
