"""The fit-data probes (NaN in X, text in a DataFrame) call NumPy and pandas themselves: a notebook
that replaced one of those functions, patched what NumPy's C methods call back into, or hands over
an array of its own class gets no claim, and its code never runs during the check. Each clean twin
is claimed and really raises when run."""

from __future__ import annotations

import importlib

import pytest

from crane_llm.checks import run_checks

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
    # `ndarray.any()` calls numpy._core._methods._any: the check finds the NaN without it.
    spy = Spy()
    original = _METHODS._any
    ns = _nan_ns()
    try:
        _METHODS._any = spy
        _claim(ns)
    finally:
        _METHODS._any = original
    assert spy.calls == 0


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
