"""Whether a Python function is the code a library's file compiles to, by identity of content and
not by the file name it carries.

A file name proves nothing: a notebook can `compile(src, pandas.core.frame.__file__, 'exec')`,
`code.replace(co_filename=...)`, swap a library function's `__code__`, rebuild one with
`types.FunctionType(lib_code, my_globals)`, rewrite its `__defaults__` / `__kwdefaults__` in place
or the contents of its closure cells. A function counts as the library's own here only when:

- its globals are the very `__dict__` of the loaded module of that file;
- its code equals (code-object equality: bytecode, constants, names, line table) the code object
  the module's cached bytecode (`__pycache__`, what the import loaded) holds at the same name and
  line; without a cached file, the one compiling the module's source gives;
- its defaults are what the `def` line says: the same literal, or the very object a name or a
  dotted name in the module resolves to (read from module and class dictionaries, nothing run).

The closure cells are judged by the caller (provenance.own), which knows what a library value is.
Every reference file is read once per process; code objects cannot change, so each verdict is
remembered by the identity of the (function, code, defaults) it was made for.
"""

from __future__ import annotations

import builtins
import abc
import ast
import dis
import importlib.util
import marshal
import math
import os
import re
import types
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from .outcome import Stop
from .static_reads import loaded_module, checked, is_static_type, lookup_static, mro, plain_keys

_PYC_HEADER = 16
_PLAIN_CONSTS = (str, bytes, int, float, complex, bool, type(None), type(Ellipsis))
_ABSENT = object()


class _ModuleReference:
    """What a library module's file says: its code objects by (name, first line), its source lines."""

    def __init__(self, filename: str, cached: Optional[str]):
        self.filename = filename
        self.codes: Dict[Tuple[str, int], List[types.CodeType]] = {}
        # id(code) -> the code object whose constants hold it (a method's class body), any Python
        self.parents: Dict[int, types.CodeType] = {}
        top = self.top = _load_pyc(cached) or _compile_source(filename)
        if top is not None:
            self._index(top)
        self._lines: Optional[List[str]] = None

    def _index(self, code: types.CodeType) -> None:
        stack = [code]
        while stack:
            c = stack.pop()
            self.codes.setdefault((c.co_name, c.co_firstlineno), []).append(c)
            for k in c.co_consts:
                if type(k) is types.CodeType:
                    self.parents[id(k)] = c
                    stack.append(k)

    def lines(self) -> List[str]:
        if self._lines is None:
            try:
                with open(self.filename, encoding="utf-8") as f:
                    self._lines = f.read().splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines = []
        return self._lines


def _load_pyc(path: Optional[str]) -> Optional[types.CodeType]:
    if type(path) is not str:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != importlib.util.MAGIC_NUMBER:
            return None
        code = marshal.loads(data[_PYC_HEADER:])
    except Exception:
        return None
    return code if type(code) is types.CodeType else None


def _compile_source(filename: str) -> Optional[types.CodeType]:
    try:
        with open(filename, "rb") as f:
            return compile(f.read(), filename, "exec", dont_inherit=True)
    except Exception:
        return None


_REFERENCES: Dict[str, _ModuleReference] = {}
# id(function) -> (function, code, defaults, kwdefaults snapshot, verdict)
_VERDICTS: Dict[int, Tuple[Any, Any, Any, Any, bool]] = {}
_SIGNATURES: Dict[Tuple[str, int], Optional[ast.arguments]] = {}


def library_module(fn: types.FunctionType) -> Optional[types.ModuleType]:
    """The loaded module whose `__dict__` is `fn`'s globals (`module_of_globals`) and whose file
    `fn`'s code names."""
    mod = module_of_globals(fn)
    if mod is None:
        return None
    g = fn.__globals__
    file = g.get("__file__")
    if type(file) is not str or type(fn.__code__.co_filename) is not str:
        return None
    if _realpath(file) != _realpath(fn.__code__.co_filename):
        return None
    return mod


