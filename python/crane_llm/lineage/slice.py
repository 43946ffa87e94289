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
out, each gap marked by a line `# ...` (`slice_runs`), when nothing it does escapes the lineage
(see READING_METHODS and INERT_IMPORTS), and so are the display-only lines in its loops and the
docstrings of what it defines (`_inner_cuts`); anything unsure stays.

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


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _own_names(fn: ast.AST) -> Set[str]:
    """The names local to a function: its parameters and every name its body binds (Python makes
    such a name local for the whole body), less those it declares global. Nested functions,
    lambdas, classes and comprehensions bind in their own scopes, so are not looked into."""
    a = fn.args  # type: ignore[attr-defined]
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]}
    declared_global: Set[str] = set()
    body = [fn.body] if isinstance(fn, ast.Lambda) else list(fn.body)  # type: ignore[attr-defined]
    stack: List[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            names.add(node.target.id)  # binds in the function, even inside a comprehension
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Global):
            declared_global.update(node.names)
        elif type(node).__name__ in ("MatchAs", "MatchStar") and getattr(node, "name", None):
            names.add(node.name)  # type: ignore[attr-defined]
        elif type(node).__name__ == "MatchMapping" and getattr(node, "rest", None):
            names.add(node.rest)  # type: ignore[attr-defined]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            # Decorators, defaults and bases run here; the body is its own scope.
            stack.extend(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                stack.extend(node.bases + [k.value for k in node.keywords])
            else:
                stack.extend(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
            continue
        if isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
            continue
        if isinstance(node, _COMPREHENSIONS):
            stack.extend(n for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
            continue
        stack.extend(ast.iter_child_nodes(node))
    return names - declared_global


class _Reads(ast.NodeVisitor):
    """Every notebook (global) name the code loads, function and class bodies included (what they
    use from the notebook's globals when called later); over-approximate on purpose, except that a
    name a function (or comprehension) binds itself is its own, never the notebook's: a parameter
    `df` does not read the notebook's `df`. `deferred` holds those of them read inside a function
    or lambda body: read when it is called, which may be at any later time, not where it is defined."""

    def __init__(self, local: frozenset = frozenset()) -> None:
        self.names: Set[str] = set()
        self.deferred: Set[str] = set()
        self.local = local

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Store) and node.id not in self.local:
            self.names.add(node.id)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name) and node.target.id not in self.local:  # `x += 1` reads x before writing it
            self.names.add(node.target.id)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.names.update(node.names)

    def _scope(self, nodes: List[ast.AST], local: frozenset, deferred: bool = False) -> None:
        inner = _Reads(local)
        for node in nodes:
            inner.visit(node)
        self.names |= inner.names
        self.deferred |= inner.names if deferred else inner.deferred

    def _function(self, node: ast.AST) -> None:
        a = node.args  # type: ignore[attr-defined]
        # Evaluated where the function is defined: decorators, defaults, annotations.
        outer: List[ast.AST] = list(getattr(node, "decorator_list", [])) + list(a.defaults)
        outer += [d for d in a.kw_defaults if d is not None]
        outer += [p.annotation for p in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]
                  if p.annotation is not None]
        if getattr(node, "returns", None) is not None:
            outer.append(node.returns)  # type: ignore[attr-defined]
        for n in outer:
            self.visit(n)
        body = [node.body] if isinstance(node, ast.Lambda) else list(node.body)  # type: ignore[attr-defined]
        globals_declared = _declared_global(node)
        self._scope(body, frozenset((self.local | _own_names(node)) - globals_declared), deferred=True)
        self.names |= globals_declared
        self.deferred |= globals_declared

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def _comprehension(self, node: ast.AST) -> None:
        generators = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter)  # the first iterable is read where the comprehension is
        own = {n.id for g in generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        rest: List[ast.AST] = [n for n in (getattr(node, "elt", None), getattr(node, "key", None), getattr(node, "value", None)) if n is not None]
        rest += [g.iter for g in generators[1:]] + [i for g in generators for i in g.ifs]
        self._scope(rest, frozenset(self.local | own))

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def _declared_global(node: ast.AST) -> Set[str]:
    """Names a function body declares global, nested functions' declarations not included."""
    out: Set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Global):
            out.update(n.names)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) and n is not node:
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def _names_read(node: ast.AST) -> Set[str]:
    return _reads_of(node)[0]


