"""IPython's input history changes as a cell starts: run_cell with store_history (what a kernel does
for every cell) appends the cell to `In` / `_ih`, shifts `_i`, `_ii`, `_iii` and binds `_i<N>` before
the first statement runs. The check reads the namespace before that, so nothing is claimed from them.
exec_runner runs cells without storing history, so this test drives a real shell that does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
from IPython.core.interactiveshell import InteractiveShell
from crane_llm.checks import run_checks
shell = InteractiveShell.instance()
shell.showtraceback = lambda *a, **k: None
shell.run_cell("x = 1", store_history=True)
out = []
for template in ["In[{n}]", "_ih[{n}].upper()", "_i{n}.upper()", "len(In[{n}])\nundefined_z", "undefined_z"]:
    cell = template.format(n=shell.execution_count)
    outcome = run_checks(cell, shell.user_ns)
    r = shell.run_cell(cell, store_history=True)
    exc = r.error_before_exec or r.error_in_exec
    out.append({"cell": cell, "claim": outcome.crash.to_json() if outcome.crash else None,
                "raised": type(exc).__name__ if exc else None})
print(json.dumps(out))
'''


def test_no_claim_from_the_input_history_the_cell_itself_extends():
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(PYTHON_DIR)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    for r in results:
        claim = r["claim"]
        # A claim must be what the cell raised, at least by type (the lines are one-line cells here).
        assert claim is None or claim["exception"] == r["raised"], r
    # the twin: a plain undefined name is still claimed
    assert results[-1]["claim"] is not None and results[-1]["raised"] == "NameError"
    # before the fix, `In[N]` was claimed IndexError in cell N, which runs clean
    assert results[0]["raised"] is None and results[0]["claim"] is None, results[0]
