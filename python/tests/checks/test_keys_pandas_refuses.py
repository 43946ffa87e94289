"""Calls the checks pass over that pandas or scikit-learn really refuse on unusual but legal values
(fourth red team, 7 Dec), each cell really run after the check, live and by the replay:
`drop_duplicates()` of lists, float16 and longdouble keys (pandas has no float16 index and its hash
tables refuse both), `info(memory_usage='deep')` (which asks every object its `__sizeof__`),
`groupby` by an integer that names a row-index level (read as a level number first), and, in the
replay, the feature count of estimators that never check it (FunctionTransformer, wrappers) and a
call whose arguments the method cannot take (TypeError before any feature count). The plain twins
keep their claims."""

from __future__ import annotations

import pytest

from exec_runner import CELL_BREAK, run_batch
from fuzzgen import verdict
from harness import assert_no_false_claim

PD = "import pandas as pd\nimport numpy as np\nd = {}\n"
F16 = PD + "df = pd.DataFrame({'k': np.array([1, 2], dtype='float16'), 'v': [1, 2]})"
LONG = PD + "df = pd.DataFrame({'k': np.array([1, 2, 2], dtype='longdouble'), 'v': [1, 2, 3]})"
INT_LEVEL = PD + "df = pd.DataFrame([[1, 'x', 3.0], [2, 'y', 4.0]]).set_index(1)"
X = ("import numpy as np\nX = np.arange(30, dtype=float).reshape(10, 3)\ny = np.arange(10) % 2\n"
     "X2 = np.ones((4, 2))" + CELL_BREAK)

REFUSED = [
    (PD + "df = pd.DataFrame({'tags': [['a'], ['b']], 'n': [1, 2]})", "df = df.drop_duplicates()\nd['zz']"),
    (F16, "df.groupby('k').sum()\nd['zz']"),
    (F16, "df.set_index('k')\nd['zz']"),
    (LONG, "df.groupby('v').sum()\nd['zz']"),
    (LONG, "df.drop_duplicates()\nd['zz']"),
    (PD + "class A:\n    def __sizeof__(self):\n        raise RuntimeError\ndf = pd.DataFrame({'a': [A()], 'b': [1]})",
     "df.info(memory_usage='deep')\nd['zz']"),
    (INT_LEVEL, "totals = df.groupby(1).sum()\nd['zz']"),
    (X + "from sklearn.preprocessing import FunctionTransformer\nm = FunctionTransformer(np.log1p).fit(X)",
     "out = m.transform(X2)"),
    (X + "from sklearn.multiclass import OneVsRestClassifier\nfrom sklearn.dummy import DummyClassifier\n"
     "m = OneVsRestClassifier(DummyClassifier()).fit(X, y)", "out = m.predict(X2)"),
    (X + "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression().fit(X, y)", "acc = m.score(X2)"),
]
TWINS = [
    # (setup, cell, exception, line): the same shapes, with values pandas and scikit-learn take
    (PD + "df = pd.DataFrame({'tags': [3, 4], 'n': [1, 2]})", "df = df.drop_duplicates()\nd['zz']", "KeyError", 2),
    (PD + "df = pd.DataFrame({'k': np.array([1, 2], dtype='float32'), 'v': [1, 2]})",
     "df.set_index('k')\nd['zz']", "KeyError", 2),
    (PD + "df = pd.DataFrame({'k': [1, 2], 'v': [1, 2]})", "df.info()\nd['zz']", "KeyError", 2),
    (X + "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression().fit(X, y)",
     "pred = m.predict(X2)", "ValueError", 1),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c in REFUSED] + \
            [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c, _, _ in TWINS]
    return run_batch(cases)


@pytest.mark.parametrize("i", range(len(REFUSED)), ids=[repr(c[1])[:40] for c in REFUSED])
def test_no_claim_past_a_call_pandas_or_scikit_learn_refuses(results, i):
    r = results[i]
    assert_no_false_claim(r, REFUSED[i][1])
    assert verdict(r, key="replay_claim") != "false-claim", r


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    r = results[len(REFUSED) + i]
    _, _, exception, line = TWINS[i]
    assert r["raised"] is not None and (r["raised"]["exception"], r["raised"]["line"]) == (exception, line), r
    assert verdict(r) == "caught", r
    if i == len(TWINS) - 1:  # (a plain estimator's recorded feature count still makes the replay's claim)
        assert verdict(r, key="replay_claim") == "caught", r