def _reads_of(node: ast.AST) -> Tuple[Set[str], Set[str]]:
    """The names the code reads, and those of them read only when a function it defines is called."""
    visitor = _Reads()
    visitor.visit(node)
    return visitor.names, visitor.deferred


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
    deferred: Set[str] = field(default_factory=set)  # read by a function it defines, whenever that is called
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
        names, deferred = _reads_of(stmt)
        units.append(_Unit(cell, first, getattr(stmt, "end_lineno", None) or stmt.lineno, names, stmt, deferred))
    for e in effects:
        if e.get("status") == "skipped" or e["op"] not in WRITES:
            continue
        home = next((u for u in units if u.first <= e["line"] <= u.last), None)
        if home is None:  # an effect on no statement's lines: the whole cell answers for it
            names, deferred = _reads_of(tree)
            home = _Unit(cell, 0, 0, names, None, deferred)
            units.append(home)
        if e["name"] == "*":
            home.unknown = True
        home.writes.add(e["name"])
        if e["op"] == "assign" and e.get("status") == "done":
            home.assigns.add(e["name"])
    return units


def _target_needs(statements: List[_Unit]) -> Set[str]:
    """The names the target needs from the cells before it: what its statements read, less a name
    an earlier statement of the target certainly rebound first (`df = pd.read_csv(...)` then
    `df.head()` needs no older `df`: if the rebinding raises, the read never runs). A name read
    inside a function the target defines is read when it is called: always needed."""
    needs: Set[str] = set()
    bound: Set[str] = set()
    for unit in statements:
        if unit.unknown:
            bound = set()  # it may bind or unbind anything: what follows reads the older values
        needs |= (unit.reads - bound) | unit.deferred
        bound = (bound | unit.assigns) - (unit.writes - unit.assigns)
    return needs


def _walk(codes: List[str], target: str) -> Optional[Tuple[List[_Unit], Set[str]]]:
    """Every run's statements, those the target depends on marked `kept`, and every name that
    was needed at some point of the walk; None when the target cannot be read."""
    target_tree = _parse(target)
    if target_tree is None:
        return None
    log = ExecutionLog()
    for i, code in enumerate(codes + [target]):
        log.add(Run(i + 1, None, code, recorded=False))
    runs = log.to_json()["runs"]
    units = [u for i, run in enumerate(runs[:-1]) for u in _units(i, codes[i], run["effects"])]
    target_needs = _target_needs(_units(len(codes), target, runs[-1]["effects"]))
    # A global a function's body reads is read when the function is called, and a call may come at
    # any time after its definition (the target, a later cell, a callback an object holds): the
    # name is needed at every statement after a kept definition, whatever rebinds it there. Those
    # statements were walked before the definition was found, so the walk is repeated until no
    # kept definition adds such a name (or moves one earlier).
    after: Dict[str, int] = {}  # name -> the earliest position after which it is needed
    while True:
        needed = set(target_needs)
        ever_needed = set(needed) | set(after)
        found: Dict[str, int] = {}
        for at in range(len(units) - 1, -1, -1):
            unit = units[at]
            unit.kept = bool(unit.unknown or unit.writes & needed
                             or any(after.get(name, at) < at for name in unit.writes)
                             or (isinstance(unit.stmt, (ast.Import, ast.ImportFrom)) and not _inert_import(
                                 unit.stmt, needed | {name for name, start in after.items() if start < at})))
            if unit.kept:
                needed = (needed - unit.assigns) | unit.reads
                ever_needed |= needed
                for name in unit.deferred:
                    found[name] = min(found.get(name, at), at)
        if all(after.get(name, at + 1) <= at for name, at in found.items()):
            return units, ever_needed
        for name, at in found.items():
            after[name] = min(after.get(name, at), at)


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
    "detach", "exists", "isdir", "isfile", "listdir", "walk",
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


