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

The checker's own NumPy and pandas calls (finding the NaN, making the probes' data) go only through
what `_numpy()` and `_pandas()` verified: the names their modules hold are the libraries' own
functions and classes under their own names, and on NumPy's side implemented in C, because a
NumPy function written in Python reads module globals a notebook can replace
(`numpy._core.numeric.empty = ...`) and so does `ndarray.any()` (`numpy._core._methods._any`).
A notebook that replaced any of them gets no probe and no claim, and so does one that replaced
any function of NumPy's that scikit-learn's code would call by name (library_namespace): the
probe would run it, and the remembered answer would no longer be what the cell meets.
"""

from __future__ import annotations

import types
import warnings
from inspect import getattr_static
from typing import Any, Dict, Optional, Tuple

from ..static_reads import loaded_module, checked, class_module, class_name, is_static_type
from ..class_facts import own_column_arrays, pristine_pandas
from ..dtypes import recorded_dtypes_among
from .frames import labels_repeat
from ..library_namespace import numpy_untouched, sklearn_untouched
from ..live_adapter import LiveValue, is_estimator_class, is_plain_data, wraps_foreign
from ..provenance import audit, instance_dict, is_subclass, own_call, own_type
from ..library_only import remembered
from ..probe_state import probe_state
from ..memory_room import fits

_CLAIMABLE = ("ValueError", "TypeError", "InvalidParameterError")  # (scikit-learn's is both of the others)
_PROBED: Dict[Any, Optional[Tuple[str, str]]] = {}


def rejected_parameters(owner: Any, n_args: int) -> Optional[Tuple[str, str]]:
    """(exception, message) when `owner.fit(...)` with `n_args` data arguments fails on its
    parameters alone; None when that is not certain."""
    if not isinstance(owner, LiveValue) or n_args not in (1, 2) or _numpy() is None:
        return None
    obj = owner.obj
    cls = type(obj)
    base = loaded_module("sklearn.base")
    est = getattr_static(base, "BaseEstimator", None) if type(base) is types.ModuleType else None
    if est is None or not is_subclass(cls, est) or not audit().pristine(cls, "sklearn"):
        return None
    try:
        params = obj.get_params(deep=False)
    except Exception:
        return None
    if type(params) is not dict or not all(is_plain_data(v) for v in params.values()):
        return None
    return _asked_once(_PROBED, cls, params, (n_args,), lambda: _probe(cls, params, n_args))


def _asked_once(table: Dict[Any, Any], cls: type, params: Dict[str, Any], data: Tuple[Any, ...],
               ask: Any) -> Any:
    """`ask()`, a probe of fresh `cls(**params)` instances on made-up data described by `data`, run
    under `library_only` and remembered per class, data, parameters and probe state (so asked
    afresh once any of them changed); None when the state cannot be told, or when a module the
    probe's code looks names up in holds someone else's (its answer would be theirs)."""
    if not sklearn_untouched():
        return None
    try:
        key = (cls, data, repr(sorted(params.items())), probe_state(cls))
    except Exception:
        return None
    if key[-1] is None:
        return None
    return remembered(table, key, ask)


# NumPy's functions the checker calls: all in C, so no module global of NumPy's is read.
_NUMPY_FUNCTIONS = ("zeros", "arange", "array", "isnan", "logical_or")


def _numpy() -> Optional[types.SimpleNamespace]:
    """NumPy's own `ndarray` and `dtype` classes and the C functions above, as numpy's namespace
    holds them; None when NumPy is not loaded or any of them, or any function of NumPy's a probe
    reaches by name, was replaced."""
    np = loaded_module("numpy")
    if type(np) is not types.ModuleType or not numpy_untouched():
        return None
    d = checked(np.__dict__)
    found = {}
    for name in ("ndarray", "dtype"):
        cls = d.get(name)
        if not is_static_type(cls) or class_module(cls) != "numpy" or class_name(cls) != name:
            return None
        found[name] = cls
    for name in _NUMPY_FUNCTIONS:
        fn = own_call("numpy", name, "numpy")
        if fn is None or type(fn) is types.FunctionType:
            return None
        found[name] = fn
    return types.SimpleNamespace(**found)


def _numpy_dtype(dt: Any, np: Any) -> bool:
    """`dt` is one of NumPy's own dtypes (its type is read, never `isinstance`: a notebook's
    object could answer that through a `__class__` property)."""
    t = type(dt)
    return is_static_type(t) and class_module(t).split(".", 1)[0] == "numpy" and is_subclass(t, np.dtype)


def _pandas() -> Optional[types.SimpleNamespace]:
    """pandas' own, unpatched DataFrame and Series, its `array` function and StringDtype; None
    when pandas is not loaded or any of them was replaced."""
    pd = loaded_module("pandas")
    if type(pd) is not types.ModuleType:
        return None
    d = checked(pd.__dict__)
    frame, series, array, text = d.get("DataFrame"), d.get("Series"), own_call("pandas", "array", "pandas"), \
        d.get("StringDtype")
    if frame is None or series is None or array is None or not pristine_pandas(frame) or not pristine_pandas(series) or \
            (text is not None and not audit().pristine(text, "pandas")):
        return None
    return types.SimpleNamespace(DataFrame=frame, Series=series, array=array, StringDtype=text)


def _inputs():
    np = _numpy()
    if np is None:
        return None
    valid = (np.arange(40, dtype=float).reshape(20, 2), np.array([0, 1] * 10))
    strings = (np.array([["a", "b"], ["c", "d"], ["e", "f"]], dtype=object), np.array(["x", "y"], dtype=object))
    # Cheapest first: with valid parameters the first two already disagree, and nothing is fitted.
    return [(object(), object()), strings, valid]


_UNBUILT = object()  # the fresh instance could not even be made


def _fit_fresh(cls: type, params: Dict[str, Any], data: Tuple[Any, ...], method: str = "fit") -> Any:
    """What `cls(**params).<method>(*data)` raises on a fresh instance: the exception, None when it
    raises nothing, _UNBUILT when the instance cannot be made."""
    try:
        probe = cls(**params)
    except Exception:
        return _UNBUILT
    # record=True keeps warnings out of the user's output; the filters stay the kernel's own.
    with warnings.catch_warnings(record=True, module=warnings):
        try:
            getattr(probe, method)(*data)
        except Exception as exc:
            return exc
    return None


def _fit_rejects(cls: type, params: Dict[str, Any], data: Tuple[Any, ...], message: Any) -> bool:
    """A fresh instance's fit on `data` raises a ValueError whose message starts with `message`
    (a string or a tuple of them)."""
    raised = _fit_fresh(cls, params, data)
    return issubclass(type(raised), ValueError) and str(raised).startswith(message)


def _probe(cls: type, params: Dict[str, Any], n_args: int) -> Optional[Tuple[str, str]]:
    inputs = _inputs()
    if inputs is None:
        return None
    seen = set()
    for data in inputs:
        raised = _fit_fresh(cls, params, data[:n_args])
        if raised is None or raised is _UNBUILT:
            return None
        try:
            seen.add((type(raised).__name__, str(raised)))
        except Exception:
            return None
        if len(seen) > 1:
            return None
    (name, message), = seen
    return (name, message) if name in _CLAIMABLE else None


def _probe_params(owner: Any) -> Optional[Dict[str, Any]]:
    """The plain parameters of a scikit-learn estimator of its own, unpatched class that wraps no
    estimator but scikit-learn's own (a forest's base tree): what a fresh copy is built from. None
    when the estimator is not such, so nothing of the user's is ever repr'd, copied or run."""
    if not isinstance(owner, LiveValue) or not is_estimator_class(type(owner.obj)):
        return None
    inst = instance_dict(owner.obj)
    if type(inst) is not dict or any(wraps_foreign(v) for v in inst.values()):
        return None
    try:
        params = owner.obj.get_params(deep=False)
    except Exception:
        return None
    if type(params) is not dict or not all(type(k) is str and is_plain_data(v) for k, v in params.items()):
        return None
    return params


_ONE_D = "Expected 2D array, got 1D array instead"
_PROBED_1D: Dict[Any, bool] = {}


def rejects_1d(owner: Any, x: Any) -> bool:
    """`owner.fit(x)` with x an exact 1-D numeric ndarray raises scikit-learn's "Expected 2D array"
    ValueError. The installed version is asked on fresh instances with the same plain parameters,
    fitted on two 1-D arrays of x's dtype and length but different values: only x's dimension is
    shared, so when both raise that error, so does the user's x (check_array looks at the
    dimension before any value). The user's estimator and x are never handed to scikit-learn."""
    np = _numpy()
    if not isinstance(owner, LiveValue) or not isinstance(x, LiveValue) or np is None:
        return False
    arr = x.obj
    if type(arr) is not np.ndarray or arr.ndim != 1 or not 0 < arr.shape[0] <= 100000 or \
            arr.dtype.kind not in "biuf":
        return False
    params = _probe_params(owner)
    if params is None or rejected_parameters(owner, 1) is not None:
        return False
    cls = type(owner.obj)
    return bool(_asked_once(_PROBED_1D, cls, params, (arr.shape[0], arr.dtype.str),
                           lambda: _probe_1d(cls, params, arr.shape[0], arr.dtype, np)))


