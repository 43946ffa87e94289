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
_REACHING_METHODS = {"import_module", "__getattribute__", "__getattr__", "reload", "__subclasses__", "mro",
                     "get_referents", "get_referrers", "get_objects"}
_WRITERS = {"setattr", "delattr"}
# Calls whose result holds, or is, what they are given: `next(iter([pd]))`, `max([torch], key=id)`,
# `dict(c=torch)['c']`, `list(map(f, [pd]))[0]`, `functools.partial(f, pd)`, `itertools.chain([np])`.
_PASSING = {"next", "iter", "list", "tuple", "reversed", "sorted", "max", "min", "dict", "set", "frozenset", "map",
            "filter", "zip", "enumerate", "partial", "chain", "cycle", "repeat", "islice", "tee", "compress",
            "accumulate", "reduce", "copy", "deepcopy", "SimpleNamespace", "ChainMap", "OrderedDict",
            "defaultdict", "deque", "namedtuple", "cast", "attrgetter", "itemgetter", "methodcaller"}
# Marks in the reaching set: a function of the cells whose result reaches a library (`name()`), an
# attribute some class body or store binds to what reaches one (`.name`).
_RETURNS = "()"
_HELD = "."
_STRING_CODE = {"exec", "eval", "compile", "execfile"}
# Names of functions that write into whatever object they are handed, however they are reached:
# as a bare name that is not called on the spot (`s = setattr`, `{'f': setattr}`, `for f in
# [setattr]`), as an attribute (`builtins.setattr`, `operator.setitem`), or spelled in a string
# (`getattr(builtins, 'setattr')`, `methodcaller('__setattr__', ...)`): where they are called from
# then is out of sight.
_WRITING_NAMES = _WRITERS | {"__setattr__", "__delattr__", "setitem", "delitem", "exec", "execfile"}
_WRITING_STRINGS = _WRITING_NAMES | {"eval", "compile", "__setitem__", "__delitem__"}
# Library functions that install code into a library class (`@pd.api.extensions.
# register_dataframe_accessor('drop')` replaces `DataFrame.drop`), and modules that patch or reach
# under any object (`mock.patch.object(pd.DataFrame, ...)`, `gc.get_referents(cls.__dict__)[0]`,
# `ctypes`).
_INSTALLERS = {"register_dataframe_accessor", "register_series_accessor", "register_index_accessor", "_register_accessor",
               "get_referents", "get_referrers", "get_objects", "pythonapi", "patch", "monkeypatch"}
_PATCHING_MODULES = {"mock", "unittest", "ctypes", "forbiddenfruit"}
# A library module's number constants (`np.nan`, `math.pi`, `np.inf`, `np.newaxis`): a float or
# None, whatever holds it after (`df['Age'] = np.nan` writes no library object into `df`). Every
# installed library the replay follows binds these names to floats or None only.
_CONSTANTS = {"nan", "NaN", "NAN", "inf", "Inf", "infty", "Infinity", "PINF", "NINF", "pi", "e", "tau",
              "euler_gamma", "newaxis"}
# Builtins that only look at a module they are given.
_READS_ONLY = {"print", "dir", "help", "type", "id", "repr", "str", "isinstance", "hasattr", "callable", "display"}
# Attributes that lead from any object to a class, a module namespace or library code
# (`df.__class__.drop = None`, `f.__globals__['np'] = ...`, `().__class__.__base__.__subclasses__()`).
_REACHING_DUNDERS = {"__class__", "__mro__", "__bases__", "__base__", "__objclass__", "__globals__", "__builtins__",
                     "__self__", "__func__", "__wrapped__", "__closure__", "__code__", "__defaults__",
                     "__kwdefaults__", "__dict__", "__module__", "__init_subclass__", "__subclasses__"}