# Libraries whose import changes nothing outside their own modules (no accessor registered on
# pandas, no patch of another library), and standard modules alike. The first import of any other
# module runs code that may (`import pandas_profiling` gives DataFrames `.profile_report`,
# `import hvplot.pandas` `.hvplot`, `sklearn.experimental.enable_*` unlocks estimators,
# `__future__` changes how the cell compiles): such an import stays, needed or not.
INERT_IMPORTS = frozenset("""
numpy pandas sklearn scipy matplotlib seaborn statsmodels torch torchvision tensorflow keras xgboost
lightgbm catboost nltk cv2 PIL skimage plotly missingno wordcloud imblearn joblib transformers
os sys re math random json time datetime collections itertools functools warnings glob pathlib
string csv pickle copy shutil typing statistics
""".split())


def _inert_import(node: ast.stmt, needed: Set[str]) -> bool:
    """Whether leaving the import out cannot change what the target uses: every module it names
    is one of INERT_IMPORTS (not an `experimental` part), and no package it loads a submodule of
    is still needed (`from sklearn import svm` sets `sklearn.svm`, which `sklearn.svm.SVC` reads;
    a plain `import torch` loads no submodule, and the name it binds is the lineage's)."""
    if isinstance(node, ast.ImportFrom):
        if node.level or not node.module:
            return False
        paths = [(node.module, True)]
    else:
        paths = [(a.name, "." in a.name) for a in node.names]  # type: ignore[attr-defined]
    for path, submodule in paths:
        parts = path.split(".")
        if parts[0] not in INERT_IMPORTS or "experimental" in parts or (submodule and parts[0] in needed):
            return False
    return True