def _probe_1d(cls: type, params: Dict[str, Any], n: int, dtype: Any, np: Any) -> bool:
    return all(_fit_rejects(cls, params, (data,), _ONE_D)
               for data in (np.zeros(n, dtype=dtype), np.arange(n).astype(dtype)))


_STRINGS = "could not convert string to float"
_NAN = ("Input X contains NaN", "Input contains NaN")
_PROBED_DATA: Dict[Any, bool] = {}
_MAX_CELLS = 200000


def rejects_data(owner: Any, x: Any, y: Any) -> Optional[str]:
    """"strings" when `owner.fit(x[, y])` fails converting x's text to float, "nan" when it rejects
    the NaN in x; None when not certain.

    Only what scikit-learn's check_array decides on before any value matters is used: x's exact
    type, shape, column names and dtypes. Fresh instances with the same plain parameters are
    fitted on two synthetic inputs that share exactly that with x (plus the defect) and differ in
    everything else, the first with a y no estimator takes; when both fail with the same
    scikit-learn message, x and y's values never came into it. x and y are never handed over."""
    np = _numpy()
    params = _probe_params(owner)
    if params is None or np is None or \
            rejected_parameters(owner, 1 if y is None else 2) is not None:
        return None
    if y is not None and not _plain_target(y, np):
        return None
    shape = _defect(x, np)
    if shape is None:
        return None
    what, layout = shape
    cls = type(owner.obj)
    try:
        data = (what, repr(layout), y is None)
    except Exception:
        return None
    return what if _asked_once(_PROBED_DATA, cls, params, data,
                              lambda: _probe_data(cls, params, what, layout, y is None, np)) else None


