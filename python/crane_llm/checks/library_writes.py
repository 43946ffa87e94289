"""Whether the executed cells of a replay may have changed an installed library (or the builtins),
read statically from all of them together.

A name is *library-reaching* when it may hold a module, a library class or function: an import
bound it, or it was bound from an expression that reaches one without building a new value
(`D = pd.DataFrame`, `for m in [pd]`, `m := pd`, `getattr(pd, 'DataFrame')`, `type(df)`,
`vars(pd)[...]`), or it is a parameter of a function some cell calls with such a value (by name,
as a method, inline, through `map`), or a parameter whose default is one. A cell changes a
library when it writes into something library-reaching (an attribute or item store or delete, a
`setattr`/`delattr`/`__setattr__`, a mutating method of a chain), hands `setattr`/`delattr` around
as a value, or runs code from a string (`exec`, `eval`, `compile`, `run_cell`): whatever that does
cannot be read. A plain setting (`pd.options.display.max_rows = 5`, a literal into a lower-case
module attribute) is not a change. Nothing is executed.
"""

from __future__ import annotations

import ast
from typing import Dict, Iterable, List, Optional, Set, Tuple

_BUILTINS_ROOTS = {"builtins", "__builtins__", "__builtin__"}
# Builtins whose result is a module, a class or a namespace of one, whatever they are given.
_REACHING_CALLS = {"getattr", "vars", "type", "__import__", "globals", "locals", "super", "object"}
_REACHING_METHODS = {"import_module", "__getattribute__", "__getattr__", "reload"}
_WRITERS = {"setattr", "delattr"}
_STRING_CODE = {"exec", "eval", "compile", "execfile"}
_STRING_CODE_METHODS = {"run_cell", "run_code", "ex", "ev", "safe_execfile", "run_path", "run_module"}
# Mutating methods: `pd.DataFrame._metadata.append(...)` changes a library class in place.
_MUTATORS = {"append", "extend", "insert", "update", "setdefault", "add", "remove", "discard", "pop", "popitem",
             "clear", "__setitem__", "__delitem__", "__setattr__", "__delattr__", "sort", "reverse"}
# Namespaces of settings a notebook commonly writes (`pd.options.display.max_rows = 100`,
# `plt.rcParams['figure.figsize'] = (8, 4)`, `os.environ[...] = ...`, `sys.path.append(...)`).
_SETTINGS_ATTRS = {"options", "rcParams", "rc", "environ", "path", "argv"}


def library_patch(cells: Iterable[Tuple[int, ast.AST]], imported: Set[str], modules: Set[str]) -> Optional[str]:
    """Why the executed cells may have changed an installed library, or None. `imported`: names an
    import bound; `modules`: those bound to a module by `import` (a plain setting counts only below
    one of them: `from m import C` may bind a class, whose `fit = None` is no setting)."""
    trees = list(cells)
    reaching = set(imported) | _BUILTINS_ROOTS
    functions = _functions(trees)
    grew = True
    while grew:
        before = len(reaching)
        for _, tree in trees:
            _spread(tree, reaching, functions)
        grew = len(reaching) != before
    for index, tree in trees:
        found = _first_write(tree, reaching, modules)
        if found is not None:
            what, line = found
            return (f"executed cell {index + 1} changes an installed library or the builtins: it {what} (line "
                    f"{line}), and the recorded facts cannot show how")
    return None


def _functions(trees) -> Dict[str, List[ast.AST]]:
    """Every def and every lambda bound to a name, by name (methods included: `obj.go(pd)`)."""
    out: Dict[str, List[ast.AST]] = {}
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, []).append(node.value)
    return out


def _params(fn: ast.AST) -> List[str]:
    a = fn.args
    return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]]


def reaches(node: Optional[ast.AST], reaching: Set[str]) -> bool:
    """`node` may evaluate to something library-reaching without building a new value."""
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id in reaching
    if isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        return reaches(node.value, reaching)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(reaches(e, reaching) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(reaches(v, reaching) for v in node.values)
    if isinstance(node, ast.NamedExpr):
        return reaches(node.value, reaching)
    if isinstance(node, ast.IfExp):
        return reaches(node.body, reaching) or reaches(node.orelse, reaching)
    if isinstance(node, ast.BoolOp):
        return any(reaches(v, reaching) for v in node.values)
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name) and f.id in _REACHING_CALLS:
            return True
        if isinstance(f, ast.Attribute) and f.attr in _REACHING_METHODS:
            return True
        # `dict.get`, `list.pop`, `next(iter(...))` on a container of library objects
        if isinstance(f, ast.Attribute) and f.attr in ("get", "pop", "copy", "values", "items") and \
                reaches(f.value, reaching):
            return True
        if isinstance(f, ast.Name) and f.id in ("next", "iter", "list", "tuple", "reversed", "sorted") and \
                any(reaches(a, reaching) for a in node.args):
            return True
    return False


