"""scikit-learn rules: predicting with an unfitted model (NotFittedError), a feature count other
than the one fitted (ValueError), and X / y of different lengths in `fit` or `train_test_split`
(ValueError).

scikit-learn checks fittedness before it looks at X, so an unfitted model raises NotFittedError
whatever is passed. The other two rules need the lengths and shapes to be known exactly and the
inputs to be arrays or frames, on which every failure scikit-learn raises is a ValueError.
Only scikit-learn's own, non-meta estimators are judged (see live.estimator_facts).
"""

from __future__ import annotations

import types
import warnings
from typing import Any, Dict, List, Optional

from ..static_reads import loaded_module, checked
from ..library_namespace import numpy_untouched, sklearn_untouched
from ..live_adapter import LiveValue, is_estimator_class, is_plain_data, is_simple_constant
from ..provenance import lookup_static, own_call
from ..library_only import library_only, remembered
from ..probe_state import probe_state
from ..non_integers import described
from ..outcome import CertainCrash, Crash, Stop
from ..abstract_values import NOTHING, EstimatorFacts, FactValue, Opaque, Value
from . import call_binding, displays, estimator_fit, metrics
from .frames import labels_repeat
from .operators import FLOAT_INTS

PREDICTING = ("predict", "predict_proba", "predict_log_proba", "decision_function", "transform", "score")
# Methods that raise for the estimator's own parameters before they check it is fitted or read X
# (`LinearDiscriminantAnalysis(solver='lsqr').transform`: NotImplementedError, whatever X holds);
# a replay knows no parameters, and a count of features is compared only after.
_BEFORE_X = {("LinearDiscriminantAnalysis", "transform")}
_NO_FEATURE_CHECK = ("Dummy",)  # estimators whose predict ignores X's columns


def _names(*vals: Value) -> List[str]:
    return [v.name for v in vals if v is not None and v.name]