_REALPATHS: Dict[str, str] = {}
_FUNCTION_BUILTINS = types.FunctionType.__dict__.get("__builtins__")  # (a member descriptor, 3.10+)


def module_of_globals(fn: types.FunctionType) -> Optional[types.ModuleType]:
    """The loaded module whose `__dict__` is `fn`'s globals, when the function also has the
    interpreter's builtins: the ones it took when it was made (3.10+, whatever its globals hold
    now) and the ones its globals hold (which 3.9 reads at each call). The same code remade around
    another dict (`FunctionType(f.__code__, {**globals, 'ValueError': KeyError})`), or made while a
    module held the notebook's builtins (its `callable`), runs the library's code differently."""
    g = fn.__globals__
    if type(g) is not dict:
        return None
    try:
        checked(g)
    except Stop:
        return None
    if not _real_builtins(g.get("__builtins__", builtins)) or \
            (_FUNCTION_BUILTINS is not None and not _real_builtins(_FUNCTION_BUILTINS.__get__(fn))):
        return None
    name = g.get("__name__")
    mod = loaded_module(name) if type(name) is str else None
    return mod if type(mod) is types.ModuleType and mod.__dict__ is g else None


def _real_builtins(b: object) -> bool:
    return b is builtins.__dict__ or b is builtins  # (by identity: `==` could be a dict subclass's)


def _realpath(path: str) -> str:
    found = _REALPATHS.get(path)
    if found is None:
        found = _REALPATHS[path] = os.path.realpath(path)
    return found


def _reference(mod: types.ModuleType) -> _ModuleReference:
    file = checked(mod.__dict__)["__file__"]
    ref = _REFERENCES.get(file)
    if ref is None:
        cached = checked(mod.__dict__).get("__cached__")
        if type(cached) is not str:
            try:
                cached = importlib.util.cache_from_source(file)
            except Exception:
                cached = None
        ref = _REFERENCES[file] = _ModuleReference(file, cached)
    return ref


def module_code(mod: types.ModuleType) -> Optional[types.CodeType]:
    """The top-level code object the module's file compiles to (its cached .pyc when current)."""
    try:
        ref = _reference(mod)
    except Exception:
        return None
    return ref.top


def _plain_const(value: Any, depth: int = 0) -> bool:
    """A constant whose comparison runs no user code (what a compiler puts in co_consts)."""
    t = type(value)
    if t in _PLAIN_CONSTS_SET:
        return True
    if depth > 20:
        return False
    if t is tuple or t is frozenset:
        return all(_plain_const(v, depth + 1) for v in value)
    if t is types.CodeType:
        return all(_plain_const(v, depth + 1) for v in value.co_consts)
    return False


_PLAIN_CONSTS_SET = frozenset(_PLAIN_CONSTS)


def same_code(fn: types.FunctionType, mod: types.ModuleType) -> Optional[types.CodeType]:
    """The reference code object `fn`'s code equals, or None. Code equality ignores `co_qualname`
    (`code.replace(co_qualname='DataFrame.x')` still compares equal), so where the def stood is
    always read from the reference, never from `fn`'s code; two equal references made in different
    places (one line, two identical lambdas) leave it unknown."""
    code = fn.__code__
    if type(code) is not types.CodeType:
        return None
    hit = _SAME.get(id(code))
    if hit is not None and hit[0] is code and hit[1] is mod:
        return hit[2]
    found = _same_code(code, mod)
    _SAME[id(code)] = (code, mod, found)  # (code objects cannot change; the entry holds both alive)
    return found


_SAME: Dict[int, Tuple[Any, Any, Optional[types.CodeType]]] = {}


def _same_code(code: types.CodeType, mod: types.ModuleType) -> Optional[types.CodeType]:
    if not _plain_const(code):
        return None
    ref = _reference(mod)
    found = None
    for candidate in ref.codes.get((code.co_name, code.co_firstlineno), ()):
        if candidate == code:
            if found is not None and ref.parents.get(id(found)) is not ref.parents.get(id(candidate)):
                return None
            found = found or candidate
    return found


