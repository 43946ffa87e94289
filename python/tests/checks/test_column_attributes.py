"""`df.Salary`: a column read as an attribute, as pandas' `NDFrame.__getattr__` hands it out, in the
live adapter and in the replay. Each cell runs for real after the check: a claim made past such a
read is the exception the cell raised, at its line; where the name may be something else (the
frame's own attribute, one the notebook set, a name an older pandas had, a name pandas keeps for
itself, a repeated column, labels that are not all text), nothing is claimed past it."""

from __future__ import annotations

import pytest

from exec_runner import run_batch

# A frame read from CSV text: its column names appear in no executed line but the file's text.
FRAME = ("import io\nimport pandas as pd\n"
         "df = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\na,3,7\\n'))")

# (setup, cell, exception, line): the live checker and the replay both claim exactly this.
CLAIMED = [
    (FRAME, "df.Salary\ndf['zz']", "KeyError", 2),
    (FRAME, "s = df.Salary\nx = s.values\ndf['zz']", "KeyError", 3),
    (FRAME, "n = df.Salary.shape[0]\n[1, 2][n]", "IndexError", 2),
    (FRAME + "\ndf['Bonus'] = df['Salary'] * 2", "df.Bonus\ndf['zz']", "KeyError", 2),
]

# Live only: the replay cannot know these (a column the cell itself adds to the kernel's frame).
CLAIMED_LIVE = [
    (FRAME, "df['Extra'] = 1\ndf.Extra\ndf['zz']", "KeyError", 3),
    (FRAME, "df.columns = ['a', 'b', 'c']\ndf.b\ndf['zz']", "KeyError", 3),
]

# Reads that may not be the column: nothing is claimed at or past them, though the cell crashes
# later where a column would have let the checker go on.
NOT_A_COLUMN = [
    # the notebook set an instance attribute before the column existed
    (FRAME + "\nimport warnings\nwarnings.simplefilter('ignore')\ndf.Bonus = 5\ndf['Bonus'] = df['Salary']",
     "df.Bonus.shape\ndf['zz']"),
    # the same, met after the cell changed the kernel's frame in place
    (FRAME + "\nimport warnings\nwarnings.simplefilter('ignore')\ndf.Extra = 5",
     "df['Extra'] = 1\ndf.Extra.shape\ndf['zz']"),
    # a method of the frame's class named like a column
    ("import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('drop,b\\n1,2\\n'))", "df.drop.shape\ndf['zz']"),
    # a column repeated: pandas hands out a frame
    ("import pandas as pd\ndf = pd.DataFrame([[1, 2]], columns=['a', 'a'])", "df.a.name\ndf['zz']"),
    # labels that are not all text
    ("import pandas as pd\ndf = pd.DataFrame([[1, 2]], columns=['a', 0])", "df.a.shape\ndf['zz']"),
    # the class gains the name
    (FRAME + "\npd.DataFrame.Salary = 3", "df.Salary.shape\ndf['zz']"),
    # pandas keeps the name for itself (its list changed in place: no class dictionary changes)
    (FRAME + "\npd.core.generic.NDFrame._metadata.append('Salary')", "df.Salary\ndf['zz']"),
    # ... or reads its list from the frame itself (fifth red team)
    (FRAME + "\ndf._metadata = list(df.columns)", "n = df.Salary.shape[0]\n[1, 2, 3][n]"),
    (FRAME + "\ndf._internal_names_set = set(df.columns)", "n = df.Salary.shape[0]\n[1, 2, 3][n]"),
    (FRAME + "\ndf._info_axis_name = 'index'", "n = df.Salary.shape[0]\n[1, 2, 3][n]"),
    # a column Index pandas does not look names up in (Sparse), made in an executed cell or built so
    (FRAME + "\ndf.columns = df.columns.astype(pd.SparseDtype(str))", "n = df.Salary.shape[0]\n[1, 2, 3][n]"),
    ("import pandas as pd\ndf = pd.DataFrame([[1, 2]], columns=pd.Index(['Salary', 'b'], dtype=pd.SparseDtype(str)))",
     "df.Salary\ndf['zz']"),
    # a frame the cell derives: its column Index may keep such a dtype
    (FRAME + "\ndf.columns = df.columns.astype(pd.SparseDtype(str))", "df2 = df[['labels', 'Salary']]\ndf2.Salary\n[1][3]"),
    # an attribute set through a class's `__init__` called on the frame, by a name from data
    (FRAME + "\nimport argparse\nimport warnings\nwarnings.simplefilter('ignore')\nn = 'bonus'.upper()\n"
     "argparse.Namespace.__init__(df, **{n: [0]})\ndf[n] = 1", "n = df.BONUS.shape[0]\n[1, 2, 3][n]"),
]
TEARDOWN = ("import pandas as pd\nif 'Salary' in pd.DataFrame.__dict__:\n    del pd.DataFrame.Salary\n"
            "pd.core.generic.NDFrame._metadata[:] = [k for k in pd.core.generic.NDFrame._metadata if k != 'Salary']")


def _case(setup, cell, replay=True):
    return {"setup": setup, "cell": cell, "replay": replay, "replay_executed": replay, "teardown": TEARDOWN}


def _same(claim, raised):
    return raised is not None and claim["exception"] == raised["exception"] and claim["line"] == raised["line"]


def test_a_column_read_as_an_attribute_lets_both_adapters_go_on():
    results = run_batch([_case(s, c) for s, c, _, _ in CLAIMED])
    for (setup, cell, exception, line), r in zip(CLAIMED, results):
        assert r["setup_error"] is None and r["checker_error"] is None, (cell, r)
        assert r["raised"] == {**r["raised"], "exception": exception, "line": line}, (cell, r)
        assert r["claim"] is not None and _same(r["claim"], r["raised"]), (cell, r)
        assert r["replay_claim"] is not None and _same(r["replay_claim"], r["raised"]), (cell, r)


def test_a_column_the_cell_adds_is_read_as_an_attribute_live():
    results = run_batch([_case(s, c, replay=False) for s, c, _, _ in CLAIMED_LIVE])
    for (setup, cell, exception, line), r in zip(CLAIMED_LIVE, results):
        assert r["raised"] is not None and (r["raised"]["exception"], r["raised"]["line"]) == (exception, line)
        assert r["claim"] is not None and _same(r["claim"], r["raised"]), (cell, r)


@pytest.mark.parametrize("setup, cell", NOT_A_COLUMN)
def test_a_name_that_may_not_be_the_column_stops_the_checks(setup, cell):
    [r] = run_batch([_case(setup, cell)])
    assert r["setup_error"] is None and r["checker_error"] is None, r
    assert r["raised"] is not None, r
    for claim in (r["claim"], r["replay_claim"]):
        assert claim is None or _same(claim, r["raised"]), (cell, r)
    assert r["claim"] is None or r["claim"]["line"] == 1, r


def test_a_name_an_older_pandas_had_is_not_a_column_in_the_replay():
    # `df.last` is the column in the installed pandas, but was a method before pandas 3
    import pandas as pd

    if "last" in dir(pd.DataFrame):
        pytest.skip("the installed pandas still has DataFrame.last")
    [r] = run_batch([_case(FRAME, "df.last\ndf['zz']")])
    assert r["claim"] is not None and _same(r["claim"], r["raised"]), r
    assert r["replay_claim"] is None and "last" in r["replay_stop"]["reason"], r
