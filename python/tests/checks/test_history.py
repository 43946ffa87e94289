"""The replay reads what the executed cells did: a cell that dropped a row, run again, raises KeyError.

Each case runs for real (exec_runner): the setup is the kernel's executed cells (CELL_BREAK starts
the next one), the replay judges the target from facts recorded from the same values plus those
cells, then the target really runs. A claim must match what it raised; a twin runs clean with no
claim; the cells the rule must leave alone (the drop not alone in its cell, a later cell, a label
of another type) get no claim whatever they do.
"""

from __future__ import annotations

import pytest

from crane_llm.checks.recorded_kernel import read_executed
from exec_runner import CELL_BREAK, run_batch

FRAME = "import pandas as pd\ndf = pd.DataFrame({{'a': [1, 2, 3, 4]}}{index})"

# (index of the frame, the last executed cell, crash target, safe twin)
PAIRS = [
    ("", "df.drop([1], inplace=True)", "df.drop([1], inplace=True)", "df.drop([2], inplace=True)"),
    ("", "df.drop(1, inplace=True)", "df.drop([1])", "df.drop([0])"),
    ("", "df.drop([2], axis=0, inplace=True)", "df.drop(index=[2])", "df.drop(index=[3])"),
    ("", "df.drop(index=[3], inplace = True);", "df.drop([3], axis='index')", "df.drop([1], axis='index')"),
    (", index=['w', 'x', 'y', 'z']", "df.drop(['x'], inplace=True)", "df.drop('x', inplace=True)",
     "df.drop('y', inplace=True)"),
    # every row with the label goes, duplicates included
    (", index=[5, 5, 6, 7]", "df.drop([5], inplace=True)", "df.drop([5], inplace=True)", "df.drop([6], inplace=True)"),
    (", index=pd.MultiIndex.from_tuples([(1, 'a'), (1, 'b'), (2, 'a'), (3, 'c')])", "df.drop([1], inplace=True)",
     "df.drop([1], inplace=True)", "df.drop([2], inplace=True)"),
    (", index=pd.CategoricalIndex(['u', 'v', 'v', 'w'])", "df.drop(['v'], inplace=True)",
     "df.drop(['v'], inplace=True)", "df.drop(['u'], inplace=True)"),
]

# Executed cells that prove nothing about the target's label: no claim, whether it raises or not.
NO_PROOF = [
    ("x = 0\ndf.drop([1], inplace=True)", "df.drop([1], inplace=True)"),  # not alone: might not have run
    ("df.drop([1], inplace=True)" + CELL_BREAK + "df = pd.DataFrame({'a': [1, 2]})", "df.drop([1], inplace=True)"),
    ("df.drop([1])", "df.drop([1], inplace=True)"),  # not in place: df kept the row
    ("df.drop([1], inplace=True)", "df.drop([1.0], inplace=True)"),  # another label type
    ("df.drop([1], inplace=True)", "df.drop([1, 2], inplace=True)"),  # 1 is gone, but 2 is not known
    ("df.drop([1, 2], inplace=True)", "df.drop([1], inplace=True)"),  # two labels: not followed
    ("df.drop(columns=['a'], inplace=True)", "df.drop(['a'], inplace=True)"),
    ("other = df\nother.drop([1], inplace=True)", "df.drop([1], inplace=True)"),
]


def _case(index: str, last: str, cell: str):
    return {"setup": FRAME.format(index=index) + CELL_BREAK + last, "cell": cell, "replay": True,
            "replay_executed": True}


@pytest.fixture(scope="module")
def results():
    cases = [_case(i, last, crash) for i, last, crash, _ in PAIRS] + [_case(i, last, safe) for i, last, _, safe in PAIRS]
    cases += [_case("", last, cell) for last, cell in NO_PROOF]
    out = run_batch(cases)
    n = len(PAIRS)
    return out[:n], out[n:2 * n], out[2 * n:]


def test_rerun_drop_claims_the_keyerror_it_raises(results):
    for pair, r in zip(PAIRS, results[0]):
        assert r["setup_error"] is None and r["checker_error"] is None, (pair, r)
        assert r["raised"] is not None and r["raised"]["exception"] == "KeyError", (pair, r)
        claim = r["replay_claim"]
        assert claim is not None, (pair, r["replay_stop"])
        assert claim["exception"] == "KeyError" and claim["line"] == r["raised"]["line"], (pair, claim)
        assert "dropped it already" in claim["message"] and claim["rule"] == "missing-row"


def test_twin_of_a_present_label_runs_clean_without_claim(results):
    for pair, r in zip(PAIRS, results[1]):
        assert r["setup_error"] is None and r["checker_error"] is None, (pair, r)
        assert r["raised"] is None, (pair, r)
        assert r["replay_claim"] is None and r["claim"] is None, (pair, r)


def test_executed_cells_that_prove_nothing_give_no_claim(results):
    for case, r in zip(NO_PROOF, results[2]):
        assert r["setup_error"] is None and r["checker_error"] is None, (case, r)
        assert r["replay_claim"] is None, (case, r)


@pytest.mark.parametrize("cell,expected", [
    ("df.drop([10472],inplace = True);", ("df", 10472)),
    ("df.drop('a', inplace=True, axis='index')", ("df", "a")),
    ("df.drop([True], inplace=True)", None),
    ("df.drop([1], inplace=True, axis=1)", None),
    ("df.drop([1], inplace=False)", None),
    ("df.drop([1], inplace=flag)", None),
    ("df.drop(index=[1], axis=0, inplace=True)", None),
    ("df.drop([1], errors='ignore', inplace=True)", None),
    ("df.drop(*[1], inplace=True)", None),
    ("df.drop([1], inplace=True, **kw)", None),
    ("df.x.drop([1], inplace=True)", None),
    ("y = df.drop([1], inplace=True)", None),
])
def test_only_a_plain_single_label_row_drop_is_read(cell, expected):
    assert read_executed(["import pandas as pd", cell]).dropped_row == expected
    # a cell that runs nothing (comments only) after it changes nothing; any statement does
    assert read_executed(["import pandas as pd", cell, "# a note"]).dropped_row == expected
    assert read_executed(["import pandas as pd", cell, "z = 1"]).dropped_row is None