def reference_code(fn: types.FunctionType) -> Optional[types.CodeType]:
    """The code object the library's file compiles `fn`'s code to, when `fn`'s code and globals are
    the library's own; None otherwise."""
    mod = library_module(fn)
    return same_code(fn, mod) if mod is not None else None


def _signature(ref: _ModuleReference, first_line: int) -> Optional[ast.arguments]:
    """The parameters of the `def` whose code starts at `first_line` (its first decorator, or the
    `def` itself), parsed from those lines only: decorators and all, up to the first line that
    closes the signature (a decorator may span a hundred lines of docstring, as pandas' `@doc` does)."""
    lines = ref.lines()
    i = first_line - 1
    if not (0 <= i < len(lines)):
        return None
    indented = lines[i][:1].isspace()
    for j in range(i, min(i + _SIGNATURE_SPAN, len(lines))):
        if not lines[j].split("#", 1)[0].rstrip().endswith(":"):
            continue  # the signature cannot end on this line
        # An indented method keeps its indentation under a neutral `if 1:`, so nothing is re-indented.
        text = ("if 1:\n" if indented else "") + "\n".join(lines[i:j + 1]) + "\n" + (" " * 64) + "pass\n"
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        body = tree.body[0].body if indented and tree.body and isinstance(tree.body[0], ast.If) else tree.body
        node = body[0] if body else None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node.args
        return None
    return None


_SIGNATURE_SPAN = 400


def _same_literal(expected: Any, live: Any, depth: int = 0) -> bool:
    if type(expected) is not type(live) or depth > 10:
        return False
    if type(live) in (tuple, list):
        return len(live) == len(expected) and all(_same_literal(a, b, depth + 1) for a, b in zip(expected, live))
    if type(live) in (dict, set, frozenset):
        return False  # mutable or unordered literal defaults: not modelled
    if type(live) is float and math.isnan(live):
        return math.isnan(expected)
    if type(live) not in _PLAIN_CONSTS_SET:
        return False
    return expected == live


def _resolve(node: ast.AST, g: Dict[str, Any]) -> Any:
    """A name or dotted name as the module's dictionaries hold it, or _ABSENT."""
    if isinstance(node, ast.Name):
        if node.id in g:
            return g[node.id]
        b = g.get("__builtins__")
        d = b.__dict__ if type(b) is types.ModuleType else b if type(b) is dict else {}
        return d.get(node.id, _ABSENT)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, g)
        if type(owner) is types.ModuleType:
            return checked(owner.__dict__).get(node.attr, _ABSENT)
        if issubclass(type(owner), type):  # any class: read from its dictionaries, no metaclass consulted
            return lookup_static(owner, node.attr, _ABSENT)
    return _ABSENT


def _same_default(node: ast.AST, live: Any, g: Dict[str, Any]) -> bool:
    try:
        expected = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        if isinstance(node, (ast.Name, ast.Attribute)):
            found = _resolve(node, g)
            return found is not _ABSENT and found is live
        return _same_computed(node, live, g)
    return _same_literal(expected, live)


def _same_computed(node: ast.AST, live: Any, g: Dict[str, Any]) -> bool:
    """A computed default, read without running anything of anyone's: an item of a module's plain
    dict under a literal key (`_c_parser_defaults['low_memory']`: the very object), or a C class
    called on literals (`np.dtype('object')`: built again and compared in C). Anything else is not
    known to be the default, and the function is not taken for the library's own."""
    if isinstance(node, ast.Subscript):
        owner = _resolve(node.value, g)
        key = node.slice
        if type(owner) is not dict or not plain_keys(owner) or not isinstance(key, ast.Constant) \
                or type(key.value) is not str:
            return False
        found = owner.get(key.value, _ABSENT)
        return found is not _ABSENT and found is live
    if isinstance(node, ast.Call) and not node.keywords and all(isinstance(a, ast.Constant) for a in node.args):
        maker = _resolve(node.func, g)
        args = [a.value for a in node.args]
        if not _c_class(maker) or not all(type(a) in _PLAIN_CONSTS_SET for a in args) or not _c_class(type(live)):
            return False
        try:
            made = maker(*args)
            return type(made) is type(live) and (made == live) is True
        except Exception:
            return False
    return False


