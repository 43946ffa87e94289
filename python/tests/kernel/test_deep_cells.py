"""Cells whose reading costs more than their length says (fifth red team, 3 Dec): a deep expression
compiled under a recursion limit the notebook raised (CPython's compiler takes its C-stack guard
from it: the kernel died), and a long cell with many magic lines (IPython re-reads the whole cell
for each: 8.6 s)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry

PYTHON_DIR = Path(__file__).resolve().parents[2]

DEEP = """
import sys
sys.path.insert(0, {python!r})
from IPython.core.interactiveshell import InteractiveShell
sh = InteractiveShell.instance()
sh.run_cell("import sys; sys.setrecursionlimit(10**6); a = 1")
from crane_llm.kernel import entry
for cell in ["sys.setrecursionlimit(3000)\\nx = " + "+".join(["a"] * 45000), "x = " + ".".join(["a"] + ["b"] * 40000)]:
    reply = entry.gather({{"protocol": 1, "source": cell, "useLlm": True, "includeRuntimeInfo": True}}, sh.user_ns, sh)
    print(reply["checks"]["stoppedAt"]["reason"])
print(sys.getrecursionlimit())
"""


def test_a_deep_cell_under_a_raised_recursion_limit_is_a_clean_stop():
    proc = subprocess.run([sys.executable, "-c", DEEP.format(python=str(PYTHON_DIR))], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]  # (it was -11: a segmentation fault)
    lines = proc.stdout.splitlines()
    # (3.11 compiles the whole cell first; 3.9 stops at the call on line 1, or at the deep statement)
    assert lines[0] in ("the cell could not be compiled (RecursionError)",
                        "line 1: a call to `sys.setrecursionlimit`, whose effect the checker does not model"), lines
    assert "could not be compiled (RecursionError)" in lines[1], lines
    assert lines[2] == str(10 ** 6)  # (the notebook's own limit is back)


def test_a_long_cell_with_many_magic_lines_is_not_transformed():
    sh = InteractiveShell.instance()
    sh.user_ns["l"] = [1, 2]
    cell = "!a\n" * 39 + "x = (1,2,3,4,5,6,7,8,9)\n" * 4000 + "l[5]"
    started = time.perf_counter()
    reply = entry.gather({"protocol": 1, "source": cell, "useLlm": True, "includeRuntimeInfo": True}, sh.user_ns, sh)
    assert time.perf_counter() - started < 1.0
    assert "IPython's transformer would take too long" in reply["checks"]["stoppedAt"]["reason"]
    short = "l[5]\n" + "!echo hi\n" * 3  # (the twin: a few shell lines in a short cell are transformed and read)
    reply = entry.gather({"protocol": 1, "source": short, "useLlm": True, "includeRuntimeInfo": True}, sh.user_ns, sh)
    assert reply["checks"]["crash"]["exception"] == "IndexError"


LOWERED = """
import inspect, sys
sys.path.insert(0, {python!r})
from IPython.core.interactiveshell import InteractiveShell
sh = InteractiveShell.instance()
sh.showtraceback = lambda *a, **k: None  # (showing a RecursionError's traceback overflows too)
sh.run_cell("l = [1, 2]")
from crane_llm.kernel import entry

def run_under(limit):
    sys.setrecursionlimit(limit)
    try:
        r = sh.run_cell("l[5]", store_history=False)
    finally:
        sys.setrecursionlimit(3000)
    return type(r.error_in_exec or r.error_before_exec).__name__

# the highest limit under which IPython's own frames overflow before the cell's line runs
depth = len(inspect.stack())
run_under(3000)  # (what the first run imports and caches is not measured)
limit = depth + 8
while run_under(limit + 1) != "IndexError":  # (a loop: a generator's frame would be one more)
    limit += 1
print("@@", run_under(limit))
for lim in (limit, 1000):
    sys.setrecursionlimit(lim)
    try:
        reply = entry.gather({{"protocol": 1, "source": "l[5]", "useLlm": True, "includeRuntimeInfo": True}}, sh.user_ns, sh)
    finally:
        sys.setrecursionlimit(3000)
    checks = reply["checks"]
    print("@@", (checks["crash"] or {{}}).get("exception"), (checks["stoppedAt"] or {{}}).get("reason", "")[:40])
"""


def test_a_lowered_recursion_limit_is_no_claim_and_the_default_is():
    # The kernel gathers the facts under a limit of its own; the cell runs under the notebook's.
    proc = subprocess.run([sys.executable, "-c", LOWERED.format(python=str(PYTHON_DIR))], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [line[3:] for line in proc.stdout.splitlines() if line.startswith("@@ ")]  # (IPython prints too)
    assert lines[0] == "RecursionError"  # (what the cell really raises under that limit)
    assert lines[1].startswith("None the notebook lowered Python's recursion"), lines
    assert lines[2].startswith("IndexError"), lines
