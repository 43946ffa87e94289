"""Reductions of exact numeric ndarrays that cannot raise, so the reading goes on past them.

`np.mean(a)` / `np.sum(a)` (NumPy's own functions, no other argument) of a non-empty numeric
array, the builtin `sum(a)` of a numeric array, and `a ** k` for a float array and a plain number:
on exact ndarrays of bool / int / float dtype none of these runs user code, and none raises while
NumPy's floating-point error handling is not set to "raise" (overflow and 0-division only warn;
a warning the kernel's filters would turn into an error makes the reading stop instead). The result
is known by shape: a 0-d float for a full reduction, which broadcasts like a NumPy scalar.
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from typing import Any, Dict, List, Optional

from ..outcome import Stop
from ..values import ArrayFacts, Value
from .arrays import NUMERIC_KINDS, array_value

_REDUCTIONS = ("mean", "sum")


def _numpy_dir() -> Optional[str]:
    np = sys.modules.get("numpy")
    path = getattr(np, "__file__", None) if type(np) is types.ModuleType else None
    return os.path.dirname(os.path.realpath(path)) + os.sep if isinstance(path, str) else None


def numpy_own(fn: Any, name: str) -> bool:
    """`fn` is NumPy's own `name`: the public dispatcher whose implementation lives in NumPy's files."""
    np = sys.modules.get("numpy")
    root = _numpy_dir()
    if root is None or np.__dict__.get(name) is not fn:
        return False
    try:
        impl = object.__getattribute__(fn, "_implementation")
    except Exception:
        return False
    code = getattr(impl, "__code__", None) if type(impl) is types.FunctionType else None
    return code is not None and os.path.realpath(code.co_filename).startswith(root)


def floating_errors_quiet() -> bool:
    """NumPy only warns on overflow / invalid / 0-division, and no warning filter turns warnings into errors."""
    np = sys.modules.get("numpy")
    if type(np) is not types.ModuleType:
        return False
    try:
        modes = np.geterr()
    except Exception:
        return False
    if type(modes) is not dict or any(v in ("raise", "call") for v in modes.values()):
        return False
    return not any(f[0] == "error" and _covers_runtime_warning(f[2]) for f in warnings.filters)


def _covers_runtime_warning(category: Any) -> bool:
    """Whether a filter of `category` applies to NumPy's RuntimeWarnings (IPython itself adds an
    "error" filter for one warning class of its own, which does not)."""
    try:
        return isinstance(category, type) and issubclass(RuntimeWarning, category)
    except Exception:
        return True


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
    if name not in _REDUCTIONS or len(args) != 1 or kwargs or not numpy_own(fn, name):
        return None
    a = _facts(args[0])
    if a is None:
        return None
    if not floating_errors_quiet():
        raise Stop(node.lineno, "NumPy's error handling may turn this reduction's warnings into errors")
    size = 1
    for d in a.shape:
        size *= d
    if name == "mean" and size == 0:
        return None  # the mean of nothing warns
    return array_value((), "f" if name == "mean" or a.kind == "f" else "i")


def builtin_sum(args: List[Value], kwargs: Dict[str, Value], node) -> Optional[Value]:
    """`sum(a)` over the first axis of a numeric array: the elements add without raising."""
    if len(args) != 1 or kwargs:
        return None
    a = _facts(args[0])
    if a is None or not a.shape:
        return None  # iterating a 0-d array raises
    if not floating_errors_quiet():
        raise Stop(node.lineno, "NumPy's error handling may turn this sum's warnings into errors")
    if a.shape[0] == 0:
        return None  # the start value 0 comes back, a Python int
    return array_value(tuple(a.shape[1:]), "f" if a.kind == "f" else "i")


def power(left: Value, right: Value, node) -> Optional[Value]:
    """`a ** k` for a float array and a plain int / float: never raises (overflow only warns)."""
    a = _facts(left)
    k = right.concrete()
    if a is None or a.kind != "f" or type(k) not in (int, float) or not floating_errors_quiet():
        return None
    if type(k) is int and abs(k) > 2 ** 53:
        return None
    return array_value(a.shape, "f")