def _c_class(value: Any) -> bool:
    """A class defined in C with a C metaclass (calling it and comparing its instances run C only)."""
    return is_static_type(type(value)) and issubclass(type(value), type) and is_static_type(value) \
        and all(is_static_type(k) for k in mro(value))


def same_defaults(fn: types.FunctionType, mod: types.ModuleType, code: types.CodeType) -> bool:
    """`fn`'s `__defaults__` and `__kwdefaults__` are what its `def` line gives."""
    defaults, kwdefaults = fn.__defaults__, fn.__kwdefaults__
    if defaults is None and kwdefaults is None:
        return True
    if type(defaults) not in (tuple, type(None)) or type(kwdefaults) not in (dict, type(None)):
        return False
    ref = _reference(mod)
    key = (ref.filename, code.co_firstlineno)
    if key not in _SIGNATURES:
        _SIGNATURES[key] = _signature(ref, code.co_firstlineno)
    args = _SIGNATURES[key]
    if args is None:
        return False
    g = fn.__globals__
    expected = list(args.defaults)
    live = list(defaults or ())
    if len(expected) != len(live) or not all(_same_default(n, v, g) for n, v in zip(expected, live)):
        return False
    kw_expected = {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
    kw_live = kwdefaults or {}
    if len(kw_expected) != len(kw_live):
        return False
    for k, v in kw_live.items():
        if type(k) is not str or k not in kw_expected or not _same_default(kw_expected[k], v, g):
            return False
    return True


def class_body_stores(klass_functions: Any, qualname: str, name: str, source: str) -> Optional[bool]:
    """Whether the body of the library class `qualname`, as its file compiles it, puts `name` in the
    class by an assignment from something called `source` (`rename = Index.set_names`: name
    'rename', source 'set_names'), and defines no method `name`; None when that cannot be read (no
    method of the class whose code is the library's own to find the body by).
    `klass_functions`: the values of the class's dictionary (pandas sets `__module__` to 'pandas',
    so the file is found from the class's own methods, and the body is the code object holding
    one of them)."""
    simple = qualname.rsplit(".", 1)[-1]
    for v in klass_functions:
        if type(v) is not types.FunctionType:
            continue
        body = enclosing_code(v)
        if body is None or body.co_name != simple:
            continue  # an alias from elsewhere, or a module-level function
        if getattr(body, "co_qualname", qualname) != qualname:
            continue
        if any(type(c) is types.CodeType and c.co_name == name for c in body.co_consts):
            return False
        return _stores_from(body, name, source)
    return None


_LOADS = frozenset({"LOAD_NAME", "LOAD_ATTR", "LOAD_GLOBAL", "LOAD_FAST", "LOAD_DEREF", "LOAD_CLASSDEREF",
                    "LOAD_METHOD", "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_FROM_DICT_OR_DEREF"})


def _stores_from(body: types.CodeType, name: str, source: str) -> bool:
    """Some statement of the class body stores `name` from an expression that names `source`:
    `name = source`, `name = <...>.source`, `get_axes = axes.fget`, `table = _make_axes_method(mtable.table)`
    (the loads since the previous store, in its bytecode)."""
    return source in _body_stores(body).get(name, ())


def _body_stores(body: types.CodeType) -> Dict[str, Set[Any]]:
    """Each name a class body stores, with the names loaded by the statements that store it."""
    return _body_statements(body)[0]


def _body_statements(body: types.CodeType) -> Tuple[Dict[str, Set[Any]], Dict[str, List[int]]]:
    """What the class body's bytecode says of its statements: each stored name with the names its
    statements load, and the first source line of each statement storing it."""
    hit = _STATEMENTS.get(id(body))
    if hit is not None:
        return hit
    out: Dict[str, Set[Any]] = {}
    starts: Dict[str, List[int]] = {}
    loads: List[Any] = []
    first: Optional[int] = None
    copies = 0  # `__add__ = __iadd__ = union` copies the value once per extra target
    # `get_view_interval, set_view_interval = factory(...)` stores once per target of an unpacking:
    # before 3.11 only the statement's first line says where each of them stands
    unpacked = 0
    for ins in dis.get_instructions(body):
        op = ins.opname
        positions = getattr(ins, "positions", None)  # (3.11+: the store's own place is its target's)
        if first is None and type(ins.starts_line) is int and op != "SETUP_ANNOTATIONS":
            first = ins.starts_line
        if op == "STORE_NAME":
            out.setdefault(ins.argval, set()).update(loads)
            line = positions.lineno if positions is not None and positions.lineno else first
            if line is not None:
                starts.setdefault(ins.argval, []).append(line)
        if op in _LOADS:
            loads.append(ins.argval)
        elif op == "COPY" or op == "DUP_TOP":
            copies += 1
        elif op == "UNPACK_SEQUENCE" or op == "UNPACK_EX":
            n = ins.arg if op == "UNPACK_SEQUENCE" else (ins.arg & 0xFF) + (ins.arg >> 8) + 1
            unpacked += n - 1 if unpacked else n  # (a nested target takes one place of the outer)
        elif op == "STORE_NAME" or op == "STORE_ATTR" or op == "STORE_SUBSCR" or op == "POP_TOP":
            if copies:
                copies -= 1
            else:
                loads = []  # a statement ends: its loads say nothing of the next one
                unpacked = max(unpacked - 1, 0)
                if not unpacked:
                    first = None
    _STATEMENTS[id(body)] = (out, starts)  # (reference code objects live as long as the process)
    return out, starts


_STATEMENTS: Dict[int, Tuple[Dict[str, Set[Any]], Dict[str, List[int]]]] = {}


def class_body_data(klass_functions: Any, qualname: str, names: Tuple[str, ...]) -> Optional[Dict[str, Any]]:
    """The plain data the library class `qualname`'s body assigns, as its file's source says
    (`_AXIS_ORDERS = ["index", "columns"]`, `_internal_names_set = set(_internal_names)`,
    `_internal_names_set = {"columns"} | NDFrame._internal_names_set`), by name; a name whose value
    the source does not give as such data is absent. None when the body cannot be found (the file
    is found from a method of the class whose code is the library's own).
    `names`: the names wanted; only their statements and those of the names these load (again and
    again: `_internal_names_set = set(_internal_names)`) are parsed, every other one would not
    change what they give."""
    for v in klass_functions:
        if type(v) is not types.FunctionType:
            continue
        body = enclosing_code(v)
        if body is None or body.co_name != qualname.rsplit(".", 1)[-1]:
            continue
        mod = library_module(v)
        key = (mod.__dict__["__file__"], qualname, names)
        if key not in _CLASS_DATA:
            node = _class_node(_reference(mod), qualname, body, names)
            _CLASS_DATA[key] = None if node is None else _body_data(node, checked(mod.__dict__))
        return _CLASS_DATA[key]
    return None


_CLASS_DATA: Dict[Tuple[str, str, Tuple[str, ...]], Optional[Dict[str, Any]]] = {}


def class_generated_names(klass_functions: Any, qualname: str) -> Optional[Tuple[Dict[str, str], Dict[str, str], Dict[str, Any]]]:
    """What matplotlib's source says the methods it generates for the class `qualname` call by
    name: ({alias: target}, {name: "axis.method"}, {name: (factory, place, strings)}). The first
    from `@_api.define_aliases({...})` over the class statement (`set_fc` calls `set_facecolor`),
    the second from `name = _axis_method_wrapper("xaxis", "get_ticklocs")` in its body
    (`get_xticks` calls `self.xaxis.get_ticklocs`), the third from `getter, setter =
    factory("view", "viewLim", "intervalx")` in its body (the name's place among the targets,
    None for one target; the string arguments). None when the class statement cannot be found
    (found as class_body_data finds it)."""
    for v in klass_functions:
        if type(v) is not types.FunctionType:
            continue
        body = enclosing_code(v)
        if body is None or body.co_name != qualname.rsplit(".", 1)[-1]:
            continue
        mod = library_module(v)
        key = (mod.__dict__["__file__"], qualname)
        if key not in _GENERATED:
            ref = _reference(mod)
            _GENERATED[key] = (_decorator_aliases(ref.lines(), body), _axis_wrappers(ref.lines(), body),
                               _factory_stores(ref.lines(), body))
        return _GENERATED[key]
    return None


_GENERATED: Dict[Tuple[str, str], Tuple[Dict[str, str], Dict[str, str], Dict[str, Any]]] = {}


def _decorator_aliases(lines: List[str], body: types.CodeType) -> Dict[str, str]:
    name = body.co_name
    at = next((i for i in range(max(body.co_firstlineno - 1, 0), min(body.co_firstlineno + 80, len(lines)))
               if re.match(r"\s*class\s+" + re.escape(name) + r"\b", lines[i])), None)
    if at is None:
        return {}
    indent = len(lines[at]) - len(lines[at].lstrip())
    node = None
    for i in range(at - 1, max(at - 80, -1), -1):
        line = lines[i]
        stripped = line.strip()
        if not stripped.startswith("@") or len(line) - len(line.lstrip()) != indent:
            continue  # (the parse below says whether what lies between belongs to the decorators)
        try:
            tree = ast.parse("\n".join(x[indent:] for x in lines[i:at + 1]) + "\n    pass")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if len(tree.body) == 1 and isinstance(tree.body[0], ast.ClassDef):
            node = tree.body[0]
    out: Dict[str, str] = {}
    for deco in node.decorator_list if node is not None else ():
        fn = deco.func if isinstance(deco, ast.Call) else None
        named = (isinstance(fn, ast.Attribute) and fn.attr == "define_aliases") or \
            (isinstance(fn, ast.Name) and fn.id == "define_aliases")
        if not named or len(deco.args) != 1 or deco.keywords:
            continue
        try:
            table = ast.literal_eval(deco.args[0])
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        if type(table) is not dict:
            continue
        for prop, aliases in table.items():
            if type(prop) is str and type(aliases) in (list, tuple):
                for alias in aliases:
                    if type(alias) is str:
                        for prefix in ("get_", "set_"):
                            out[prefix + alias] = prefix + prop
    return out


def _single_call_assignments(lines: List[str], body: types.CodeType) -> Iterator[Tuple[str, ast.expr, ast.Call]]:
    """(name, target, call) for each name the class body stores once, by one assignment whose value
    is a call of a bare name on string constants only (`get_xticks = _axis_method_wrapper("xaxis",
    "get_ticklocs")`, `getter, setter = factory("view", "viewLim", "intervalx")`)."""
    for name, starts in _body_statements(body)[1].items():
        if len(starts) != 1:
            continue
        stmt = _statement_at(lines, starts[0], name)
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            continue
        value = stmt.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                all(isinstance(a, ast.Constant) and type(a.value) is str for a in value.args):
            yield name, stmt.targets[0], value


def _factory_stores(lines: List[str], body: types.CodeType) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for name, target, call in _single_call_assignments(lines, body):
        if call.keywords or call.func.id == "_axis_method_wrapper":  # (a class whose `__set_name__` makes it: below)
            continue
        strings = frozenset(a.value for a in call.args)
        if isinstance(target, ast.Name) and target.id == name:
            out[name] = (call.func.id, None, strings)
        elif isinstance(target, ast.Tuple) and all(isinstance(t, ast.Name) for t in target.elts):
            names = [t.id for t in target.elts]
            if names.count(name) == 1:
                out[name] = (call.func.id, names.index(name), strings)
    return out


def _axis_wrappers(lines: List[str], body: types.CodeType) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for name, _, call in _single_call_assignments(lines, body):
        # (keywords allowed: matplotlib passes `doc_sub={...}` to some)
        if call.func.id == "_axis_method_wrapper" and len(call.args) == 2:
            out[name] = call.args[0].value + "." + call.args[1].value
    return out


def _needed(loads: Dict[str, Set[Any]], names: Tuple[str, ...]) -> Set[str]:
    """`names` and every name the statements storing them load, and so on."""
    out: Set[str] = set()
    todo = [n for n in names if n in loads]
    while todo:
        n = todo.pop()
        if n in out:
            continue
        out.add(n)
        todo.extend(m for m in loads.get(n, ()) if type(m) is str and m in loads and m not in out)
    return out


def _class_node(ref: _ModuleReference, qualname: str, body: types.CodeType,
                names: Tuple[str, ...]) -> Optional[ast.ClassDef]:
    """The class statement with only the statements of its body that store a name without a def,
    each parsed from its own lines, found by the line its bytecode starts on (a class of ten
    thousand lines costs a tenth of a second to parse whole)."""
    lines = ref.lines()
    node = ast.ClassDef(name=qualname.rsplit(".", 1)[-1], bases=[], keywords=[], body=[], decorator_list=[])
    found = []
    loads, all_starts = _body_statements(body)
    for name in _needed(loads, names):
        for start in all_starts.get(name, ()):
            stmt = _statement_at(lines, start, name)
            if stmt is not None:
                found.append((start, stmt))
    node.body.extend(stmt for _, stmt in sorted(found, key=lambda p: p[0]))
    return node


def _statement_at(lines: List[str], start: int, name: str) -> Optional[ast.stmt]:
    """The assignment to `name` whose lines begin at `start`; an unreadable one stands as an
    assignment of an unknown value (the class data it gives is then not accepted)."""
    i = start - 1
    # (before 3.11 the bytecode gives the line of the value's first instruction: the target is on it
    # or a few lines above, `_hidden_attrs = (` then the value)
    target = re.compile(r"\s*" + re.escape(name) + r"\s*[:=]")
    for back in range(i, max(i - 20, -1), -1):
        if 0 <= back < len(lines) and target.match(lines[back]):
            i = back
            break
    if not (0 <= i < len(lines)):
        return None
    head = lines[i].strip()
    if head.startswith(("def ", "async def ", "class ", "@")):
        return None
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i + 1, min(i + _SIGNATURE_SPAN, len(lines)) + 1):
        try:
            stmts = ast.parse("\n".join(line[indent:] for line in lines[i:j])).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if len(stmts) == 1 and isinstance(stmts[0], (ast.Assign, ast.AnnAssign)):
            return stmts[0]
        break
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                      value=ast.Call(func=ast.Name(id="?", ctx=ast.Load()), args=[], keywords=[]))


