"""Every name a piece of code can bind anywhere (assignments, imports, defs, loop and with
targets, walrus, comprehensions, match captures, `global` declarations), whatever the control flow.

Used by the replay path: a name some executed cell may have assigned is not claimed undefined
from recorded facts alone.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from typing import Iterator, Set

from ..kernel.source import python_source

_MATCH_CAPTURES = tuple(getattr(ast, n) for n in ("MatchAs", "MatchStar") if hasattr(ast, n))  # 3.10+
_MATCH_MAPPING = tuple(getattr(ast, n) for n in ("MatchMapping",) if hasattr(ast, n))


def names_bound(source: str) -> Set[str]:
    """All names `source` may bind; the cell is parsed as the kernel would (IPython syntax too)."""
    try:
        tree = ast.parse(python_source(source))
    except Exception:
        return every_identifier(source)
    return bound_in(tree)


def bound_in(tree: ast.AST, imports: bool = True) -> Set[str]:
    """The names `tree` may bind anywhere; without the ones its import statements bind when
    `imports` is False (the replay reads those separately, to know what each one is)."""
    return set(binding_sites(tree, imports))


def binding_sites(tree: ast.AST, imports: bool = True) -> Iterator[str]:
    """Each name `tree` binds, once per place that binds it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if imports:
                yield from (alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            yield from node.names
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name
        elif isinstance(node, _MATCH_CAPTURES) and getattr(node, "name", None):
            yield node.name
        elif isinstance(node, _MATCH_MAPPING) and getattr(node, "rest", None):
            yield node.rest


def every_identifier(source: str) -> Set[str]:
    """For code that does not parse: every identifier in it, a superset of what it could bind."""
    out: Set[str] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
                out.add(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source))
    return out
