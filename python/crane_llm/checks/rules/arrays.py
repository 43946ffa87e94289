"""NumPy rules: shapes that do not fit (ValueError) and indices out of bounds (IndexError).

Judged on exact ndarrays of numeric dtype (bool, int, float) whose shapes are known: elementwise
operators follow the broadcasting rule, `@` / `dot` / `matmul` the inner dimensions, `vstack` /
`hstack` / `concatenate` / `stack` the non-joined axes, `reshape` the element count. Results carry
their computed shape so that later statements can be judged too.
"""

from __future__ import annotations

import ast
import types
from math import prod
from typing import Any, Dict, List, Optional, Tuple

from ..memory_room import fits
from ..static_reads import checked
from ..class_facts import ndarray_type, pristine_pandas
from ..dtypes import dtype_category
from ..live_adapter import LiveValue, is_simple_constant
from ..outcome import CertainCrash, Crash, Stop
from ..provenance import own_module_function
from ..abstract_values import NOTHING, ArrayFacts, FactValue, Value
from ..library_namespace import numpy_untouched
from .accessors import may_be_shadowed
from .frames import selected_from
from .library_state import library_state_plain

NUMERIC_KINDS = "iuf"
# `**` is left out: integer arrays to negative powers raise whatever the shapes.
_ELEMENTWISE = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)


def _arr(v: Value) -> Optional[ArrayFacts]:
    a = v.array()
    if a is None or a.shape is None or any(d is None for d in a.shape):
        return None
    return a


def _numeric(*facts: ArrayFacts) -> bool:
    return all(f.kind is not None and f.kind in NUMERIC_KINDS for f in facts)


# The most elements an array the checker builds the facts of may have, and the longest axis. NumPy
# refuses sizes past its index type with ValueError and may fail to allocate big ones with
# MemoryError, on the line that makes them: such a line is never passed over as harmless.
MAX_ELEMENTS = 2 ** 28
MAX_AXIS = 2 ** 31 - 1


def sized(shape: Any) -> bool:
    """A shape of plain ints NumPy makes, and can allocate in the memory this process has left
    (16 bytes an element: a complex number, or two floats' worth of temporaries)."""
    if type(shape) is not tuple or not all(type(d) is int and 0 <= d <= MAX_AXIS for d in shape):
        return False
    n = prod(shape)
    return n <= MAX_ELEMENTS and fits(16 * n)


def array_value(shape: Optional[Tuple[int, ...]], kind: Optional[str]) -> FactValue:
    if shape is not None and not sized(tuple(d for d in shape if d is not None)):
        raise Stop(None, f"an array of shape {tuple(shape)[:6]}, too big to be sure NumPy makes it")
    return FactValue("ndarray", type_name="numpy.ndarray", array=ArrayFacts(shape=shape, kind=kind),
                     cls=ndarray_type())


def _kind_of(kinds: List[str], op: Any = None) -> Optional[str]:
    if op is ast.Div:
        return "f"
    if "f" in kinds:
        return "f"
    # Unsigned stays unsigned and signed signed; a mix may be either, or float (uint64 with int64).
    # (An unsigned result read as signed would let `w - 1`-like scalars pass that NEP 50 rejects
    # with OverflowError: `np.uint8` arrays refuse the Python integer -1.)
    for k in "iu":
        if all(x == k for x in kinds):
            return k
    return None


def _names(*vals: Value) -> List[str]:
    return [v.name for v in vals if v.name]


def _fail(node, message: str, rule: str, *vals: Value) -> Crash:
    return Crash(CertainCrash("ValueError", node.lineno, node.col_offset, message, rule, _names(*vals)))