_CONTAINER_MAKERS = {"set": set, "frozenset": frozenset, "list": list, "tuple": tuple}


def _body_data(node: ast.ClassDef, g: Dict[str, Any]) -> Dict[str, Any]:
    env: Dict[str, Any] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                env.pop(stmt.name, None)
            continue
        if isinstance(target, ast.Name):
            found = _data_value(value, env, g, 0)
            if found is _ABSENT:
                env.pop(target.id, None)
            else:
                env[target.id] = found
    return env


def _data_value(node: ast.AST, env: Dict[str, Any], g: Dict[str, Any], depth: int) -> Any:
    if depth > 20:
        return _ABSENT
    try:
        value = ast.literal_eval(node)
        return value if plain_data(value) else _ABSENT
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name):
        return env.get(node.id, _ABSENT)
    if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id in env):
        owner = _resolve(node.value, g)  # a base class (`NDFrame`, `base.IndexOpsMixin`), judged in its own audit
        if type(owner) is type or type(owner) is abc.ABCMeta:
            found = lookup_static(owner, node.attr, _ABSENT)
            return found if found is not _ABSENT and plain_data(found) else _ABSENT
        return _ABSENT
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONTAINER_MAKERS \
            and node.func.id not in env and len(node.args) <= 1 and not node.keywords:
        inner = _data_value(node.args[0], env, g, depth + 1) if node.args else ()
        return _ABSENT if inner is _ABSENT else _CONTAINER_MAKERS[node.func.id](inner)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
            and "len" not in env and len(node.args) == 1 and not node.keywords:
        inner = _data_value(node.args[0], env, g, depth + 1)
        return _ABSENT if inner is _ABSENT or type(inner) not in _CONTAINER_TYPES else len(inner)
    if isinstance(node, ast.Dict):  # with `**Base._TABLE` entries
        out: Dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            value = _data_value(v, env, g, depth + 1)
            if value is _ABSENT:
                return _ABSENT
            if k is None:
                if type(value) is not dict:
                    return _ABSENT
                out.update(value)
                continue
            key = _data_value(k, env, g, depth + 1)
            if key is _ABSENT or type(key) not in _PLAIN_CONSTS_SET:
                return _ABSENT
            out[key] = value
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.BitOr)):
        left = _data_value(node.left, env, g, depth + 1)
        right = _data_value(node.right, env, g, depth + 1)
        if left is _ABSENT or right is _ABSENT:
            return _ABSENT
        if type(left) is type(right) and type(left) in (list, tuple) and isinstance(node.op, ast.Add):
            return left + right
        if type(left) in (set, frozenset) and type(right) in (set, frozenset) and isinstance(node.op, ast.BitOr):
            return left | right
    return _ABSENT


