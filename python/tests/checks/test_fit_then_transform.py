"""A scaler fitted in the target cell on integers or bools, then given another number of columns
(issue 13: JunoBench's sklearn_3, one-hot encoded train and test sets of different widths). The
fit cannot fail on such values, so the reading goes on past it, live and in the replay, where the
recording may list a wide frame's dtypes without its columns: the executed cells then must show
the labels all text (`pd.read_csv` with its header row, `pd.get_dummies`, merges and pandas'
label-keeping methods since), or scikit-learn may raise TypeError for names of mixed types first.
Each cell really runs after the check."""

from __future__ import annotations

import ast

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from crane_llm.checks.bound_names import BindingKinds
from crane_llm.checks.text_labels import text_label_frames


def _history(tmp_path) -> str:
    """Wide one-hot frames (more than 20 columns: recorded by their dtypes only), read from CSV."""
    rows = ["Id,a,b"] + [f"{i},x{i % 13},y{i % 11}" for i in range(40)]
    (tmp_path / "train.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "test.csv").write_text("\n".join(rows[:8]) + "\n")
    return (f"import pandas as pd\nfrom sklearn.preprocessing import StandardScaler, MinMaxScaler" + B +
            f"train_df = pd.read_csv({str(tmp_path / 'train.csv')!r})\ntest_df = pd.read_csv({str(tmp_path / 'test.csv')!r})" +
            B + "train_df = train_df.drop('Id', axis=1)\ntest_df = test_df.drop('Id', axis=1)" +
            B + "train_df = pd.get_dummies(train_df, columns=list(train_df))\n"
                "test_df = pd.get_dummies(test_df, columns=list(test_df))" + B + "train_df.columns")


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
        dict(setup=h + B + "train_df.rename(columns={'a_x0': 0}, inplace=True)", cell=CELL),  # 5
        dict(setup=h + B + "test_df.insert(0, 7, True)", cell=CELL),  # 6
        dict(setup=h + B + "def add(f):\n    f[9] = True\nadd(test_df)", cell=CELL),  # 7
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
    for r in results[3:]:
        assert r["setup_error"] is None and r["checker_error"] is None, r
        assert r["raised"] is not None and r["raised"]["exception"] == "TypeError", r["raised"]
        assert _claims(r) == [], (r["claim"], r["replay_claim"])


def _text(cells):
    trees = [ast.parse(c) for c in cells]
    return text_label_frames(trees, {"pd": ("pandas", None)}, BindingKinds(trees))


def test_what_the_executed_cells_show_of_column_labels():
    assert _text(["df = pd.read_csv('f.csv')", "df = df.dropna()", "X = pd.get_dummies(df)"]) == {"df", "X"}
    assert _text(["a = pd.read_csv('a.csv')\nb = pd.read_csv('b.csv')", "m = pd.merge(a, b, on='Id')",
                  "c = pd.concat([a, m])"]) == {"a", "b", "m", "c"}
    # a header given or dropped, a frame of unknown make, a binding out of sight, a relabelling
    assert _text(["df = pd.read_csv('f.csv', header=None)"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv', names=[0, 1])"]) == frozenset()
    assert _text(["raw = make()", "X = pd.get_dummies(raw)"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "def f():\n    global df\n    df = make()"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "df.columns = [0, 1]"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "df.loc[:, 5] = 1"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "v = df.columns.values"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "getattr(df, 'insert')(0, 1, 2)"]) == frozenset()
    assert _text(["df = pd.read_csv('f.csv')", "df['new'] = 1\ndf.loc[df.a > 0, 'b'] = 2"]) == {"df"}
