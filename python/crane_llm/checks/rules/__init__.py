"""The rules: each models one library behaviour and raises Crash only on definite answers.

`call`, `getitem` and `setitem` route an operation to the rule for the kind of value it applies to
(DataFrame, ndarray, estimator, builtin container, builtin function); anything no rule models ends
the reading with a Stop naming what was not modelled.
"""

from __future__ import annotations

import io
import re
import sys
import types
from typing import Any, Dict, List

from ..static_reads import loaded_module, checked, instance_dict
from ..class_facts import own_column_arrays
from ..live_adapter import LiveValue, is_estimator_class, is_simple_constant
from ..provenance import (class_module, class_name, is_static_type, is_subclass, lookup_static, own,
                          own_call, own_module_function, plain_class, real_builtin_name)
from ..outcome import CertainCrash, Crash, Stop
from ..abstract_values import NOTHING, BoundMethod, Opaque, Value
from .library_state import library_calls_plain, library_state_plain
from .streams import stdout_is_plain as _stdout_is_plain
from . import (array_reductions, arrays, attributes, call_binding, categoricals, containers, displays,  # noqa: F401
               drawing, estimators, frames, operators, tensors, value_counts)

_PURE_BUILTINS = {"int", "float", "str", "bool", "complex", "abs", "round", "min", "max", "sum", "sorted",
                  "list", "tuple", "set", "frozenset", "divmod", "chr", "ord", "hex", "bin", "oct",
                  "repr", "ascii", "hash", "reversed", "any", "all"}
_STR_METHODS = {"lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "replace", "startswith",
                "endswith", "title", "capitalize", "isdigit", "isalpha", "isnumeric", "find", "count", "index",
                "casefold", "swapcase", "partition", "rpartition", "splitlines", "isupper", "islower"}
_MAX_SIZE = 100000
# math's functions whose cost is bounded whatever their plain-number arguments (no factorial, comb, perm).
_MATH = {"sqrt", "log", "log10", "log2", "log1p", "exp", "expm1", "sin", "cos", "tan", "asin", "acos", "atan",
         "atan2", "sinh", "cosh", "tanh", "floor", "ceil", "fabs", "pow", "hypot", "isclose", "isnan", "isinf",
         "isfinite", "degrees", "radians", "trunc", "copysign", "fmod", "modf", "frexp", "ldexp", "isqrt"}


def safe_to_print(v: Value) -> bool:
    """Whether str()/repr() of the value runs only library code that cannot raise."""
    c = v.concrete()
    if c is not NOTHING:
        if is_simple_constant(c):
            return _constant_prints(c)
        if type(c) in (list, tuple, dict, set) and len(c) <= 1000:
            inner = list(c.items()) if type(c) is dict else list(c)
            flat: List[Any] = []
            for x in inner:
                flat.extend(x if type(c) is dict else [x])
            return all(is_simple_constant(x) and _constant_prints(x) for x in flat)
    if isinstance(v, LiveValue) and v.kind() in ("frame", "series", "ndarray"):
        # pandas and NumPy print the elements too: only elements of numeric / bool dtypes are safe.
        return _numeric_elements(v.obj, v.kind())
    # (An int of unknown value may have more digits than int-to-str conversion allows.)
    return v.kind() == "module" or (isinstance(v, Opaque) and v.kind() in ("float", "str", "bool"))


def _holds_nan(c: Any) -> bool:
    if type(c) in (tuple, frozenset, list):
        return any(_holds_nan(x) for x in c)
    return (type(c) is float and c != c) or (type(c) is complex and (c.real != c.real or c.imag != c.imag))


def _constant_prints(c: Any) -> bool:
    """An int's text has at most `sys.get_int_max_str_digits()` digits (4300 by default; 0: no
    limit), or str() raises ValueError: `print(10 ** 5000)` raises. Other constants always print."""
    if type(c) is tuple or type(c) is frozenset:
        return all(_constant_prints(x) for x in c)
    if type(c) is not int:
        return True
    limit = getattr(sys, "get_int_max_str_digits", None)
    digits = limit() if limit is not None else 0
    return digits <= 0 or abs(c) < _power_of_ten(digits)


_POWERS: Dict[int, int] = {}


def _power_of_ten(n: int) -> int:
    if n not in _POWERS:
        _POWERS[n] = 10 ** n
    return _POWERS[n]