_CONTAINER_TYPES = (list, tuple, set, frozenset, dict)


def plain_data(value: Any, depth: int = 0) -> bool:
    """Containers (list, tuple, set, frozenset, dict) of plain constants only: comparing them runs
    nothing of anyone's."""
    t = type(value)
    if t in _PLAIN_CONSTS_SET:
        return True
    if depth > 10:
        return False
    if t is list or t is tuple or t is set or t is frozenset:
        return all(plain_data(v, depth + 1) for v in value)
    if t is dict:
        return all(plain_data(k, depth + 1) and plain_data(v, depth + 1) for k, v in value.items())
    return False


def enclosing_code(fn: types.FunctionType) -> Optional[types.CodeType]:
    """The code object whose body made `fn` (a class body, a function, the module), as the library's
    file compiles it; None when `fn`'s code is not the library's own."""
    mod = library_module(fn)
    ref_code = same_code(fn, mod) if mod is not None else None
    return None if ref_code is None else _reference(mod).parents.get(id(ref_code))


def genuine(fn: types.FunctionType) -> bool:
    """`fn`'s code, globals and defaults are those its library module's file defines (closure
    cells aside). Remembered per (function, code, defaults) identity; a `__kwdefaults__` dict
    changed in place is seen because its items are compared again."""
    code, defaults, kwdefaults = fn.__code__, fn.__defaults__, fn.__kwdefaults__
    kw_items = tuple(kwdefaults.items()) if type(kwdefaults) is dict else kwdefaults
    hit = _VERDICTS.get(id(fn))
    if hit is not None and hit[0] is fn and hit[1] is code and hit[2] is defaults and _same_items(hit[3], kw_items):
        return hit[4]
    mod = library_module(fn)
    ok = False
    if mod is not None:
        ref_code = same_code(fn, mod)
        ok = ref_code is not None and same_defaults(fn, mod, ref_code)
    _VERDICTS[id(fn)] = (fn, code, defaults, kw_items, ok)
    return ok


def _same_items(a: Any, b: Any) -> bool:
    if type(a) is not tuple or type(b) is not tuple:
        return a is b
    return len(a) == len(b) and all(x[0] is y[0] and x[1] is y[1] for x, y in zip(a, b))


__all__ = ["module_code", "module_of_globals", "class_body_data", "class_generated_names", "plain_data", "class_body_stores", "enclosing_code", "genuine", "library_module", "reference_code", "same_code",
           "same_defaults"]
