"""No import cycles among the package's modules, function-local imports included: a module that
needs another imports it at the top, and two modules never need each other (docs/architecture.md)."""

import ast
from pathlib import Path
from typing import Dict, List, Set

PACKAGE = Path(__file__).resolve().parents[2] / "crane_llm"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> Dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(module: str, is_package: bool, level: int, target: str) -> str:
    """The absolute name of `from <level dots><target> import ...` written in `module`."""
    if level == 0:
        return target
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def import_graph() -> Dict[str, Set[str]]:
    """Module -> the package's modules it imports anywhere in its body (top level or in a function)."""
    modules = _modules()
    graph: Dict[str, Set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: List[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node.level, node.module or "")
                # `from pkg import sub` imports the submodule sub; `from mod import name` the module.
                targets = [base + "." + alias.name if base + "." + alias.name in modules else base for alias in node.names]
            for target in targets:
                # `import a.b.c` needs a.b.c; its parents are imported by Python, not by the writer.
                while target and target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_a_cycle_is_found_and_a_chain_is_not():
    assert cycles({"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}}) == [["p.a", "p.b", "p.c"]]
    assert cycles({"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": set()}) == []


def test_the_graph_sees_function_local_relative_and_submodule_imports():
    graph = import_graph()
    # load_ipython_extension imports the session and the magic inside the function.
    assert {"crane_llm.kernel.session", "crane_llm.magic"} <= graph["crane_llm"]
    # `from . import arrays` in rules/operators.py is the submodule, not the package.
    assert "crane_llm.checks.rules.arrays" in graph["crane_llm.checks.rules.operators"]
    assert "crane_llm.checks.rules" not in graph["crane_llm.checks.rules.operators"]


def test_no_import_cycles_in_the_package():
    assert cycles(import_graph()) == []