def _default_print_options() -> bool:
    """NumPy's and pandas' printing runs no formatter a notebook installed."""
    try:
        if loaded_module("numpy") is not None:
            get_printoptions = own_call("numpy", "get_printoptions", "numpy")
            if get_printoptions is None or get_printoptions().get("formatter") is not None:
                return False
        if loaded_module("pandas") is not None:
            get_option = own_call("pandas", "get_option", "pandas")
            if get_option is None or get_option("display.float_format") is not None:
                return False
    except Exception:
        return False
    return True


def _numeric_elements(obj: Any, kind: str) -> bool:
    # Formatting numbers casts them (a float16 column to float64 overflows at 65504): under
    # `np.seterr(all='raise')` that raises FloatingPointError, under an error filter a warning would.
    if not _default_print_options() or not library_calls_plain():
        return False
    if kind in ("frame", "series") and not own_column_arrays(obj):
        return False
    try:
        if kind == "frame":
            kinds = [dt.kind for dt in obj.dtypes.tolist()]
        else:
            kinds = [obj.dtype.kind]
        if not _labels_print_plainly(obj, kind):
            return False
    except Exception:
        return False
    return all(type(k) is str and k in "biuf" for k in kinds)


def _labels_print_plainly(obj: Any, kind: str) -> bool:
    """The labels pandas prints beside the values: a series' name, the axes' level names, and the
    labels themselves unless of a dtype that prints as numbers or dates: plain constants only (an
    object's own `__str__` would run)."""
    axes = [obj.index] + ([obj.columns] if kind == "frame" else [])
    names = [n for axis in axes for n in list(axis.names)] + ([obj.name] if kind == "series" else [])
    if not all(n is None or (is_simple_constant(n) and _constant_prints(n)) for n in names):
        return False
    for axis in axes:
        if axis.dtype.kind in "biufmM":
            continue
        # (an int past the digit limit does not print: `pd.DataFrame({10 ** 5000: [1]})`)
        if len(axis) > 10000 or not all(is_simple_constant(x) and _constant_prints(x) for x in axis.tolist()):
            return False
    return True


def _is_display(obj: Any) -> bool:
    """IPython's own `display` (not a function a notebook put in its place)."""
    return type(obj) is types.FunctionType and any(
        own_module_function(modname, "display", obj, "IPython")
        for modname in ("IPython.core.display_functions", "IPython.core.display", "IPython.display"))


_SURROGATE = re.compile("[\ud800-\udfff]")
# Error handlers with which a text stream writes any string.
_FORGIVING = {"surrogateescape", "surrogatepass", "replace", "backslashreplace", "xmlcharrefreplace", "namereplace",
              "ignore"}


def _stdout_encodes(values: List[Value]) -> bool:
    """A file's text stream encodes what print() writes: with a strict error handler a lone
    surrogate (text decoded with `surrogateescape`) raises UnicodeEncodeError in UTF-8, and any
    non-ASCII character may in another encoding. The text of a number, an array of numbers or a
    container's repr is ASCII or escapes them; strings, and labels printed as they are, are looked at."""
    out = sys.stdout
    if type(out) is not io.TextIOWrapper or out.errors in _FORGIVING:
        return True
    utf8 = type(out.encoding) is str and out.encoding.lower().replace("_", "-") in ("utf-8", "utf8")

    def fits(text: Any) -> bool:
        if type(text) is tuple:  # (a MultiIndex label)
            return all(fits(t) for t in text)
        return type(text) is not str or (_SURROGATE.search(text) is None if utf8 else text.isascii())

    for v in values:
        c, kind = v.concrete(), v.kind()
        if type(c) is str:
            ok = fits(c)
        elif type(c) in (list, tuple, set):
            ok = all(fits(x) for x in c)
        elif type(c) is dict:
            ok = all(fits(k) and fits(x) for k, x in c.items())
        elif kind in ("frame", "series"):
            ok = c is not NOTHING and _labels_fit(c, kind, fits)
        else:
            ok = kind in ("ndarray", "int", "float", "bool", "none") or (c is not NOTHING and is_simple_constant(c))
        if not ok:
            return False
    return True


def _labels_fit(obj: Any, kind: str, fits) -> bool:
    """The labels pandas prints as they are: column names, row labels (only those of a dtype that
    prints as numbers or dates are taken as they come) and a series' name."""
    try:
        axes = [obj.index] + ([obj.columns] if kind == "frame" else [])
        for axis in axes:
            if axis.dtype.kind in "biufmM":
                continue
            if len(axis) > 10000 or not all(fits(x) for x in axis.tolist()):
                return False
        return kind != "series" or fits(obj.name)
    except Exception:
        return False


