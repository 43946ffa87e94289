"""The executed cells a target depends on: a backward slice over the execution log.

The prompt can send only the cells that made the target's variables what they are, instead of
every cell that ran (`--context slice`). Walking the runs from the newest back, a run is kept when
the lineage says it assigned, modified or deleted a name still needed; the names that run reads
are then needed too, so the dependency is followed transitively, and a name it certainly rebound
is no longer needed from earlier runs (a cell that read a CSV into
`raw`, then one that built `df` from `raw`, for a target that uses `df`). A run whose effects the
lineage cannot tell (it did not parse, it ran a script, a star import, `exec`/`globals()`, a
`%reset`) is kept, and so is everything it reads: a slice may keep too much, never too little of
what the lineage can see. Inside a kept cell, a statement the target does not depend on is left
out, with a marker line saying how many lines were (`slice_runs`), when nothing it does escapes
the lineage (see READING_METHODS); anything unsure stays.

The slice serves the prompt only; no check relies on it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

from ..kernel.source import python_source
from .effects import root_name
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
    stmt: Optional[ast.stmt] = None
    writes: Set[str] = field(default_factory=set)
    assigns: Set[str] = field(default_factory=set)  # certainly rebound here: what it held before no longer matters
    unknown: bool = False
    kept: bool = False


def _units(cell: int, code: str, effects: List[Dict[str, Any]]) -> List[_Unit]:
    """The run's statements, each with the lineage's effects on its lines. Dependencies are
    followed statement by statement, so a cell kept for one statement does not pull in what its
    other statements read."""
    tree = _parse(code)
    if tree is None:  # the lineage cannot read it: kept, and it needs nothing we could name
        unit = _Unit(cell, 0, 0, set())
        unit.unknown = True
        return [unit]
    units = []
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
        units.append(_Unit(cell, first, getattr(stmt, "end_lineno", None) or stmt.lineno, _names_read(stmt), stmt))
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


def _walk(codes: List[str], target: str) -> Optional[Tuple[List[_Unit], Set[str]]]:
    """Every run's statements, those the target depends on marked `kept`, and every name that
    was needed at some point of the walk; None when the target cannot be read."""
    target_tree = _parse(target)
    if target_tree is None:
        return None
    log = ExecutionLog()
    for i, code in enumerate(codes):
        log.add(Run(i + 1, None, code, recorded=False))
    units = [u for i, run in enumerate(log.to_json()["runs"]) for u in _units(i, codes[i], run["effects"])]
    needed = _names_read(target_tree)
    ever_needed = set(needed)
    for unit in reversed(units):
        if unit.unknown or unit.writes & needed:
            unit.kept = True
            needed = (needed - unit.assigns) | unit.reads
            ever_needed |= needed
    return units, ever_needed


def slice_indices(codes: List[str], target: str) -> List[int]:
    """Positions (in `codes`, oldest first) of the runs the target depends on, in run order."""
    walked = _walk(codes, target)
    if walked is None:  # the target cannot be read: keep everything
        return list(range(len(codes)))
    return sorted({u.cell for u in walked[0] if u.kept})


# Inside a kept cell, a statement the target does not depend on is left out only when nothing it
# does escapes the lineage: every call it makes is one of these, known to read and build values,
# never to change their arguments, the process (working directory, random seed, options) or files.
READING_FUNCTIONS = frozenset([
    "print", "display", "len", "type", "isinstance", "issubclass", "repr", "str", "int", "float", "bool",
    "list", "tuple", "dict", "set", "frozenset", "sorted", "sum", "min", "max", "abs", "round", "range",
    "enumerate", "zip", "format", "hasattr", "getattr", "id", "any", "all", "reversed", "divmod", "pow",
    "hash", "dir", "callable", "chr", "ord", "hex", "bin", "oct", "complex", "bytes", "slice",
])
READING_METHODS = frozenset([
    # pandas and numpy: inspection and new values (an `inplace=True` change is the lineage's)
    "head", "tail", "describe", "info", "sample", "value_counts", "unique", "nunique", "isnull", "isna",
    "notnull", "notna", "sum", "mean", "median", "std", "var", "min", "max", "count", "corr", "cov",
    "nlargest", "nsmallest", "groupby", "agg", "aggregate", "copy", "astype", "reset_index", "set_index",
    "drop", "dropna", "fillna", "drop_duplicates", "duplicated", "rename", "sort_values", "sort_index",
    "select_dtypes", "merge", "join", "concat", "reshape", "flatten", "ravel", "transpose", "tolist",
    "to_numpy", "to_frame", "to_list", "argmax", "argmin", "idxmax", "idxmin", "round", "abs", "any", "all",
    "cumsum", "prod", "mode", "quantile", "skew", "kurt", "memory_usage", "get_dummies", "crosstab",
    "pivot", "pivot_table", "melt", "isin", "between", "where", "mask", "clip", "map", "replace",
    "array", "asarray", "zeros", "ones", "arange", "linspace", "unique", "shape", "dot", "matmul",
    "keys", "values", "items", "get", "index", "split", "strip", "lower", "upper", "startswith",
    "endswith", "format", "summary", "get_params", "predict", "predict_proba", "score", "transform",
    "inverse_transform", "decision_function", "DataFrame", "Series", "read_csv", "read_excel",
    "read_json", "read_parquet", "read_table",
    # scikit-learn's metrics, torch's new tensors, reading the file system
    "accuracy_score", "precision_score", "recall_score", "f1_score", "mean_squared_error",
    "mean_absolute_error", "median_absolute_error", "r2_score", "confusion_matrix",
    "classification_report", "roc_auc_score", "tensor", "zeros_like", "ones_like", "unsqueeze",
    "detach", "exists", "isdir", "isfile", "listdir",
])
# Drawing changes the current figure: trusted only when the target does not need what it is called on.
DRAWING_METHODS = frozenset([
    "plot", "hist", "boxplot", "bar", "barh", "scatter", "pie", "imshow", "title", "xlabel", "ylabel",
    "legend", "show", "figure", "subplots", "subplot", "xticks", "yticks", "tight_layout", "grid",
    "set_title", "set_xlabel", "set_ylabel", "xlim", "ylim", "heatmap", "countplot", "barplot",
    "histplot", "distplot", "boxplot", "scatterplot", "lineplot", "pairplot", "violinplot", "kdeplot",
    "catplot", "regplot", "lmplot", "jointplot", "suptitle", "axis", "text", "annotate",
])


def _runs_code(node: ast.AST) -> List[ast.AST]:
    """The parts of a statement that run when it does: not the bodies of the functions it defines."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = node.args
        return list(node.decorator_list) + list(a.defaults) + [d for d in a.kw_defaults if d is not None]
    if isinstance(node, ast.Lambda):
        return []
    return list(ast.iter_child_nodes(node))