def _plain_target(y: Any, np: Any) -> bool:
    if not isinstance(y, LiveValue):
        return False
    obj = y.obj
    if type(obj) is np.ndarray:
        return obj.dtype.kind in "biuf"
    return type(obj) is list and len(obj) <= 100000 and is_plain_data(obj)


def _defect(x: Any, np: Any):
    """("nan", (dtype, shape)) for a float ndarray holding NaN; ("strings", [(name, dtype, bad
    column?)...], rows) for a DataFrame of numeric and text columns with text that is no number."""
    if not isinstance(x, LiveValue):
        return None
    obj = x.obj
    if type(obj) is np.ndarray:
        if obj.ndim != 2 or obj.dtype.kind != "f" or not 0 < obj.size <= _MAX_CELLS * 10 or \
                obj.dtype.str not in ("<f8", "<f4"):
            return None
        # (a ufunc's reduce, not `.any()`, which calls a NumPy module global)
        return ("nan", (obj.dtype.str, obj.shape)) if bool(np.logical_or.reduce(np.isnan(obj), axis=None)) else None
    facts = x.frame()
    pd = _pandas()
    if facts is None or not facts.exact or not facts.flat or facts.nrows is None or pd is None:
        return None
    labels = list(facts.columns)
    n = facts.nrows
    if not 0 < n * max(len(labels), 1) <= _MAX_CELLS or not labels or \
            not all(type(c) is str for c in labels) or len(set(labels)) != len(labels):
        return None
    layout = []
    try:
        for label in labels:
            col = obj[label]
            dt = col.dtype
            if _numpy_dtype(dt, np) and dt.kind in "biuf":
                layout.append((label, dt, False))
                continue
            if not ((pd.StringDtype is not None and type(dt) is pd.StringDtype) or (_numpy_dtype(dt, np) and dt.kind == "O")):
                return None
            values = col.tolist()
            if not all(type(v) is str for v in values):
                return None
            layout.append((label, dt, any(_no_number(v) for v in values)))
    except Exception:
        return None
    if not any(bad for _, _, bad in layout):
        return None
    return "strings", (tuple(layout), n)


