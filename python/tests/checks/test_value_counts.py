"""`s.value_counts()` is gone on past only where pandas counts without running anything of the
notebook's (rules/value_counts.py). Every cell runs for real after the check: a claim made past the
call is the exception the cell raised, at its line; where the values, the name, the method or the
compiled counter may be the notebook's, nothing is claimed past it and none of its code runs."""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_no_false_claim

FRAME = ("import io\nimport pandas as pd\n"
         "df = pd.read_csv(io.StringIO('kind,n\\nscab,1\\nrust,2\\nscab,3\\n'))")

# (setup, cell, exception, line): claimed by the live checker, the crash is the real one.
CLAIMED = [
    (FRAME, "counts = df['kind'].value_counts()\n[][1]", "IndexError", 2),
    (FRAME + "\nfresh = True", "counts = df.n.value_counts(sort=False, dropna=False)\ncounts.index\n{}['a']", "KeyError", 3),
    ("import pandas as pd\ns = pd.Series([1, 'a', None, 2.5, True, 10 ** 30], name='mixed')",
     "c = s.value_counts()\n[][1]", "IndexError", 2),
    ("import pandas as pd\nimport numpy as np\ns = pd.Series(np.arange(5.0))", "c = s.value_counts()\n[][1]",
     "IndexError", 2),
]

# Seaborn 0.12 made `data` the only positional parameter of its plotting functions: a call written
# for an older seaborn cannot bind, whatever the counts are.
SEABORN = (FRAME + "\nimport matplotlib\nmatplotlib.use('Agg')\nimport seaborn as sns",
           "sns.barplot(df['kind'].value_counts().index, df['kind'].value_counts())")

# (setup, cell, teardown): pandas may run the notebook's code, or the notebook's code stands in
# for pandas': nothing is claimed past the call.
UNDO_PATCH = "import pandas._libs.hashtable as h\nh.value_count = ORIGINAL"
NOT_PAST = [
    # the compiled counter replaced, by a function of the notebook's or by another of pandas'
    (FRAME + "\nimport pandas._libs.hashtable as h\nORIGINAL = h.value_count\nh.value_count = lambda *a, **k: 1 / 0",
     "counts = df['kind'].value_counts()\n[][1]", UNDO_PATCH),
    (FRAME + "\nimport pandas._libs.hashtable as h\nORIGINAL = h.value_count\nh.value_count = h.duplicated",
     "counts = df['kind'].value_counts()\n[][1]", UNDO_PATCH),
    # pandas' Python code that calls it
    (FRAME + "\nimport pandas.core.algorithms as A\nORIGINAL = A.value_counts_internal\n"
             "A.value_counts_internal = lambda *a, **k: 1 / 0", "counts = df['kind'].value_counts()\n[][1]",
     "import pandas.core.algorithms as A\nA.value_counts_internal = ORIGINAL"),
    # values whose hash is the notebook's
    ("import pandas as pd\nclass Key(str):\n    def __hash__(self):\n        raise ValueError('hashed')\n"
     "s = pd.Series([Key('a'), 'b'], dtype=object)", "c = s.value_counts()\n[][1]", ""),
    ("import pandas as pd\nclass Key:\n    def __hash__(self):\n        raise ValueError('hashed')\n"
     "s = pd.Series(['b', Key()], dtype=object)", "c = s.value_counts()\n[][1]", ""),
    # the method the Series itself holds (pandas 2 hands out a frame's cached column: the same one)
    ("import pandas as pd\ns = pd.Series([1, 2, 2])\ns.__dict__['value_counts'] = lambda: 1 / 0",
     "c = s.value_counts()\n[][1]", ""),
    ("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\ncached = df['a']\n"
     "cached.__dict__['value_counts'] = lambda: 1 / 0", "c = df['a'].value_counts()\n[][1]", ""),
    # a subclass, a dtype with code of its own, arguments not modelled
    ("import pandas as pd\nclass Mine(pd.Series):\n    pass\ns = Mine([1, 2])", "c = s.value_counts()\n[][1]", ""),
    ("import pandas as pd\ns = pd.Series(['a', 'b'], dtype='category')", "c = s.value_counts()\n[][1]", ""),
    ("import pandas as pd\ns = pd.Series([1, 2])", "c = s.value_counts(normalize=True)\n[][1]", ""),
    ("import pandas as pd\ns = pd.Series([1, 2])", "c = s.value_counts(bins=2)\n[][1]", ""),
    # warnings made errors (pandas 2 warns when it infers the counted keys' dtype)
    ("import pandas as pd\nimport warnings\nwarnings.simplefilter('error')\ns = pd.Series([1, 2], dtype=object)",
     "c = s.value_counts()\n[][1]", "import warnings\nwarnings.resetwarnings()"),
]


def _same(claim, raised):
    return raised is not None and (claim["exception"], claim["line"]) == (raised["exception"], raised["line"])


def test_value_counts_of_plain_values_is_gone_on_past():
    results = run_batch([{"setup": s, "cell": c, "teardown": ""} for s, c, _, _ in CLAIMED])
    for (setup, cell, exception, line), r in zip(CLAIMED, results):
        assert r["setup_error"] is None and r["checker_error"] is None, (cell, r)
        assert (r["raised"]["exception"], r["raised"]["line"]) == (exception, line), (cell, r)
        assert r["claim"] is not None and _same(r["claim"], r["raised"]), (cell, r)
        assert not r["mutated"], cell


def test_seaborn_positional_arguments_past_value_counts():
    seaborn = pytest.importorskip("seaborn")
    if tuple(int(p) for p in seaborn.__version__.split(".")[:2]) < (0, 12):
        pytest.skip("seaborn before 0.12 takes x and y positionally")
    [r] = run_batch([{"setup": SEABORN[0], "cell": SEABORN[1], "teardown": ""}])
    assert r["raised"]["exception"] == "TypeError" and "positional" in r["raised"]["message"], r
    assert r["claim"] is not None and _same(r["claim"], r["raised"]) and r["claim"]["rule"] == "call-arguments", r


@pytest.mark.parametrize("setup, cell, teardown", NOT_PAST)
def test_value_counts_that_may_run_the_notebooks_code_stops_the_checks(setup, cell, teardown):
    [r] = run_batch([{"setup": setup, "cell": cell, "teardown": teardown}])
    assert_no_false_claim(r, cell)


def test_a_frame_read_from_csv_and_untouched_is_counted_in_the_replay():
    cell = "counts = df['kind'].value_counts()\n[][1]"
    [r] = run_batch([{"setup": FRAME, "cell": cell, "replay": True, "replay_executed": True, "teardown": ""}])
    assert r["replay_claim"] is not None and _same(r["replay_claim"], r["raised"]), r
    touched = FRAME + "\ndf['kind'] = df['kind'].str.upper()"
    [r] = run_batch([{"setup": touched, "cell": cell, "replay": True, "replay_executed": True, "teardown": ""}])
    assert r["replay_claim"] is None and "value_counts" in r["replay_stop"]["reason"], r
