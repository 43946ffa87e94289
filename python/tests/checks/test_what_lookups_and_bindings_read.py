"""What a column lookup and an argument binding read besides what they are given (seventh red team,
7 Dec): pandas looks a label up in the engine an Index keeps in its `_cache` (the notebook can put
its own there, or another Index's); scikit-learn's `validate_params` tests this thread's
`skip_parameter_validation` with `if` (`set_config` writes it: an array there is its ValueError);
Python finds a keyword-only default by comparing keys, with a str subclass's own `__eq__`; and an
executed cell can reach the builtins' exception classes through `getattr` or the shell's builtin
trap, so the replay's KeyError would be another class. Each cell really runs after the check, live
and by the replay; no claim may stand but as it raised, and no code of the notebook's runs during
the check. Each plain twin keeps its claim."""

from __future__ import annotations

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim_either

PD = "import pandas as pd\nimport numpy as np\n"
SEEN = "seen = []\n"
ENGINE = SEEN + PD + (
    "class AliasEngine:\n    def __init__(self, idx):\n        self.names = [str(c).lower() for c in idx]\n"
    "    def __contains__(self, k):\n        seen.append(k)\n        return str(k).lower() in self.names\n"
    "    def get_loc(self, k):\n        return self.names.index(str(k).lower())\n    is_unique = True\n"
    "df = pd.DataFrame({'Price': [1, 2]})\ndf.columns._cache['_engine'] = AliasEngine(df.columns)")
BORROWED = PD + ("cols = [f'c{i}' for i in range(3000)]\ndf = pd.DataFrame(np.zeros((1, 3000)), columns=cols)\n"
                 "other = pd.Index(['zz'] + cols[1:])\nother.get_loc('zz')\ndf.columns._cache['_engine'] = other._engine")
SK = "import sklearn\nfrom sklearn.metrics import accuracy_score\nimport numpy as np\n"
UNSKIP = "sklearn.set_config(skip_parameter_validation=False)"
KEYS = SEEN + ("class S(str):\n    def __hash__(self):\n        return hash(str(self))\n"
               "    def __eq__(self, o):\n        seen.append(o)\n        return str.__eq__(self, o)\n"
               "def f(a, *, b):\n    return a\nf.__kwdefaults__ = {S('b'): 1}")
KEYERROR_BACK = PD + "import builtins\n_orig = builtins.KeyError\ndf = pd.DataFrame({'a': [1]})"

LIVE = [
    # (setup, cell, teardown)
    (ENGINE, "df['price']", ""),
    (ENGINE, "df[['price']]", ""),
    (BORROWED, "df['zz']", ""),
    (SK + "sklearn.set_config(skip_parameter_validation=np.array([True, False]))", "accuracy_score([1], [1], 3, 4)",
     UNSKIP),
    (SK + "from sklearn._config import _get_threadlocal_config\n_get_threadlocal_config().pop('skip_parameter_validation')",
     "accuracy_score([1], [1], 3, 4)", UNSKIP),
    (KEYS, "f(1)", ""),
]
REPLAYED = [
    (KEYERROR_BACK + B + "ga = getattr\nga(print, '__se' + 'lf__').KeyError = LookupError", "df['zz']",
     "builtins.KeyError = _orig"),
    (KEYERROR_BACK + B + "import functools\nfunctools.reduce(getattr, ['__se' + 'lf__'], print).KeyError = LookupError",
     "df['zz']", "builtins.KeyError = _orig"),
    (KEYERROR_BACK + B + "get_ipython().builtin_trap.auto_builtins['KeyError'] = LookupError", "df['zz']",
     "get_ipython().builtin_trap.auto_builtins.pop('KeyError', None)\nbuiltins.KeyError = _orig"),
]
TWINS = [
    (PD + "df = pd.DataFrame({'Price': [1, 2]})\n'x' in df.columns", "df['price']", "KeyError", 1),
    (PD + "df = pd.DataFrame(np.zeros((1, 3000)), columns=[f'c{i}' for i in range(3000)])\n'c1' in df.columns",
     "df['zz']", "KeyError", 1),
    (SK, "accuracy_score([1], [1], 3, 4)", "TypeError", 1),
    ("def f(a, *, b):\n    return a", "f(1)", "TypeError", 1),
    (PD + "df = pd.DataFrame({'a': [1]})" + B + "x = getattr(df, 'shape')", "df['zz']", "KeyError", 1),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, teardown=t, replay=True) for s, c, t in LIVE] + \
            [dict(setup=s, cell=c, teardown=t, replay=True, replay_executed=True) for s, c, t in REPLAYED] + \
            [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c, _, _ in TWINS]
    # (the builtin trap's table, once written, is not put back whole: those run one to a process)
    out = run_batch([c for c in cases if "auto_builtins" not in c["setup"]])
    for i, c in enumerate(cases):
        if "auto_builtins" in c["setup"]:
            out.insert(i, run_batch([c])[0])
    return out


@pytest.mark.parametrize("i", range(len(LIVE)), ids=[repr(c[1])[:40] for c in LIVE])
def test_no_live_claim_where_the_lookup_or_the_binding_reads_the_notebooks_objects(results, i):
    r = results[i]
    assert_no_false_claim_either(dict(r, replay_claim=None), LIVE[i][1])  # (the facts alone: see the README)


@pytest.mark.parametrize("i", range(len(REPLAYED)), ids=[repr(c[0][-40:]) for c in REPLAYED])
def test_no_replay_claim_after_a_cell_that_may_reach_the_builtins(results, i):
    r = results[len(LIVE) + i]
    assert r["raised"] is not None and r["raised"]["exception"] == "LookupError", r
    assert_no_false_claim_either(r, REPLAYED[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    r = results[len(LIVE) + len(REPLAYED) + i]
    assert_claimed(r, exception, line)


def test_the_replay_with_the_builtins_replaced_stops_without_an_error():
    r, = run_batch([dict(setup=PD + "import builtins\n_orig = builtins.ValueError\ndf = pd.DataFrame({'b': ['x']})\n"
                                    "builtins.ValueError = RuntimeError", cell="df['b'].astype(int)",
                         teardown="builtins.ValueError = _orig", replay=True)])
    assert r["checker_error"] is None and r["claim"] is None and r["replay_claim"] is None, r


def test_what_pandas_itself_caches_on_an_index_is_read_and_a_notebooks_object_is_not():
    import pickle

    import pandas as pd

    from crane_llm.checks.class_facts import _cache_own

    df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"], "c": pd.date_range("2020", periods=3)})
    made = [df, df.set_index(["a", "b"]), df.set_index("c"), df.set_index(pd.CategoricalIndex(df.b)), df.T,
            df.describe(), pd.Series([1, 2], index=pd.interval_range(0, 2)), pd.Series([], dtype=float)]
    for obj in made:
        pickle.dumps(obj)  # (a RangeIndex then keeps its `_constructor`, a class)
        _ = obj.index.is_unique, obj.index.inferred_type, "zz" in obj.index
        assert all(_cache_own(axis._cache) for axis in obj.axes), obj
    odd = pd.Index(["a"])
    odd._cache["_engine"] = object()
    assert not _cache_own(odd._cache)