def _only_reads(stmt: ast.stmt, user_names: Set[str], needed: Set[str]) -> bool:
    """Whether every call the statement makes when it runs is known to only read (see above).
    A name the notebook binds (`def print(...)`, a method of its class), or drawing on a name
    still needed (`plt` when the target draws too) is not taken on trust."""
    stack: List[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            return False  # it changes how the rest of the cell compiles
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                if func.id not in READING_FUNCTIONS or func.id in user_names:
                    return False
            elif isinstance(func, ast.Attribute):
                root = root_name(func.value)
                drawing = func.attr in DRAWING_METHODS and not (root is not None and root in needed)
                if not (func.attr in READING_METHODS or drawing) or func.attr in user_names:
                    return False
            else:
                return False
        stack.extend(_runs_code(node))
    return True


def _marker(count: int) -> str:
    # Short: the prompt's instructions say what these lines stand for.
    return "# ... %d line%s left out" % (count, "" if count == 1 else "s")


def _cut(code: str, units: List[_Unit], user_names: Set[str], needed: Set[str]) -> Tuple[str, int]:
    """The cell's code with the statements the target does not depend on replaced by markers, and
    the number of lines left out. Unsure (the cell's text is not the code the lineage read, a
    statement kept for effects off its lines): the code whole."""
    lines = code.split("\n")
    if (any(u.first == 0 for u in units) or code.lstrip().startswith("%%")
            or len(python_source(code).rstrip("\n").split("\n")) != len(code.rstrip("\n").split("\n"))):
        return code, 0
    keep = [None] * len(lines)  # True: kept, False: left out, None: blank or comment, decided below
    for u in units:
        droppable = not u.kept and u.stmt is not None and _only_reads(u.stmt, user_names, needed)
        for n in range(u.first - 1, min(u.last, len(lines))):
            keep[n] = keep[n] or not droppable  # a line shared with a kept statement stays
    # A comment or blank line goes with the statement after it (comments say what comes next);
    # after the last statement, with the one before.
    following = None
    for n in range(len(lines) - 1, -1, -1):
        if keep[n] is None:
            keep[n] = following
        else:
            following = keep[n]
    previous = True
    for n in range(len(lines)):
        if keep[n] is None:
            keep[n] = previous
        previous = keep[n]
    out: List[str] = []
    left_out = n = 0
    while n < len(lines):
        if keep[n]:
            out.append(lines[n])
            n += 1
            continue
        end = n
        while end < len(lines) and not keep[end]:
            end += 1
        # Left out only when the marker is shorter than what it stands for: the prompt only shrinks.
        if any(line.strip() for line in lines[n:end]) and len(_marker(end - n)) < len("\n".join(lines[n:end])):
            out.append(_marker(end - n))
            left_out += end - n
        else:
            out.extend(lines[n:end])
        n = end
    return "\n".join(out), left_out


def _user_names(codes: List[str]) -> Set[str]:
    """Names the notebook binds itself, and methods its classes define: calls of them are the
    notebook's code, not a library's known reading function."""
    names: Set[str] = set()
    for code in codes:
        tree = _parse(code)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[0])
    return names


def slice_runs(executed: List[Dict[str, Any]], target: str) -> List[Dict[str, Any]]:
    """The executed cells (dicts with a "code") the target depends on, oldest first; in each, the
    statements the target does not depend on are left out, a marker line saying how many lines
    (then "linesLeftOut" counts them). A statement is left out only when the lineage sees all it
    does (it binds, changes or deletes no name still needed, and every call it makes is known to
    only read); imports, and anything unsure, stay."""
    codes = [r.get("code", "") for r in executed]
    walked = _walk(codes, target)
    if walked is None:
        return list(executed)
    units, needed = walked
    user_names = _user_names(codes)
    out = []
    for i in sorted({u.cell for u in units if u.kept}):
        code, left_out = _cut(codes[i], [u for u in units if u.cell == i], user_names, needed)
        out.append(dict(executed[i], code=code, linesLeftOut=left_out) if left_out else executed[i])
    return out
