"""The executed cells a target depends on: a backward slice over the execution log.

The prompt can send only the cells that made the target's variables what they are, instead of
every cell that ran (`--context slice`). Walking the runs from the newest back, a run is kept when
the lineage says it assigned, modified or deleted a name still needed; the names that run reads
are then needed too, so the dependency is followed transitively, and a name it certainly rebound
is no longer needed from earlier runs (a cell that read a CSV into
`raw`, then one that built `df` from `raw`, for a target that uses `df`). A run whose effects the
lineage cannot tell (it did not parse, it ran a script, a star import, `exec`/`globals()`, a
`%reset`) is kept, and so is everything it reads: a slice may keep too much, never too little of
what the lineage can see.

The slice serves the prompt only; no check relies on it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set

from ..kernel.source import python_source
from .log import ExecutionLog, Run

WRITES = ("assign", "modify", "delete")


class _Reads(ast.NodeVisitor):
    """Every name the code loads, function and class bodies included (what they use from the
    notebook's globals when called later); over-approximate on purpose."""

    def __init__(self) -> None:
        self.names: Set[str] = set()

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Store):
            self.names.add(node.id)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):  # `x += 1` reads x before writing it
            self.names.add(node.target.id)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.names.update(node.names)


def _names_read(node: ast.AST) -> Set[str]:
    visitor = _Reads()
    visitor.visit(node)
    return visitor.names


def _parse(code: str) -> Optional[ast.Module]:
    try:
        return ast.parse(python_source(code))
    except (SyntaxError, ValueError):
        return None


def reads(code: str) -> Set[str]:
    """The names a cell's code reads (none when it does not parse: the caller keeps such a cell)."""
    tree = _parse(code)
    return _names_read(tree) if tree is not None else set()


@dataclass(eq=False)
class _Unit:
    """One top-level statement of a run: the names it writes (by the lineage) and reads."""

    cell: int
    first: int
    last: int
    reads: Set[str]
    writes: Set[str] = field(default_factory=set)
    assigns: Set[str] = field(default_factory=set)  # certainly rebound here: what it held before no longer matters
    unknown: bool = False


def _units(cell: int, code: str, effects: List[Dict[str, Any]]) -> List[_Unit]:
    """The run's statements, each with the lineage's effects on its lines. Dependencies are
    followed statement by statement, so a cell kept for one statement does not pull in what its
    other statements read; the cell is still sent whole."""
    tree = _parse(code)
    if tree is None:  # the lineage cannot read it: kept, and it needs nothing we could name
        unit = _Unit(cell, 0, 0, set())
        unit.unknown = True
        return [unit]
    units = []
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
        units.append(_Unit(cell, first, getattr(stmt, "end_lineno", None) or stmt.lineno, _names_read(stmt)))
    for e in effects:
        if e.get("status") == "skipped" or e["op"] not in WRITES:
            continue
        home = next((u for u in units if u.first <= e["line"] <= u.last), None)
        if home is None:  # an effect on no statement's lines: the whole cell answers for it
            home = _Unit(cell, 0, 0, _names_read(tree))
            units.append(home)
        if e["name"] == "*":
            home.unknown = True
        home.writes.add(e["name"])
        if e["op"] == "assign" and e.get("status") == "done":
            home.assigns.add(e["name"])
    return units


def slice_indices(codes: List[str], target: str) -> List[int]:
    """Positions (in `codes`, oldest first) of the runs the target depends on, in run order."""
    target_tree = _parse(target)
    if target_tree is None:  # the target cannot be read: keep everything
        return list(range(len(codes)))
    log = ExecutionLog()
    for i, code in enumerate(codes):
        log.add(Run(i + 1, None, code, recorded=False))
    units = [u for i, run in enumerate(log.to_json()["runs"]) for u in _units(i, codes[i], run["effects"])]
    needed = _names_read(target_tree)
    kept: Set[int] = set()
    for unit in reversed(units):
        if unit.unknown or unit.writes & needed:
            kept.add(unit.cell)
            needed = (needed - unit.assigns) | unit.reads
    return sorted(kept)
def slice_runs(executed: List[Dict[str, Any]], target: str) -> List[Dict[str, Any]]:
    """The executed cells (dicts with a "code") the target depends on, oldest first."""
    return [executed[i] for i in slice_indices([r.get("code", "") for r in executed], target)]