def broadcast(s1: Tuple[int, ...], s2: Tuple[int, ...]) -> Optional[Tuple[int, ...]]:
    """NumPy's broadcasting rule; None when the shapes do not fit."""
    out = []
    for i in range(1, max(len(s1), len(s2)) + 1):
        a = s1[-i] if i <= len(s1) else 1
        b = s2[-i] if i <= len(s2) else 1
        if a != b and a != 1 and b != 1:
            return None
        out.append(a if b == 1 else b)
    return tuple(reversed(out))


def _shape_text(s) -> str:
    return "(" + ",".join(str(d) for d in s) + ("," if len(s) == 1 else "") + ")"


def _fits(c: Any, other: Optional[ArrayFacts]) -> bool:
    """A Python scalar NumPy combines with the array without raising (NEP 50: big ints overflow)."""
    if type(c) is float:
        return True
    if type(c) is int and other is not None:
        return (other.kind == "f" and abs(c) < 2 ** 53) or (other.kind == "i" and -128 <= c <= 127) or \
            (other.kind == "u" and 0 <= c <= 255)  # (the narrowest dtypes of the kind: int8, uint8)
    return False


def binop(interp, left: Value, right: Value, opt: type, node) -> Value:
    library_state_plain(interp, node)
    la, ra = _arr(left), _arr(right)
    lc, rc = left.concrete(), right.concrete()
    scalar_l = la is None and _fits(lc, ra) and left.kind() != "ndarray"
    scalar_r = ra is None and _fits(rc, la) and right.kind() != "ndarray"
    if opt is ast.MatMult:
        if la is not None and ra is not None and _numeric(la, ra):
            return _matmul(la, ra, node, left, right, "@")
        raise Stop(node.lineno, "`@` on values the checker does not know")
    if opt is ast.Pow and la is not None and la.kind == "f" and type(rc) in (int, float) and abs(rc) <= 2 ** 53:
        return array_value(la.shape, "f")  # a float array to a plain power: overflow only warns
    if opt not in _ELEMENTWISE:
        raise Stop(node.lineno, "an operator on arrays the checker does not model")
    if la is not None and ra is not None and _numeric(la, ra):
        out = broadcast(la.shape, ra.shape)
        if out is None:
            raise _fail(node, f"operands could not be broadcast together with shapes {_shape_text(la.shape)} "
                              f"{_shape_text(ra.shape)}.", "array-shapes", left, right)
        return array_value(out, _kind_of([la.kind, ra.kind], opt))
    if la is not None and scalar_r and _numeric(la):
        # (a Python scalar is weak, NEP 50: an int keeps the array's kind, a float makes it float)
        return array_value(la.shape, _kind_of([la.kind] + (["f"] if type(rc) is float else []), opt))
    if ra is not None and scalar_l and _numeric(ra):
        return array_value(ra.shape, _kind_of([ra.kind] + (["f"] if type(lc) is float else []), opt))
    raise Stop(node.lineno, "an operator on arrays the checker does not model")


def _matmul(a: ArrayFacts, b: ArrayFacts, node, left, right, what: str) -> Value:
    if not a.shape or not b.shape:
        raise Stop(node.lineno, f"`{what}` with a zero-dimensional array")
    inner_a = a.shape[-1]
    inner_b = b.shape[0] if len(b.shape) == 1 else b.shape[-2]
    if inner_a != inner_b:
        raise _fail(node, f"`{what}` needs the last axis of {_shape_text(a.shape)} to match "
                          f"{'the length' if len(b.shape) == 1 else 'the second-to-last axis'} of "
                          f"{_shape_text(b.shape)}: {inner_a} != {inner_b}.", "array-shapes", left, right)
    if len(a.shape) <= 2 and len(b.shape) <= 2:
        out = a.shape[:-1] + b.shape[1:] if len(b.shape) == 2 else a.shape[:-1]
        return array_value(tuple(out), _kind_of([a.kind, b.kind]))
    raise Stop(node.lineno, f"`{what}` of stacked arrays")


