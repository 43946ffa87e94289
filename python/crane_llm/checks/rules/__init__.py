"""The rules: each models one library behaviour and raises Crash only on definite answers.

`call`, `getitem` and `setitem` route an operation to the rule for the kind of value it applies to
(DataFrame, ndarray, estimator, builtin container, builtin function); anything no rule models ends
the reading with a Stop naming what was not modelled.
"""

from __future__ import annotations

import builtins as _builtins
import sys
import types
from typing import Any, Dict, List

from ..live import LiveValue, is_estimator_class, is_simple_constant
from ..outcome import CertainCrash, Crash, Stop
from ..values import NOTHING, Opaque, Value
from . import array_reductions, arrays, attributes, containers, estimators, frames, operators  # noqa: F401

_PURE_BUILTINS = {"int", "float", "str", "bool", "complex", "abs", "round", "min", "max", "sum", "sorted",
                  "list", "tuple", "set", "frozenset", "divmod", "chr", "ord", "hex", "bin", "oct",
                  "repr", "ascii", "hash", "reversed", "any", "all"}
_STR_METHODS = {"lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "replace", "startswith",
                "endswith", "title", "capitalize", "isdigit", "isalpha", "isnumeric", "find", "count", "index",
                "casefold", "swapcase", "partition", "rpartition", "splitlines", "isupper", "islower"}
_MAX_SIZE = 100000


def safe_to_print(v: Value) -> bool:
    """Whether str()/repr() of the value runs only library code that cannot raise."""
    c = v.concrete()
    if c is not NOTHING:
        if is_simple_constant(c):
            return True
        if type(c) in (list, tuple, dict, set) and len(c) <= 1000:
            inner = list(c.items()) if type(c) is dict else list(c)
            flat: List[Any] = []
            for x in inner:
                flat.extend(x if type(c) is dict else [x])
            return all(is_simple_constant(x) for x in flat)
    return v.kind() in ("frame", "series", "ndarray", "module") or (
        isinstance(v, Opaque) and v.kind() in ("int", "float", "str", "bool"))


def _builtin_name(obj: Any) -> str:
    name = getattr(obj, "__name__", None)
    if isinstance(name, str) and _builtins.__dict__.get(name) is obj:
        return name
    return ""


def _is_display(obj: Any) -> bool:
    for modname in ("IPython.core.display_functions", "IPython.core.display", "IPython.display"):
        mod = sys.modules.get(modname)
        if mod is not None and mod.__dict__.get("display") is obj:
            return True
    return False


