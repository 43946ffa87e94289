"""Plain numbers and texts the checker types without running, or runs only when that is cheap
(fifth red team, 7 Dec): a shift by a count it does not know (negative: ValueError, huge:
OverflowError), a power or shift of a huge int by a float or a negative number (`N ** 0.5`,
`N << -1` raise), `10 ** -100` (a float, not an int), frames printed with an int past the digit
limit among their labels, `256 in b'abc'` (ValueError), an index too long to print in a claim's
message, `round(15, -10 ** 7)` and `'%*d' % (10 ** 9, 7)` (one C call the time budget cannot cut),
and `hash()` of a NaN (its address, since Python 3.10). Each cell really runs after the check, live
and by the replay: no claim may stand but as it raised, and no check errs. Each plain twin keeps
its claim."""

from __future__ import annotations

import time

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim_either

BASE = "d = {}\ncol = 'price'\nscores = {'acc': 0.9}\n"
BIG = BASE + "big = 10 ** 5000\nN = 2 ** 100000\n"

UNRUN = [
    (BASE, "key = f'{col}_bucket'\nmask = 1\nmask <<= 8 - len(key)\nprint(scores['f1'])"),
    (BASE, "tag = f'{col}'\nv = 2 >> (2 - len(tag))\nprint(scores['f1'])"),
    (BASE, "tag = f'{col}'\nv = 1 << len(tag) * 10 ** 20\nprint(scores['f1'])"),
    (BASE, "lr = 10 ** -100\nbits = lr >> 2\nprint(scores['f1'])"),
    (BIG, "v = big >> -1\nd['k']"),
    (BIG, "approx = N ** 0.5\nprint(scores['f1'])"),
    (BIG, "r = N ** -1\nprint(scores['f1'])"),
    (BIG, "r = N << -1\nprint(scores['f1'])"),
    (BIG, "r = N << 2.0\nprint(scores['f1'])"),
    (BIG + "import pandas as pd\ndf = pd.DataFrame({'a': [1]}, index=pd.Index([big], dtype=object))", "print(df)\nd['k']"),
    (BIG + "import pandas as pd\ns = pd.Series([1, 2], name=big)", "x = f'{s}'\nd['k']"),
    (BASE, "v = 256 in b'abc'\nd['k']"),
    (BIG + "lst = [1, 2]", "v = lst[big]"),
    (BIG, "x = '%s' % (big,)\nd['k']"),
]
TWINS = [
    (BASE, "mask = 1\nmask <<= 3\nprint(scores['f1'])", "KeyError", 3),
    (BASE, "lr = 10 ** -100\nbits = lr >> 2", "TypeError", 2),
    (BASE + "lst = [1, 2]", "v = lst[5]", "IndexError", 1),
    (BASE, "v = 25 in b'abc'\nd['k']", "KeyError", 2),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c in UNRUN] + \
            [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c, _, _ in TWINS]
    return run_batch(cases)


@pytest.mark.parametrize("i", range(len(UNRUN)), ids=[repr(c[1])[:40] for c in UNRUN])
def test_no_claim_past_what_the_checker_does_not_run(results, i):
    assert_no_false_claim_either(results[i], UNRUN[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(UNRUN) + i], exception, line)


def test_calls_whose_cost_or_answer_the_checker_cannot_bound_stop_at_once():
    from crane_llm.checks import run_checks

    for cell in ("x = round(15, -10 ** 7)\nd['k']", "x = '%*d' % (10 ** 9, 7)\nd['k']",
                 "x = [0, 1, 2, 3, 4, 5, 6][hash(float('nan')) % 8]"):
        start = time.perf_counter()
        outcome = run_checks(cell, {"d": {}})
        assert outcome.crash is None and outcome.stopped_at is not None, (cell, outcome)
        assert time.perf_counter() - start < 1.0, cell
