"""The line CPython's traceback names for an attribute read or a call, which is not always the line
the expression starts on.

Since Python 3.10 an attribute is read on the line where its name ends, and a call CPython compiles
as a method call (`obj.m(args)`, its method loaded with LOAD_METHOD) runs on that line too: the
pandas chain `(df\\n .drop(columns=['zz']))` raises KeyError on line 2, not 1. Any other call runs on
the line the call starts on. Python 3.8 and 3.9 name the start line for all of them. Which calls are
method calls changed between versions (the conditions of `maybe_optimize_method_call` in CPython's
compiler), so each rule below is the one of its version; a version whose compiler this module was not
checked against, or a call whose compiling cannot be told, gets no line when the candidates differ
(None: the claim cannot name its line, the reading stops).

Leaf module (ast and sys only): tests run it under every installed Python against real tracebacks.
"""

from __future__ import annotations

import ast
import sys
from typing import Optional, Set, Tuple

# CPython's STACK_USE_GUIDELINE: a call needing this many stack slots is not compiled as a method call.
_STACK_USE_GUIDELINE = 30
# The newest version whose compiler these rules were checked against (3.8 to 3.13).
_CHECKED_UP_TO = (3, 13)

Version = Optional[Tuple[int, int, int]]  # (major, minor, micro); None: the kernel's Python is unknown


def attribute_line(node: ast.Attribute, version: Version) -> Optional[int]:
    """The line on which reading (or assigning) `node` runs."""
    return _pick(node.lineno, node.end_lineno, version, lambda v: v >= (3, 10))


def call_line(node: ast.Call, version: Version, imported: "Imports") -> Optional[int]:
    """The line on which the call `node` runs (an exception raised inside the callee is named there)."""
    func = node.func
    if not isinstance(func, ast.Attribute):
        return node.lineno
    return _pick(node.lineno, func.end_lineno, version, lambda v: _method_call(node, v, imported))


def _pick(start: int, end: Optional[int], version: Version, at_end) -> Optional[int]:
    """`end` when `at_end(version)` says CPython names the line where the name ends, else `start`;
    None when the version is unknown or unchecked and the two lines differ."""
    if end is None or end == start:
        return start
    if version is None or version[:2] > _CHECKED_UP_TO:
        return None
    if version[:2] < (3, 10):
        return start
    answer = at_end(version)
    if answer is None:
        return None
    return end if answer else start


def _method_call(node: ast.Call, version: Tuple[int, int, int], imported: "Imports") -> Optional[bool]:
    """Whether CPython (3.10 and later) compiles `node` as a method call; None when it cannot be told."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return False  # `*args` / `**kwargs`: CALL_FUNCTION_EX
    n_args, n_kw = len(node.args), len(node.keywords)
    if version[:2] < (3, 11):
        if n_kw or n_args >= _STACK_USE_GUIDELINE:
            return False  # 3.10 has CALL_METHOD for positional arguments only
    elif n_args + n_kw + (n_kw != 0) >= _STACK_USE_GUIDELINE:
        return False
    base = node.func.value
    if version[:2] >= (3, 11) and isinstance(base, ast.Name) and base.id in imported.top | imported.nested:
        # `m.f()` is compiled as a plain call when the statement imports `m` at module level (3.11.7
        # and 3.12 were checked; an earlier 3.11 may not do so), whatever it imports in a nested body
        # is not told apart.
        if base.id in imported.nested or version[:2] == (3, 11) and version[2] < 7:
            return None
        return False
    return True


class Imports:
    """The names one compiled unit (IPython compiles each top-level statement of a cell on its own)
    imports: at module level (`top`) and only inside a function or class body (`nested`)."""

    def __init__(self, unit: Optional[ast.AST]):
        self.top: Set[str] = set()
        self.nested: Set[str] = set()
        if unit is not None:
            self._walk(unit, nested=False)

    def _walk(self, node: ast.AST, nested: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name != "*":
                    (self.nested if nested else self.top).add(alias.asname or alias.name.split(".")[0])
        inner = nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
        for child in ast.iter_child_nodes(node):
            self._walk(child, inner)


def kernel_version() -> Tuple[int, int, int]:
    return (sys.version_info[0], sys.version_info[1], sys.version_info[2])
