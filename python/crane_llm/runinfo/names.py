"""Which kernel names a cell reads, and which attributes it uses on each, in first-use order.

The cell is walked in the order Python evaluates it (right-hand side before the target, a loop's
iterable before its body), so `df = df.dropna()` reads the kernel's `df` while
`df = load(); df.head()` does not. Function and class bodies read globals when they run; their
free names count as read where they are defined.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Set

from ..checks.shell_source import prepare_live
from ..checks.static_reads import keys_plain, mro
from ..kernel.source import parse_cell, python_source


class _Reads(ast.NodeVisitor):
    def __init__(self) -> None:
        self.order: List[str] = []
        self.attributes: Dict[str, List[str]] = {}
        self.bound: Set[str] = set()  # names the cell has assigned so far, at module level
        self.local_scopes: List[Set[str]] = []  # enclosing function/comprehension locals

    # -- reading and binding -------------------------------------------------------------
    def _is_kernel_read(self, name: str) -> bool:
        if any(name in scope for scope in self.local_scopes):
            return False
        return name not in self.bound

    def _read(self, name: str) -> bool:
        if name == "get_ipython":  # inserted by IPython's transformer for %magics and !commands
            return False
        if not self._is_kernel_read(name):
            return False
        if name not in self.attributes:
            self.order.append(name)
            self.attributes[name] = []
        return True

    def _bind(self, name: str) -> None:
        if self.local_scopes:
            self.local_scopes[-1].add(name)
        else:
            self.bound.add(name)

    def _bind_target(self, target: ast.AST) -> None:
        """Visit an assignment target: names are bound, but subscripts/attributes read their base."""
        if isinstance(target, ast.Name):
            self._bind(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind_target(elt)
        elif isinstance(target, ast.Starred):
            self._bind_target(target.value)
        else:  # x[i] = ..., x.a = ...: x itself is read
            self.visit(target)

    # -- expressions -----------------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._read(node.id)
        elif isinstance(node.ctx, ast.Del):
            self._read(node.id)
            self.bound.add(node.id)
        else:
            self._bind(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        base = node.value
        if isinstance(base, ast.Name) and isinstance(base.ctx, ast.Load):
            if self._read(base.id):
                attrs = self.attributes[base.id]
                if node.attr not in attrs:
                    attrs.append(node.attr)
            return
        self.visit(base)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self._bind(node.target.id)

    def _comprehension(self, node: ast.AST, elements: List[ast.AST]) -> None:
        generators = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter)  # evaluated in the enclosing scope
        self.local_scopes.append(set())
        for i, gen in enumerate(generators):
            if i:
                self.visit(gen.iter)
            self._bind_target(gen.target)
            for cond in gen.ifs:
                self.visit(cond)
        for element in elements:
            self.visit(element)
        self.local_scopes.pop()

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_ListComp
    visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, [node.key, node.value])

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._defaults(node.args)
        self.local_scopes.append(_parameters(node.args))
        self.visit(node.body)
        self.local_scopes.pop()

    def visit_Call(self, node: ast.Call) -> None:
        code = _magic_body(node)
        if code is None:
            self.generic_visit(node)
            return
        try:
            inner = ast.parse(python_source(code), mode="exec")
        except (SyntaxError, ValueError):
            return
        for stmt in inner.body:
            self.visit(stmt)

    # -- statements ------------------------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self._bind_target(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self._bind_target(node.target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self._read(node.target.id)
        self.visit(node.value)
        self._bind_target(node.target)

    def visit_For(self, node: ast.AST) -> None:
        self.visit(node.iter)  # type: ignore[attr-defined]
        self._bind_target(node.target)  # type: ignore[attr-defined]
        for stmt in node.body + node.orelse:  # type: ignore[attr-defined]
            self.visit(stmt)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.AST) -> None:
        for item in node.items:  # type: ignore[attr-defined]
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self._bind_target(item.optional_vars)
        for stmt in node.body:  # type: ignore[attr-defined]
            self.visit(stmt)

    visit_AsyncWith = visit_With

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name:
            self._bind(node.name)
        for stmt in node.body:
            self.visit(stmt)

    def visit_Import(self, node: ast.AST) -> None:
        for alias in node.names:  # type: ignore[attr-defined]
            if alias.name != "*":
                self._bind(alias.asname or alias.name.split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_Global(self, node: ast.Global) -> None:
        if self.local_scopes:
            for name in node.names:
                self.local_scopes[-1].discard(name)

    def _defaults(self, args: ast.arguments) -> None:
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)

    def visit_FunctionDef(self, node: ast.AST) -> None:
        for decorator in node.decorator_list:  # type: ignore[attr-defined]
            self.visit(decorator)
        self._defaults(node.args)  # type: ignore[attr-defined]
        self._bind(node.name)  # type: ignore[attr-defined]
        scope = _parameters(node.args) | _locals_of(node.body)  # type: ignore[attr-defined]
        self.local_scopes.append(scope)
        for stmt in node.body:  # type: ignore[attr-defined]
            self.visit(stmt)
        self.local_scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expr in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(expr)
        self.local_scopes.append(_locals_of(node.body))
        for stmt in node.body:
            self.visit(stmt)
        self.local_scopes.pop()
        self._bind(node.name)


_CODE_MAGICS = {"run_line_magic": ("time",), "run_cell_magic": ("time", "capture", "timeit")}


def _magic_body(node: ast.Call) -> Optional[str]:
    """The Python code a timing/capture magic runs (`%time f(x)`, `%%time`), else None."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in _CODE_MAGICS):
        return None
    owner = func.value
    if not (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "get_ipython"):
        return None
    args = node.args
    if not args or not isinstance(args[0], ast.Constant) or args[0].value not in _CODE_MAGICS[func.attr]:
        return None
    body = args[-1]
    if not isinstance(body, ast.Constant) or not isinstance(body.value, str):
        return None
    if args[0].value == "timeit" and isinstance(args[1], ast.Constant) and str(args[1].value).strip():
        return None  # options on the %%timeit line change what runs; leave it
    return body.value


