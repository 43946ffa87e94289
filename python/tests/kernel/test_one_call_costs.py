"""Steps a check would take in one C call that no alarm can cut, made long on purpose (sixth red
team, 3 Dec): hash tables and sorts of equal long texts or of wide ints made to share a hash (a
Series, a column Index, a list given to a builtin), `sum` of tuples, a str subclass in pandas' own
text column (its `__len__` ran), and an executed cell of megabytes parsed again at every check.
Each took 15 s to 95 s; each now takes a fraction of the budget, runs nothing of the notebook's
and leaves its namespace as it was."""

from __future__ import annotations

import time

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry

HOOKED_TEXT = ("import builtins\nclass S(str):\n    def __len__(self):\n        builtins.CRANE_HITS.append('len')\n"
               "        return str.__len__(self)\n    def __hash__(self):\n        builtins.CRANE_HITS.append('hash')\n"
               "        return str.__hash__(self)\n")
WIDE = "P = 2**61 - 1\nbase = 1 << 1_000_000\nwide = [base + k * P for k in range(1000)]\n"  # (one hash for all)
LONG = "a = 'x' * 30_000_000\nb = 'x' * 30_000_000\n"  # (equal, in two objects)

CASES = [
    (HOOKED_TEXT + "s = pd.Series([S('a'), S('b'), S('a')] * 10, dtype='string')", "s.head()"),
    (HOOKED_TEXT + "f = pd.DataFrame({'c': [S('a'), S('b'), S('a')]})", "f.head()"),
    (LONG + "f = pd.DataFrame(np.zeros((1, 1000)), columns=pd.Index([a, b] * 500, dtype=object))", "f['y'] = 1"),
    (LONG + "s = pd.Series([np.str_(a), np.str_(b)] * 1000, dtype=object)", "s.head()"),
    ("l = [(0,)] * 100_000", "y = sum(l, ())\nundefined_zz"),
    (WIDE + "s = pd.Series(wide, dtype=object)", "s.head()"),
    (WIDE + "f = pd.DataFrame(np.zeros((1, 1000)), columns=pd.Index(wide, dtype=object))", "f[5]"),
    ("import random\nV = [(1 << 1_000_000) + k for k in range(16) for _copy in range(2)]\n"
     "s = pd.Series([random.choice(V) for _ in range(200_000)], dtype=object)", "s.head()"),
    ("import random\nbase = 1 << 65535\nl = [base + random.getrandbits(20) for _ in range(100_000)]",
     "y = sorted(l)\nundefined_zz"),
]


@pytest.fixture
def shell():
    import builtins

    sh = InteractiveShell.instance()
    builtins.CRANE_HITS = []
    yield sh
    del builtins.CRANE_HITS


def _check(shell, cell):
    started = time.perf_counter()
    reply = entry.gather({"protocol": 1, "source": cell, "useLlm": True, "includeRuntimeInfo": True},
                         shell.user_ns, shell)
    return reply, time.perf_counter() - started


@pytest.mark.parametrize("setup, cell", CASES)
def test_no_step_is_one_long_call(shell, setup, cell):
    import builtins

    shell.run_cell("import numpy as np\nimport pandas as pd\n" + setup)
    names = set(shell.user_ns)
    try:
        reply, took = _check(shell, cell)
        after = set(shell.user_ns)
    finally:
        shell.run_cell("for _n in ('a', 'b', 'f', 's', 'l', 'wide', 'V'):\n    globals().pop(_n, None)")
    assert took < 1.5 and not reply["budget"]["ranOut"], (took, reply["budget"])
    assert builtins.CRANE_HITS == [] and after == names


def test_an_executed_cell_of_megabytes_is_not_parsed_at_each_check(shell):
    from crane_llm.lineage import recorder

    log = recorder.install(shell)
    shell.run_cell("x = 1")
    shell.run_cell("data = [" + "1," * 2_000_000 + "]")  # (4 MB: parsing it took 2.3 s at every check)
    try:
        for _ in range(2):
            reply, took = _check(shell, "x + 1")
            assert took < 1.0 and not reply["budget"]["ranOut"], (took, reply["budget"])
    finally:
        shell.run_cell("del data")
    from crane_llm.lineage.origin import what

    [unread] = [e for run in log.to_json()["runs"] for e in run["effects"] if e["how"] == "unread"]
    assert unread["name"] == "*" and unread["status"] == "maybe"  # (it may bind anything: slices keep it)
    assert what(unread, "data") == "is too long to read (4000009 characters), so it may assign any variable"