def call(interp, func: Value, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    if isinstance(func, tensors.FreshLoss):
        return tensors.cross_entropy(interp, args, kwargs, node, func.name)
    if isinstance(func, BoundMethod) and isinstance(func.owner, IPythonShell):
        return _shell_call(func.owner, func.attr, args, kwargs, node)
    if isinstance(func, BoundMethod):
        owner = func.owner
        kind = owner.kind()
        if kind in ("frame", "ndarray", "estimator"):
            library_state_plain(interp, node)
        if kind in ("frame", "series", "estimator") and interp.libraries_versioned_here:
            _method_binding(owner, func, args, kwargs, node)
        if kind == "frame":
            return frames.method(interp, owner, func.attr, args, kwargs, node)
        if kind == "ndarray":
            array_reductions.method_axis(owner, func.attr, args, kwargs, node)
            return arrays.method(interp, owner, func.attr, args, kwargs, node)
        if kind == "estimator":
            return estimators.method(interp, owner, func.attr, args, kwargs, node)
        if kind == "tensor":
            return tensors.method(interp, owner, func.attr, args, kwargs, node)
        if isinstance(owner, frames.GroupBy):
            return frames.groupby_call(interp, owner, func.attr, args, kwargs, node)
        if kind == "series" and func.attr == "astype":
            return frames.series_astype(interp, owner, args, kwargs, node)
        if kind == "series" and func.attr == "value_counts":
            return value_counts.call(interp, owner, args, kwargs, node)
        if kind == "str" and func.attr in _STR_METHODS:
            text = owner.concrete()
            if type(text) is str and len(text) > _MAX_SIZE:
                # (one C call over the whole text, which the time budget's alarm cannot cut short)
                raise Stop(node.lineno, f"`str.{func.attr}()` of a text of {len(text):,} characters")
            return _run_pure(getattr(owner.concrete(), func.attr), args, kwargs, node,
                             f"str.{func.attr}", owner) if owner.concrete() is not NOTHING else Opaque()
        if kind == "dict" and func.attr == "keys" and not args and not kwargs:
            return Opaque()
        if isinstance(owner, displays.ConfusionDisplay) and func.attr == "plot":
            return displays.plot(interp, owner, args, kwargs, node)
        made = tensors.parameters_call(owner, func.attr, args, kwargs)
        if made is not None:
            return made
        if kind not in ("module", "class"):
            raise Stop(node.lineno, f"a call to `.{func.attr}()` on {owner.name or kind or 'a value'}")
    if not isinstance(func, LiveValue):
        raise Stop(node.lineno, "a call the checker does not model")
    obj = func.obj
    if isinstance(func, BoundMethod):
        obj = func.func
    t = type(obj)
    if t is types.ModuleType:
        # The exact module type has no __call__ (a subclass could: it is another type).
        raise Crash(CertainCrash("TypeError", node.lineno, node.col_offset,
                                 f"{'`' + func.name + '`' if func.name else 'this value'} is a module, and a "
                                 "module object is not callable.", "module-call", [func.name] if func.name else []))
    if not plain_class(t):
        raise Stop(node.lineno, "a call of an object the checker does not model")
    bname = real_builtin_name(obj)
    if bname:
        return _builtin_call(interp, bname, obj, args, kwargs, node)
    if _is_display(obj):
        return _print_like(args, kwargs, node, "display")
    shell = _ipython_shell(obj)
    if shell is not None and not args and not kwargs:
        return IPythonShell(shell)
    if class_module(t).split(".")[0] == "torch" and not issubclass(t, type) and t is not types.FunctionType \
            and t is not types.BuiltinFunctionType:
        return tensors.module_call(interp, obj, args, kwargs, node, func.name)
    if issubclass(t, type):
        if is_estimator_class(obj):
            library_state_plain(interp, node)
            return estimators.construct(interp, obj, args, kwargs, node)
        if displays.is_confusion_display(obj):
            library_state_plain(interp, node)
            return displays.construct(interp, obj, args, kwargs, node)
        if categoricals.is_pandas_categorical(obj):
            return categoricals.construct(interp, obj, args, kwargs, node)
        if obj is frames.pandas_types()[0]:
            return frames.construct(interp, obj, args, kwargs, node)
        if class_module(obj).split(".")[0] == "torch" and class_name(obj) == "CrossEntropyLoss":
            return tensors.construct(interp, obj, args, kwargs, node)
        raise Stop(node.lineno, f"creating a `{class_name(obj)}`, which the checker does not model")
    # Functions and C callables carry their name and module in C slots: reading them runs nothing.
    if t is types.FunctionType or t is types.BuiltinFunctionType or is_static_type(t):
        module = _callable_text(obj, "__module__")
        fname = _callable_text(obj, "__name__")
    else:
        raise Stop(node.lineno, "a call of an object the checker does not model")
    if t is types.FunctionType and not isinstance(func, BoundMethod) and interp.libraries_versioned_here:
        # (Library signatures change between versions: `pd.read_csv(f, ',')` ran before pandas 2.)
        call_binding.check(obj, args, kwargs, node, f"{module + '.' if module else ''}{fname or '?'}")
    top = module.split(".")[0]
    if module == "math" and fname in _MATH and t is types.BuiltinFunctionType \
            and own_module_function("math", fname, obj, "math"):
        # C functions of plain numbers: run for real on plain constants, their exception is certain.
        return _run_pure(obj, args, kwargs, node, f"math.{fname}", None)
    np_mod = loaded_module("numpy")
    if top == "numpy" or (np_mod is not None and fname and checked(np_mod.__dict__).get(fname) is obj):
        library_state_plain(interp, node)
        if fname:
            array_reductions.function_axis(fname, obj, args, kwargs, node)
        reduced = array_reductions.numpy_reduction(fname, obj, args, kwargs, node) if fname else None
        if reduced is not None:
            return reduced
        return arrays.function(interp, obj, args, kwargs, node)  # (ufuncs carry no __module__ on old NumPy)
    if top == "sklearn":
        library_state_plain(interp, node)
        return estimators.function(interp, obj, args, kwargs, node)
    if top == "pandas":
        return frames.function(interp, obj, args, kwargs, node)
    if top == "torch" and fname:
        return tensors.function(interp, obj, fname, args, kwargs, node)
    if module == "matplotlib.pyplot" and fname:
        return drawing.call(interp, obj, fname, args, kwargs, node)
    if t is types.FunctionType and (module == "__main__" or top not in sys.modules):
        raise Stop(node.lineno, f"a call to your function `{fname}`")
    raise Stop(node.lineno, f"a call to `{module + '.' if module else ''}{fname or '?'}`, "
                            "whose effect the checker does not model")


def _callable_text(obj: Any, attr: str) -> str:
    """`__module__` or `__name__` of a function or C callable, read through its type's own C slot
    descriptor only: a bound method or a weak proxy hands any other attribute read on to the object
    it wraps, which may be the notebook's (`__getattr__`)."""
    if type(obj) is types.MethodType:  # (its own names are its function's: read those the same way)
        func = types.MethodType.__dict__["__func__"].__get__(obj)
        return "" if type(func) is types.MethodType else _callable_text(func, attr)
    desc = lookup_static(type(obj), attr, None)
    if type(desc) in (types.GetSetDescriptorType, types.MemberDescriptorType):
        try:
            text = desc.__get__(obj)
        except Exception:
            return ""
    else:  # (NumPy's dispatchers keep their names in their own `__dict__`)
        inst = instance_dict(obj) if desc is None else None
        text = inst.get(attr) if inst is not None else ""
    return text if type(text) is str else ""


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
    mod = loaded_module("IPython.core.interactiveshell")
    if mod is None:
        return None
    base = checked(mod.__dict__).get("InteractiveShell")
    if base is None:
        return None
    if type(obj) is types.MethodType:
        owner = obj.__self__
        if obj.__func__ is checked(base.__dict__).get("get_ipython") and is_subclass(type(owner), base):
            return owner
        return None
    if type(obj) is types.FunctionType and own_module_function("IPython.core.getipython", "get_ipython", obj,
                                                               "IPython"):
        shell = obj()
        return shell if is_subclass(type(shell), base) else None
    return None


def _shell_method_own(shell: Any, attr: str) -> bool:
    """`shell.attr` is IPython's (or ipykernel's) own method, not one a notebook put there."""
    try:
        inst = object.__getattribute__(shell, "__dict__")
    except Exception:
        return False
    if type(inst) is not dict or attr in inst:
        return False
    found = lookup_static(type(shell), attr)
    return type(found) is types.FunctionType and (own(found, "IPython") or own(found, "ipykernel"))


def _shell_call(owner: "IPythonShell", attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    if not _shell_method_own(owner.shell, attr):
        raise Stop(node.lineno, f"a call to the shell's `{attr}`, which is not IPython's own")
    consts = [a.concrete() for a in args]
    if attr in ("system", "getoutput"):
        # `!cmd` starts a process through pexpect or subprocess with the shell `$SHELL` names: a
        # missing shell, a patched library, a replaced stream or a process limit makes it raise
        # (or run the notebook's code), whatever the command (seventh red team, 7 Dec)
        raise Stop(node.lineno, "a shell command (`!`), which may fail to start outside Python")
    if attr in ("run_line_magic", "run_cell_magic") and consts and type(consts[0]) is str:
        raise Stop(node.lineno, f"the IPython magic `%{consts[0]}`")
    raise Stop(node.lineno, "an IPython call")


def _print_like(args, kwargs, node, what) -> Value:
    if what == "print" and not _stdout_is_plain():
        raise Stop(node.lineno, "print() to a replaced sys.stdout")
    if what == "display":
        raise Stop(node.lineno, "display(), whose formatters the checker does not model")
    for v in args:
        if not safe_to_print(v):
            raise Stop(node.lineno, f"{what}() of a value whose text the checker cannot vouch for")
    for k, v in kwargs.items():
        c = v.concrete()
        ok = (k in ("sep", "end") and (c is None or type(c) is str)) or (k == "flush" and type(c) is bool)
        if not ok or what != "print":
            raise Stop(node.lineno, f"{what}() with `{k}=`")
    if not _stdout_encodes(list(args) + list(kwargs.values())):
        raise Stop(node.lineno, f"{what}() of text that sys.stdout's encoding may refuse")
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
        # No metaclass __instancecheck__ to run, and the object's `__class__` (which isinstance
        # reads when its type does not match) is the standard one.
        if all(type(x) is type for x in types_) and _standard_class_attr(args[0]):
            return Opaque("bool")
        raise Stop(node.lineno, "isinstance() with a value or class the checker does not model")
    if name == "range":
        return _run_pure(range, args, kwargs, node, "range", None)
    if name == "sum" and args and args[0].kind() == "ndarray":
        library_state_plain(interp, node)
        summed = array_reductions.builtin_sum(args, kwargs, node)
        if summed is not None:
            return summed
    if name in _PURE_BUILTINS:
        return _run_pure(obj, args, kwargs, node, name, None)
    raise Stop(node.lineno, f"a call to the builtin `{name}`")


def _standard_class_attr(v: Value) -> bool:
    c = v.concrete()
    if c is NOTHING:
        return v.kind() in ("int", "float", "str", "bool", "list", "tuple", "dict", "set", "none", "frame",
                            "series", "ndarray")
    t = type(c)
    return plain_class(t) and lookup_static(t, "__class__") is object.__dict__["__class__"] and \
        lookup_static(t, "__getattribute__") in (object.__dict__["__getattribute__"],
                                                  types.ModuleType.__dict__["__getattribute__"],
                                                  type.__dict__["__getattribute__"])


def _result_may_be_large(label: str, owner: Any, vals: List[Any], kv: Dict[str, Any]) -> bool:
    """Whether a str method could build a result past _MAX_SIZE: a width argument (`center`,
    `zfill`, `expandtabs`, a format spec) or a replacement repeated at every position."""
    if not label.startswith("str."):
        return False
    base = owner.concrete() if owner is not None else NOTHING
    args = list(vals) + list(kv.values())
    if any(type(v) is int and v > _MAX_SIZE for v in args):
        return True
    texts = [v for v in args if type(v) in (str, bytes)]
    if type(base) in (str, bytes):
        texts.append(base)
        if label.endswith((".format", ".format_map")) and any(len(run) > 5 for run in re.findall(r"\d+", str(base))):
            return True
    if label.endswith(".join") and type(base) in (str, bytes) and len(vals) == 1 and type(vals[0]) is list:
        items = vals[0]
        return sum(len(x) for x in items if type(x) in (str, bytes)) + len(base) * len(items) > _MAX_SIZE * 4
    longest = max((len(t) for t in texts), default=0)
    # (replace and join may repeat an argument once per position: the product bounds both)
    return (len(base) + 1 if type(base) in (str, bytes) else 1) * max(longest, 1) > _MAX_SIZE * 4 and \
        label.endswith((".replace", ".join"))


# Builtins that hash every item they are given, and how many non-text items they are given here.
_HASHING = {"set", "frozenset", "dict"}
_HASHED_ITEMS = 2000
_TEXT_WEIGHT = 1_000_000  # characters (and items) a builtin is run on, nested ones included


def _light(value) -> bool:
    """No int in `value` (or the lists, tuples and frozensets it holds) past BIG_INT_BITS, and no
    more than _TEXT_WEIGHT characters, items and 64-bit words of ints in all."""
    left, stack = _TEXT_WEIGHT, [value]
    while stack:
        v = stack.pop()
        t = type(v)
        left -= 1
        if t is int:
            bits = v.bit_length()
            if bits > operators.BIG_INT_BITS:
                return False
            left -= bits // 64  # (each comparison of wide ints reads them whole)
        if t is str or t is bytes:
            left -= len(v)
        elif t is list or t is tuple or t is frozenset:
            left -= len(v)
            if left < 0:
                return False
            stack.extend(v)
        if left < 0:
            return False
    return True


def _sum_start(vals: list, kv: dict) -> Any:
    """The start `sum()` is given (0 when none)."""
    return (vals[1:] or list(kv.values()) or [0])[0]


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
        if label in _HASHING and type(v) in (list, tuple) and len(v) > _HASHED_ITEMS and \
                not all(type(x) is str for x in v):
            # (ints are easy to make share a hash: 40,000 of them take `set()` 14 s, in one C call)
            raise Stop(node.lineno, f"{label}() of many items that may share a hash")
        if not _light(v):
            # (`str(z)`, `divmod(v, d)` of a huge int: seconds; `sorted` / `set` of equal long texts
            # compare them whole, again and again: minutes, in one C call)
            raise Stop(node.lineno, f"{label}() of a very large int or of much text")
    if label == "sum" and type(_sum_start(vals, kv)) not in (int, float, bool):
        # (`sum(lists, ())` copies the growing result once per item: quadratic, in one C call)
        raise Stop(node.lineno, "sum() with a start that is not a number")
    if label == "str" and (len(vals) > 1 or kv):
        # str(b, encoding, errors) decodes through the codec registry and error handlers, which a
        # notebook can register (codecs.register, codecs.register_error): its own code would run.
        raise Stop(node.lineno, "str() decoding bytes, which runs the codec a notebook may have registered")
    if _result_may_be_large(label, owner, vals, kv):
        # (one C call: the time budget's hard stop cannot cut it short, so its size is bounded first)
        raise Stop(node.lineno, f"{label}() with a result that may be large")
    if label in ("range",) and any(type(v) is int and abs(v) > 10 ** 9 for v in vals):
        raise Stop(node.lineno, "range() of a huge size")
    if label == "round" and any(type(v) is int and v < -1000 for v in vals[1:] + list(kv.values())):
        # (`round(15, -10 ** 7)` builds 10 ** (10 ** 7) in one C call the time budget cannot cut)
        raise Stop(node.lineno, "round() to a huge number of digits")
    if label == "hash" and any(_holds_nan(v) for v in vals):
        # (a NaN hashes by its address since Python 3.10: the checker's NaN is not the cell's)
        raise Stop(node.lineno, "hash() of a NaN")
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
    if kind in ("frame", "ndarray") or isinstance(base, attributes.Indexer):
        library_state_plain(interp, node)
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
    if base.kind() == "ndarray":
        library_state_plain(interp, target)
        arrays.setitem(interp, base, index, value, target)
    if base.kind() == "frame":
        library_state_plain(interp, target)
        frames.setitem(interp, base, index, value, target, stmt)
        return
    containers.setitem(interp, base, index, value, target, stmt)


def _method_binding(owner: Value, func: BoundMethod, args: List[Value], kwargs: Dict[str, Value], node) -> None:
    """A pandas or scikit-learn method (its class audited unpatched when the value got its kind) takes
    its arguments as its real signature says: Python binds them before any of its code runs."""
    fn = func.func
    cls = getattr(owner, "cls", None) if fn is None else None
    if fn is None and cls is not None and plain_class(cls):
        fn = lookup_static(cls, func.attr, None)
    if type(fn) is not types.FunctionType or not (own(fn, "pandas") or own(fn, "sklearn")):
        return
    label = f"{owner.name}.{func.attr}" if owner.name else f".{func.attr}()"
    call_binding.check(fn, args, kwargs, node, label, bound_self=True)
