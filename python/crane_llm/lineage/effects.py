"""What a cell does to the kernel's variables, read from its code.

Pure: code in, effects out. Each effect names the variable (the root name: `df` for
`df.loc[0, 'a'] = 1`), the line, whether it assigns, modifies in place or deletes it, and how.
An effect the code cannot promise (inside an `if`, a loop or a `try`, or through a user's own
function) is `maybe`, never `done`: the lineage must not state a wrong certainty.

The recorder runs this lazily, when a check asks for the log, so executing a cell costs only the
bookkeeping of the run itself.
"""

from __future__ import annotations

import ast
import shlex
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

from ..kernel.source import python_source

# Methods that change their receiver, with the `how` recorded for them.
LIST_DICT_SET_METHODS = frozenset(
    [
        "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
        "update", "setdefault", "popitem", "add", "discard", "difference_update",
        "intersection_update", "symmetric_difference_update",
    ]
)
# numpy's in-place ndarray methods, keras/torch model state changes.
OTHER_MUTATING_METHODS = frozenset(
    ["fill", "resize", "put", "itemset", "sort", "compile", "load_state_dict", "load_weights", "set_weights"]
)
FIT_METHODS = frozenset(["fit", "partial_fit", "fit_transform", "fit_predict", "fit_resample", "train_on_batch"])
# Functions that modify their first argument in place.
MUTATING_FUNCTIONS = frozenset(
    [
        "random.shuffle", "np.random.shuffle", "numpy.random.shuffle", "np.copyto", "numpy.copyto",
        "np.fill_diagonal", "numpy.fill_diagonal", "np.put", "numpy.put", "np.place", "numpy.place",
        "np.putmask", "numpy.putmask", "shuffle",
    ]
)
DYNAMIC_CALLS = frozenset(["exec", "eval", "globals", "vars", "locals"])
TARGET_TEXT_MAX = 60

Effect = Dict[str, Any]


@dataclass(eq=False)
class FunctionSummary:
    """What calling a user function may do: to its arguments and to global variables."""

    name: str
    global_effects: List[Tuple[str, str]]  # (name, op): op is 'assign', 'modify' or 'delete'
    calls: List[str]  # names of functions it calls, resolved transitively later


@dataclass(eq=False)
class CellAnalysis:
    """The effects of one cell's code, before knowing whether (and where) it raised."""

    effects: List[Effect] = field(default_factory=list)
    calls: List[Dict[str, Any]] = field(default_factory=list)  # calls of bare names: maybe user functions
    method_calls: List[Dict[str, Any]] = field(default_factory=list)  # calls of methods not known to mutate
    functions: Dict[str, FunctionSummary] = field(default_factory=dict)
    methods: Set[str] = field(default_factory=set)  # method names of classes this cell defines
    statements: List[Tuple[int, int, bool]] = field(default_factory=list)  # (first line, last line, compound)
    script_runs: List[Dict[str, Any]] = field(default_factory=list)  # `%run file.py`: line and arguments
    syntax_error: Optional[int] = None
    magic_body_end: Optional[int] = None  # last cell line of a %%magic's body


def _effect(name: str, line: int, op: str, how: str, detail: Optional[str], target: Optional[str], why: Optional[str]) -> Effect:
    return {
        "name": name,
        "line": line,
        "op": op,
        "how": how,
        "detail": detail,
        "target": target,
        "via": None,
        "status": "maybe" if why else "done",
        "why": why,
    }


def root_name(node: ast.AST) -> Optional[str]:
    """`df` for `df`, `df.a`, `df['x'].loc[0]`; None when the root is a call or a literal."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Starred):
            node = node.value
        else:
            return None


def dotted(node: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class _Text:
    """Source text of nodes, shortened, for the lineage's sentences."""

    def __init__(self, code: str, line_offset: int):
        self.lines = code.splitlines()
        self.offset = line_offset

    def of(self, node: ast.AST) -> Optional[str]:
        try:
            first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
            if first != last:
                text = self.lines[first][node.col_offset:] + " ..."  # type: ignore[attr-defined]
            else:
                text = self.lines[first][node.col_offset:node.end_col_offset]  # type: ignore[attr-defined]
        except (AttributeError, IndexError, TypeError):
            return None
        text = " ".join(text.split())
        if len(text) > TARGET_TEXT_MAX:
            text = text[: TARGET_TEXT_MAX - 3] + "..."
        return text


