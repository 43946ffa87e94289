"""Three things the replay reads as the live checker does, each run for real after the check:

- `df.iloc[...]` past the ends of a recorded frame (a recording names the class exactly, so the
  positions are pandas' own, in every version of it);
- `X.T` of a recorded array: the axes reversed, so `np.dot(w, X.T)` and `X.T @ W` are judged;
- a frame read from CSV that later cells only looked at (`df`, `df.head()`,
  `df.labels.value_counts()`, `print(df.shape)`): its values are still the parser's.

A crash cell's replay claim is what it raised, on its line; its twin runs clean, unclaimed."""

from __future__ import annotations

import pytest

from exec_runner import CELL_BREAK, run_batch
from harness import assert_no_false_claim

NP = "import numpy as np\nimport pandas as pd\n"
FRAME = NP + "df = pd.DataFrame({'a': [1, 2, 3], 'b': [4.0, 5.0, 6.0]})"
ARRAYS = NP + "X = np.zeros((10, 4))\nw = np.zeros((1, 4))\nW = np.ones((10, 2))"
CSV = ("import io\nimport pandas as pd\n" + CELL_BREAK +
       "df = pd.read_csv(io.StringIO('labels,n\\nscab,1\\nrust,2\\nscab,3\\n'))")

# (setup, crash cell, safe twin, exception)
PAIRS = [
    (FRAME, "r = df.iloc[3]", "r = df.iloc[2]", "IndexError"),
    (FRAME, "r = df.iloc[-4]", "r = df.iloc[-3]", "IndexError"),
    (FRAME, "r = df.iloc[:, 2]", "r = df.iloc[:, 1]", "IndexError"),
    (FRAME, "r = df.iloc[0, -3]", "r = df.iloc[0, -2]", "IndexError"),
    (FRAME, "r = df.iloc[1]\n[][0]", "r = df.iloc[1]\n[0][0]", "IndexError"),
    (ARRAYS, "z = np.dot(w, X)", "z = np.dot(w, X.T)", "ValueError"),
    (ARRAYS, "z = X.T @ W[:4]", "z = X.T @ W", "ValueError"),
    (ARRAYS, "z = np.dot(X.T, w)", "z = np.dot(X.T, W)", "ValueError"),
    (ARRAYS, "z = np.dot(w, X.T)\n[][0]", "z = np.dot(w, X.T)\n[0][0]", "IndexError"),
    (ARRAYS, "z = (X.T @ W).T\nq = z @ np.ones((10, 1))", "z = (X.T @ W).T\nq = z @ np.ones((4, 1))", "ValueError"),
]

# Frames read from CSV, then looked at by later cells: `.value_counts()` of a column is gone on past.
LOOKED = [
    "df",
    "df.head()",
    "df.head(2)\n" + CELL_BREAK + "df.tail()",
    "df.labels.value_counts()",
    "df['labels'].value_counts(normalize=True)",
    "print(df.shape)",
    "len(df)\n" + CELL_BREAK + "df.describe()\n" + CELL_BREAK + "df.isnull().sum()",
    "df.info()",
    "df.iloc[:2]",
]
COUNTED = "counts = df['labels'].value_counts()\n[][1]"

# Later cells that change the frame, or may reach it without its name: its values need not be the
# parser's any more, so the replay does not go past the count.
TOUCHED = [
    "df.fillna(0, inplace=True)",
    "df.labels.fillna('x', inplace=True)",
    "df.head()\ndf['labels'] = df['labels'].str.upper()",
    "df.pop('n')",
    "df.drop(columns=['n'], inplace=True)",
    "df.head()" + CELL_BREAK + "Out = {}",
    "x = df",
    "print(df.shape, df)",
    "f = print\nf(df.shape)",
    "df.labels.value_counts(dropna=lab)",
    "df[key].value_counts()",
    "df.sample(2).sort_values('n', inplace=True)",
    "df.update(df)",
    "df.insert(0, 'z', 1)",
]


def _replay(setup, cell):
    return {"setup": setup, "cell": cell, "replay": True, "replay_executed": True, "teardown": ""}


def _same(claim, raised):
    return claim is not None and raised is not None and \
        (claim["exception"], claim["line"]) == (raised["exception"], raised["line"])


def test_replay_claims_positions_and_transposes_as_they_raise():
    cases = [_replay(setup, cell) for setup, crash, safe, _ in PAIRS for cell in (crash, safe)]
    results = run_batch(cases)
    for i, (setup, crash, safe, exception) in enumerate(PAIRS):
        r_crash, r_safe = results[2 * i], results[2 * i + 1]
        assert r_crash["setup_error"] is None and r_crash["checker_error"] is None, r_crash
        assert r_crash["raised"] is not None and r_crash["raised"]["exception"] == exception, (crash, r_crash)
        assert _same(r_crash["replay_claim"], r_crash["raised"]), (crash, r_crash)
        assert r_safe["raised"] is None and r_safe["replay_claim"] is None and r_safe["claim"] is None, (safe, r_safe)


def test_a_recorded_frames_column_at_a_position_has_no_known_dtype():
    # The recording lists the columns sorted: position 0 need not be the first sorted name.
    setup = NP + "df = pd.DataFrame({'z': ['x', 'y'], 'a': [1, 2]})"
    [r] = run_batch([_replay(setup, "s = df.iloc[:, 1]\ns.str.upper()")])
    assert r["raised"] is not None and r["raised"]["exception"] == "AttributeError", r
    assert r["replay_claim"] is None, r
    [r] = run_batch([_replay(setup, "s = df.iloc[:, 0]\ns.str.upper()")])
    assert r["raised"] is None and r["replay_claim"] is None, r


@pytest.mark.parametrize("looks", LOOKED)
def test_a_csv_frame_only_looked_at_is_still_counted(looks):
    [r] = run_batch([_replay(CSV + CELL_BREAK + looks, COUNTED)])
    assert r["setup_error"] is None and r["checker_error"] is None, r
    assert _same(r["replay_claim"], r["raised"]) and r["raised"]["line"] == 2, r


@pytest.mark.parametrize("touch", TOUCHED)
def test_a_csv_frame_touched_or_reachable_is_not(touch):
    setup = CSV + CELL_BREAK + "key = 'labels'\nlab = False" + CELL_BREAK + touch
    [r] = run_batch([_replay(setup, COUNTED)])
    assert_no_false_claim(r, COUNTED)
    assert r.get("replay_claim") is None, (touch, r)


def test_a_csv_frame_shown_then_changed_through_the_shells_name_for_it_is_not():
    # Run through the shell: showing `df` makes `_` the frame itself, and a later cell fills a column
    # with objects of its own, whose hashing is the notebook's code: the replay must not go past the
    # count (without the guard on the shell's names it did, which this test caught).
    shown = ("df" + CELL_BREAK + "class Key:\n    def __hash__(self):\n        raise ValueError('hashed')\n"
             "_['labels'] = [Key(), Key(), Key()]")
    [r] = run_batch([dict(_replay(CSV, COUNTED), shell=shown)])
    assert_no_false_claim(r, COUNTED)
    assert r.get("replay_claim") is None, r