def construct(interp, cls: type, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`LinearRegression(...)`: scikit-learn's constructors only store their parameters."""
    # (read from the code object: `inspect.signature` would read a replaced `__annotations__`)
    init = lookup_static(cls, "__init__", None)
    if type(init) is not types.FunctionType or not call_binding.plain_function_fields(init) or \
            call_binding.binding_error(init, len(args), list(kwargs), bound_self=True) is not None:
        raise Stop(node.lineno, f"constructing `{cls.__name__}` with arguments the checker cannot bind")
    values = [a.concrete() for a in args] + [v.concrete() for v in kwargs.values()]
    if all(is_simple_constant(v) for v in values):
        # scikit-learn's constructors only store their parameters: building one runs no user code.
        try:
            made = cls(*[a.concrete() for a in args], **{k: v.concrete() for k, v in kwargs.items()})
        except Exception:
            raise Stop(node.lineno, f"constructing `{cls.__name__}`")
        interp.made_here(made)
        return LiveValue(made)
    return FactValue("estimator", type_name=f"{cls.__module__}.{cls.__name__}",
                     estimator=EstimatorFacts(cls=cls, fitted=None), cls=cls)


_PROBED: Dict[Any, Optional[str]] = {}
_FIT_ERRORS = ("NotFittedError", "AttributeError")


def unfitted_error(owner: Value, facts: EstimatorFacts, attr: str) -> Optional[str]:
    """What the installed scikit-learn raises when `attr` is called on an unfitted estimator.

    Most estimators raise NotFittedError before they look at X, but some versions read a fitted
    attribute first and raise AttributeError (PCA.transform in 1.6). So the installed version is
    asked: a fresh, unfitted instance of the same class with the same plain parameters gets
    arguments no estimator accepts; if it raises a fit error, that error never depended on X.
    The user's estimator is not touched, and with plain parameters no user code is involved.
    """
    cls = facts.cls or getattr(owner, "cls", None)  # recorded facts: the installed class, default parameters
    if cls is None and isinstance(owner, LiveValue):
        cls = type(owner.obj)
    if not is_estimator_class(cls):
        return None
    params: Dict[str, Any] = {}
    if isinstance(owner, LiveValue):
        try:
            params = owner.obj.get_params(deep=False)
        except Exception:
            return None
        if not all(is_plain_data(v) for v in params.values()):
            return None
    key = (cls, attr, repr(sorted(params.items())), probe_state(cls))
    if key[-1] is None:
        return None
    return remembered(_PROBED, key, lambda: _probe(cls, params, attr))


def unfitted_attribute(owner: Value, attr: str, node) -> None:
    """`model.coef_` / `forest.feature_importances_` on an unfitted estimator: the class's property
    checks fittedness. Asked of a fresh instance with the same plain parameters (the user's is not
    touched): when reading the attribute there raises NotFittedError, so does the user's."""
    facts = owner.estimator()
    if facts is None or facts.fitted is not False or not isinstance(owner, LiveValue) or attr.startswith("__"):
        return
    cls = type(owner.obj)
    if not is_estimator_class(cls) or type(lookup_static(cls, attr, None)) is not property:
        return
    try:
        params = owner.obj.get_params(deep=False)
    except Exception:
        return
    if not all(is_plain_data(v) for v in params.values()):
        return
    key = (cls, "." + attr, repr(sorted(params.items())), probe_state(cls))
    if key[-1] is None:
        return
    if remembered(_PROBED, key, lambda: _probe_attribute(cls, params, attr)) == "NotFittedError":
        label = f"`{owner.name}`" if owner.name else f"this {facts.class_name}"
        raise Crash(CertainCrash("NotFittedError", node.lineno, node.col_offset,
                                 f"{label} ({facts.class_name}) has not been fitted, and `.{attr}` exists only "
                                 "after `.fit()`.", "not-fitted", _names(owner)))


def _probe_attribute(cls: type, params: Dict[str, Any], attr: str) -> Optional[str]:
    try:
        probe = cls(**params)
    except Exception:
        return None
    with warnings.catch_warnings(module=warnings):
        warnings.simplefilter("ignore")
        try:
            getattr(probe, attr)
        except Exception as exc:
            return type(exc).__name__
    return None


def _probe(cls: type, params: Dict[str, Any], attr: str) -> Optional[str]:
    try:
        probe = cls(**params)
    except Exception:
        return None
    garbage = object()
    args = (garbage, garbage) if attr == "score" else (garbage,)
    with warnings.catch_warnings(module=warnings):
        warnings.simplefilter("ignore")
        try:
            getattr(probe, attr)(*args)
        except Exception as exc:
            name = type(exc).__name__
            return name if name in _FIT_ERRORS else None
    return None


def _columns(v: Value) -> Optional[int]:
    """The number of features of X, when X is a 2-D array or a DataFrame with known columns."""
    a = v.array()
    if a is not None and a.shape is not None and len(a.shape) == 2 and a.shape[1] is not None:
        return a.shape[1] if a.kind is not None and a.kind in "biuf" else None
    f = v.frame()
    if f is not None and f.columns is not None and f.flat and _converts_with_value_errors(f):
        # Mixed str / non-str column names make scikit-learn raise TypeError, repeated ones (to
        # pandas: `1` and `1.0` too) narwhals' DuplicateError, not ValueError.
        if len({isinstance(c, str) for c in f.columns}) <= 1 and not labels_repeat(f.columns):
            return len(f.columns)
    return None


def _converts_with_value_errors(f) -> bool:
    """X's conversion to a float array (check_array, before the feature count is compared) fails, if
    it fails, with ValueError: every column is known to hold numbers, bools or pandas' strings. A
    datetime column fails with DTypePromotionError (a TypeError), an object column holding other
    objects with TypeError (float() of a Timestamp)."""
    return f.column_dtypes is not None and len(f.column_dtypes) == len(f.columns) and \
        all(d in ("numeric", "bool", "str") for d in f.column_dtypes)


def _samples(v: Value) -> Optional[int]:
    kind = v.kind()
    if kind == "ndarray":
        a = v.array()
        return a.shape[0] if a is not None and a.shape and a.shape[0] is not None else None
    if kind in ("frame", "series", "list"):
        return v.length()
    return None


def method(interp, owner: Value, attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    facts = owner.estimator()
    if facts is None:
        raise Stop(node.lineno, f"`.{attr}()` on an estimator the checker does not model")
    label = f"`{owner.name}`" if owner.name else f"this {facts.class_name}"
    if attr in PREDICTING and not _inner_binds(facts, attr, args, kwargs):
        raise Stop(node.lineno, f"`.{attr}()` on {label} with arguments its method cannot take")
    if attr in PREDICTING and (facts.class_name, attr) in _BEFORE_X:
        raise Stop(node.lineno, f"`.{attr}()` on {label}, which may refuse its own settings before it looks at X")
    if attr in PREDICTING and (kwargs or len(args) != (2 if attr == "score" else 1)):
        # (`transform(X, copy=...)`: what else it is given, it may judge first, `if copy:` included)
        raise Stop(node.lineno, f"`.{attr}()` on {label} with more than X")
    if attr in PREDICTING:
        if facts.fitted is False:
            raised = unfitted_error(owner, facts, attr)
            if raised is not None:
                raise Crash(CertainCrash(raised, node.lineno, node.col_offset,
                                         f"{label} ({facts.class_name}) has not been fitted, so `.{attr}()` raises "
                                         f"{raised}.", "not-fitted", _names(owner)))
        names = estimator_fit.names_mismatch(owner, args[0], attr) if facts.fitted and len(args) == (
            2 if attr == "score" else 1) and not kwargs and sklearn_untouched() else None
        if names is not None:
            fitted, given = names
            raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                     f"{label} ({facts.class_name}) was fitted on the columns {fitted[:8]} and is given "
                                     f"{given[:8]}: scikit-learn wants the same names in the same order.",
                                     "feature-names", _names(owner, args[0])))
        if facts.fitted and facts.n_features is not None and args and not facts.class_name.startswith(
                _NO_FEATURE_CHECK):
            n = _columns(args[0])
            if n is not None and n != facts.n_features and sklearn_untouched():
                raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                         f"X has {n} features but {label} was fitted on {facts.n_features}.",
                                         "feature-count", _names(owner, args[0])))
        raise Stop(node.lineno, f"a call to `.{attr}()` on {label}")
    if attr == "fit" and not kwargs:
        rejected = estimator_fit.rejected_parameters(owner, len(args))
        if rejected is not None and not interp.libraries_versioned_here and rejected[0] != "ValueError":
            # Replay: the recording ran another scikit-learn. Its parameter validation (1.2+) rejects
            # values older versions took (`max_features='auto'`); only the long-standing checks of
            # solver / penalty pairs, raised as plain ValueError, are taken across versions.
            rejected = None
        if rejected is not None:
            raise Crash(CertainCrash(rejected[0], node.lineno, node.col_offset,
                                     f"{label} ({facts.class_name}) rejects its own parameters when `.fit()` starts, "
                                     f"whatever the data: {rejected[1]}", "fit-parameters", _names(owner)))
    if attr == "fit" and not _inner_binds(facts, attr, args, kwargs):
        # (after the probe: it runs a fresh copy's fit with as many data arguments, binding included)
        raise Stop(node.lineno, f"`.fit()` on {label} with arguments its method cannot take")
    if attr == "fit" and len(args) == 1 and not kwargs and estimator_fit.rejects_1d(owner, args[0]):
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 f"{label} ({facts.class_name}) is fitted on a 2-D X (samples x features), and "
                                 f"{'`' + args[0].name + '`' if args[0].name else 'this array'} is 1-D: reshape it "
                                 "with `.reshape(-1, 1)` for one feature.", "fit-1d", _names(owner, args[0])))
    if attr == "fit" and len(args) in (1, 2) and not kwargs:
        defect = estimator_fit.rejects_data(owner, args[0], args[1] if len(args) == 2 else None)
        if defect is not None:
            said = ("holds text that is not a number, which scikit-learn cannot convert to float"
                    if defect == "strings" else "holds NaN, which this estimator does not accept")
            raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                     f"{'`' + args[0].name + '`' if args[0].name else 'X'} {said}: "
                                     f"{label} ({facts.class_name}) `.fit()` raises ValueError.",
                                     "fit-" + defect, _names(owner, args[0])))
    if attr == "fit" and len(args) == 2 and not kwargs:
        witness = estimator_fit.rejects_continuous_target(owner, args[0], args[1])
        if witness is not None:
            y_label = f"`{args[1].name}`" if args[1].name else "y"
            raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                     f"{y_label} holds {described(witness)}, a continuous target, and {label} "
                                     f"({facts.class_name}) is a classifier: `.fit()` raises ValueError (Unknown "
                                     "label type: continuous). Fit a regressor, or turn the target into classes.",
                                     "fit-continuous-target", _names(owner, args[1])))
    if attr == "fit" and len(args) >= 2:
        x, y = args[0], args[1]
        nx, ny = _samples(x), _samples(y)
        if nx is not None and ny is not None and nx != ny and _supervised(owner) and _valid_params(owner) and \
                sklearn_untouched():
            if x.kind() in ("ndarray", "frame") and _columns(x) is not None and _plain_targets(y):
                # scikit-learn reads X's values before it compares the lengths: NaN or infinity in X
                # is named first, with ValueError too (an array of integers or bools holds neither)
                array = x.array() if x.kind() == "ndarray" else None
                first = "" if array is not None and array.kind is not None and array.kind in "iub" else \
                    " (should X hold NaN or infinity, scikit-learn names that first: a ValueError as well)"
                raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                         f"X has {nx} samples but y has {ny}: `.fit()` needs them equal{first}.",
                                         "inconsistent-lengths", _names(x, y)))
    if attr in ("fit", "fit_transform") and len(args) in (1, 2) and not kwargs and sklearn_untouched():
        n = estimator_fit.fits_cleanly(owner, args[0], args[1] if len(args) == 2 else None, attr)
        if n is not None:
            return _fitted(interp, owner, facts, n, attr, node)
    raise Stop(node.lineno, f"a call to `.{attr}()` on {label}")


