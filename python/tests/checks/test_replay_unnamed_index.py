"""The replay takes the row index of a frame the executed cells read with `pd.read_csv` as unnamed,
so a key that is no column is missing for `.sort_values()` and `.groupby()` too (pandas would find
it among the index level names). Every case runs for real: the executed cells through IPython, the
facts recorded from the namespace they leave, then the target. Where some executed cell may have
named a level (each way below), the target runs clean and the replay claims nothing; the twins
keep the claim and really raise it."""

from __future__ import annotations

import ast
import tempfile
from pathlib import Path

from crane_llm.checks.bound_names import BindingKinds
from crane_llm.checks.fresh_frames import unnamed_index_frames
from exec_runner import CELL_BREAK, run_batch

# The file is written here, not by an executed cell (one writing a file under a computed name
# leaves the replay without names it trusts: the file could be a module a later import finds).
CSV = Path(tempfile.mkdtemp()) / "m.csv"
CSV.write_text("region,emissions\nAsia Pacific,1.5\nAfrica,2.0\nEurope,0.5\n")
WRITE = f"import pandas as pd\npath = {str(CSV)!r}" + CELL_BREAK
READ = WRITE + "df = pd.read_csv(path)"
# Text that names the level when pandas runs it, computed so that no word of it is written out.
Q = "'@df.ren' + 'ame_axis(' + repr('zz') + ', inplace=True)'"

# (setup, executed through the shell, target): the target runs clean, the replay must not claim.
NAMED = [
    (READ, "df.index.name = 'zz'", "df.sort_values('zz')"),
    (READ, "df.index.names = ['zz']", "df.sort_values('zz')"),
    (READ, "df.rename_axis('zz', inplace=True)", "df.sort_values('zz')"),
    (READ, "df.index.set_names('zz', inplace=True)", "df.sort_values('zz')"),
    (READ, "df.index.rename('zz', inplace=True)", "df.sort_values('zz')"),
    (READ, "df['zz'] = 1\ndf.set_index('zz', inplace=True)", "df.sort_values('zz')"),
    (READ, "getattr(df, 'rename_axis')('zz', inplace=True)", "df.sort_values('zz')"),
    (READ, "getattr(df.index, 'rename')('zz', inplace=True)", "df.sort_values('zz')"),
    (READ, "type(df.index).name.fset(df.index, 'zz')", "df.sort_values('zz')"),
    (READ, "import operator\noperator.methodcaller('rename_axis', 'zz', inplace=True)(df)", "df.sort_values('zz')"),
    (READ, "df.axes[0].name = 'zz'", "df.sort_values('zz')"),
    # text pandas runs as code, or reads as a method's name, written out or computed
    (READ, "df.eval(\"@df.rename_axis('zz', inplace=True)\")", "df.sort_values('zz')"),
    (READ, "q = '@df.ren' + 'ame_axis(' + repr('zz') + ', inplace=True)'\ndf.eval(q)", "df.sort_values('zz')"),
    (READ, "f = 'ren' + 'ame_axis'\ntry:\n    df.apply(f, args=('zz',), inplace=True)\nexcept AttributeError:\n"
           "    pass", "df.sort_values('zz')"),
    (READ, "for ix in [df.index]:\n    ix.name = 'zz'", "df.sort_values('zz')"),
    (READ, "def name_it(d):\n    d.index.name = 'zz'\nname_it(df)", "df.sort_values('zz')"),
    (READ, "df.index = pd.RangeIndex(len(df), name='zz')", "df.sort_values('zz')"),
    (READ, "df.__init__(pd.DataFrame({'region': ['x']}, index=pd.Index([0], name='zz')))", "df.sort_values('zz')"),
    (READ, "df = pd.DataFrame({'region': ['x']}, index=pd.Index([0], name='zz'))", "df.sort_values('zz')"),
    (WRITE + "df = pd.read_csv(path, index_col='region')", "x = 1", "df.sort_values('region')"),
    (READ, "df = df.set_index('region')", "df.sort_values('region')"),
    # a frame rebound to what names its index: grouped, pivoted, or another frame's method
    (READ, "df = df.groupby('region').sum()", "df.sort_values('region')"),
    (READ, "df = df.pivot_table(index='region', values='emissions')", "df.sort_values('region')"),
    (READ, "df = df.dropna()\nother = df.groupby('region').mean()\ndf = other.dropna()", "df.sort_values('region')"),
    (READ, "df = df.dropna()" + CELL_BREAK + "for df in [df.groupby('region').sum()]:\n    pass",
     "df.sort_values('region')"),
    # found by the red team of 3 Dec: text pandas runs, reached other than by `df.eval(<written out>)`
    (READ, "f = df.eval\nq = " + Q + "\nf(q)", "df.sort_values('zz')"),
    (READ, "q = " + Q + "\nlist(map(df.eval, [q]))", "df.sort_values('zz')"),
    (READ, "from pandas import eval as pe\nq = " + Q.replace("@", "") + "\npe(q)", "df.sort_values('zz')"),
    (READ, "license = " + Q + "\ndf.eval(license)", "df.sort_values('zz')"),
    (READ, "class C:\n    s = " + Q + "\ndf.eval(C.s)", "df.sort_values('zz')"),
    (READ, "def h():\n    pass\nh.s = " + Q + "\ndf.eval(h.s)", "df.sort_values('zz')"),
    # a module of the notebook's written under a library's name, then imported
    (READ, "import sys\nsys.path.insert(0, '')\nwith open('tabulate.p' + 'y', 'w') as fh:\n"
           "    fh.write(\"import __main__\\n__main__.df.index.name = 'zz'\\n\")" + CELL_BREAK
     + "import tabulate", "df.sort_values('zz')"),
]