def call(interp, func: Value, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    from ..interpreter import BoundMethod

    if isinstance(func, BoundMethod) and isinstance(func.owner, IPythonShell):
        return _shell_call(func.attr, args, kwargs, node)
    if isinstance(func, BoundMethod):
        owner = func.owner
        kind = owner.kind()
        if kind == "frame":
            return frames.method(interp, owner, func.attr, args, kwargs, node)
        if kind == "ndarray":
            return arrays.method(interp, owner, func.attr, args, kwargs, node)
        if kind == "estimator":
            return estimators.method(interp, owner, func.attr, args, kwargs, node)
        if kind == "str" and func.attr in _STR_METHODS:
            return _run_pure(getattr(owner.concrete(), func.attr), args, kwargs, node,
                             f"str.{func.attr}", owner) if owner.concrete() is not NOTHING else Opaque()
        if kind == "dict" and func.attr == "keys" and not args and not kwargs:
            return Opaque()
        if kind == "module" or (kind == "class"):
            pass
        else:
            raise Stop(node.lineno, f"a call to `.{func.attr}()` on {owner.name or kind or 'a value'}")
    if isinstance(func, BoundMethod) and isinstance(func.owner, IPythonShell):
        return _shell_call(func.attr, args, kwargs, node)
    if not isinstance(func, LiveValue):
        raise Stop(node.lineno, "a call the checker does not model")
    obj = func.obj
    if isinstance(func, BoundMethod):
        obj = func.func
    if _is_display(obj):
        return _print_like(args, kwargs, node, "display")
    shell = _ipython_shell(obj)
    if shell is not None and not args and not kwargs:
        return IPythonShell(shell)
    if isinstance(func, BoundMethod) and isinstance(func.owner, IPythonShell):
        return _shell_call(func.attr, args, kwargs, node)
    bname = _builtin_name(obj)
    if bname:
        return _builtin_call(interp, bname, obj, args, kwargs, node)
    if isinstance(obj, type) and is_estimator_class(obj):
        return estimators.construct(interp, obj, args, kwargs, node)
    module = getattr(obj, "__module__", None)
    module = module if isinstance(module, str) else ""
    top = module.split(".")[0]
    np_mod = sys.modules.get("numpy")
    fname = getattr(obj, "__name__", None)
    if top == "numpy" or (np_mod is not None and isinstance(fname, str) and np_mod.__dict__.get(fname) is obj):
        reduced = array_reductions.numpy_reduction(fname, obj, args, kwargs, node) if isinstance(fname, str) else None
        if reduced is not None:
            return reduced
        return arrays.function(interp, obj, args, kwargs, node)  # (ufuncs carry no __module__ on old NumPy)
    if top == "sklearn":
        return estimators.function(interp, obj, args, kwargs, node)
    if top == "pandas":
        return frames.function(interp, obj, args, kwargs, node)
    if type(obj) is types.FunctionType and (module == "__main__" or top not in sys.modules):
        raise Stop(node.lineno, f"a call to your function `{fname}`")
    raise Stop(node.lineno, f"a call to `{module + '.' if module else ''}{getattr(obj, '__name__', '?')}`, "
                            "whose effect the checker does not model")


class IPythonShell(Value):
    """`get_ipython()`: what IPython's input transformer turns `!cmd` and `%magic` into."""

    def __init__(self, shell: Any):
        self.shell = shell

    def kind(self):
        return "ipython"

    def has_attr(self, attr):
        return True if attr in ("system", "getoutput", "run_line_magic", "run_cell_magic") else None


def _ipython_shell(obj: Any) -> Any:
    """The shell when `obj` is IPython's own `get_ipython` (bound method or module function)."""
    if getattr(obj, "__name__", None) != "get_ipython":
        return None
    mod = sys.modules.get("IPython.core.interactiveshell")
    if mod is None:
        return None
    owner = getattr(obj, "__self__", None)
    base = mod.__dict__.get("InteractiveShell")
    if base is not None and isinstance(owner, base):
        return owner
    gi = sys.modules.get("IPython.core.getipython")
    if gi is not None and gi.__dict__.get("get_ipython") is obj:
        return obj()
    return None


def _shell_call(attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    consts = [a.concrete() for a in args]
    if attr == "system" and len(consts) == 1 and type(consts[0]) is str and not kwargs:
        return LiveValue(None)  # `!cmd`: a shell command, which leaves the namespace alone and never raises
    if attr == "getoutput" and len(consts) == 1 and type(consts[0]) is str and not kwargs:
        return Opaque("list")
    if attr in ("run_line_magic", "run_cell_magic") and consts and type(consts[0]) is str:
        raise Stop(node.lineno, f"the IPython magic `%{consts[0]}`")
    raise Stop(node.lineno, "an IPython call")


def _print_like(args, kwargs, node, what) -> Value:
    for v in args:
        if not safe_to_print(v):
            raise Stop(node.lineno, f"{what}() of a value whose text the checker cannot vouch for")
    for k, v in kwargs.items():
        c = v.concrete()
        ok = (k in ("sep", "end") and (c is None or type(c) is str)) or (k == "flush" and type(c) is bool)
        if not ok or what != "print":
            raise Stop(node.lineno, f"{what}() with `{k}=`")
    return LiveValue(None)


def _builtin_call(interp, name: str, obj: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    if name == "print":
        return _print_like(args, kwargs, node, "print")
    if name == "len" and len(args) == 1 and not kwargs:
        v = args[0]
        n = v.length()
        if v.kind() in ("frame", "series", "ndarray", "list", "tuple", "dict", "str", "set") and n is not None:
            return LiveValue(n)
        c = v.concrete()
        if c is not NOTHING and type(c) in (int, float, bool, complex, type(None)):
            raise Crash(CertainCrash("TypeError", node.lineno, node.col_offset,
                                     f"a {type(c).__name__} has no len().", "operand-types",
                                     [v.name] if v.name else []))
        if v.kind() in ("frame", "series", "list", "tuple", "dict", "str", "set"):
            return Opaque("int")
        raise Stop(node.lineno, "len() of a value the checker does not know")
    if name == "type" and len(args) == 1 and not kwargs:
        c = args[0].concrete()
        return LiveValue(type(c)) if c is not NOTHING else Opaque("class")
    if name == "isinstance" and len(args) == 2 and not kwargs:
        t = args[1].concrete()
        types_ = t if type(t) is tuple else (t,)
        if all(type(x) is type for x in types_):  # no metaclass __instancecheck__ to run
            return Opaque("bool")
        raise Stop(node.lineno, "isinstance() with a class the checker does not model")
    if name == "range":
        return _run_pure(range, args, kwargs, node, "range", None)
    if name == "sum" and args and args[0].kind() == "ndarray":
        summed = array_reductions.builtin_sum(args, kwargs, node)
        if summed is not None:
            return summed
    if name in _PURE_BUILTINS:
        return _run_pure(obj, args, kwargs, node, name, None)
    raise Stop(node.lineno, f"a call to the builtin `{name}`")


def _run_pure(fn, args: List[Value], kwargs: Dict[str, Value], node, label: str, owner) -> Value:
    """A builtin that runs no user code on plain constants: run it for real; its exception is certain."""
    vals = [a.concrete() for a in args]
    kv = {k: v.concrete() for k, v in kwargs.items()}
    for v in list(vals) + list(kv.values()):
        if v is NOTHING:
            raise Stop(node.lineno, f"{label}() of a value the checker does not know")
        if not (is_simple_constant(v) or (type(v) in (list, range) and len(v) <= _MAX_SIZE
                                          and (type(v) is range or all(is_simple_constant(x) for x in v)))):
            raise Stop(node.lineno, f"{label}() of a value the checker does not model")
        if type(v) in (str, bytes, tuple) and len(v) > _MAX_SIZE:
            raise Stop(node.lineno, f"{label}() of a large value")
    if label in ("range",) and any(type(v) is int and abs(v) > 10 ** 9 for v in vals):
        raise Stop(node.lineno, "range() of a huge size")
    try:
        result = fn(*vals, **kv)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, IndexError, KeyError) as exc:
        names = [a.name for a in args if a.name] + ([owner.name] if owner is not None and owner.name else [])
        raise Crash(CertainCrash(type(exc).__name__, node.lineno, node.col_offset,
                                 f"{label}() raises {type(exc).__name__} on these values: {exc}.", "builtin-call",
                                 names))
    except Exception:
        raise Stop(node.lineno, f"{label}() of these values")
    if type(result) is reversed or type(result).__name__.endswith("iterator"):
        return Opaque()
    if type(result) in (list, tuple, set, frozenset, range) and len(result) > _MAX_SIZE:
        return Opaque(type(result).__name__)
    return LiveValue(result)


def getitem(interp, base: Value, index: Value, node) -> Value:
    kind = base.kind()
    if kind == "frame":
        return frames.getitem(interp, base, index, node)
    if isinstance(base, attributes.Indexer):
        return frames.indexer_getitem(interp, base, index, node)
    if kind == "ndarray":
        return arrays.getitem(interp, base, index, node)
    if kind in ("list", "tuple", "str", "dict", "range"):
        return containers.getitem(interp, base, index, node)
    raise Stop(node.lineno, f"indexing {base.name or kind or 'a value'}, which the checker does not model")


def setitem(interp, base: Value, index: Value, value: Value, target, stmt) -> None:
    if base.kind() == "frame":
        frames.setitem(interp, base, index, value, target, stmt)
        return
    containers.setitem(interp, base, index, value, target, stmt)