def _fitted(interp, owner: Value, facts: EstimatorFacts, n_features: int, attr: str, node) -> Value:
    """The estimator, fitted in place by a call that certainly succeeds, is now known fitted on
    `n_features` columns; `fit` returns it, `fit_transform` an array the checker does not follow."""
    fitted = FactValue("estimator", type_name=f"{facts.cls.__module__}.{facts.cls.__name__}",
                       estimator=EstimatorFacts(cls=facts.cls, fitted=True, n_features=n_features), cls=facts.cls)
    interp.set_shadow(owner, fitted, node, frees=False)  # (it had nothing but its parameters)
    interp.changed_in_place(node, owner)
    return fitted if attr == "fit" else Opaque()


def _plain_targets(y: Value) -> bool:
    """y is converted (to floats for regressors, sorted into classes for classifiers) before its
    length is compared with X's: only targets of numbers, bools or text fail that, if at all, with
    ValueError. A list of dicts or Timestamps fails float() with TypeError, and [1, None, 2] a
    classifier's sorting of the classes with TypeError."""
    kind = y.kind()
    if kind == "ndarray":
        a = y.array()
        return a is not None and a.kind is not None and a.kind in "biuf"
    if kind == "series":
        return y.series_dtype() in ("numeric", "bool", "str")
    if kind == "frame":
        f = y.frame()
        return f is not None and f.columns is not None and _converts_with_value_errors(f)
    if kind == "list":
        c = y.concrete()
        if c is NOTHING:
            items = y.items()
            if items is None:
                return False
            c = [i.concrete() for i in items]
        # (rows of such values too: NumPy makes a 2-D y of them, or fails on ragged rows with ValueError)
        return type(c) is list and all(_plain_target(e) or (type(e) is list and all(_plain_target(x) for x in e))
                                       for e in c)
    return False