def _only_reads(stmt: ast.stmt, user_names: Set[str], needed: Set[str]) -> bool:
    """Whether every call the statement makes when it runs is known to only read (see above).
    A name the notebook binds (`def print(...)`, a method of its class), or drawing on a name
    still needed (`plt` when the target draws too) is not taken on trust."""
    stack: List[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
            return False
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not _inert_import(node, needed):
            return False
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                if func.id not in READING_FUNCTIONS or func.id in user_names:
                    return False
                if func.id == "print" and any(k.arg in ("file", None) for k in node.keywords):
                    return False  # print(..., file=f) writes to a file a later cell may read
            elif isinstance(func, ast.Attribute):
                root = root_name(func.value)
                drawing = func.attr in DRAWING_METHODS and not (root is not None and root in needed)
                if not (func.attr in READING_METHODS or drawing) or func.attr in user_names:
                    return False
            else:
                return False
        stack.extend(_runs_code(node))
    return True


def _marker(count: int, indent: str = "") -> str:
    # Short: the prompt's instructions say what these lines stand for (the count is `linesLeftOut`).
    return indent + "# ..."


def _docstring(body: List[ast.stmt]) -> Optional[ast.stmt]:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first
    return None


# The bodies of these run once, when the cell ran, and nothing in them can steer whether a sibling
# ran: not `try` (a statement that raised picks the handler) nor `with` (a context manager may
# swallow what raised), which stay whole.
_LOOPS_AND_BRANCHES = (ast.For, ast.AsyncFor, ast.While, ast.If)


def _displays_only(stmt: ast.stmt) -> bool:
    """An expression statement, or an `if` made only of them: it binds nothing and cannot break
    out of a loop."""
    if isinstance(stmt, ast.If):
        return all(_displays_only(s) for s in stmt.body + stmt.orelse)
    return isinstance(stmt, ast.Expr)


def _inner_cuts(stmt: ast.stmt, user_names: Set[str], needed: Set[str], docstrings: bool) -> List[ast.stmt]:
    """Statements inside a kept top-level statement that the target cannot depend on:
    - in the bodies of its loops and branches (the cell finished, so they ran without raising), an
      expression statement (or an `if` of them) whose every call only reads (a `print` or a plot
      in a loop): it binds nothing, and the values the loop computes are the same without it;
    - the docstring of a function or class it defines (a constant: it changes nothing but `__doc__`,
      which `docstrings` is False for when the notebook reads it).
    A function's other statements stay: they run again when the target calls it."""
    out: List[ast.stmt] = []
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        if docstrings:
            for node in ast.walk(stmt):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    doc = _docstring(node.body)
                    if doc is not None:
                        out.append(doc)
        return out
    if not isinstance(stmt, _LOOPS_AND_BRANCHES):
        return out
    for child in list(stmt.body) + list(stmt.orelse):
        if _displays_only(child) and _only_reads(child, user_names, needed):
            out.append(child)
        else:
            out.extend(_inner_cuts(child, user_names, needed, docstrings))
    return out


def _alone_on_its_lines(stmt: ast.stmt, lines: List[str], source: List[str]) -> bool:
    """Whether the statement's lines hold nothing else (no `;` neighbour) and read as the kernel ran them."""
    first, last = stmt.lineno - 1, (getattr(stmt, "end_lineno", None) or stmt.lineno) - 1
    end_col = getattr(stmt, "end_col_offset", None)
    if last >= len(lines) or end_col is None or lines[first:last + 1] != source[first:last + 1]:
        return False
    # Byte offsets: compared on the encoded line.
    head = lines[first].encode("utf-8")[:stmt.col_offset].decode("utf-8", "replace")
    tail = lines[last].encode("utf-8")[end_col:].decode("utf-8", "replace").strip()
    return not head.strip() and (not tail or tail.startswith("#"))


def _cut(code: str, units: List[_Unit], user_names: Set[str], needed: Set[str],
         docstrings: bool = True) -> Tuple[str, int]:
    """The cell's code with the statements the target does not depend on replaced by markers, and
    the number of lines left out. Unsure (the cell's text is not the code the lineage read, a
    statement kept for effects off its lines): the code whole."""
    lines = code.split("\n")
    source = python_source(code)
    if (any(u.first == 0 for u in units) or code.lstrip().startswith("%%")
            or len(source.rstrip("\n").split("\n")) != len(code.rstrip("\n").split("\n"))):
        return code, 0
    source_lines = source.split("\n")
    keep: List[Optional[bool]] = [None] * len(lines)  # True: kept, False: left out, None: blank or comment, decided below
    for u in units:
        droppable = not u.kept and u.stmt is not None and _only_reads(u.stmt, user_names, needed)
        inner: Set[int] = set()
        if not droppable and u.stmt is not None:
            for stmt in _inner_cuts(u.stmt, user_names, needed, docstrings):
                if _alone_on_its_lines(stmt, lines, source_lines):
                    inner.update(range(stmt.lineno - 1, getattr(stmt, "end_lineno", None) or stmt.lineno))
        for n in range(u.first - 1, min(u.last, len(lines))):
            if n in inner:
                keep[n] = bool(keep[n])
            else:
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
        written = [line for line in lines[n:end] if line.strip()]
        indent = min((line[:len(line) - len(line.lstrip())] for line in written), key=len, default="")
        if written and len(_marker(end - n, indent)) < len("\n".join(lines[n:end])):
            out.append(_marker(end - n, indent))
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
    statements the target does not depend on are left out, each gap marked by a line `# ...`
    (then "linesLeftOut" counts the lines). A statement is left out only when the lineage sees all it
    does (it binds, changes or deletes no name still needed, and every call it makes is known to
    only read), and inside the statements kept, what `_inner_cuts` finds; anything unsure stays, and
    a cell that raised is sent whole (its heading names the line that raised)."""
    codes = [r.get("code", "") for r in executed]
    walked = _walk(codes, target)
    if walked is None:
        return list(executed)
    units, needed = walked
    user_names = _user_names(codes)
    # Docstrings are left out unless the notebook may read them (`__doc__`, `help`, `inspect.getdoc`).
    docstrings = not any(word in text for text in codes + [target] for word in ("__doc__", "help", "getdoc", "docopt"))
    out = []
    for i in sorted({u.cell for u in units if u.kept}):
        if executed[i].get("raised"):  # its heading names the line that raised: its lines stay as they ran
            out.append(executed[i])
            continue
        code, left_out = _cut(codes[i], [u for u in units if u.cell == i], user_names, needed, docstrings)
        out.append(dict(executed[i], code=code, linesLeftOut=left_out) if left_out else executed[i])
    return out
