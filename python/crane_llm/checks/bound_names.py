"""Every name a piece of code can bind anywhere (assignments, imports, defs, loop and with
targets, walrus, comprehensions, `global` declarations), whatever the control flow.

Used by the replay path: a name some executed cell may have assigned is not claimed undefined
from recorded facts alone.
"""

from __future__ import annotations

import ast
from typing import Set


def names_bound(source: str) -> Set[str]:
    """All names `source` may bind; the cell is parsed as the kernel would (IPython syntax too)."""
    from ..kernel.source import python_source

    try:
        tree = ast.parse(python_source(source))
    except Exception:
        return _every_identifier(source)
    out: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                out.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _every_identifier(source: str) -> Set[str]:
    """For code that does not parse: every identifier in it, a superset of what it could bind."""
    import io
    import keyword
    import tokenize

    out: Set[str] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
                out.add(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        import re

        out.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source))
    return out