def _plain_target(e: Any) -> bool:
    # (an int beyond the float range makes a regressor's float conversion raise OverflowError)
    return type(e) in (float, bool, str) or (type(e) is int and -FLOAT_INTS < e < FLOAT_INTS)


def _inner_binds(facts: EstimatorFacts, attr: str, args: List[Value], kwargs: Dict[str, Value]) -> bool:
    """False when the method scikit-learn's decorators wrap cannot take these arguments. `fit` is
    wrapped by `_fit_context` and `predict_proba` often by `available_if`, in `(*args, **kwargs)`
    wrappers the call binds to; the TypeError comes when the wrapper calls the method it wraps (after
    `_fit_context` validated the parameters), before anything the claims speak of: `lr.fit(X, y, 1, 2)`
    raises TypeError whatever X's and y's lengths. The wrapped method is read through `__wrapped__`
    in the functions' own dictionaries (functools.wraps puts it there)."""
    if not isinstance(facts.cls, type):
        return False  # (whose method it is is unknown: so is whether the call binds)
    fn = lookup_static(facts.cls, attr, None)
    for _ in range(8):
        if type(fn) is not types.FunctionType:
            return True  # (not a plain function: the binding checks before the rule said what they could)
        inner = fn.__dict__.get("__wrapped__")
        if inner is None:
            break
        fn = inner
    return call_binding.binding_error(fn, len(args), list(kwargs), bound_self=True) is None