def _no_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return True
    return False


def _synthetic(what: str, layout: Any, variant: int, np: Any) -> Any:
    if what == "nan":
        dtype, shape = layout
        data = np.zeros(shape, dtype=dtype) if variant == 0 else np.arange(
            shape[0] * shape[1], dtype=dtype).reshape(shape)
        data[(0, 0) if variant == 0 else (-1, -1)] = float("nan")
        return data
    pd = _pandas()
    if pd is None:
        return None
    columns, n = layout
    out = {}
    for label, dtype, bad in columns:
        if _numpy_dtype(dtype, np) and dtype.kind in "biuf":
            out[label] = np.zeros(n, dtype=dtype) if variant == 0 else np.arange(n).astype(dtype)
        else:
            texts = ["a"] * n if variant == 0 else (["1"] * (n - 1) + ["b" if bad else "2"])
            # (a Series keeps object dtype; pandas 3 would read an object ndarray of text as str)
            out[label] = pd.Series(texts, dtype=object) if _numpy_dtype(dtype, np) else pd.array(texts, dtype=dtype)
    return pd.DataFrame(out)


def _probe_data(cls: type, params: Dict[str, Any], what: str, layout: Any, one_arg: bool, np: Any) -> bool:
    for variant in (0, 1):
        try:
            data = _synthetic(what, layout, variant, np)
            n = data.shape[0]
        except Exception:
            return False
        args = (data,) if one_arg else (data, object() if variant == 0 else np.zeros(n))
        if not _fit_rejects(cls, params, args, _STRINGS if what == "strings" else _NAN):
            return False
    return True


_NAMES = "The feature names should match those that were passed during fit"
_PROBED_NAMES: Dict[Any, bool] = {}


def names_mismatch(owner: Any, x: Any, attr: str) -> Optional[Tuple[list, list]]:
    """(fitted names, X's names) when `owner.<attr>(x)` raises scikit-learn's "feature names should
    match" ValueError: the estimator was fitted on a DataFrame (its `feature_names_in_`), x is a
    DataFrame whose column names, all text, differ from them in set or order. Whether this class
    checks the names first is asked of a fresh copy fitted on made-up data with the fitted names and
    then given made-up data with x's names; the user's estimator and x are never handed over."""
    np = _numpy()
    params = _probe_params(owner)
    facts = x.frame() if params is not None and np is not None else None
    if facts is None or not facts.exact or not facts.flat or facts.columns is None:
        return None
    inst = instance_dict(owner.obj)
    fitted = inst.get("feature_names_in_") if type(inst) is dict else None
    if type(fitted) is not np.ndarray or fitted.ndim != 1 or fitted.dtype.kind != "O" or \
            not 0 < fitted.shape[0] <= 1000:
        return None
    fitted_names = fitted.tolist()
    names = list(facts.columns)
    if not all(type(n) is str for n in fitted_names + names) or not names or len(names) > 1000 or \
            names == fitted_names:
        return None
    cls = type(owner.obj)
    rejected = _asked_once(_PROBED_NAMES, cls, params, (attr, tuple(fitted_names), tuple(names)),
                          lambda: _probe_names(cls, params, attr, fitted_names, names, np))
    return (fitted_names, names) if rejected else None


