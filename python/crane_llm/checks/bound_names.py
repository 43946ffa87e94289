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
from typing import Dict, Iterable, Iterator, Set, Tuple

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
    for name, kind in _sites(tree):
        if kind == "data" or kind == "code" or (kind == "import" and imports):
            yield name


def _sites(tree: ast.AST) -> Iterator[Tuple[str, str]]:
    """(name, kind) for each place `tree` binds a name: kind `code` (a def or class), `import`,
    `data` (anything else), or `parameter` (a function's own, which binds nothing outside it)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id, "data"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, "code"
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield from ((alias.asname or alias.name.split(".")[0], "import") for alias in node.names)
        elif isinstance(node, ast.arg):
            yield node.arg, "parameter"
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            yield from ((name, "data") for name in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, "data"
        elif isinstance(node, _MATCH_CAPTURES) and getattr(node, "name", None):
            yield node.name, "data"
        elif isinstance(node, _MATCH_MAPPING) and getattr(node, "rest", None):
            yield node.rest, "data"


class BindingKinds:
    """How a notebook's executed cells bind each name, read once for every reader of them.

    `count[name]`: how many places bind it. `code`: names that only ever hold a function or class
    the cells define, or an import; `modules`: only an import; `bound`: every name bound at all
    (a parameter counts there too: a conservative reader takes the name as maybe data);
    `parameters`: the names some function or lambda takes as a parameter."""

    def __init__(self, trees: Iterable[ast.AST]):
        count: Dict[str, int] = {}
        defined, imported, data, parameters = set(), set(), set(), set()
        for tree in trees:
            for name, kind in _sites(tree):
                if kind != "parameter":
                    count[name] = count.get(name, 0) + 1
                else:
                    parameters.add(name)
                (defined if kind == "code" else imported if kind == "import" else data).add(name)
        self.count = count
        self.code = frozenset((defined | imported) - data)
        self.modules = frozenset(imported - defined - data)
        self.bound = frozenset(defined | imported | data)
        self.parameters = frozenset(parameters)


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