def _supervised(owner: Value) -> bool:
    """Classifiers and regressors use y in fit; transformers such as StandardScaler ignore it."""
    facts = owner.estimator()
    if not isinstance(owner, LiveValue) or facts is None or facts.meta is not False:
        return False
    # Taken as scikit-learn's own functions (a notebook's `sklearn.base.is_classifier = f` never runs).
    is_classifier = own_call("sklearn.base", "is_classifier", "sklearn")
    is_regressor = own_call("sklearn.base", "is_regressor", "sklearn")
    if is_classifier is None or is_regressor is None:
        return False
    try:
        return bool(is_classifier(owner.obj) or is_regressor(owner.obj))
    except Exception:
        return False


def _valid_params(owner: Value) -> bool:
    """scikit-learn validates parameters before data: only valid ones let the length check fire first.
    Its validation calls NumPy by module attribute (`np.isnan` on a float parameter), so it is asked
    only while NumPy's namespaces hold NumPy's own functions, as the fit probes are."""
    if isinstance(owner, LiveValue) and is_estimator_class(type(owner.obj)) and numpy_untouched():
        validate = lookup_static(type(owner.obj), "_validate_params", None)
        if validate is None:
            return False

        def valid() -> bool:
            # Validation looks at every parameter: only plain data is handed to it.
            if not all(is_plain_data(v) for v in owner.obj.get_params(deep=False).values()):
                return False
            validate(owner.obj)
            return True

        try:
            # (under the guard the probes run under: a function of the notebook's put in one of
            # scikit-learn's modules, `sklearn.base.validate_parameter_constraints = f`, never runs)
            return library_only(valid) is True
        except Exception:
            return False
    return False


def function(interp, fn: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    name = getattr(fn, "__name__", "")
    mod = loaded_module("sklearn.model_selection")
    if name == "train_test_split" and mod is not None and checked(mod.__dict__).get(name) is fn:
        _check_split(args, kwargs, node)
    metrics.continuous_target(fn, name, args, kwargs, node)
    if name == "confusion_matrix":
        made = displays.confusion_matrix(interp, fn, args, kwargs, node)
        if made is not None:
            return made
    raise Stop(node.lineno, f"a call to `sklearn.{name}`, which the checker does not model")


def _check_split(args: List[Value], kwargs: Dict[str, Value], node) -> None:
    allowed = {"test_size", "train_size", "random_state", "shuffle"}
    if len(args) < 2 or any(k not in allowed for k in kwargs):
        return
    opts = {k: v.concrete() for k, v in kwargs.items()}
    for k in ("test_size", "train_size"):
        v = opts.get(k)
        if v is None:
            continue
        if not ((type(v) is float and 0 < v < 1) or (type(v) is int and v > 0)):
            return
    seed = opts.get("random_state")
    if not (seed is None or (type(seed) is int and 0 <= seed < 2 ** 32)) or type(opts.get("shuffle", True)) is not bool:
        return  # (scikit-learn rejects a seed outside NumPy's range first, whatever the lengths)
    lengths = [_samples(a) for a in args]
    if any(n is None for n in lengths) or not sklearn_untouched():  # (its helpers: `indexable`, `_num_samples`)
        return
    if len(set(lengths)) > 1:
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 f"train_test_split got inputs of different lengths {lengths}.",
                                 "inconsistent-lengths", _names(*args)))
    if lengths[0] == 0 and all(a.kind() in ("ndarray", "frame", "series", "list") for a in args):
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 "train_test_split got 0 samples: the train set would be empty.",
                                 "empty-split", _names(*args)))
