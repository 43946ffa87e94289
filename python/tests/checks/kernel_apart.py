"""A stand-in for the notebook's kernel in a process of its own, as in JunoBench: the replay runs in
the test's process, whose libraries are not the kernel's (a library an executed cell patched there
is unpatched here).

`record_and_run(executed, target, pause)` runs the executed cells through IPython's `run_cell` (a
cell may raise, as in a notebook), records the facts of the namespace as the paper's extractor
would, waits `pause` seconds (the user reading the verdict), then runs the target. Returns the
facts and what the target raised: {"facts", "executed_errors", "raised": {"exception", "line"} | None}.
`replay` checks a target on such facts; `claims_only_what_raises` and `claims_what_raises` are the
two assertions every replay corpus makes: a case's claim, if any, is what the target raised; a
twin's claim is there and is what it raised.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent


def replay(executed: List[str], facts: Dict[str, Any], target: str) -> Any:
    from crane_llm.checks import run_checks_on_facts
    return run_checks_on_facts(target, facts, names_complete=True, executed=executed)


def claims_only_what_raises(executed: List[str], target: str, pause: float = 0.0) -> None:
    kernel = record_and_run(executed, target, pause)
    outcome = replay(executed, kernel["facts"], target)
    raised = kernel["raised"]
    if outcome.crash is not None:
        assert raised is not None and (outcome.crash.exception, outcome.crash.line) == \
            (raised["exception"], raised["line"]), (executed, target, outcome, kernel)


def claims_what_raises(executed: List[str], target: str, exception: str, line: int) -> None:
    kernel = record_and_run(executed, target)
    assert kernel["raised"] == {"exception": exception, "line": line}, kernel
    outcome = replay(executed, kernel["facts"], target)
    assert outcome.crash is not None and (outcome.crash.exception, outcome.crash.line) == (exception, line), outcome


def record_and_run(executed: List[str], target: str, pause: float = 0.0, timeout: float = 120,
                   environ: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """`environ`: the kernel's environment beside this one's (`KERAS_BACKEND`, as a config file
    would set it: nothing a cell shows)."""
    with tempfile.TemporaryDirectory() as tmp:
        spec, out = Path(tmp) / "spec.pickle", Path(tmp) / "out.pickle"
        spec.write_bytes(pickle.dumps({"executed": executed, "target": target, "pause": pause}))
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(spec), str(out)], cwd=tmp,
                              capture_output=True, text=True, timeout=timeout, env={**os.environ, **(environ or {})})
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"the kernel stand-in failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return pickle.loads(out.read_bytes())


def _cell_line(exc: BaseException) -> Any:
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<ipython-input-"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _main(spec_path: str, out_path: str) -> None:
    import time
    import warnings

    sys.path.insert(0, str(HERE))
    warnings.simplefilter("ignore")
    from IPython.core.interactiveshell import InteractiveShell
    from paper_facts import record_namespace

    spec = pickle.loads(Path(spec_path).read_bytes())
    # As ipykernel starts one: the notebook's folder first on the import path, and a cell's error
    # shown (which sets `sys.last_value` and the like; the output goes to a pipe nobody reads).
    sys.path.insert(0, "")
    shell = InteractiveShell.instance()
    pristine = set(shell.user_ns)
    errors = []
    for cell in spec["executed"]:
        r = shell.run_cell(cell, store_history=True)
        e = r.error_in_exec or r.error_before_exec
        errors.append(type(e).__name__ if e else None)
    facts = record_namespace({k: v for k, v in shell.user_ns.items() if k not in pristine})
    time.sleep(spec["pause"])
    r = shell.run_cell(spec["target"], store_history=True)
    exc = r.error_in_exec or r.error_before_exec
    raised = {"exception": type(exc).__name__, "line": _cell_line(exc)} if exc is not None else None
    Path(out_path).write_bytes(pickle.dumps({"facts": facts, "executed_errors": errors, "raised": raised}))


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2])