_STRING_CODE_METHODS = {"run_cell", "run_code", "ex", "ev", "safe_execfile", "run_path", "run_module"}
# Mutating methods: `pd.DataFrame._metadata.append(...)` changes a library class in place.
_MUTATORS = {"append", "extend", "insert", "update", "setdefault", "add", "remove", "discard", "pop", "popitem",
             "clear", "__setitem__", "__delitem__", "__setattr__", "__delattr__", "sort", "reverse"}
# Namespaces of settings a notebook commonly writes (`pd.options.display.max_rows = 100`,
# `plt.rcParams['figure.figsize'] = (8, 4)`, `os.environ[...] = ...`, `sys.path.append(...)`).
_SETTINGS_ATTRS = {"options", "rcParams", "rc", "environ", "path", "argv"}
# Of those, the ones written only by item or method (`os.environ['X'] = ...`, `sys.path.append(d)`):
# an attribute stored on them (`os.environ.pd = pd`) is no setting.
_ITEM_SETTINGS = {"environ", "path", "argv"}


def library_patch(cells: Iterable[Tuple[int, ast.AST]], imported: Set[str], modules: Set[str],
                  dynamic: bool = True) -> Optional[str]:
    """Why the executed cells may have changed an installed library, or None. `imported`: names an
    import bound; `modules`: those that only a plain `import` binds, in every cell, so they hold a
    module (a plain setting counts only below one of them: `from m import C` may bind a class, whose
    `fit = None` is no setting; and `os.remove(f)`, `np.append(a, 1)` call a module's function,
    where `x.remove(...)` on anything else may change a library's list in place); `dynamic`:
    some cell may bind names the parser does not see (then no name is known to hold a new value)."""
    trees = list(cells)
    reaching = set(imported) | _BUILTINS_ROOTS
    functions = _functions(trees)
    grew = True
    while grew:
        before = len(reaching)
        for _, tree in trees:
            _spread(tree, reaching, functions)
        grew = len(reaching) != before
    containers = set() if dynamic else _containers(trees)
    rebound = _rebound_elsewhere(trees)
    for index, tree in trees:
        fresh = {} if dynamic else _fresh_names(tree, rebound)
        found = _first_write(tree, reaching, modules, lambda n, at: n in containers or n in fresh.get(id(at), ()),
                             set(functions))
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
            if isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        stmt._in_class = True  # (its first parameter may be `self`, whatever the call)
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
    if isinstance(node, ast.Attribute) and node.attr in _REACHING_DUNDERS:
        return True
    if isinstance(node, ast.Attribute) and node.attr in _CONSTANTS and isinstance(node.value, ast.Name):
        return False
    if isinstance(node, ast.Attribute) and _HELD + node.attr in reaching:
        return True  # (an attribute bound to a library object: `class K: T = torch` or `k.T = torch`, then `K.T`)
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
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if name in _PASSING and any(reaches(a, reaching) for a in [*node.args, *(k.value for k in node.keywords)]):
            return True
        # a function of the cells' that returns (or yields) what reaches a library: `get()`, `K.make()`
        if name is not None and name + _RETURNS in reaching:
            return True
        if isinstance(f, ast.Call):  # (`partial(f, pd)()`, `attrgetter('x')(pd)`)
            return reaches(f, reaching) or any(reaches(a, reaching) for a in node.args)
    return False


def _bind(target: ast.AST, reaching: Set[str]) -> None:
    for n in ast.walk(target):
        if isinstance(n, ast.Name):
            reaching.add(n.id)
    if isinstance(target, ast.Attribute):
        reaching.add(_HELD + target.attr)


