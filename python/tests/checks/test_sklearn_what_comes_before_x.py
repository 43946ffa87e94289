"""What scikit-learn judges before it compares X's features with the fit (fifth red team, 7 Dec):
other arguments of the method (`transform(X, copy=pd.NA)` runs `if copy:`; `predict(X,
return_std=True, return_cov=True)` refuses the pair), the estimator's own settings
(`LinearDiscriminantAnalysis(solver='lsqr').transform` is NotImplementedError, fitted or not: a
replay, which knows no parameters, must not take the defaults' answer), narwhals, through which
scikit-learn 1.9 reads frames by name, and pandas' own names those two look up at every call. Each
cell really runs after the check, live and by the replay; no claim may stand but as it raised.
Each plain twin keeps its claim."""

from __future__ import annotations

import importlib.util

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim_either

SK = ("import numpy as np\nimport pandas as pd\nfrom sklearn.preprocessing import StandardScaler\n"
      "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n"
      "from sklearn.gaussian_process import GaussianProcessRegressor\n"
      "counts = np.arange(12).reshape(4, 3)\nwide = np.arange(8).reshape(2, 4)\n"
      "X = np.arange(24.0).reshape(8, 3) ** 1.3\ny = np.array([0, 1] * 4)\nX_new = np.ones((2, 4))\n")
NW = SK + ("df = pd.DataFrame({'a': [1.0, 2.0, 3.0], 'b': [4.0, 5.0, 6.0]})\nsc = StandardScaler().fit(df)\n"
           "df3 = df.assign(c=1.0)\nimport narwhals.stable.v2 as nw\n_orig = nw.from_native\n"
           "def from_native(obj, *a, **k):\n    raise RuntimeError('narwhals disabled')\nnw.from_native = from_native")

SPARSE = SK + ("from sklearn.naive_bayes import GaussianNB\n"
               "df = pd.DataFrame({'Sex': ['male', 'female'] * 10, 'Embarked': list('SCQS') * 5})\n"
               "y2 = np.array([0, 1] * 10)\nnb = GaussianNB().fit(np.random.RandomState(0).rand(20, 3), y2)\n")

BEFORE_X = [
    # (setup, cell, teardown)
    # sparse one-hot columns (recorded as False / True): TypeError for sparse data, before the count
    (SPARSE + "X_test = pd.get_dummies(df, sparse=True)", "nb.predict(X_test)", ""),
    (SPARSE + "X_test = pd.get_dummies(df, sparse=True, dtype=float)", "nb.predict_proba(X_test)", ""),
    (SK, "sc = StandardScaler()\nsc.fit(counts)\nsc.transform(wide, copy=pd.NA)", ""),
    (SK + "sc_fit = StandardScaler().fit(counts)", "sc_fit.transform(wide, pd.NA)", ""),
    (SK + "lda = LinearDiscriminantAnalysis(solver='lsqr', shrinkage='auto').fit(X, y)", "lda.transform(X_new)", ""),
    (SK + "gpr = GaussianProcessRegressor().fit(X, y)", "gpr.predict(X_new, return_std=True, return_cov=True)", ""),
    (SK + "lda = LinearDiscriminantAnalysis(solver='lsqr')", "lda.transform(X)", ""),
]
if importlib.util.find_spec("narwhals") is not None:  # (scikit-learn reads frames through it since 1.8)
    BEFORE_X.append((NW, "sc.transform(df3)", "nw.from_native = _orig"))
# pandas' names scikit-learn and narwhals look up at every call (seventh red team, 7 Dec): a frame's
# dtypes are asked `pandas.api.types.is_bool_dtype`, and any X is asked `isinstance(X, pd.DataFrame)`
RAISES = "\ndef _raiser(*a, **k):\n    raise RuntimeError('patched')\n"
ASKS = "\nclass _Asks(type):\n    def __instancecheck__(cls, o):\n        raise RuntimeError('patched')\n"
FITTED = SK + "sc_fit = StandardScaler().fit(counts)\ndfw = pd.DataFrame(wide, columns=list('abcd'))\n"
BEFORE_X += [
    (FITTED + "import pandas.api.types as pat\n_orig = pat.is_bool_dtype" + RAISES + "pat.is_bool_dtype = _raiser",
     "sc_fit.transform(dfw)", "pat.is_bool_dtype = _orig"),
    (FITTED + "_orig = pd.DataFrame" + ASKS + "pd.DataFrame = _Asks('DataFrame', (), {})", "sc_fit.transform(wide)",
     "pd.DataFrame = _orig"),
    (FITTED + "_orig = pd.SparseDtype" + ASKS + "pd.SparseDtype = _Asks('SparseDtype', (), {})",
     "sc_fit.transform(dfw)", "pd.SparseDtype = _orig"),
]
TWINS = [
    (SK, "sc = StandardScaler()\nsc.fit(counts)\nsc.transform(wide)", "ValueError", 3),
    (SPARSE + "X_test = pd.get_dummies(df)", "nb.predict(X_test)", "ValueError", 1),
    (SK + "lda = LinearDiscriminantAnalysis(solver='lsqr').fit(X, y)", "lda.predict(X_new)", "ValueError", 1),
    (FITTED, "sc_fit.transform(wide)", "ValueError", 1),
    (FITTED, "sc_fit.transform(dfw)", "ValueError", 1),
    (SK + "df = pd.DataFrame({'a': [1.0, 2.0, 3.0], 'b': [4.0, 5.0, 6.0]})\nsc = StandardScaler().fit(df)\n"
     "df3 = df.assign(c=1.0)", "sc.transform(df3)", "ValueError", 1),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, teardown=t, replay=True, replay_executed=True) for s, c, t in BEFORE_X] + \
            [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c, _, _ in TWINS]
    return run_batch(cases)


@pytest.mark.parametrize("i", range(len(BEFORE_X)), ids=[repr(c[1])[:40] for c in BEFORE_X])
def test_no_claim_where_something_else_is_judged_first(results, i):
    r = results[i]
    assert r["setup_error"] is None and r["checker_error"] is None, r
    # (an older scikit-learn counts a sparse frame's features first: its ValueError may be claimed)
    assert_no_false_claim_either(r, BEFORE_X[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(BEFORE_X) + i], exception, line)
