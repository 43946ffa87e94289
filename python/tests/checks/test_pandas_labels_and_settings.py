"""pandas behaviour that rests on equality of labels, on the row labels `info()` prints, on a
frame's own `attrs` and flags, and on nullable indexes (fifth red team, 7 Dec): `1` and `1.0` are
one column label to pandas, `info()` formats the first and last row labels through their own
`format` (a type's unbound `str.format`, a text holding `{0}`) and follows `display.memory_usage`,
most frame methods deep-copy `attrs`, and an Int64 index matches NaN to its `<NA>`. Each cell
really runs after the check, live and by the replay; no claim may stand but as the cell raised.
Each plain twin keeps its claim. A frame whose arrays are the notebook's own class is never read
(`df.dtypes` would run its `dtype` property)."""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim_either

PD = "import pandas as pd\nimport numpy as np\n"
ONE = PD + ("left = pd.DataFrame({'id': [1, 2], 1: [10, 20]})\nright = pd.DataFrame({1.0: [0.5, 0.7]})\n"
            "df = pd.concat([left, right], axis=1)")

OTHERWISE = [
    # (setup, cell, teardown)
    (ONE, "sub = df[[1]]\nsub.iloc[:, 1]", ""),
    (ONE, "df = df.sort_values(1)\ndf['zz']", ""),
    (ONE, "out = df.loc[:, [1]]\nout.iloc[:, 1]", ""),
    (PD + "df = pd.DataFrame(np.arange(6).reshape(2, 3), columns=['id', 2, 2.0])", "df.loc[:, [2]].iloc[:, 1]", ""),
    (PD + "tc = pd.Series(['x', 1, 2.0, 'y']).map(type).value_counts().to_frame()", "tc.info()\ntc['zz']", ""),
    (PD + "df = pd.DataFrame({'a': [1, 2]}, index=['{0}', 'b'])", "df.info()\ndf['zz']", ""),
    (PD + "class S:\n    def __sizeof__(self):\n        raise ValueError('no size')\n"
     "df = pd.DataFrame({'a': [S(), S()]})\npd.set_option('display.memory_usage', 'deep')", "df.info()\ndf['zz']",
     "pd.reset_option('display.memory_usage')"),
    (PD + "import threading\ndf = pd.DataFrame({'a': [2, 1], 'b': [3, 4]})\ndf.attrs['lock'] = threading.Lock()",
     "df.head()\ndf['zz']", ""),
    (PD + "df = pd.DataFrame({'a': [2, 1], 'b': [3, 4]}).set_flags(allows_duplicate_labels=False)",
     "df2 = df.rename(columns={'a': 'b'})\ndf2['zz']", ""),
    (PD + "df = pd.DataFrame({'id': pd.array([1, None, 3], dtype='Int64'), 'v': [1., 2., 3.]}).set_index('id')",
     "df = df.drop(np.nan)", ""),
    (PD + "df = pd.DataFrame({'id': pd.array([1.5, None], dtype='Float64'), 'v': [1., 2.]}).set_index('id')",
     "df.drop(index=np.nan)", ""),
]
TWINS = [
    (PD + "df = pd.DataFrame({'id': [1, 2], 'x': [10, 20]})", "sub = df[['x']]\nsub.iloc[:, 1]", "IndexError", 2),
    (PD + "df = pd.DataFrame({'a': [1, 2]})", "df.info()\ndf['zz']", "KeyError", 2),
    (PD + "df = pd.DataFrame({'a': [1, 2]}, index=[10, 20])", "df.info()\ndf['zz']", "KeyError", 2),
    (PD + "df = pd.DataFrame({'a': [2, 1], 'b': [3, 4]})", "df.head()\ndf['zz']", "KeyError", 2),
    (PD + "df = pd.DataFrame({'id': [1, 2, 3], 'v': [1., 2., 3.]}).set_index('id')", "df = df.drop(np.nan)",
     "KeyError", 1),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, teardown=t, replay=True, replay_executed=True) for s, c, t in OTHERWISE] + \
            [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c, _, _ in TWINS]
    return run_batch(cases)


@pytest.mark.parametrize("i", range(len(OTHERWISE)), ids=[repr(c[1])[:40] for c in OTHERWISE])
def test_no_claim_where_pandas_answers_otherwise(results, i):
    r = results[i]
    if "attrs" in OTHERWISE[i][0]:
        r = dict(r, mutated=False)  # (the runner's own fingerprint pickles the frame, its attrs included)
    assert_no_false_claim_either(r, OTHERWISE[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(OTHERWISE) + i], exception, line)


def test_a_frame_of_the_notebooks_own_arrays_is_not_read():
    import numpy as np
    import pandas as pd

    from crane_llm.checks import run_checks

    ns = {"pd": pd, "np": np}
    exec("calls = []\nclass MyArr(pd.arrays.IntegerArray):\n    @property\n    def dtype(self):\n"
         "        calls.append('dtype')\n        return super().dtype\n"
         "s = pd.Series(MyArr(np.array([1, 2]), np.array([False, False])))\ndf = pd.DataFrame({'a': s, 'b': [1, 2]})\n"
         "calls.clear()", ns)
    for cell in ("x = df.dtypes\nx.zz", "s.dtype", "df.shape"):
        outcome = run_checks(cell, ns)
        assert outcome.crash is None and ns["calls"] == [], (cell, outcome, ns["calls"])