def _class_attributes(tree: ast.AST, reaching: Set[str]) -> None:
    """`class K: T = torch` binds `K.T` (and `self.T` for its objects) to a library module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                value = getattr(stmt, "value", None)
                if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and reaches(value, reaching):
                    for t in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name):
                                reaching.add(_HELD + n.id)


def _spread(tree: ast.AST, reaching: Set[str], functions: Dict[str, List[ast.AST]]) -> None:
    for name, defs in functions.items():
        if name + _RETURNS not in reaching and any(_returns_reaching(fn, reaching) for fn in defs):
            reaching.add(name + _RETURNS)
    _class_attributes(tree, reaching)
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
            # Every function this call may run with a library-reaching argument: its callee (the
            # parameters those arguments land in), and functions handed to it alongside (`map(f,
            # [pd])`, `functools.partial(f, pd)`: every parameter).
            f = node.func
            if isinstance(f, ast.Lambda):
                reaching.update(_receiving(f, node, reaching, (0,)))
            elif isinstance(f, (ast.Name, ast.Attribute)):
                # (through an attribute, or a method taken by name: the first parameter may be `self`)
                for fn in functions.get(f.id if isinstance(f, ast.Name) else f.attr, ()):
                    shifts = (0,) if isinstance(f, ast.Name) and not getattr(fn, "_in_class", False) else (0, 1)
                    reaching.update(_receiving(fn, node, reaching, shifts))
            for c in args:
                if isinstance(c, ast.Lambda):
                    reaching.update(_params(c))
                name = c.id if isinstance(c, ast.Name) else c.attr if isinstance(c, ast.Attribute) else None
                for fn in functions.get(name or "", ()):
                    reaching.update(_params(fn))


def _returns_reaching(fn: ast.AST, reaching: Set[str]) -> bool:
    """`fn` (a def or a lambda) may hand back what reaches a library: a `return` or `yield` of it."""
    if isinstance(fn, ast.Lambda):
        return reaches(fn.body, reaching)
    return any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) and reaches(n.value, reaching)
               for n in ast.walk(fn))


def _receiving(fn: ast.AST, call: ast.Call, reaching: Set[str], shifts: Tuple[int, ...]) -> List[str]:
    """The parameters of `fn` that a library-reaching argument of `call` may land in, the call's
    positions counted from each of `shifts` (1: a bound method's `self` comes first). Every one
    when a decorator may rearrange them or a `*args` / `**kwargs` hides where they land."""
    if getattr(fn, "decorator_list", None) or any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return _params(fn)
    a = fn.args
    positional = [x.arg for x in a.posonlyargs + a.args]
    by_keyword = {x.arg for x in a.args + a.kwonlyargs}
    out: List[str] = []
    for i, arg in enumerate(call.args):
        if not reaches(arg, reaching):
            continue
        for shift in shifts:
            j = i + shift
            if j < len(positional):
                out.append(positional[j])
            elif a.vararg is not None:
                out.append(a.vararg.arg)
            else:
                return _params(fn)  # (a call that would not bind: read as reaching every parameter)
    for k in call.keywords:
        if reaches(k.value, reaching):
            if k.arg in by_keyword:
                out.append(k.arg)
            elif a.kwarg is not None:
                out.append(a.kwarg.arg)
            else:
                return _params(fn)
    return out


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
    if any(a.startswith("__") for a in attrs):
        return False  # (`plt.rcParams.__class__.__setitem__ = ...` is no setting)
    if any(a in _SETTINGS_ATTRS for a in attrs):
        # (below the namespace, option names: `pd.options.display.max_rows`, not `os.environ.pd.DataFrame`)
        at = next(i for i, a in enumerate(attrs) if a in _SETTINGS_ATTRS)
        if attrs[at] in _ITEM_SETTINGS:
            return at == len(attrs) - 1
        return all(a.islower() or "_" in a or a.isdigit() for a in attrs[at + 1:])
    if value is None or not attrs or not all(a.islower() and not a.startswith("_") for a in attrs):
        return False
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _first_write(tree: ast.AST, reaching: Set[str], modules: Set[str], new_value,
                 own: Set[str] = frozenset()) -> Optional[Tuple[str, int]]:
    """The first write into something library-reaching; `new_value(name, node)`: the bare name
    certainly holds a container the notebook built when `node` runs (a write into it is no patch);
    `own`: the notebook's functions and methods, whose bodies are read for what they write."""
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            value = None if isinstance(node, ast.Delete) else node.value
            for t in targets:
                for sub in ast.walk(t):  # (`a, pd.x = ...` unpacks into a store too)
                    if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(sub.ctx, (ast.Store, ast.Del)) \
                            and reaches(sub.value, reaching) and \
                            not (isinstance(sub.value, ast.Name) and new_value(sub.value.id, node)):
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
            elif isinstance(f, ast.Attribute) and f.attr in _MUTATORS and \
                    not (isinstance(f.value, ast.Name) and f.value.id in modules):
                root, attrs = _chain(f.value)
                # `lst.append(1)` changes the notebook's list; `np.x.append(1)` and `x = pd.DataFrame._metadata;
                # x.append(...)` something a module or class holds
                if reaches(f.value, reaching) and not (isinstance(f.value, ast.Name) and new_value(f.value.id, node)) \
                        and not _plain_setting(root, attrs, None, modules):
                    return "changes a library object in place", node.lineno
            for a in args + [k.value for k in node.keywords]:
                if isinstance(a, ast.Name) and a.id in _WRITERS:
                    return f"hands `{a.id}` to other code", node.lineno
                # (`argparse.Namespace.__init__(np, x=1)`, `optparse.Values.ensure_value(np, ...)`: a
                # library's method given a module as its `self` writes into it)
                module = a.value if isinstance(a, ast.Starred) else a
                # (the notebook's own function or method is read for what it writes; a library's
                # method of the same name, reached from an import, is not)
                notebooks = (isinstance(f, ast.Name) and f.id in own) or \
                    (isinstance(f, ast.Attribute) and f.attr in own and not reaches(f.value, reaching))
                if isinstance(module, ast.Name) and module.id in modules and not notebooks and \
                        not (isinstance(f, ast.Name) and f.id in _READS_ONLY):
                    return f"hands the module `{module.id}` to other code", node.lineno
        found = _writer_out_of_sight(node, callees)
        if found is not None:
            return found, getattr(node, "lineno", 0)
    return None


def _writer_out_of_sight(node: ast.AST, callees: Set[int]) -> Optional[str]:
    """How `node` takes hold of a function that writes into objects, or of a tool that patches or
    reaches under them, other than by calling a builtin on the spot (`callees`: the ids of the Name
    nodes that are the function of a call, which the rules above judge)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in _WRITING_NAMES | _STRING_CODE \
            and id(node) not in callees:
        return f"takes `{node.id}` as a value"
    if isinstance(node, ast.Attribute) and (node.attr in _WRITING_NAMES - {"__setattr__", "__delattr__"} or
                                            node.attr in _INSTALLERS):
        return f"reaches `.{node.attr}`"
    if isinstance(node, ast.Attribute) and node.attr in ("eval", "compile") and isinstance(node.value, ast.Name) \
            and node.value.id in _BUILTINS_ROOTS:
        return f"reaches `{node.value.id}.{node.attr}`"
    if isinstance(node, ast.Constant) and type(node.value) is str and node.value in _WRITING_STRINGS:
        return f"names `{node.value}` in a string"
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        tops = imported_tops(node)
        names = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
        if any(t in _PATCHING_MODULES for t in tops) or any(n in _PATCHING_MODULES | _INSTALLERS for n in names):
            return "imports a tool that patches objects or reaches under them"
        if isinstance(node, ast.ImportFrom) and tops[0] in _BUILTINS_ROOTS:
            return "imports names from the builtins"
    return None


def imported_tops(node) -> List[str]:
    """The top-level packages an import statement names ('.' for a relative import)."""
    if isinstance(node, ast.Import):
        return [a.name.split(".")[0] for a in node.names]
    return [(node.module or "").split(".")[0]] if not node.level else ["."]


def _new_container(value: Optional[ast.AST]) -> bool:
    """An expression that builds a new object of the notebook's: a display, a comprehension, a
    constant, an f-string."""
    return isinstance(value, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
                              ast.GeneratorExp, ast.Constant, ast.JoinedStr))


def _bindings(tree: ast.AST):
    """(name, node) for every way `tree` binds a name in any scope (a plain `name = <new container>`
    and `name += ...` included, as node ast.Assign / ast.AugAssign)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            yield node.id, node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                yield (a.asname or a.name.split(".")[0]), node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node
        elif isinstance(node, ast.arg):
            yield node.arg, node
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                yield n, node
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, node
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) if hasattr(ast, "MatchAs") else False:
            if node.name:
                yield node.name, node
        elif hasattr(ast, "MatchMapping") and isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest, node