# The target raises otherwise than a missing key: (setup, shell, target, exception).
OTHERWISE = [
    (READ, "x = 1", "df.sort_values('zz', by='region')", "TypeError"),
    (READ, "x = 1", "df.groupby('zz', by='region')", "TypeError"),
    # a level named like a column the grouping asks for: pandas refuses it
    (READ, "df.index.name = 'zz'\ndf['zz'] = 1", "df.groupby('region').get_group('Africa').sort_values('zz')",
     "ValueError"),
    # group keys that do not compare: sorting them fails before the group is found
    (READ, "df['region'] = df['region'].astype(object)\ndf.loc[0, 'region'] = 1j\ndf.loc[2, 'region'] = 2j",
     "g = df.groupby('region').get_group('Africa')\ng.sort_values('zz')", "TypeError"),
]

# The same frame, left unnamed: (setup, shell, target, exception, line).
UNNAMED = [
    (READ, "x = 1", "df.sort_values('zz')", "KeyError", 1),
    (READ, "x = 1", "df.groupby('zz')", "KeyError", 1),
    (READ, "x = 1", "df.groupby('region').get_group('Asia Pacific').sort_values(by='zz')", "KeyError", 1),
    (READ, "df.reset_index(inplace=True)", "df.sort_values('zz')", "KeyError", 1),
    (READ, "df.rename(columns={'emissions': 'e'}, inplace=True)", "df.sort_values('emissions')", "KeyError", 1),
    (READ, "df.drop(columns=['emissions'], inplace=True)\ndf.region = df.region.astype('category')",
     "df.groupby('region').get_group('Europe').sort_values(by='emissions')", "KeyError", 1),
    (WRITE + "from pandas import read_csv\ndf = read_csv(path, sep=',')", "x = 1", "df.sort_values('zz')", "KeyError", 1),
    # rebound only to what pandas made of the frame itself, keeping its index
    (READ, "df = df.dropna()" + CELL_BREAK + "df = df[df.emissions > 0].reset_index(drop=True)",
     "df.sort_values('zz')", "KeyError", 1),
    (READ, "df = df.drop(columns=['emissions']).drop_duplicates()", "df.groupby('emissions')", "KeyError", 1),
    (READ, "df = df.loc[:, ['region']].copy()\ndf = df.rename(columns={'region': 'r'})",
     "df.sort_values('region')", "KeyError", 1),
]


def _cases(rows):
    return [{"setup": setup, "shell": shell, "cell": target, "replay": True, "replay_executed": True}
            for setup, shell, target, *_ in rows]


