"""A notebook's replacement of a NumPy or scikit-learn function is never called by a check: scikit-learn's parameter
validation (which the length check of `fit` asks first, and which calls `np.isnan` on a float
parameter) and the runtime information's summaries (`np.isnan`, `np.unique`, ... by module
attribute) run only while NumPy's namespaces hold NumPy's own functions."""

import json

import numpy as np
import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry

SETUP = ("import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LinearRegression\n"
         "X = np.arange(12.).reshape(4, 3)\ny = np.array([0, 1, 0, 1])\nlrf = LinearRegression().fit(X, y)\n"
         "s = pd.Series([1, 2, 2, 3])")
NAMES = ("isnan", "unique", "isfinite", "asarray", "nanmin", "nanmax")


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    sh.run_cell(SETUP)
    return sh


def ask(source, use_llm):
    text = json.dumps({"protocol": 1, "source": source, "cellId": None, "useLlm": use_llm, "includeRuntimeInfo": True})
    return entry.check(text)._repr_json_()


def summaries(answer):
    return {v["name"]: v["summary"] for v in (answer["runtimeInfo"] or {"variables": []})["variables"]}


def test_replaced_numpy_functions_are_not_called(shell):
    calls = []
    saved = {name: getattr(np, name) for name in NAMES}

    def counting(name, real):
        def notebooks(*args, **kwargs):
            calls.append(name)
            return real(*args, **kwargs)
        return notebooks

    try:
        for name, real in saved.items():
            setattr(np, name, counting(name, real))
        fit = ask("lrf.fit(X, y[:2])", use_llm=False)
        read = ask("s.nunique()\nX.sum()", use_llm=True)
    finally:
        for name, real in saved.items():
            setattr(np, name, real)
    assert calls == []
    assert fit["problem"] is None and fit["checks"]["crash"] is None
    assert read["problem"] is None
    for name in ("s", "X"):
        assert summaries(read)[name] == {"kind": "unavailable", "reason": summaries(read)[name]["reason"]}
        assert "NumPy's functions were replaced" in summaries(read)[name]["reason"]


def test_with_numpy_own_functions_the_claim_and_summaries_are_made(shell):
    crash = ask("lrf.fit(X, y[:2])", use_llm=False)["checks"]["crash"]
    assert crash is not None and crash["exception"] == "ValueError"
    got = summaries(ask("s.nunique()\nX.sum()", use_llm=True))
    assert got["s"]["kind"] == "series" and got["X"]["kind"] == "ndarray", got


@pytest.mark.parametrize("name", ["is_classifier", "is_regressor"])
def test_a_replaced_sklearn_base_function_is_not_called(shell, name):
    """The length check of `fit` asks whether the estimator is supervised through scikit-learn's own
    `is_classifier` / `is_regressor`, never through what `sklearn.base` holds now."""
    import sklearn.base

    calls = []
    real = getattr(sklearn.base, name)

    def notebooks(*args, **kwargs):
        calls.append(name)
        return real(*args, **kwargs)

    setattr(sklearn.base, name, notebooks)
    try:
        answer = ask("lrf.fit(X, y[:2])", use_llm=False)
    finally:
        setattr(sklearn.base, name, real)
    assert calls == []
    assert answer["problem"] is None and answer["checks"]["crash"] is None


# (each reached by the summary of `f` when nothing guards it: measured against the unguarded lists)
@pytest.mark.parametrize("module, name, setup", [
    ("pandas.core.array_algos.masked_reductions", "min", "f = pd.DataFrame({'a': pd.array([1, 2], dtype='Int64')})"),
    ("pandas.core.array_algos.take", "_take_nd_ndarray", "f = pd.DataFrame({'a': pd.Categorical(['x', 'y'])})"),
    ("numpy._core._dtype", "_name_get", "f = pd.DataFrame({'a': np.array([1.0, 2.0], dtype=np.dtype([('x', 'f8')]))})"),
    ("numpy.ma.core", "getmask", "f = pd.DataFrame({'a': [1.0, 2.0]})"),
])
def test_replaced_pandas_and_numpy_helpers_are_not_called(shell, module, name, setup):
    """Helpers the summaries reach by module global (third red team, 3 Dec)."""
    import importlib
    mod = importlib.import_module(module)
    real, calls = getattr(mod, name), []

    def notebooks(*args, **kwargs):
        calls.append(name)
        return real(*args, **kwargs)

    shell.run_cell(setup)
    setattr(mod, name, notebooks)
    try:
        ask("f.sum()", use_llm=True)
    finally:
        setattr(mod, name, real)
    assert calls == [], calls
