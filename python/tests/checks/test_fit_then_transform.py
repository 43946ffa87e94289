"""A scaler fitted in the target cell on integers or bools, then given another number of columns
(issue 13, the shape of JunoBench's sklearn_3: train and test sets of different widths). The fit
cannot fail on such values, so the live reading goes on past it. The replay does not: the recording
lists a wide frame's dtypes without its columns, and whether their labels are all text and
distinct (or scikit-learn raises TypeError for names of mixed types, or narwhals' DuplicateError
for repeated ones, first) the executed cells cannot show soundly: pandas hands out the labels' own
writeable array, which any call may write into (seventh and eighth red teams, 7 Dec). Each cell
really runs after the check."""

from __future__ import annotations

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch


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
        # (seventh red team, 7 Dec) labels changed by a bare `setitem`, a `.loc` store of a repeated
        # name, columns sampled with replacement, and writes into the labels' own NumPy array
        dict(setup=h + B + "from operator import setitem\nsetitem(train_df, 0, 1)", cell=CELL),  # 13
        dict(setup=h + B + "train_df.loc[:, ['f1', 'f1']] = 0", cell=CELL),  # 14
        dict(setup=h + B + "train_df = train_df.sample(frac=1.0, axis=1, replace=True, random_state=0)",
             cell=CELL),  # 15
        dict(setup=h + B + "import numpy as np\nnp.asarray(train_df.dtypes.index).put(0, 0)", cell=CELL),  # 16
        dict(setup=h + B + "import numpy as np\ncols = train_df.columns.copy()\nnp.asarray(cols).fill('f0')",
             cell=CELL),  # 17
        dict(setup=h + B + "import numpy as np\nlabels = np.asarray(train_df.sum().index)\nlabels *= 0",
             cell=CELL),  # 18
        dict(setup=h + B + "import numpy as np\nnp.multiply(np.asarray(train_df.iloc[0].index), 0, "
                           "np.asarray(train_df.iloc[0].index))", cell=CELL),  # 19
        dict(setup=h + B + "import numpy as np\nnp.asarray(train_df.T.index).flat = 'same'", cell=CELL),  # 20
    ]
    return run_batch([dict(c, replay=True, replay_executed=True) for c in cases])


def _claims(r):
    return [(c["exception"], c["line"]) for c in (r["claim"], r["replay_claim"]) if c]


def test_the_transform_with_another_width_is_claimed_live_and_not_in_the_replay(results):
    for r in (results[0], results[2]):
        assert r["setup_error"] is None and r["checker_error"] is None, r
        assert (r["raised"]["exception"], r["raised"]["line"]) == ("ValueError", 3), r["raised"]
        # (the replay sees a wide frame by its dtypes alone: whether its labels are all text and
        # distinct, the executed cells cannot show soundly; seventh and eighth red teams, 7 Dec)
        assert (r["claim"]["exception"], r["claim"]["line"]) == ("ValueError", 3), r["claim"]
        assert r["replay_claim"] is None and r["replay_stop"] is not None, r


def test_the_same_width_runs_clean_without_a_claim(results):
    r = results[1]
    assert r["raised"] is None and r["claim"] is None and r["replay_claim"] is None, r


def test_labels_an_executed_cell_may_have_made_other_than_text_leave_no_false_claim(results):
    for r in results[3:10]:
        assert r["setup_error"] is None and r["checker_error"] is None, r
        assert r["raised"] is not None and r["raised"]["exception"] == "TypeError", r["raised"]
        assert _claims(r) == [], (r["claim"], r["replay_claim"])


def test_repeated_names_and_sparse_columns_get_no_false_claim(results):
    for r in results[10:13]:
        assert r["setup_error"] is None and r["checker_error"] is None, r
        for claim in (r["claim"], r["replay_claim"]):
            assert claim is None or (r["raised"] is not None and (claim["exception"], claim["line"]) ==
                                     (r["raised"]["exception"], r["raised"]["line"])), (claim, r["raised"])


def test_labels_written_by_ways_the_parser_sees_only_as_calls_leave_no_claim(results):
    for r in results[13:]:
        assert r["setup_error"] is None and r["checker_error"] is None, r
        # (scikit-learn 1.9's fit itself fails, on names of mixed types, TypeError, or repeated ones,
        # DuplicateError; an older one may take them and fail at the transform)
        assert r["raised"] is not None, r
        for claim in (r["claim"], r["replay_claim"]):
            assert claim is None or (claim["exception"], claim["line"]) == \
                (r["raised"]["exception"], r["raised"]["line"]), (claim, r["raised"])