def test_a_level_the_executed_cells_may_have_named_leaves_the_replay_without_a_claim():
    for row, r in zip(NAMED, run_batch(_cases(NAMED))):
        assert r.get("setup_error") is None, (row, r)
        assert r["replay_claim"] is None, (row, r)
        assert r.get("raised") is None, (row, r)


def test_a_target_that_raises_otherwise_gets_no_missing_key_claim():
    for row, r in zip(OTHERWISE, run_batch(_cases(OTHERWISE))):
        assert r.get("setup_error") is None, (row, r)
        assert r["raised"]["exception"] == row[3], (row, r)
        for claim in (r["replay_claim"], r["claim"]):  # (Python's own TypeError may be claimed)
            assert claim is None or claim["exception"] == row[3], (row, r)


def test_a_frame_read_from_csv_and_never_reindexed_has_no_level_names():
    for row, r in zip(UNNAMED, run_batch(_cases(UNNAMED))):
        exception, line = row[3], row[4]
        assert r.get("setup_error") is None, (row, r)
        assert r["raised"]["exception"] == exception and r["raised"]["line"] == line, (row, r)
        assert r["replay_claim"]["exception"] == exception and r["replay_claim"]["line"] == line, (row, r)


def test_a_group_the_recording_does_not_show_is_not_taken_for_there():
    import pandas  # noqa: F401  (the replay reads recorded frames with the installed pandas)

    cells = [READ.split(CELL_BREAK)[0], "df = pd.read_csv(path)"]
    facts = {"df": {"type": "pandas.core.frame.DataFrame", "shape": (3, 2),
                    "per_column": {"region": {"type": "categorical", "dtype": "category",
                                              "example_values": ["Asia Pacific", "A" * 20 + "..."]},
                                   "emissions": {"type": "continuous"}}}}
    from crane_llm.checks import run_checks_on_facts

    for group in ("Nowhere", "A" * 20 + "...", "A" * 20):
        outcome = run_checks_on_facts(f"df.groupby('region').get_group({group!r}).sort_values('zz')", facts,
                                      names_complete=True, executed=cells)
        assert outcome.crash is None and "get_group" in outcome.stopped_at.reason, group
    outcome = run_checks_on_facts("df.groupby('region').get_group('Asia Pacific').sort_values('zz')", facts,
                                  names_complete=True, executed=cells)
    assert outcome.crash is not None and outcome.crash.exception == "KeyError"
    # an object column of which the recording shows a sample only may hold values that do not sort,
    # or do not hash (lists): the grouping itself is not passed over
    facts["df"]["per_column"]["region"]["dtype"] = "object"
    outcome = run_checks_on_facts("df.groupby('region').get_group('Asia Pacific').sort_values('zz')", facts,
                                  names_complete=True, executed=cells)
    assert outcome.crash is None and "`.groupby()` by 'region'" in outcome.stopped_at.reason


def test_only_a_single_plain_read_counts():
    aliases = {"pd": ("pandas", None)}

    def frames(*cells):
        trees = [ast.parse(c) for c in cells]
        return unnamed_index_frames(trees, aliases, BindingKinds(trees))

    assert frames("df = pd.read_csv('m.csv', sep=';')") == {"df"}
    assert frames("df = pd.read_csv('m.csv')", "df = pd.read_csv('n.csv')") == frozenset()  # which ran last?
    assert frames("if True:\n    df = pd.read_csv('m.csv')") == frozenset()
    assert frames("df = pd.read_csv('m.csv', index_col=0)") == frozenset()
    assert frames("df = pd.read_csv('m.csv', chunksize=10)") == frozenset()
    assert frames("df = pd.read_csv(*paths)") == frozenset()
    assert frames("df = pd.read_parquet('m.parquet')") == frozenset()  # a stored index keeps its names
    assert frames("df = pd.read_csv('m.csv')", "class A(B):\n    def __init__(self):\n        super().__init__()") \
        == {"df"}
    assert frames("df = pd.read_csv('m.csv')", "df.rename({'a': 'b'}, axis=1, inplace=True)") == frozenset()
    assert frames("df = pd.read_csv('m.csv')", "df._set_axis_name('zz', inplace=True)") == frozenset()
    one = [ast.parse("df = pd.read_csv('m.csv')")]
    assert unnamed_index_frames(one, {}, BindingKinds(one)) == frozenset()  # pd unknown