def _dot(a: ArrayFacts, b: ArrayFacts, node, left, right) -> Value:
    if not a.shape or not b.shape:
        return array_value(a.shape if b.shape == () else b.shape, _kind_of([a.kind, b.kind]))
    inner_a = a.shape[-1]
    inner_b = b.shape[0] if len(b.shape) == 1 else b.shape[-2]
    if inner_a != inner_b:
        raise _fail(node, f"shapes {_shape_text(a.shape)} and {_shape_text(b.shape)} are not aligned for dot: "
                          f"{inner_a} != {inner_b}.", "array-shapes", left, right)
    if len(a.shape) <= 2 and len(b.shape) <= 2:
        out = a.shape[:-1] + (b.shape[1:] if len(b.shape) == 2 else ())
        return array_value(tuple(out), _kind_of([a.kind, b.kind]))
    raise Stop(node.lineno, "`dot` of stacked arrays")


def _reshape(a: ArrayFacts, shape: Any, node, owner: Value) -> Value:
    if type(shape) is int:
        shape = (shape,)
    if type(shape) not in (tuple, list) or not all(type(d) is int for d in shape):
        raise Stop(node.lineno, "`reshape` to a shape the checker does not know")
    size = prod(a.shape)
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if any(d < -1 or d > MAX_AXIS for d in shape) or len(unknown) > 1:
        raise Stop(node.lineno, "`reshape` to an unusual shape")
    known = prod(d for d in shape if d != -1)
    if unknown:
        if known == 0 or size % known != 0:
            raise _fail(node, f"cannot reshape an array of size {size} into shape {tuple(shape)}.",
                        "array-shapes", owner)
        out = tuple(size // known if d == -1 else d for d in shape)
    else:
        if known != size:
            raise _fail(node, f"cannot reshape an array of size {size} into shape {tuple(shape)}.",
                        "array-shapes", owner)
        out = tuple(shape)
    return array_value(out, a.kind)


def _shape_arg(args: List[Value], kwargs: Dict[str, Value], node) -> Any:
    if kwargs:
        raise Stop(node.lineno, "`reshape` with keyword arguments")
    vals = [a.concrete() for a in args]
    if any(v is NOTHING for v in vals) or not vals:
        raise Stop(node.lineno, "`reshape` to a shape the checker does not know")
    return vals[0] if len(vals) == 1 else tuple(vals)


# ndarray methods NumPy's scalars (what a full reduction returns) do not have.
_NOT_ON_SCALARS = {"dot", "partition", "argpartition"}


def method(interp, owner: Value, attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    a = _arr(owner)
    if a is None:
        raise Stop(node.lineno, f"`.{attr}()` on an array whose shape the checker does not know")
    if a.shape == () and attr in _NOT_ON_SCALARS:
        # (`np.mean(a)` is a NumPy scalar, not a 0-d array: it has no `.dot`)
        raise Stop(node.lineno, f"`.{attr}()` on a value that may be a NumPy scalar")
    if attr == "reshape":
        return _reshape(a, _shape_arg(args, kwargs, node), node, owner)
    if attr == "dot" and len(args) == 1 and not kwargs:
        b = _arr(args[0])
        if b is not None and _numeric(a, b):
            return _dot(a, b, node, owner, args[0])
    if attr in ("copy",) and not args and not kwargs:
        return array_value(a.shape, a.kind)
    if attr in ("flatten", "ravel") and not args and not kwargs:
        return array_value((prod(a.shape),), a.kind)
    if attr == "transpose" and not args and not kwargs:
        return array_value(tuple(reversed(a.shape)), a.kind)
    if attr == "astype" and len(args) == 1 and not kwargs and a.kind is not None and a.kind in "biuf":
        # A cast between numeric dtypes never raises (out-of-range values wrap; NaN to int warns).
        target = _NUMERIC_CASTS.get(args[0].concrete()) if type(args[0].concrete()) is str else None
        if target is not None:
            return array_value(a.shape, target)
    raise Stop(node.lineno, f"a call to `.{attr}()` on an array, which the checker does not model")


_NUMERIC_CASTS = {"uint8": "u", "uint16": "u", "uint32": "u", "uint64": "u", "int8": "i", "int16": "i",
                  "int32": "i", "int64": "i", "int": "i", "float16": "f", "float32": "f", "float64": "f",
                  "float": "f", "bool": "b"}


def _sequence_arrays(v: Value, node) -> List[Tuple[ArrayFacts, Value]]:
    items = v.items()
    if items is None:
        raise Stop(node.lineno, "joining arrays the checker cannot list")
    out = []
    for it in items:
        f = _arr(it)
        if f is None or not _numeric(f):
            raise Stop(node.lineno, "joining values the checker does not know as numeric arrays")
        out.append((f, it))
    if not out:
        raise Stop(node.lineno, "joining an empty sequence")
    return out


def _concat(parts: List[Tuple[ArrayFacts, Value]], axis: int, node, what: str) -> Value:
    shapes = [p[0].shape for p in parts]
    vals = [p[1] for p in parts]
    if len(shapes[0]) == 0:
        raise _fail(node, "zero-dimensional arrays cannot be concatenated.", "array-shapes", *vals)
    nd = len(shapes[0])
    # NumPy checks the first array alone, then the axis against it, then the others' dimensions
    # (a later 0-d array is "not the same number of dimensions", after the axis).
    if not -nd <= axis < nd:
        raise Stop(node.lineno, f"`{what}` along an axis the arrays do not have")
    if any(len(s) != nd for s in shapes):
        raise _fail(node, f"`{what}` needs arrays with the same number of dimensions, got shapes "
                          f"{', '.join(_shape_text(s) for s in shapes)}.", "array-shapes", *vals)
    ax = axis % nd
    for s in shapes[1:]:
        for i in range(nd):
            if i != ax and s[i] != shapes[0][i]:
                raise _fail(node, f"`{what}` needs all dimensions except axis {ax} to match, got shapes "
                                  f"{', '.join(_shape_text(x) for x in shapes)}.", "array-shapes", *vals)
    out = list(shapes[0])
    out[ax] = sum(s[ax] for s in shapes)
    return array_value(tuple(out), _kind_of([p[0].kind for p in parts]))


def function(interp, fn: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    name = getattr(fn, "__name__", "")
    np_mod = __import__("sys").modules.get("numpy")
    if _legacy_random_choice(fn):
        a = _arr(args[0]) if len(args) == 1 and not kwargs else None
        if a is not None and len(a.shape) >= 2:
            raise _fail(node, f"`np.random.choice` draws from a 1-dimensional array, and {_label(args[0])}has "
                              f"shape {_shape_text(a.shape)}.", "array-shapes", args[0])
        raise Stop(node.lineno, "a call to `numpy.random.choice`, whose draw the checker does not model")
    if np_mod is None or not own_module_function("numpy", name, fn, "numpy"):
        raise Stop(node.lineno, f"a call to `numpy.{name}`, which the checker does not model")
    if name in ("dot", "matmul") and len(args) == 2 and not kwargs:
        a, b = _arr(args[0]), _arr(args[1])
        if a is not None and b is not None and _numeric(a, b):
            if name == "dot":
                return _dot(a, b, node, args[0], args[1])
            return _matmul(a, b, node, args[0], args[1], "matmul")
    if name == "reshape" and len(args) == 2 and not kwargs:
        a = _arr(args[0])
        if a is not None:
            return _reshape(a, _shape_arg(args[1:], {}, node), node, args[0])
    if name in ("concatenate", "vstack", "hstack", "stack") and len(args) == 1:
        extra = {k: v.concrete() for k, v in kwargs.items()}
        if any(k != "axis" for k in extra) or (name in ("vstack", "hstack") and extra):
            raise Stop(node.lineno, f"`numpy.{name}` with arguments the checker does not model")
        axis = extra.get("axis", 0)
        if type(axis) is not int:
            raise Stop(node.lineno, f"`numpy.{name}` along an axis the checker does not know")
        parts = _sequence_arrays(args[0], node)
        if name == "vstack":
            parts = [(ArrayFacts((1,) + p.shape if len(p.shape) == 1 else p.shape, p.kind), v) for p, v in parts]
            if any(len(p.shape) == 0 for p, _ in parts):
                parts = [(ArrayFacts((1, 1) if not p.shape else p.shape, p.kind), v) for p, v in parts]
            return _concat(parts, 0, node, "vstack")
        if name == "hstack":
            parts = [(ArrayFacts(p.shape or (1,), p.kind), v) for p, v in parts]
            return _concat(parts, 0 if all(len(p.shape) == 1 for p, _ in parts) else 1, node, "hstack")
        if name == "stack":
            shapes = {p.shape for p, _ in parts}
            if len(shapes) > 1:
                raise _fail(node, "`stack` needs all arrays to have the same shape, got "
                                  f"{', '.join(_shape_text(p.shape) for p, _ in parts)}.", "array-shapes",
                            *[v for _, v in parts])
            shape = parts[0][0].shape
            if not -len(shape) - 1 <= axis <= len(shape):
                raise Stop(node.lineno, "`stack` along an axis the arrays do not have")
            ax = axis % (len(shape) + 1)
            out = shape[:ax] + (len(parts),) + shape[ax:]
            return array_value(out, _kind_of([p.kind for p, _ in parts]))
        return _concat(parts, axis, node, "concatenate")
    if name in ("zeros", "ones") and len(args) == 1 and not kwargs:
        shape = args[0].concrete()
        if type(shape) is int:
            shape = (shape,)
        if type(shape) is tuple and sized(shape):
            return array_value(shape, "f")
    if name == "arange" and len(args) == 1 and not kwargs and type(args[0].concrete()) is int and \
            args[0].concrete() <= MAX_ELEMENTS:
        return array_value((max(args[0].concrete(), 0),), "i")
    if name == "array" and len(args) == 1 and not kwargs:
        c = args[0].concrete()
        if type(c) is list and len(c) <= 10000 and _flat_or_nested_numbers(c):
            try:
                return LiveValue(np_mod.array(c))
            except (ValueError, OverflowError):
                # Ragged lists (`[[1, 2], [3]]`) fail here as in the cell; not claimed, the reading stops.
                raise Stop(node.lineno, "`numpy.array` of a list NumPy does not make an array of")
    if name == "unique" and len(args) == 1 and not kwargs:
        return _unique(args[0], node)
    raise Stop(node.lineno, f"a call to `numpy.{name}`, which the checker does not model")


# Dtype kinds whose values NumPy sorts in C without a comparison that can fail (NaN and NaT sort
# last); object arrays compare their items, which may raise or run a notebook's `__lt__`.
_SORTABLE_KINDS = "biufcmMUS"


def _unique(v: Value, node) -> Value:
    """`np.unique(x)`, which sorts a flat copy of `x`: the distinct values, how many unknown. Only for an
    exact ndarray of a sortable kind, or a pandas Series of a NumPy number or bool dtype (`__array__` is
    pandas' own), and only while NumPy's functions and its set helpers are its own; so a later error on
    the line (arguments a function cannot bind: `compute_class_weight('balanced', np.unique(y), y)`)
    is reached for certain."""
    a = _arr(v)
    if a is not None and a.kind is not None and a.kind in _SORTABLE_KINDS and sized(a.shape):
        kind = a.kind
    elif v.kind() == "series" and v.series_dtype() in ("numeric", "bool") and v.series_length() is not None \
            and sized((v.series_length(),)) and _converts_through_its_array(v):
        kind = "b" if v.series_dtype() == "bool" else None
    else:
        raise Stop(node.lineno, "`numpy.unique` of values the checker cannot be sure NumPy sorts")
    if not numpy_untouched():
        raise Stop(node.lineno, "a call to `numpy.unique` while NumPy's own functions are replaced")
    return array_value((None,), kind)


# What NumPy looks up on the object itself, `__array__` included (an instance's own dict wins
# over the class's method).
_ARRAY_PROTOCOL_NAMES = ("__array_interface__", "__array_struct__", "__array__")


def _converts_through_its_array(v: Value) -> bool:
    """NumPy makes an array of the Series with pandas' `__array__` only when it finds no array
    protocol name on the instance: not in the Series' own dict, and not as an index label, which
    pandas' `__getattr__` hands out (`index=['__array_interface__', ...]` gives NumPy a number).
    So the index must be of a dtype pandas looks no names up in (numbers, bools, dates)."""
    if any(may_be_shadowed(v, name) for name in _ARRAY_PROTOCOL_NAMES):
        return False
    if isinstance(v, LiveValue):
        owner = v.obj
    else:
        source = selected_from(v)
        frame = source[0] if source is not None else None
        owner = frame.obj if isinstance(frame, LiveValue) else None
    if owner is None or not pristine_pandas(type(owner)):
        return False
    try:
        index = owner.index  # (pandas' own property: the class is unpatched)
        category = dtype_category(index.dtype) if pristine_pandas(type(index)) else None
    except Exception:
        return False
    return category in ("numeric", "bool", "datetime", "timedelta")


def _legacy_random_choice(fn: Any) -> bool:
    """`fn` is `choice` bound to an exact NumPy RandomState (what `np.random.choice` is): a method of a
    compiled class, which no notebook can replace. (A Generator's `choice` takes 2-D arrays.)"""
    mtrand = __import__("sys").modules.get("numpy.random.mtrand")
    state_cls = checked(mtrand.__dict__).get("RandomState") if mtrand is not None else None
    if state_cls is None or type(fn) is not types.MethodType or type(fn.__self__) is not state_cls:
        return False
    own_choice = checked(state_cls.__dict__).get("choice")  # (a compiled class: its dict cannot be written)
    return own_choice is not None and fn.__func__ is own_choice


def _flat_or_nested_numbers(c: Any, depth: int = 0) -> bool:
    if depth > 3:
        return False
    if type(c) in (int, float, bool):
        return True
    if type(c) is list:
        return all(_flat_or_nested_numbers(x, depth + 1) for x in c)
    return False


def _float_scalar(k: Any) -> bool:
    """A Python float or one of NumPy's float scalars: no `__index__`, so never an array index."""
    if type(k) is float:
        return True
    np_mod = __import__("sys").modules.get("numpy")
    return np_mod is not None and any(type(k) is checked(np_mod.__dict__).get(t) for t in ("float16", "float32", "float64"))


def getitem(interp, base: Value, index: Value, node) -> Value:
    a = _arr(base)
    key = index.concrete()
    if a is None or key is NOTHING:
        raise Stop(node.lineno, "indexing an array the checker does not know")
    shape = _indexed_shape(base, a, key, node)
    if not shape and all(type(k) is int for k in (key if type(key) is tuple else (key,))):
        return LiveValue(base.concrete()[key]) if isinstance(base, LiveValue) else FactValue("scalar")
    return array_value(shape, a.kind)


def setitem(interp, base: Value, index: Value, value: Value, target) -> None:
    """`a[i, :] = b`: IndexError out of bounds, ValueError when b cannot broadcast into the selection.
    Judged for numeric arrays on both sides; the reading stops after it (the values changed)."""
    a, v = _arr(base), _arr(value)
    key = index.concrete()
    # NumPy refuses a read-only destination with ValueError before it looks at the index. A live
    # array's flags say which; a recorded or derived one's are unknown (a view of a read-only array,
    # `df.values` under copy-on-write): then only a value that cannot broadcast, ValueError either
    # way, is certain, and an index out of bounds is not.
    flags_unknown = not isinstance(base, LiveValue) and base.kind() == "ndarray"
    if a is None or v is None or key is NOTHING or not _numeric(a, v) or not (_writeable(base) or flags_unknown):
        raise Stop(target.lineno, f"assigning into `{base.name or 'an array'}`")
    try:
        shape = _indexed_shape(base, a, key, target)
    except Crash:
        if flags_unknown:
            raise Stop(target.lineno, f"assigning into `{base.name or 'an array'}`, which may be read-only")
        raise
    vs = list(v.shape)
    while vs and vs[0] == 1 and len(vs) > len(shape):
        vs.pop(0)  # NumPy drops leading axes of length 1 from the value
    if len(vs) > len(shape) or not all(d == 1 or d == t for d, t in zip(reversed(vs), reversed(shape))):
        raise _fail(target, f"could not broadcast input array from shape {_shape_text(v.shape)} into "
                            f"shape {_shape_text(shape)}.", "array-shapes", value, base)
    raise Stop(target.lineno, f"assigning into `{base.name or 'an array'}`")


def _writeable(base: Value) -> bool:
    if not isinstance(base, LiveValue) or type(base.obj) is not ndarray_type():
        return False
    try:
        return base.obj.flags.writeable is True
    except Exception:
        return False


def _indexed_shape(base: Value, a: ArrayFacts, key: Any, node) -> Tuple[int, ...]:
    """The shape `a[key]` selects with plain integers and slices; IndexError when a key is a float or
    an integer past the end, or there are more keys than axes."""
    keys = key if type(key) is tuple else (key,)
    if any(type(k) is int and not -2 ** 62 <= k <= 2 ** 62 for k in keys):
        # NumPy converts an index to its C integer first: past it, OverflowError or IndexError by size.
        raise Stop(node.lineno, "indexing an array with an integer too large for NumPy's index type")
    if all(type(k) in (int, slice) or _float_scalar(k) for k in keys) and any(_float_scalar(k) for k in keys):
        raise Crash(CertainCrash("IndexError", node.lineno, node.col_offset,
                                 f"a float cannot index the array {_label(base)}(only integers, slices, `...`, "
                                 "`None` and integer or boolean arrays can).", "index-out-of-range",
                                 _names(base)))
    if not all(type(k) is int or type(k) is slice for k in keys):
        raise Stop(node.lineno, "indexing an array with a key the checker does not model")
    if any(type(k) is slice and not all(x is None or type(x) is int for x in (k.start, k.stop, k.step))
           for k in keys):
        raise Stop(node.lineno, "slicing an array with bounds the checker does not know")
    if any(type(k) is slice and k.step == 0 for k in keys):
        raise Stop(node.lineno, "a slice with step 0")
    if len(keys) > len(a.shape):
        raise Crash(CertainCrash("IndexError", node.lineno, node.col_offset,
                                 f"too many indices: the array {_label(base)}has {len(a.shape)} dimension(s) but "
                                 f"{len(keys)} were indexed.", "index-out-of-range", _names(base)))
    out = []
    for axis, (k, n) in enumerate(zip(keys, a.shape)):
        if type(k) is int:
            if k >= n or k < -n:
                raise Crash(CertainCrash("IndexError", node.lineno, node.col_offset,
                                         f"index {k} is out of bounds for axis {axis} of {_label(base)}with size {n}.",
                                         "index-out-of-range", _names(base)))
        else:
            out.append(len(range(*k.indices(n))))
    out.extend(a.shape[len(keys):])
    return tuple(out)


def _label(v: Value) -> str:
    return f"`{v.name}` " if v.name else ""


__all__ = ["binop", "method", "function", "getitem", "broadcast", "array_value", "is_simple_constant"]
