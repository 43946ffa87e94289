"""One variable's summary: dispatch on the object's exact type, within the time limits.

Libraries are looked up in `sys.modules` only, so an object can only be recognised as, say, a
DataFrame when the user has imported pandas, and we never pay an import.
"""

from __future__ import annotations

import types
import warnings
from typing import Any, Dict, Optional

from ..deadline import Deadline as CheckDeadline
from . import budget as limits
from .budget import BUDGET_RAN_OUT, Deadline, SummaryTimeout, hard_limit
from .container_info import dict_summary, keras_history_summary, scalar_summary, sequence_summary
from .pandas_guard import unreadable_pandas
from ..checks.abc_hooks import notebook_abc_hook
from ..checks.library_namespace import numpy_untouched
from ..checks.provenance import class_module, class_name, mro
from ..checks.static_reads import is_static_type
from .safe import cut, loaded, member, number, one_of, plain_type
# (imported here, not when first needed: an import then would ask the notebook's `sys.meta_path` finders)
from . import keras_info, torch_info
from .frame_info import dataframe_summary, ndarray_summary, series_summary
from .sklearn_info import estimator_summary, is_estimator

_FUNCTION_TYPES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.BuiltinMethodType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
)


def summarize(value: Any, within: Optional[CheckDeadline] = None) -> Dict[str, Any]:
    """The summary JSON of one value; never raises (failures become kind 'unavailable').

    `within` is the whole check's budget: this summary's own limits never reach past it.
    """
    deadline = Deadline()
    hard = limits.HARD_SECONDS  # read now: tests shorten it
    if within is not None:
        deadline.seconds = min(deadline.seconds, max(within.left() / 2, 0.0))
        hard = min(hard, max(within.left(), 0.0))
    try:
        # A library warning raised while we look (a cast, an empty slice) is ours, not the user's
        # (`module=`: the warnings module itself, not what `sys.modules['warnings']` holds now).
        with hard_limit(hard), warnings.catch_warnings(module=warnings):
            warnings.simplefilter("ignore")
            return _dispatch(value, deadline)
    except SummaryTimeout as exc:
        if within is not None and within.passed():
            return {"kind": "unavailable", "reason": BUDGET_RAN_OUT % within.describe()}
        return {"kind": "unavailable", "reason": str(exc)}
    except Exception as exc:  # a library raising on an odd object must not stop the others
        return {"kind": "unavailable", "reason": cut(type(exc).__name__ + ": " + str(exc), 200)}


NUMPY_REPLACED = "NumPy's functions were replaced in this kernel (the replacements would run as it is read)"


def _dispatch(value: Any, deadline: Deadline) -> Dict[str, Any]:
    t = type(value)
    if not plain_type(t):  # a user metaclass may hook every look at the class: look no further
        return {"kind": "object"}
    bases = mro(t)
    if one_of(t, (bool, int, float, str)):
        return scalar_summary(value)
    if value is None:
        return {"kind": "none"}
    if list in bases or tuple in bases or set in bases or frozenset in bases:
        return sequence_summary(value)
    if dict in bases:
        return dict_summary(value)

    hooked = notebook_abc_hook()  # library code below asks isinstance against the standard ABCs
    if hooked:
        return {"kind": "unavailable", "reason": hooked}
    np = loaded("numpy")
    if np is not None and not numpy_untouched():  # every summary below reaches NumPy by module attribute
        return {"kind": "unavailable", "reason": NUMPY_REPLACED}
    if np is not None:
        if t is np.ndarray or t is np.memmap:

            return ndarray_summary(np, value, deadline)
        if np.generic in bases and class_module(t) == "numpy" and is_static_type(t):
            return _numpy_scalar(np, value)

    pd = loaded("pandas")
    if pd is not None and np is not None:
        unreadable = unreadable_pandas(value, t) if t is pd.DataFrame or t is pd.Series else None
        if unreadable is not None:
            return {"kind": "unavailable", "reason": unreadable}
        if t is pd.DataFrame:

            return dataframe_summary(np, pd, value, deadline)
        if t is pd.Series:

            return series_summary(np, pd, value, deadline)

    torch = loaded("torch")
    if torch is not None:

        if one_of(t, torch_info.tensor_types(torch)):
            return torch_info.tensor_summary(torch, value)
        data = loaded("torch.utils.data")  # (its classes read from its dictionary: no module `__getattr__` runs)
        if data is not None and one_of(t, (member(data, "DataLoader"), member(data, "Subset"))):
            return torch_info.data_summary(torch, value)

    tf = loaded("tensorflow")
    if tf is not None or loaded("keras") is not None:

        if tf is not None and keras_info.is_tf_dataset(tf, value):
            return keras_info.tf_dataset_summary(value)
        if keras_info.is_keras_iterator(value):
            return keras_info.keras_iterator_summary(value)
        if keras_info.is_keras_history(value):
            history = keras_history_summary(value)
            if history is not None:
                return history

    sklearn_base = loaded("sklearn.base")
    if sklearn_base is not None:

        if is_estimator(sklearn_base, value):
            return estimator_summary(value)

    if types.ModuleType in bases:
        return {"kind": "module"}
    if type in bases:
        return {"kind": "class"}
    if one_of(t, _FUNCTION_TYPES) or _is_library_callable(t):
        return {"kind": "function"}
    return {"kind": "object"}


def _numpy_scalar(np: Any, value: Any) -> Dict[str, Any]:
    t = type(value)  # (the real type: isinstance would read a `__class__` a subclass defines)
    if issubclass(t, np.bool_):
        return {"kind": "bool", "value": bool(value)}
    if issubclass(t, np.integer):
        return {"kind": "int", "value": str(int(value))}
    if issubclass(t, np.floating):
        return {"kind": "float", "value": number(float(value))}
    return {"kind": "object"}


def _is_library_callable(t: type) -> bool:
    """numpy ufuncs and array-function dispatchers, functools.partial: library callables."""
    module = class_module(t)
    return class_name(t) in ("ufunc", "_ArrayFunctionDispatcher", "partial", "cython_function_or_method") and \
        module.split(".")[0] in ("numpy", "functools", "builtins", "_cython_3_0_11")