def _parameters(args: ast.arguments) -> Set[str]:
    names = [a.arg for a in list(getattr(args, "posonlyargs", [])) + list(args.args) + list(args.kwonlyargs)]
    if args.vararg:
        names.append(args.vararg.arg)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return set(names)


def _locals_of(body: List[ast.stmt]) -> Set[str]:
    """Names a function body assigns anywhere (Python makes them local), minus `global` ones."""
    assigned: Set[str] = set()
    declared_global: Set[str] = set()
    stack: List[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            assigned.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assigned.add(node.name)
            continue  # a nested scope's own locals are not ours
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                assigned.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            assigned.add(node.name)
        elif isinstance(node, ast.Global):
            declared_global.update(node.names)
        elif isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return assigned - declared_global


def cell_reads(source: str, shell: Any = None, namespace: Any = None, tree: Optional[ast.Module] = None) -> Optional[List[tuple]]:
    """[(name, [attribute, ...]), ...] for every global the cell reads before assigning it.

    The cell is read as `shell` will compile it (its input transformers and the future flags
    earlier cells set; checks/shell_source.py, shared with the built-in checks). None when the
    cell does not parse (the built-in checks report the SyntaxError), and no names when the
    shell's prefilter may rewrite the line (automagic, autocall): what it runs is not this code.
    `tree`: the cell as the checks read it (`checks.read_cell`), so the kernel reply parses it once.
    """
    if tree is not None:
        pass
    elif shell is None:
        try:
            tree = parse_cell(source)
        except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
            return None
    else:
        try:
            prepared = prepare_live(source, shell, namespace)
            if prepared.rewritten is not None:
                return []
            tree = compile(prepared.code, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | prepared.flags,
                           dont_inherit=True)
        except Exception:  # (IPython's transformer gives up on some cells with RuntimeError)
            return None
    reads = _Reads()
    try:
        for stmt in tree.body:
            reads.visit(stmt)
    except RecursionError:  # an expression nested deeper than the visitor's stack (`a+a+...+a`)
        return None
    return [(name, reads.attributes[name]) for name in reads.order]


def kernel_reads(source: str, namespace: dict, shell: Any = None, tree: Optional[ast.Module] = None) -> List[tuple]:
    """`cell_reads` restricted to names that exist in the kernel namespace."""
    found = cell_reads(source, shell, namespace, tree) or []
    return [(name, attrs) for name, attrs in found if held(namespace, name) is not _ABSENT]


_ABSENT = object()


def held(namespace: Any, name: str) -> Any:
    """What the namespace holds under `name`, read with dict's own methods (a shell's `user_ns` of a
    dict subclass never has its `__contains__` or `__getitem__` run), or `_ABSENT`. Only while every
    key is an exact `str`: a key of the notebook's hashing like `name` would have its `__eq__` run."""
    if dict not in mro(type(namespace)) or not keys_plain(namespace):
        return _ABSENT
    return dict.get(namespace, name, _ABSENT)
