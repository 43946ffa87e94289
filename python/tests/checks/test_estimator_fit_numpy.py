"""The fit-data probes (NaN in X, text in a DataFrame) call NumPy and pandas themselves: a notebook
that replaced one of those functions, patched what NumPy's C methods call back into, or hands over
an array of its own class gets no claim, and its code never runs during the check. Each clean twin
is claimed and really raises when run."""

from __future__ import annotations

import importlib

import pytest

from crane_llm.checks import run_checks
from crane_llm.checks.library_namespace import numpy_untouched

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")
sklearn_linear = pytest.importorskip("sklearn.linear_model")

CELL = "LogisticRegression().fit(X, y)"
_METHODS = importlib.import_module(np.__name__ + "._core._methods")


class SpyRan(Exception):
    """Raised by every replacement: it must never reach the check."""


class Spy:
    def __init__(self):
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        raise SpyRan("the notebook's replacement ran")


def _raised(cell, ns):
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__
    return None


def _nan_ns(x=None):
    data = np.arange(20.0).reshape(10, 2)
    data[3, 1] = np.nan
    return {"np": np, "LogisticRegression": sklearn_linear.LogisticRegression,
            "X": data if x is None else x, "y": np.array([0, 1] * 5)}


def _text_ns():
    frame = pd.DataFrame({"a": np.arange(10.0), "b": ["1"] * 9 + ["oops"]})
    return {"LogisticRegression": sklearn_linear.LogisticRegression, "X": frame, "y": np.array([0, 1] * 5)}


def _claim(ns):
    crash = run_checks(CELL, ns).crash
    return None if crash is None else crash.exception


def test_the_clean_twins_are_claimed_and_really_raise():
    for ns in (_nan_ns(), _text_ns()):
        assert _claim(ns) == "ValueError"
        assert _raised(CELL, ns) == "ValueError"


# (which input's check uses it: the NaN search takes an ndarray, the text search a DataFrame;
# `np.array` is left out of the DataFrame's case because pandas' own `df.dtypes` calls it)
@pytest.mark.parametrize("where, name, inputs", [
    (np, "isnan", "nan text"), (np, "zeros", "nan text"), (np, "arange", "nan text"), (np, "array", "nan"),
    (np, "logical_or", "nan text"), (pd, "array", "text"), (pd, "DataFrame", "text"), (pd, "Series", "text")])
def test_a_replaced_library_function_gets_no_claim_and_never_runs(where, name, inputs):
    spy = Spy()
    original = where.__dict__[name]
    made = {"nan": _nan_ns(), "text": _text_ns()}  # (made before: pandas itself calls np.isnan)
    try:
        setattr(where, name, spy)
        for which in inputs.split():
            assert _claim(made[which]) is None, which
    finally:
        setattr(where, name, original)
    assert spy.calls == 0


def test_another_ufunc_under_isnan_gets_no_claim():
    # `isfinite` says True for every value of a NaN-free X: read as isnan, X would hold NaN.
    clean = _nan_ns(np.arange(20.0).reshape(10, 2))
    original = np.isnan
    try:
        np.isnan = np.isfinite
        assert _claim(clean) is None
        np.isnan = np.frompyfunc(lambda v: v != v, 1, 1)
        assert _claim(clean) is None
    finally:
        np.isnan = original
    assert _claim(clean) is None and _raised(CELL, clean) is None


def test_a_patched_numpy_core_helper_is_never_called():
    # `ndarray.any()` calls numpy._core._methods._any, and so would scikit-learn's code in a probe.
    spy = Spy()
    original = _METHODS._any
    ns = _nan_ns()
    try:
        _METHODS._any = spy
        assert _claim(ns) is None
    finally:
        _METHODS._any = original
    assert spy.calls == 0


PARAMS_CELL = "LogisticRegression(solver='liblinear', penalty='elasticnet').fit(X, y)"


@pytest.mark.parametrize("name", ["isfinite", "asarray", "issubdtype", "unique"])
def test_a_numpy_function_only_scikit_learn_calls_is_never_run_by_a_probe(name):
    # The checker never calls these; every probe's fit would. The claims were probed and
    # remembered by the clean twin: a replaced function makes them unanswerable all the same.
    assert _claim(_nan_ns()) == "ValueError"
    made = [_nan_ns(), _text_ns(), _nan_ns(np.arange(10.0))]
    spy = Spy()
    original = np.__dict__[name]
    try:
        setattr(np, name, spy)
        assert _claim(made[0]) is None and _claim(made[1]) is None
        assert run_checks("LogisticRegression().fit(X)", made[2]).crash is None
        assert run_checks(PARAMS_CELL, made[0]).crash is None
    finally:
        setattr(np, name, original)
    assert spy.calls == 0
    assert _claim(made[0]) == "ValueError" and run_checks(PARAMS_CELL, made[0]).crash is not None


def test_numpy_functions_swapped_with_each_other_stop_the_probes():
    # Both are NumPy's own C functions: nothing of the notebook's runs, but scikit-learn's finite
    # check would now ask isnan, and the cell would not meet what a probe met before.
    ns = _nan_ns(np.arange(20.0).reshape(10, 2))
    original = np.isfinite
    try:
        np.isfinite = np.isnan
        assert run_checks(PARAMS_CELL, ns).crash is None
        assert run_checks("LogisticRegression().fit(X)", _nan_ns(np.arange(10.0))).crash is None
    finally:
        np.isfinite = original
    assert run_checks(PARAMS_CELL, ns).crash is not None


def test_an_array_of_the_notebooks_class_never_runs_its_overrides():
    spy = Spy()
    hostile = type("Hostile", (np.ndarray,), {"__array_ufunc__": spy, "__array_function__": spy})
    ns = _nan_ns(_nan_ns()["X"].view(hostile))
    original = np.ndarray
    try:
        assert _claim(ns) is None
        np.ndarray = hostile  # the namespace now names the notebook's class as `ndarray`
        assert _claim(ns) is None
    finally:
        np.ndarray = original
    assert spy.calls == 0


def _errstate_of_mine():
    return type("errstate", (), {"__module__": "numpy", "__init__": lambda self, **kw: None})


@pytest.mark.parametrize("module, name, replacement", [
    (np, "isfinite", lambda: Spy()),                          # a callable object of the notebook's
    (np, "isfinite", lambda: np.isnan),                       # NumPy's own, under another name
    (np, "isfinite", lambda: __import__("functools").partial(print)),  # a wrapper around anything
    (np, "asarray", lambda: (lambda a, *args, **kw: a)),      # a function of the notebook's
    (np, "errstate", _errstate_of_mine),                      # a class claiming to be NumPy's
    (_METHODS, "umr_any", lambda: np.logical_and.reduce),    # another ufunc's method
])
def test_the_numpy_namespace_check_sees_each_replacement(module, name, replacement):
    assert numpy_untouched()
    original = module.__dict__[name]
    try:
        setattr(module, name, replacement())
        assert not numpy_untouched()
    finally:
        setattr(module, name, original)
    assert numpy_untouched()