def _probe_names(cls: type, params: Dict[str, Any], attr: str, fitted: list, names: list, np: Any) -> bool:
    pd = _pandas()
    rng = _global_random_state()
    if pd is None or rng is None:
        return False
    saved = rng.get_state()
    try:
        return _probe_names_with(pd, cls, params, attr, fitted, names, np)
    finally:
        rng.set_state(saved)  # (a probe fitted with `random_state=None` draws from NumPy's global generator)


def _global_random_state() -> Any:
    """NumPy's global RandomState, when it is NumPy's own with NumPy's own bit generator (a
    notebook's subclass would run its methods when the probe draws from it), else None."""
    mtrand = loaded_module("numpy.random.mtrand")
    rng = checked(mtrand.__dict__).get("_rand") if type(mtrand) is types.ModuleType else None
    if rng is None or type(rng) is not checked(mtrand.__dict__).get("RandomState") or \
            not own_type(type(rng), "numpy"):
        return None
    bits = getattr(rng, "_bit_generator", None)
    return rng if bits is not None and own_type(type(bits), "numpy") else None


def _probe_names_with(pd: Any, cls: type, params: Dict[str, Any], attr: str, fitted: list, names: list,
                      np: Any) -> bool:
    try:
        train = pd.DataFrame(np.arange(20 * len(fitted), dtype=float).reshape(20, len(fitted)) % 7, columns=fitted)
        target = np.array([0, 1] * 10)
        probe = cls(**params)
        with warnings.catch_warnings(record=True, module=warnings):
            probe.fit(train, target)
    except Exception:
        return False
    for variant in (0, 1):
        data = pd.DataFrame(np.zeros((3, len(names))) if variant == 0 else np.zeros((2, len(names))) + 1.0, columns=names)
        with warnings.catch_warnings(record=True, module=warnings):
            try:
                getattr(probe, attr)(*((data, np.zeros(len(data))) if attr == "score" else (data,)))
            except ValueError as exc:
                if not str(exc).startswith(_NAMES):
                    return False
            except Exception:
                return False
            else:
                return False
    return True


_CONTINUOUS = "Unknown label type"
_PROBED_TARGETS: Dict[Any, bool] = {}
_TARGET_ROWS = 40
_CANONICAL = {"f": "<f8", "i": "<i8", "u": "<u8", "b": "|b1"}


def rejects_continuous_target(owner: Any, x: Any, y: Any) -> Optional[float]:
    """A value of y that is no whole number, when `owner.fit(x, y)` raises ValueError for it: a
    classifier refuses a continuous target ("Unknown label type: continuous"). x must be numbers in
    2-D (an array, or a frame of number columns with text names), so whatever its conversion
    raises is a ValueError too; y numbers in 1-D (a float array, Series or list) holding a fraction,
    NaN or an infinity (non_integers.py). The installed version is asked on fresh instances with the
    same plain parameters, fitted on two inputs of x's column count and dtype and two targets of
    fractions that share nothing else; the user's estimator, x and y are never handed over."""
    np = _numpy()
    params = _probe_params(owner)
    # (only classifiers are probed: a regressor would be fitted for real on the made-up data)
    is_classifier = own_call("sklearn.base", "is_classifier", "sklearn")
    if params is None or np is None or is_classifier is None or rejected_parameters(owner, 2) is not None:
        return None
    try:
        if is_classifier(owner.obj) is not True:
            return None
    except Exception:
        return None
    witness = y.non_integer() if _numbers_in_one_dimension(y) else None
    layout = _feature_layout(x)
    if witness is None or layout is None:
        return None
    nx, ny = x.length(), y.length()
    if nx is not None and ny is not None and nx != ny:
        return None  # (the lengths are what scikit-learn compares first: estimators.method says so)
    cls = type(owner.obj)
    return witness if _asked_once(_PROBED_TARGETS, cls, params, layout,
                                 lambda: _probe_target(cls, params, layout, np)) else None