def _containers(trees) -> Set[str]:
    """Names every binding of which, in every cell and scope, is `name = <new container>` (or
    `name += ...`, `del name`): whatever they hold is a container the notebook built (a list of
    library classes, `models = [LinearRegression, Ridge]`, is the notebook's list)."""
    plain: Dict[str, bool] = {}
    for _, tree in trees:
        direct = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and _new_container(node.value):
                direct.update(id(t) for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and _new_container(node.value) and isinstance(node.target, ast.Name):
                direct.add(id(node.target))
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                direct.add(id(node.target))
            elif isinstance(node, ast.Delete):
                direct.update(id(t) for t in node.targets if isinstance(t, ast.Name))
        for name, node in _bindings(tree):
            plain[name] = plain.get(name, True) and id(node) in direct
    return {n for n, ok in plain.items() if ok}


def _rebound_elsewhere(trees) -> Set[str]:
    """Names some function may rebind in the notebook's namespace (`global n`): a call anywhere may
    change what they hold."""
    return {n for _, tree in trees for node in ast.walk(tree) if isinstance(node, (ast.Global, ast.Nonlocal))
            for n in node.names}


def _fresh_names(tree: ast.AST, rebound: Set[str]) -> Dict[int, Set[str]]:
    """id(statement) -> the names that certainly hold a container the notebook built when that
    statement of the cell starts: bound so by an earlier statement of the same straight-line
    code (`metrics = {}` after `from sklearn import metrics`), with nothing binding them between."""
    out: Dict[int, Set[str]] = {}
    _fresh_block(getattr(tree, "body", []), set(), rebound, out)
    return out


def _fresh_block(body: List[ast.stmt], fresh: Set[str], rebound: Set[str], out: Dict[int, Set[str]]) -> Set[str]:
    fresh = set(fresh)
    for stmt in body:
        bound = {n for n, _ in _bindings(stmt)}
        here = fresh - bound  # (`x[0] = (x := pd)`: a binding inside the statement runs first)
        for node in ast.walk(stmt):
            out[id(node)] = here
        if isinstance(stmt, (ast.If, ast.With, ast.AsyncWith, ast.Try, ast.For, ast.AsyncFor, ast.While)) or \
                (hasattr(ast, "TryStar") and isinstance(stmt, ast.TryStar)):
            # (`here` lacks every name bound anywhere in the statement: a loop's later rounds, a
            # branch not taken, a `try` body cut short)
            for block in _blocks(stmt):
                _fresh_block(block, here, rebound, out)
        _run_later(stmt, out)
        fresh = here
        if isinstance(stmt, ast.Assign) and _new_container(stmt.value):
            fresh |= {t.id for t in stmt.targets if isinstance(t, ast.Name) and t.id not in rebound}
    return fresh


def _run_later(stmt: ast.AST, out: Dict[int, Set[str]]) -> None:
    """Function, lambda and class bodies run at another time: nothing is fresh in them."""
    for node in ast.walk(stmt):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            for inner in ast.walk(node):
                out[id(inner)] = set()


def _blocks(stmt: ast.stmt) -> List[List[ast.stmt]]:
    out = []
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block:
            out.append(block)
    for handler in getattr(stmt, "handlers", []) or []:
        out.append(handler.body)
    return out


__all__ = ["imported_tops", "library_patch", "reaches"]
