"""`.fit()` rejected for the estimator's parameters alone (an unsupported solver/penalty pair, ...).

scikit-learn validates many parameter combinations when `fit` starts, before it looks at X or y.
Whether it does for this class and these parameters is asked of the installed version: fresh
instances of the same class with the same plain parameters are fitted on three inputs that share
nothing (garbage objects, a small valid data set, unconvertible strings of mismatched lengths). If
all three raise the same exception with the same message, the error never depended on the data,
so the user's `fit` raises it too. The user's estimator is never touched; the probes run only
scikit-learn's own code (the class, every class it inherits from and its `fit` all come from
scikit-learn), under the kernel's own warning filters, so a warning that would be an error for the
user is one for the probe as well.
"""

from __future__ import annotations

import sys
import types
import warnings
from inspect import getattr_static
from typing import Any, Dict, Optional, Tuple

from ..live_adapter import LiveValue, is_plain_data
from ..provenance import audit, is_subclass

_CLAIMABLE = ("ValueError", "TypeError", "InvalidParameterError")  # (scikit-learn's is both of the others)
_PROBED: Dict[Any, Optional[Tuple[str, str]]] = {}


def rejected_parameters(owner: Any, n_args: int) -> Optional[Tuple[str, str]]:
    """(exception, message) when `owner.fit(...)` with `n_args` data arguments fails on its
    parameters alone; None when that is not certain."""
    if not isinstance(owner, LiveValue) or n_args not in (1, 2):
        return None
    obj = owner.obj
    cls = type(obj)
    base = sys.modules.get("sklearn.base")
    est = getattr_static(base, "BaseEstimator", None) if type(base) is types.ModuleType else None
    if est is None or not is_subclass(cls, est) or not audit().pristine(cls, "sklearn"):
        return None
    try:
        params = obj.get_params(deep=False)
    except Exception:
        return None
    if type(params) is not dict or not all(is_plain_data(v) for v in params.values()):
        return None
    try:
        key = (cls, n_args, repr(sorted(params.items())), repr(warnings.filters))
    except Exception:
        return None
    if key not in _PROBED:
        _PROBED[key] = _probe(cls, params, n_args)
    return _PROBED[key]


def _inputs():
    np = sys.modules.get("numpy")
    if type(np) is not types.ModuleType:
        return None
    valid = (np.arange(40, dtype=float).reshape(20, 2), np.array([0, 1] * 10))
    strings = (np.array([["a", "b"], ["c", "d"], ["e", "f"]], dtype=object), np.array(["x", "y"], dtype=object))
    # Cheapest first: with valid parameters the first two already disagree, and nothing is fitted.
    return [(object(), object()), strings, valid]


def _probe(cls: type, params: Dict[str, Any], n_args: int) -> Optional[Tuple[str, str]]:
    inputs = _inputs()
    if inputs is None:
        return None
    seen = set()
    for data in inputs:
        try:
            probe = cls(**params)
        except Exception:
            return None
        # record=True keeps warnings out of the user's output; the filters stay the kernel's own.
        with warnings.catch_warnings(record=True):
            try:
                probe.fit(*data[:n_args])
            except Exception as exc:
                try:
                    seen.add((type(exc).__name__, str(exc)))
                except Exception:
                    return None
            else:
                return None
        if len(seen) > 1:
            return None
    (name, message), = seen
    return (name, message) if name in _CLAIMABLE else None


_ONE_D = "Expected 2D array, got 1D array instead"
_PROBED_1D: Dict[Any, bool] = {}


def rejects_1d(owner: Any, x: Any) -> bool:
    """`owner.fit(x)` with x an exact 1-D numeric ndarray raises scikit-learn's "Expected 2D array"
    ValueError. The installed version is asked on fresh instances with the same plain parameters,
    fitted on two 1-D arrays of x's dtype and length but different values: only x's dimension is
    shared, so when both raise that error, so does the user's x (check_array looks at the
    dimension before any value). The user's estimator and x are never handed to scikit-learn."""
    np = sys.modules.get("numpy")
    if not isinstance(owner, LiveValue) or not isinstance(x, LiveValue) or type(np) is not types.ModuleType:
        return False
    arr = x.obj
    if type(arr) is not np.__dict__.get("ndarray") or arr.ndim != 1 or not 0 < arr.shape[0] <= 100000 or \
            arr.dtype.kind not in "biuf":
        return False
    if rejected_parameters(owner, 1) is not None:
        return False
    cls = type(owner.obj)
    try:
        params = owner.obj.get_params(deep=False)  # (plain data: rejected_parameters looked)
        key = (cls, arr.shape[0], arr.dtype.str, repr(sorted(params.items())), repr(warnings.filters))
    except Exception:
        return False
    if key not in _PROBED_1D:
        _PROBED_1D[key] = _probe_1d(cls, params, arr.shape[0], arr.dtype, np)
    return _PROBED_1D[key]


def _probe_1d(cls: type, params: Dict[str, Any], n: int, dtype: Any, np: Any) -> bool:
    for data in (np.zeros(n, dtype=dtype), np.arange(n).astype(dtype)):
        try:
            probe = cls(**params)
        except Exception:
            return False
        with warnings.catch_warnings(record=True):
            try:
                probe.fit(data)
            except ValueError as exc:
                if not str(exc).startswith(_ONE_D):
                    return False
            except Exception:
                return False
            else:
                return False
    return True
