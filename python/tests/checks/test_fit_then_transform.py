"""A scaler fitted in the target cell on integers or bools, then given another number of columns
(issue 13, the shape of JunoBench's sklearn_3: train and test sets of different widths). The fit
cannot fail on such values, so the reading goes on past it, live and in the replay, where the
recording may list a wide frame's dtypes without its columns: the executed cells then must show
the labels all text and distinct (`pd.read_csv` with its header row, and since then selections,
merges, concatenations along the rows and pandas' label-keeping methods), or scikit-learn may raise
TypeError for names of mixed types, or narwhals' DuplicateError for repeated ones, first.
`pd.get_dummies` is no such step: one column's `<label>_<value>` may be another's name. Each cell
really runs after the check."""

from __future__ import annotations

import ast

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from crane_llm.checks.bound_names import BindingKinds
from crane_llm.checks.text_labels import text_label_frames


def _history(tmp_path) -> str:
    """Wide frames of integers (more than 20 columns: recorded by their dtypes only), read from CSV."""
    header = "Id," + ",".join(f"f{j}" for j in range(24))
    rows = [header] + [f"{i}," + ",".join(str((i * j) % 7) for j in range(24)) for i in range(40)]
    (tmp_path / "train.csv").write_text("\n".join(rows) + "\n")
    narrow = [",".join(r.split(",")[:23]) for r in rows[:8]]
    (tmp_path / "test.csv").write_text("\n".join(narrow) + "\n")
    return (f"import pandas as pd\nfrom sklearn.preprocessing import StandardScaler, MinMaxScaler" + B +
            f"train_df = pd.read_csv({str(tmp_path / 'train.csv')!r})\ntest_df = pd.read_csv({str(tmp_path / 'test.csv')!r})" +
            B + "train_df = train_df.drop('Id', axis=1)\ntest_df = test_df.drop('Id', axis=1)" + B + "train_df.columns")


CELL = "scaler = StandardScaler()\ntrain_s = scaler.fit_transform(train_df)\ntest_s = scaler.transform(test_df)"


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    h = _history(tmp_path_factory.mktemp("csv"))
    cases = [
        dict(setup=h, cell=CELL),  # 0: the crash
        dict(setup=h, cell="scaler = StandardScaler()\ntrain_s = scaler.fit_transform(train_df)\n"
                            "again = scaler.transform(train_df)"),  # 1: its twin
        dict(setup=h, cell="mm = MinMaxScaler()\nmm.fit(train_df)\nmm.transform(test_df)"),  # 2
        # relabelled in place by an executed cell: names of mixed types, scikit-learn's TypeError
        dict(setup=h + B + "train_df.insert(0, 7, True)", cell=CELL),  # 3
        dict(setup=h + B + "train_df[0] = True", cell=CELL),  # 4
        dict(setup=h + B + "train_df.rename(columns={'f0': 0}, inplace=True)", cell=CELL),  # 5
        dict(setup=h + B + "test_df.insert(0, 7, True)", cell=CELL),  # 6
        dict(setup=h + B + "def add(f):\n    f[9] = True\nadd(test_df)", cell=CELL),  # 7
        dict(setup=h + B + "train_df['flag', 'a'] = 1", cell=CELL),  # 8: one label, a tuple
        dict(setup=h + B + "k = (slice(None), 5)\ntrain_df.loc[k] = 1", cell=CELL),  # 9
        # repeated names (narwhals' DuplicateError in scikit-learn 1.9), sparse one-hot columns
        dict(setup=h + B + "extra = test_df.drop(['f0', 'f1'], axis=1)\ntest_df = pd.concat([test_df, extra], axis=1)",
             cell=CELL),  # 10
        dict(setup=h + B + "Z = train_df[['f3', 'f4']].astype(str)\nD = pd.get_dummies(Z, sparse=True)",
             cell="sc = StandardScaler()\nsc.fit(D)\nsc.transform(test_df)"),  # 11
        dict(setup=h + B + "D = pd.get_dummies(train_df[['f3', 'f4']].astype(str))",
             cell="sc = MinMaxScaler()\nsc.fit(D)\nsc.transform(test_df)"),  # 12
    ]
    return run_batch([dict(c, replay=True, replay_executed=True) for c in cases])


def _claims(r):
    return [(c["exception"], c["line"]) for c in (r["claim"], r["replay_claim"]) if c]


def test_the_transform_with_another_width_is_claimed_live_and_in_the_replay(results):
    for r in (results[0], results[2]):
        assert r["setup_error"] is None and r["checker_error"] is None, r
        assert (r["raised"]["exception"], r["raised"]["line"]) == ("ValueError", 3), r["raised"]
        assert _claims(r) == [("ValueError", 3)] * 2, (r["claim"], r["replay_claim"], r.get("replay_stop"))


def test_the_same_width_runs_clean_without_a_claim(results):
    r = results[1]
    assert r["raised"] is None and r["claim"] is None and r["replay_claim"] is None, r


def test_labels_an_executed_cell_may_have_made_other_than_text_leave_no_false_claim(results):
    for r in results[3:10]:
        assert r["setup_error"] is None and r["checker_error"] is None, r
        assert r["raised"] is not None and r["raised"]["exception"] == "TypeError", r["raised"]
        assert _claims(r) == [], (r["claim"], r["replay_claim"])


def test_repeated_names_and_sparse_columns_get_no_false_claim(results):
    for r in results[10:]:
        assert r["setup_error"] is None and r["checker_error"] is None, r
        for claim in (r["claim"], r["replay_claim"]):
            assert claim is None or (r["raised"] is not None and (claim["exception"], claim["line"]) ==
                                     (r["raised"]["exception"], r["raised"]["line"])), (claim, r["raised"])


def _text(cells):
    trees = [ast.parse(c) for c in cells]
    return text_label_frames(trees, {"pd": ("pandas", None)}, BindingKinds(trees))


def test_what_the_executed_cells_show_of_column_labels():
    assert _text(["df = pd.read_csv('f.csv')", "df = df.dropna()", "X = df[['a', 'b']]", "Y = df[df.a > 0]"]) == \
        {"df", "X", "Y"}
    assert _text(["a = pd.read_csv('a.csv')\nb = pd.read_csv('b.csv')", "m = pd.merge(a, b, on='Id')",
                  "c = pd.concat([a, m])"]) == {"a", "b", "m", "c"}
    # one-hot names may repeat; a header given or dropped; a frame of unknown make; a binding out of
    # sight; a relabelling; a Series; columns side by side
    assert _text(["df = pd.read_csv('f.csv')", "X = pd.get_dummies(df)"]) == {"df"}
    assert _text(["df = pd.read_csv('f.csv', header=None)"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv', names=[0, 1])"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv', converters={'a': f})"]) == frozenset()
    assert _text(["raw = make()", "X = raw.dropna()"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "def f():\n    global df\n    df = make()"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "df.columns = [0, 1]"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "df.loc[:, 5] = 1"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "df['a', 'b'] = 1"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "k = (slice(None), 5)\ndf.loc[k] = 1"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "v = df.columns.values"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "getattr(df, 'insert')(0, 1, 2)"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "s = df['a']", "X = s.dropna()"]) == {"df"}
    assert _text(["df = pd.read_csv('f.csv')", "X = pd.concat([df, df], axis=1)"]) == {"df"}
    assert _text(["df = pd.read_csv('f.csv')", "X = df[['a', 'a']]"]) == {"df"}
    assert _text(["df = pd.read_csv('f.csv')", "df['new'] = 1\ndf.loc[df.a > 0, 'b'] = 2"]) == {"df"}
