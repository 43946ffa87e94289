"""Literal lists in the replay: a name the executed cells bind once, to `[<constants>]`, and only
iterate or hand to a builtin that reads it, holds that literal when the facts record a list of its
length (the facts give the length alone). Every case is run for real after the replay's judgement:
each claim is the exception really raised on that line; each twin changes the list in a way the
literal does not show, runs clean, and gets no claim."""

from __future__ import annotations

import pytest

from crane_llm.checks import run_checks_on_facts
from crane_llm.checks.recorded_kernel import read_executed
from exec_runner import CELL_BREAK, run_batch

DF = "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})"
COLS = DF + CELL_BREAK + "cols = ['a', 'zz']" + CELL_BREAK + "for c in cols:\n    print(c)\nn = len(cols)\nprint(sorted(cols))"

CLAIMED = [
    (COLS, "df[cols]", "KeyError", 1),
    (COLS, "x = 1\nfor c in cols:\n    df[c]", "KeyError", 3),
    (COLS, "cols[2]", "IndexError", 1),
    (DF + CELL_BREAK + "pair = ('a', 'b')", "pair[2]", "IndexError", 1),
    (DF + CELL_BREAK + "cols = ['a', 'zz']" + CELL_BREAK + "sub = [c for c in cols if c != 'q']", "df[cols]", "KeyError", 1),
]

# Each leaves `cols == ['a']` (or binds it otherwise) where the literal still says ['a', 'zz']:
# `df[cols]` then runs clean.
CHANGED = [
    "cols.remove('zz')",
    "cols[1] = 'a'\ncols.pop()",
    "del cols[1]",
    "alias = cols\nalias.pop()",
    "def f(x):\n    x.pop()\nf(cols)",
    "cols = ['a']",
    "cols += []\ncols.pop()",
    "[cols.pop() for _ in range(1)]",
    "for c in cols[:]:\n    cols.remove(c) if c == 'zz' else None",
    "def len(x):\n    x.pop()\n    return 1\nlen(cols)",
    "print(cols.pop())",
    "holder = {'k': cols}\nholder['k'].pop()",
    "class A:\n    cols = cols\nA.cols.pop()",
]


def test_a_literal_bound_once_and_only_read_is_its_value():
    results = run_batch([{"setup": s, "cell": c, "replay": True, "replay_executed": True} for s, c, _, _ in CLAIMED])
    for (setup, cell, exception, line), r in zip(CLAIMED, results):
        assert r.get("setup_error") is None, r
        assert r["raised"]["exception"] == exception and r["raised"]["line"] == line, (cell, r)
        claim = r["replay_claim"]
        assert claim is not None and claim["exception"] == exception and claim["line"] == line, (cell, r)


def test_a_list_the_executed_cells_may_have_changed_is_not_the_literal():
    cases = [{"setup": DF + CELL_BREAK + "cols = ['a', 'zz']" + CELL_BREAK + change, "cell": "df[cols]",
              "replay": True, "replay_executed": True} for change in CHANGED]
    for change, r in zip(CHANGED, run_batch(cases)):
        assert r.get("setup_error") is None, (change, r)
        assert r.get("raised") is None, (change, r)
        assert r["replay_claim"] is None, (change, r)


@pytest.mark.parametrize("length,kind", [(3, "list"), (2, "tuple"), (None, "list")])
def test_facts_that_disagree_with_the_literal_leave_it_unknown(length, kind):
    cells = [DF, "cols = ['a', 'zz']"]
    facts = {"cols": {"type": f"<class '{kind}'>", **({"length": length} if length is not None else {})}}
    assert read_executed(cells).literals == {"cols": ["a", "zz"]}
    assert run_checks_on_facts("x = cols[0] + 1", facts, executed=cells).crash is None
    agree = {"cols": {"type": "<class 'list'>", "length": 2}}
    assert run_checks_on_facts("x = cols[0] + 1", agree, executed=cells).crash.exception == "TypeError"


@pytest.mark.parametrize("cells", [
    ["cols = ['a', 'zz']", "exec('cols.pop()')"],  # names bound out of sight: no literal at all
    ["cols = ['a', 'zz'] if True else []"],  # not a literal display
    ["cols = ['a', ['zz']]"],  # an item that is not a plain constant
    ["def f():\n    cols = ['a']\n    return cols", "cols = ['a', 'zz']"],  # a second binding, even local
])
def test_only_plain_literals_bound_once_are_read(cells):
    assert "cols" not in read_executed(cells).literals


def test_the_target_changing_the_list_stops_the_reading():
    facts = {"cols": {"type": "<class 'list'>", "length": 2}}
    o = run_checks_on_facts("cols.pop()\ncols[1]", facts, executed=["cols = ['a', 'zz']"])
    assert o.crash is None
