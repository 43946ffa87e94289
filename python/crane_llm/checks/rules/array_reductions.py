"""Reductions of exact numeric ndarrays that cannot raise, so the reading goes on past them.

`np.mean(a)` / `np.sum(a)` (NumPy's own functions, no other argument) of a numeric array (for the
mean, a non-empty one) and the builtin `sum(a)` of a non-empty numeric array: on exact ndarrays of
bool / int / float dtype none of these runs user code, and none raises while NumPy's floating-point
errors and the warning filters only warn (the caller makes sure with `library_state_plain`).
The result is known by shape: a 0-d array for a full reduction, which broadcasts like the NumPy
scalar it really is. (A float array to a plain power is in arrays.binop.)
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..outcome import CertainCrash, Crash
from ..provenance import own_module_function
from ..abstract_values import ArrayFacts, Value
from .arrays import NUMERIC_KINDS, array_value

_REDUCTIONS = ("mean", "sum")


def _facts(v: Value) -> Optional[ArrayFacts]:
    if v.kind() != "ndarray":
        return None
    a = v.array()
    if a is None or a.shape is None or any(type(d) is not int for d in a.shape):
        return None
    if a.kind is None or a.kind not in NUMERIC_KINDS + "b":
        return None
    return a


def numpy_reduction(name: str, fn: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Optional[Value]:
    """The result of `np.mean(a)` / `np.sum(a)` when certain to succeed; None when not modelled."""
    if name not in _REDUCTIONS or len(args) != 1 or kwargs or not own_module_function("numpy", name, fn, "numpy"):
        return None
    a = _facts(args[0])
    if a is None:
        return None
    size = 1
    for d in a.shape:
        size *= d
    if name == "mean" and size == 0:
        return None  # the mean of nothing warns
    return array_value((), "f" if name == "mean" else _sum_kind(a.kind))


def builtin_sum(args: List[Value], kwargs: Dict[str, Value], node) -> Optional[Value]:
    """`sum(a)` over the first axis of a non-empty numeric array: the elements add without raising."""
    if len(args) != 1 or kwargs:
        return None
    a = _facts(args[0])
    if a is None or not a.shape or a.shape[0] == 0:
        return None  # iterating a 0-d array raises; an empty one gives back the int 0
    return array_value(tuple(a.shape[1:]), _sum_kind(a.kind))


def _sum_kind(kind: str) -> str:
    """A sum keeps float and unsigned kinds (uint8 sums to uint64, or to uint8 by the builtin `sum`,
    and a negative Python int then raises OverflowError under NEP 50); bools sum to integers."""
    return kind if kind in "fu" else "i"


# Reductions whose `axis` NumPy normalises before touching an element: one out of range is an
# AxisError whatever the data (exact ndarrays of numeric or bool dtype only).
_AXIS_REDUCTIONS = ("sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "cumsum", "cumprod",
                    "any", "all", "ptp")


def _axis_error(a: ArrayFacts, axis_value: Value, what: str, names, node) -> None:
    axis = axis_value.concrete()
    if type(axis) is not int:
        return
    ndim = len(a.shape)
    if ndim == 0 or -ndim <= axis < ndim:
        return  # (a 0-d array reduces along axis 0 or -1 without complaint: its axes are not checked alike)
    raise Crash(CertainCrash("AxisError", node.lineno, node.col_offset,
                             f"{what}: axis {axis} is out of bounds for an array of {ndim} dimension"
                             f"{'s' if ndim != 1 else ''}.", "array-axis", [n for n in names if n]))


def method_axis(owner: Value, attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> None:
    """`a.sum(axis=k)` / `a.sum(k)` on an exact ndarray (a C type: its methods cannot be replaced)."""
    if attr not in _AXIS_REDUCTIONS or attr == "ptp":
        return
    a = _facts(owner)
    axis = kwargs.get("axis") if "axis" in kwargs else (args[0] if args else None)
    if a is None or axis is None or len(args) > 1 or set(kwargs) - {"axis"}:
        return
    _axis_error(a, axis, f"`.{attr}()`", [owner.name], node)


def function_axis(name: str, fn: Any, args: List[Value], kwargs: Dict[str, Value], node) -> None:
    """`np.mean(a, axis=k)` / `np.mean(a, k)`: NumPy's own function on an exact ndarray."""
    if name not in _AXIS_REDUCTIONS or not args or len(args) > 2 or set(kwargs) - {"axis"} \
            or (len(args) == 2 and "axis" in kwargs) or not own_module_function("numpy", name, fn, "numpy"):
        return
    a = _facts(args[0])
    axis = args[1] if len(args) == 2 else kwargs.get("axis")
    if a is None or axis is None:
        return
    _axis_error(a, axis, f"np.{name}", [args[0].name], node)
