"""A notebook that rebinds the interpreter functions a check calls itself (`time.monotonic`,
`signal.setitimer`, `signal.signal`, `gc.disable`, `sys.settrace`, ...): the check never calls the
notebook's functions, its clock and hard stop still work, and its claims stand; rebound before
CRANE-LLM was loaded, no check runs at all. Each case runs in a fresh interpreter, as a kernel
would (the rebinding is process-wide)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = str(Path(__file__).resolve().parents[2])

_REBIND = r"""
import _signal, gc, signal, sys, time
calls = []
def loud(name, real):
    def f(*args, **kwargs):
        calls.append(name)
        return real(*args, **kwargs) if real is not None else None
    return f
for module, names in ((time, ("monotonic", "perf_counter")), (signal, ("signal", "setitimer", "getitimer")),
                      (_signal, ("signal", "setitimer", "getitimer")), (gc, ("disable", "enable", "isenabled")),
                      (sys, ("gettrace", "settrace", "getprofile", "setprofile"))):
    for name in names:
        setattr(module, name, loud(module.__name__ + "." + name, getattr(module, name)))
"""

_CHECK = r"""
import builtins, json
from crane_llm.checks import run_checks
from crane_llm.deadline import OutOfTime, hard_stop
from crane_llm.kernel.entry import gather
ns = {"__name__": "__main__", "__builtins__": builtins, "rows": [1, 2]}
outcome = run_checks("x = 1\nundefined_name", ns)
def ask(source):
    return gather({"protocol": 1, "source": source, "cellId": None, "useLlm": True, "includeRuntimeInfo": True,
                   "budgetSeconds": 2}, ns)
crashed, asked = ask("rows[5]"), ask("rows.append(4)")
stopped = False
if HARD_STOP:  # (a busy loop the alarm must end)
    try:
        with hard_stop(0.2):
            while True:
                pass
    except OutOfTime:
        stopped = True
print(json.dumps({"calls": calls, "claim": outcome.crash and outcome.crash.exception,
                  "stop": outcome.stopped_at and outcome.stopped_at.reason, "hard_stop": stopped,
                  "reply_claim": (crashed["checks"]["crash"] or {}).get("exception"),
                  "summaries": [v["summary"]["kind"] for v in asked["runtimeInfo"]["variables"]]}))
"""


def _run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": PYTHON_DIR, "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_rebound_after_loading_the_check_calls_only_the_interpreters_own():
    result = _run("import crane_llm.kernel.entry\nHARD_STOP = True\n" + _REBIND + _CHECK)
    assert result["calls"] == [], result
    assert result["claim"] == "NameError" and result["hard_stop"], result
    assert result["reply_claim"] == "IndexError" and result["summaries"] == ["sequence"], result


def test_rebound_before_loading_no_check_runs():
    result = _run("HARD_STOP = False\n" + _REBIND + _CHECK)
    assert result["claim"] is None and "were replaced" in result["stop"], result
    assert result["reply_claim"] is None and result["summaries"] == ["unavailable"], result
    assert result["calls"] == [], result


def test_the_claims_are_real():
    """The twin: in a plain interpreter the same cells get the same claims, and really raise them."""
    result = _run("HARD_STOP = True\n" + _REBIND.replace("setattr(module, name", "(module, name") + _CHECK)
    assert result["claim"] == "NameError" and result["reply_claim"] == "IndexError", result
    assert result["hard_stop"] and result["summaries"] == ["sequence"], result
    for cell, error in (("x = 1\nundefined_name", NameError), ("rows = [1, 2]\nrows[5]", IndexError)):
        try:
            exec(cell, {})
        except error:
            continue
        raise AssertionError(cell)