def _numbers_in_one_dimension(y: Any) -> bool:
    kind = y.kind()
    if kind == "ndarray":
        a = y.array()
        return a is not None and a.shape is not None and len(a.shape) == 1
    if kind == "series":
        return y.series_dtype() == "numeric"
    return kind == "list"  # (non_integer() answers for a list of plain numbers only)


def _feature_layout(x: Any) -> Optional[Tuple[int, str]]:
    """(columns, dtype) of an X of numbers in 2-D: an array whose kind is known (live or recorded),
    or a live frame whose columns are all numbers or bools under text names (scikit-learn refuses
    names of mixed types with TypeError)."""
    if x.kind() == "ndarray":
        a = x.array()
        if a is None or a.shape is None or len(a.shape) != 2 or a.kind is None or a.kind not in _CANONICAL or \
                not all(type(d) is int and d > 0 for d in a.shape):
            return None
        return a.shape[1], _CANONICAL[a.kind]
    f = x.frame() if x.kind() == "frame" else None
    if f is None or not f.exact or not f.flat or not f.columns or f.column_dtypes is None or \
            not all(type(c) is str for c in f.columns) or not all(d in ("numeric", "bool") for d in f.column_dtypes):
        return None
    return len(f.columns), "<f8"


def _probe_target(cls: type, params: Dict[str, Any], layout: Tuple[int, str], np: Any) -> bool:
    columns, dtype = layout
    rows = _TARGET_ROWS
    try:
        inputs = [(np.zeros((rows, columns), dtype=dtype), np.array([0.5] * rows)),
                  (np.arange(rows * columns).reshape(rows, columns).astype(dtype), np.arange(rows) + 0.25)]
    except Exception:
        return False
    return all(_fit_rejects(cls, params, data, _CONTINUOUS) for data in inputs)


# Scalers whose fit reads nothing of X but its layout and its values' statistics: on a 2-D block of
# bools and integers (which hold no NaN and no infinity, and whose squares cannot overflow a float)
# no value can make it fail. Their `fit` ignores y.
_CLEAN_FITTERS = {("sklearn.preprocessing._data", name)
                  for name in ("StandardScaler", "MinMaxScaler", "MaxAbsScaler", "RobustScaler")}
_PROBED_CLEAN: Dict[Any, bool] = {}


def fits_cleanly(owner: Any, x: Any, y: Any, attr: str) -> Optional[int]:
    """The feature count `owner.<attr>(x[, y])` fits the estimator on, when that call certainly
    succeeds (attr `fit` or `fit_transform`): owner is an unfitted scaler of scikit-learn's own, x a
    2-D array or DataFrame of bools and integers only, with at least one row and one column and
    column names all text or none text. A fresh copy with the same parameters is fitted on two
    made-up blocks with the same kinds of names and the same dtypes, to confirm the parameters and
    the layout pass; the values cannot matter. None when not certain."""
    np = _numpy()
    params = _probe_params(owner)
    if np is None or params is None or (class_module(type(owner.obj)), class_name(type(owner.obj))) \
            not in _CLEAN_FITTERS or not audit().pristine(type(owner.obj), "sklearn"):
        return None
    inst = instance_dict(owner.obj)
    # Unfitted, nothing beside its parameters: refitting frees nothing of the notebook's.
    if type(inst) is not dict or set(inst) - set(params):
        return None
    # (y may be anything: these classes never read it, as the probe's `object()` for y confirms)
    layout = _clean_layout(x, np)
    if layout is None:
        return None
    texts, dtypes, rows, n = layout
    if not fits(rows * n * 8 * 4):  # (a float64 copy of X, and the statistics' temporaries)
        return None
    try:
        key = (attr, y is None, texts, repr(dtypes))
    except Exception:
        return None
    ok = _asked_once(_PROBED_CLEAN, type(owner.obj), params, key,
                     lambda: _probe_clean(type(owner.obj), params, attr, texts, dtypes, y is None, np))
    return n if ok else None