def _bind(target: ast.AST, reaching: Set[str]) -> None:
    for n in ast.walk(target):
        if isinstance(n, ast.Name):
            reaching.add(n.id)


def _spread(tree: ast.AST, reaching: Set[str], functions: Dict[str, List[ast.AST]]) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and reaches(node.value, reaching):
            for t in node.targets:
                _bind(t, reaching)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and reaches(node.value, reaching):
            _bind(node.target, reaching)
        elif isinstance(node, ast.NamedExpr) and reaches(node.value, reaching):
            _bind(node.target, reaching)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and reaches(node.iter, reaching):
            _bind(node.target, reaching)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None and \
                reaches(node.context_expr, reaching):
            _bind(node.optional_vars, reaching)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            positional = a.posonlyargs + a.args
            for arg, default in zip(positional[len(positional) - len(a.defaults):], a.defaults):
                if reaches(default, reaching):
                    reaching.add(arg.arg)
            for arg, default in zip(a.kwonlyargs, a.kw_defaults):
                if reaches(default, reaching):
                    reaching.add(arg.arg)
        elif isinstance(node, ast.Call):
            args = list(node.args) + [k.value for k in node.keywords]
            if not any(reaches(x, reaching) for x in args):
                continue
            # Every function this call may run with a library-reaching argument: its callee, and
            # functions handed to it alongside (`map(f, [pd])`, `functools.partial(f, pd)`).
            callees = [node.func] + args
            for c in callees:
                if isinstance(c, ast.Lambda):
                    reaching.update(_params(c))
                name = c.id if isinstance(c, ast.Name) else c.attr if isinstance(c, ast.Attribute) else None
                for fn in functions.get(name or "", ()):
                    reaching.update(_params(fn))


def _chain(node: ast.AST) -> Tuple[ast.AST, List[str]]:
    """The root expression and the attribute names of `a.b[c].d` (subscripts walked through)."""
    attrs: List[str] = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            attrs.append(node.attr)
        node = node.value
    return node, attrs[::-1]


def _plain_setting(root: ast.AST, attrs: List[str], value: Optional[ast.AST], modules: Set[str]) -> bool:
    """A literal assigned to a lower-case public attribute of a module an `import` bound
    (`torch.backends.cudnn.benchmark = True`), or anything written under a settings namespace."""
    if not isinstance(root, ast.Name) or root.id not in modules or root.id in _BUILTINS_ROOTS:
        return False
    if any(a in _SETTINGS_ATTRS for a in attrs):
        return True
    if value is None or not attrs or not all(a.islower() and not a.startswith("_") for a in attrs):
        return False
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _first_write(tree: ast.AST, reaching: Set[str], modules: Set[str]) -> Optional[Tuple[str, int]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            value = None if isinstance(node, ast.Delete) else node.value
            for t in targets:
                for sub in ast.walk(t):  # (`a, pd.x = ...` unpacks into a store too)
                    if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(sub.ctx, (ast.Store, ast.Del)) \
                            and reaches(sub.value, reaching):
                        root, attrs = _chain(sub)
                        if not _plain_setting(root, attrs, value, modules):
                            return "writes into a library object", node.lineno
        elif isinstance(node, ast.Call):
            f = node.func
            args = list(node.args)
            if isinstance(f, ast.Name) and f.id in _STRING_CODE:
                return f"runs code from a string (`{f.id}`)", node.lineno
            if isinstance(f, ast.Attribute) and f.attr in _STRING_CODE_METHODS:
                return f"runs code from a string (`.{f.attr}`)", node.lineno
            if isinstance(f, ast.Name) and f.id in _WRITERS:
                first = args[0] if args else None
                if first is None or isinstance(first, ast.Starred) or reaches(first, reaching):
                    return f"calls `{f.id}` on a library object", node.lineno
            if isinstance(f, ast.Attribute) and f.attr in ("__setattr__", "__delattr__"):
                # `object.__setattr__(pd.X, ...)`, `type.__setattr__(...)`, `pd.X.__setattr__(...)`
                if reaches(f.value, reaching) or any(reaches(a, reaching) or isinstance(a, ast.Starred) for a in args):
                    return f"calls `{f.attr}` on a library object", node.lineno
            elif isinstance(f, ast.Attribute) and f.attr in _MUTATORS:
                root, attrs = _chain(f.value)
                # `lst.append(1)` changes a list; `np.x.append(1)` something a module or class holds
                if (attrs or not isinstance(root, ast.Name)) and reaches(f.value, reaching) \
                        and not _plain_setting(root, attrs, None, modules):
                    return "changes a library object in place", node.lineno
            for a in args + [k.value for k in node.keywords]:
                if isinstance(a, ast.Name) and a.id in _WRITERS:
                    return f"hands `{a.id}` to other code", node.lineno
    return None


__all__ = ["library_patch", "reaches"]