class _Walker:
    """Collects effects of module-level code; `why` is the reason an effect is only possible."""

    def __init__(self, out: CellAnalysis, text: _Text, line_offset: int):
        self.out = out
        self.text = text
        self.offset = line_offset

    def line(self, node: ast.AST) -> int:
        return getattr(node, "lineno", 1) + self.offset

    def add(self, name: Optional[str], node: ast.AST, op: str, how: str, detail: Optional[str], target: Optional[str], why: Optional[str]) -> None:
        if name:
            self.out.effects.append(_effect(name, self.line(node), op, how, detail, target, why))

    # -- statements ---------------------------------------------------------------------------
    def statements(self, body: List[ast.stmt], why: Optional[str]) -> None:
        for stmt in body:
            self.statement(stmt, why)

    def statement(self, s: ast.stmt, why: Optional[str]) -> None:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in s.decorator_list:
                self.expression(d, why)
            self.add(s.name, s, "assign", "def", None, None, why)
            self.out.functions[s.name] = summarise_function(s)
        elif isinstance(s, ast.ClassDef):
            for d in s.decorator_list:
                self.expression(d, why)
            self.add(s.name, s, "assign", "class", None, None, why)
            self.out.functions[s.name] = FunctionSummary(s.name, [], [])  # constructing it may change its arguments
            for item in s.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.out.methods.add(item.name)
        elif isinstance(s, ast.Assign):
            self.expression(s.value, why)
            none_from_inplace = _inplace_call(s.value)
            for t in s.targets:
                self.target(t, why, "assign", inplace_none=none_from_inplace)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.expression(s.value, why)
                self.target(s.target, why, "assign")
        elif isinstance(s, ast.AugAssign):
            self.expression(s.value, why)
            op = _AUG_SYMBOLS.get(type(s.op), "op") + "="
            self.add(root_name(s.target), s, "modify", "augmented", op, self.text.of(s.target), why)
        elif isinstance(s, ast.Delete):
            for t in s.targets:
                for leaf in _leaves(t):
                    if isinstance(leaf, ast.Name):
                        self.add(leaf.id, s, "delete", "del", None, leaf.id, why)
                    else:
                        how = "item-delete" if isinstance(leaf, ast.Subscript) else "attr-delete"
                        self.add(root_name(leaf), s, "modify", how, None, self.text.of(leaf), why)
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            for alias in s.names:
                if alias.name == "*":
                    self.add("*", s, "assign", "import-star", getattr(s, "module", None), None, why or "dynamic")
                else:
                    name = alias.asname or alias.name.split(".")[0]
                    self.add(name, s, "assign", "import", alias.name, None, why)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            self.expression(s.iter, why)
            self.target(s.target, why or "loop", "for")
            self.statements(s.body, why or "loop")
            self.statements(s.orelse, why or "loop")
        elif isinstance(s, ast.While):
            self.expression(s.test, why)
            self.statements(s.body, why or "loop")
            self.statements(s.orelse, why or "loop")
        elif isinstance(s, ast.If):
            self.expression(s.test, why)
            self.statements(s.body, why or "branch")
            self.statements(s.orelse, why or "branch")
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.expression(item.context_expr, why)
                if item.optional_vars is not None:
                    self.target(item.optional_vars, why, "with")
            self.statements(s.body, why)
        elif isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            self.statements(s.body, why or "try")  # type: ignore[attr-defined]
            for h in s.handlers:  # type: ignore[attr-defined]
                if h.name:
                    self.add(h.name, h, "assign", "except", None, h.name, why or "try")
                self.statements(h.body, why or "try")
            self.statements(s.orelse, why or "try")  # type: ignore[attr-defined]
            self.statements(s.finalbody, why)  # type: ignore[attr-defined]
        elif isinstance(s, ast.Expr):
            if not self.magic(s):
                self.expression(s.value, why)
        elif type(s).__name__ == "Match":  # Python 3.10+: the cases are branches
            self.expression(s.subject, why)  # type: ignore[attr-defined]
            for case in s.cases:  # type: ignore[attr-defined]
                self.statements(case.body, why or "branch")
        else:
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self.expression(child, why)

    def target(self, t: ast.AST, why: Optional[str], how: str, inplace_none: Optional[str] = None) -> None:
        for leaf in _leaves(t):
            if isinstance(leaf, ast.Name):
                if inplace_none:
                    self.add(leaf.id, leaf, "assign", "assign-none", inplace_none, leaf.id, why)
                else:
                    self.add(leaf.id, leaf, "assign", how, None, leaf.id, why)
            elif isinstance(leaf, (ast.Subscript, ast.Attribute)):
                store = "item-store" if isinstance(leaf, ast.Subscript) else "attr-store"
                self.expression(leaf, why)
                self.add(root_name(leaf), leaf, "modify", store, None, self.text.of(leaf), why)

    # -- expressions --------------------------------------------------------------------------
    def expression(self, e: ast.AST, why: Optional[str]) -> None:
        # Comprehensions run their bodies zero or more times; lambdas not at all here.
        stack: List[Tuple[ast.AST, Optional[str]]] = [(e, why)]
        while stack:
            node, w = stack.pop()
            if isinstance(node, ast.Lambda):
                continue
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                for child in ast.iter_child_nodes(node):
                    stack.append((child, w or "loop"))
                continue
            if isinstance(node, (ast.IfExp, ast.BoolOp)):
                children = list(ast.iter_child_nodes(node))
                stack.append((children[0], w))
                for child in children[1:]:
                    stack.append((child, w or "branch"))
                continue
            if isinstance(node, ast.NamedExpr):
                self.add(node.target.id, node, "assign", "walrus", None, node.target.id, w)
            elif isinstance(node, ast.Call):
                self.call(node, w)
            for child in ast.iter_child_nodes(node):
                stack.append((child, w))

    def call(self, c: ast.Call, why: Optional[str]) -> None:
        func = c.func
        name = dotted(func)
        kwargs = {k.arg: k.value for k in c.keywords if k.arg}
        if isinstance(func, ast.Attribute):
            receiver = root_name(func.value)
            method = func.attr
            target = self.text.of(func.value)
            chained = not isinstance(func.value, ast.Name)
            inplace = kwargs.get("inplace")
            if isinstance(inplace, ast.Constant) and inplace.value is True:
                detail = method
                if method == "drop":
                    detail = "drop:" + _drop_axis(c, kwargs)
                # pandas 3 copy-on-write: `df['a'].fillna(0, inplace=True)` leaves df alone.
                self.add(receiver, c, "modify", "inplace", detail, target, why or ("chained" if chained else None))
            elif method in FIT_METHODS:
                self.add(receiver, c, "modify", "fit", method, target, why)
            elif method in LIST_DICT_SET_METHODS or method in OTHER_MUTATING_METHODS:
                self.add(receiver, c, "modify", "method", method, target, why)
            elif method.endswith("_") and not method.startswith("_"):
                self.add(receiver, c, "modify", "method", method, target, why)  # torch: add_(), zero_()
            elif method in ("to", "cuda", "cpu") or (method in ("train", "eval") and not kwargs and (
                    not c.args or (len(c.args) == 1 and isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, bool)))):
                # torch modules change in place, tensors return a copy: only possible
                self.add(receiver, c, "modify", "method", method, target, why or "dynamic")
            elif receiver is not None and method != "run_line_magic":
                self.out.method_calls.append({"name": receiver, "method": method, "line": self.line(c), "why": why, "target": target})
        if name in MUTATING_FUNCTIONS and c.args:
            self.add(root_name(c.args[0]), c, "modify", "function", name, self.text.of(c.args[0]), why)
        out = kwargs.get("out")
        if out is not None and name:
            for leaf in _leaves(out):
                self.add(root_name(leaf), c, "modify", "out", name, self.text.of(leaf), why)
        if isinstance(func, ast.Name):
            if func.id in DYNAMIC_CALLS:
                self.add("*", c, "modify", "dynamic", func.id, None, why or "dynamic")
            elif func.id in ("setattr", "delattr") and c.args:
                self.add(root_name(c.args[0]), c, "modify", "attr-store" if func.id == "setattr" else "attr-delete",
                         None, self.text.of(c.args[0]), why)
            else:
                args = [root_name(a) for a in c.args] + [root_name(k.value) for k in c.keywords]
                self.out.calls.append({"name": func.id, "line": self.line(c), "args": [a for a in args if a], "why": why})

    # -- IPython magics, after the input transformer -----------------------------------------
    def magic(self, s: ast.Expr) -> bool:
        c = s.value
        if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and len(c.args) >= 2):
            return False
        kind = c.func.attr
        if kind not in ("run_line_magic", "run_cell_magic") or not all(isinstance(a, ast.Constant) for a in c.args):
            return False
        if not (isinstance(c.func.value, ast.Call) and dotted(c.func.value.func) == "get_ipython"):
            return False
        magic, arg = str(c.args[0].value), str(c.args[1].value)  # type: ignore[attr-defined]
        line = self.line(s)
        if kind == "run_cell_magic":
            body = str(c.args[2].value) if len(c.args) > 2 else ""  # type: ignore[attr-defined]
            if magic in ("time", "capture"):
                if magic == "capture" and arg.split() and not arg.split()[0].startswith("-"):
                    self.add(arg.split()[0], s, "assign", "magic", "%%capture", None, None)
                nested = analyse(body, line_offset=line)  # the body starts on the next line
                self.out.magic_body_end = line + body.count("\n") + 1
                for e in nested.effects:
                    e["via"] = "%%" + magic  # where it raised inside the body is not known here
                self.out.effects.extend(nested.effects)
                self.out.calls.extend(nested.calls)
                self.out.method_calls.extend(nested.method_calls)
                self.out.functions.update(nested.functions)
            return True
        if magic == "time":
            nested = analyse(arg, line_offset=line - 1)
            for e in nested.effects:
                e["via"] = "%time"
            self.out.effects.extend(nested.effects)
            self.out.calls.extend(nested.calls)
            self.out.functions.update(nested.functions)
        elif magic == "reset":
            words = arg.split()
            if not any(w in ("in", "out", "dhist", "array") for w in words):
                self.add("*", s, "delete", "reset", "%reset", None, None)
        elif magic == "reset_selective":
            self.add("*", s, "delete", "reset", "%reset_selective", None, "dynamic")
        elif magic == "xdel":
            for w in arg.split():
                if not w.startswith("-"):
                    self.add(w, s, "delete", "xdel", "%xdel", w, None)
        elif magic == "store" and arg.split()[:1] == ["-r"]:
            for w in arg.split()[1:]:
                self.add(w, s, "assign", "magic", "%store -r", w, None)
        elif magic == "run":
            self.out.script_runs.append({"line": line, "arg": arg})
        return True