def _clean_layout(x: Any, np: Any) -> Optional[Tuple[Optional[bool], Tuple[Any, ...], int, int]]:
    """(names all text? None for an array, the distinct dtypes, rows, columns) of a 2-D ndarray or
    exact DataFrame whose columns are all of NumPy's bool or integer dtypes, with at least one row
    and one column: live, or recorded with its columns listed."""
    if not isinstance(x, LiveValue):
        return _recorded_layout(x, np)
    obj = x.obj
    if type(obj) is np.ndarray:
        if obj.ndim != 2 or obj.shape[0] < 1 or obj.shape[1] < 1 or not _numpy_dtype(obj.dtype, np) or \
                obj.dtype.kind not in "biu":
            return None
        return None, (obj.dtype,), obj.shape[0], obj.shape[1]
    facts = x.frame()
    if _pandas() is None or facts is None or not facts.exact or not facts.flat or facts.columns is None or \
            facts.nrows is None or facts.nrows < 1:
        return None
    labels = list(facts.columns)
    # (names all text become feature names; all ints none; a mixture is scikit-learn's TypeError)
    texts = all(type(c) is str for c in labels)
    if not labels or not (texts or all(type(c) is int for c in labels)) or labels_repeat(labels):
        return None
    if not pristine_pandas(type(obj)) or not own_column_arrays(obj):
        return None
    dtypes = []
    try:
        listed = obj.dtypes.tolist()  # (once, from the blocks: a wide frame is not read column by column)
        for dt in listed:
            if not _numpy_dtype(dt, np) or dt.kind not in "biu":
                return None
            if dt not in dtypes:
                dtypes.append(dt)
    except Exception:
        return None
    return texts, tuple(dtypes), facts.nrows, len(labels)


def _recorded_layout(x: Any, np: Any) -> Optional[Tuple[Optional[bool], Tuple[Any, ...], int, int]]:
    """`_clean_layout` of a recorded frame with no missing value whose columns are listed, each
    recorded as bools or as integers, and whose recorded dtypes are all NumPy's bools and integers.
    (A wide frame recorded by its dtypes alone is not taken: whether its labels are all text and
    distinct, which decides what scikit-learn does first, the executed cells cannot show soundly.)"""
    f = x.frame() if x.kind() == "frame" and getattr(x, "type_as_named", False) else None
    # (the dtypes recorded by name: a column recorded as False / True may be Sparse[bool] or boolean)
    if f is None or not f.nrows or not f.no_missing or not f.dtype_names or \
            not recorded_dtypes_among(f.dtype_names, "biu"):
        return None
    if f.columns is None:
        return None
    try:
        labels = list(f.columns)
        texts = all(type(c) is str for c in labels)
        if not labels or not f.flat or not texts or labels_repeat(labels) or \
                f.column_dtypes is None or len(f.column_dtypes) != len(labels):
            return None
        spans = f.integer_spans or {}
        kinds = set()
        for label, category in zip(labels, f.column_dtypes):
            if category == "bool" or (category == "numeric" and label in spans):
                kinds.add(category)
            else:
                return None
        return True, tuple(np.dtype("bool" if k == "bool" else "int64") for k in sorted(kinds)), f.nrows, len(labels)
    except Exception:
        return None


def _probe_clean(cls: type, params: Dict[str, Any], attr: str, texts: Optional[bool], dtypes: Tuple[Any, ...],
                 one_arg: bool, np: Any) -> bool:
    """Fresh copies fit on two made-up blocks, a column of each dtype under names of the same kind."""
    pd = _pandas()
    for variant in (0, 1):
        try:
            if texts is None:
                data = np.zeros((2, 1), dtype=dtypes[0]) if variant == 0 else \
                    np.arange(2).reshape(2, 1).astype(dtypes[0])
            else:
                data = pd.DataFrame({(f"c{i}" if texts else i): (np.zeros(2, dtype=dt) if variant == 0 else
                                                                np.arange(2).astype(dt))
                                     for i, dt in enumerate(dtypes)})
        except Exception:
            return False
        args = (data,) if one_arg else (data, object() if variant == 0 else np.zeros(2))
        if _fit_fresh(cls, params, args, attr) is not None:
            return False
    return True