_AUG_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.LShift: "<<", ast.RShift: ">>",
}


def _leaves(t: ast.AST) -> List[ast.AST]:
    if isinstance(t, (ast.Tuple, ast.List)):
        out: List[ast.AST] = []
        for e in t.elts:
            out.extend(_leaves(e))
        return out
    if isinstance(t, ast.Starred):
        return _leaves(t.value)
    return [t]


def _inplace_call(value: ast.AST) -> Optional[str]:
    """`df.dropna(inplace=True)` returns None: a name assigned from it is assigned None."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        for k in value.keywords:
            if k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True:
                return value.func.attr
    return None


def _drop_axis(c: ast.Call, kwargs: Dict[str, ast.AST]) -> str:
    if "columns" in kwargs:
        return "columns"
    if "index" in kwargs:
        return "rows"
    axis = kwargs.get("axis")
    if axis is None and len(c.args) >= 2:
        axis = c.args[1]
    if isinstance(axis, ast.Constant):
        if axis.value in (1, "columns"):
            return "columns"
        if axis.value in (0, "index", "rows"):
            return "rows"
    if axis is None and c.args:
        return "rows"  # pandas' default axis is the index
    return "unknown"


def summarise_function(fn: ast.AST) -> FunctionSummary:
    """The globals a function may assign, modify or delete, and the names it calls."""
    args = fn.args  # type: ignore[attr-defined]
    params = {a.arg for a in args.args + args.kwonlyargs + getattr(args, "posonlyargs", [])}
    if args.vararg:
        params.add(args.vararg.arg)
    if args.kwarg:
        params.add(args.kwarg.arg)
    declared_global: Set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Global):
            declared_global.update(node.names)
    inner = CellAnalysis()
    walker = _Walker(inner, _Text("", 0), 0)
    walker.statements(fn.body, None)  # type: ignore[attr-defined]
    assigned_locally = {e["name"] for e in inner.effects if e["op"] == "assign"}
    effects: List[Tuple[str, str]] = []
    seen: Set[Tuple[str, str]] = set()
    for e in inner.effects:
        name = e["name"]
        if name in params:
            continue
        if name in declared_global or name == "*" or (e["op"] == "modify" and name not in assigned_locally):
            key = (name, e["op"])
            if key not in seen:
                seen.add(key)
                effects.append(key)
    calls = [c["name"] for c in inner.calls]
    for m in inner.method_calls:  # unknown methods called on globals may change them
        if m["name"] not in params and m["name"] not in assigned_locally:
            key = (m["name"], "modify")
            if key not in seen:
                seen.add(key)
                effects.append(key)
    return FunctionSummary(getattr(fn, "name", "<lambda>"), effects, calls)


def analyse(code: str, line_offset: int = 0, python: Optional[str] = None) -> CellAnalysis:
    """Effects of a cell's code (IPython syntax allowed), lines counted in the cell's own text.

    `python`: the cell after IPython's input transformer, when the caller has it (the kernel ran
    it, so the recorder does): transforming again costs more than the whole analysis.
    """
    out = CellAnalysis()
    try:
        source = python if python is not None else python_source(code)
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        out.syntax_error = (getattr(exc, "lineno", None) or 1) + line_offset
        return out
    walker = _Walker(out, _Text(source, line_offset), line_offset)
    for stmt in tree.body:
        first = stmt.lineno + line_offset
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.decorator_list:
            first = stmt.decorator_list[0].lineno + line_offset
        last = (getattr(stmt, "end_lineno", None) or stmt.lineno) + line_offset
        compound = isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try)) or type(stmt).__name__ in ("TryStar", "Match")
        walker.statement(stmt, None)
        if out.magic_body_end is not None:  # a %%magic cell is one statement spanning its body
            last, compound, out.magic_body_end = max(last, out.magic_body_end), True, None
        out.statements.append((first, last, compound))
    return out


def script_path(arg: str) -> Optional[Tuple[str, bool]]:
    """The file a `%run` argument runs, and whether it was `-m` (a module, not read here)."""
    try:
        words = shlex.split(arg, posix=True)
    except ValueError:
        words = arg.split()
    takes_value = {"-t": False, "-N": True, "-p": False, "-d": False, "-b": True, "-G": False,
                   "-i": False, "-e": False, "-n": False, "-q": False}
    i = 0
    while i < len(words):
        w = words[i]
        if w == "-m":
            return None
        if w.startswith("-") and w in takes_value:
            i += 2 if takes_value[w] else 1
            continue
        return w, False
    return None
