"""Ground truth for the checker: runs cells for real, in a subprocess, and records what happened.

Each case is setup code plus a target cell. In one subprocess per batch, for every case: the
namespace of an IPython shell is reset, the setup runs in it, the checker reads the target cell
against that live namespace (which must not change), and then the target cell really runs there.
The result records the checker's claim and the exception the cell raised (type and cell line).

Used by the pytest suite and by bench/checks (import `run_batch`, or run this file with a JSON
file of cases and an output path).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

PYTHON_DIR = Path(__file__).resolve().parents[2]


def run_batch(cases: List[Dict[str, str]], timeout: float = 600, python: str = sys.executable) -> List[Dict[str, Any]]:
    """Run `cases` ([{setup, cell}, ...]) in one fresh subprocess; one result dict per case."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "cases.json"
        out = Path(tmp) / "results.json"
        src.write_text(json.dumps(cases))
        env = dict(os.environ, CRANE_LLM_CHECKS_DEBUG="1", TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0")
        proc = subprocess.run([python, str(Path(__file__).resolve()), str(src), str(out)], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"runner failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
        return json.loads(out.read_text())


# ---- inside the subprocess ------------------------------------------------------------------

def _fingerprint(ns: Dict[str, Any]) -> Dict[str, Any]:
    """A value-level picture of the namespace, to prove the checker changed nothing."""
    import pickle

    out = {}
    for k, v in ns.items():
        if k.startswith("_") or k in ("In", "Out", "exit", "quit", "get_ipython"):
            continue
        try:
            out[k] = (id(v), pickle.dumps(v))
        except Exception:
            out[k] = (id(v), None)
    return out


def _raised_line(exc: BaseException) -> Any:
    if isinstance(exc, SyntaxError):
        return exc.lineno
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<cell>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _setup(code: str, ns: Dict[str, Any], cache: Dict[str, Any]) -> None:
    """Run the setup, or restore a fresh copy of what the same setup made before.

    The picklable values are pickled together (so aliases stay aliases); modules, functions and
    classes are shared by reference, as a re-run of the setup would share them too.
    """
    import pickle

    if code in cache:
        blob, refs = cache[code]
        ns.update(refs)
        ns.update(pickle.loads(blob))
        return
    before = set(ns)
    exec(compile(code, "<setup>", "exec"), ns)
    data, refs = {}, {}
    for k in set(ns) - before:
        if _mutable(ns[k]):
            data[k] = ns[k]
        else:
            refs[k] = ns[k]
    try:
        cache[code] = (pickle.dumps(data), refs)
    except Exception:
        pass  # not picklable: the setup simply runs again next time


def _mutable(v: Any) -> bool:
    import types

    return not isinstance(v, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type))


def _main(src: str, out: str) -> None:
    import time
    import warnings

    sys.path.insert(0, str(PYTHON_DIR))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    warnings.simplefilter("ignore")
    from IPython.core.interactiveshell import InteractiveShell

    from crane_llm.checks import run_checks
    from crane_llm.kernel.source import python_source

    shell = InteractiveShell.instance()
    ns = shell.user_ns
    pristine = dict(ns)
    cases = json.loads(Path(src).read_text())
    results = []
    setups: Dict[str, Dict[str, Any]] = {}
    devnull = open(os.devnull, "w")
    real_stdout = sys.stdout
    for case in cases:
        for k in list(ns):
            if k not in pristine:
                del ns[k]
        ns.update(pristine)
        result: Dict[str, Any] = {"claim": None, "stop": None, "raised": None, "setup_error": None,
                                  "mutated": False, "checker_error": None, "check_seconds": None}
        sys.stdout = devnull
        try:
            with shell.builtin_trap:
                try:
                    _setup(case.get("setup", ""), ns, setups)
                except BaseException as exc:  # a broken case, reported as such
                    result["setup_error"] = f"{type(exc).__name__}: {exc}"
                    results.append(result)
                    continue
                before = _fingerprint(ns)
                try:
                    t0 = time.perf_counter()
                    outcome = run_checks(case["cell"], ns)
                    result["check_seconds"] = time.perf_counter() - t0
                    result["claim"] = outcome.crash.to_json() if outcome.crash else None
                    result["stop"] = outcome.stopped_at.to_json() if outcome.stopped_at else None
                except Exception as exc:
                    result["checker_error"] = f"{type(exc).__name__}: {exc}"
                if case.get("replay"):
                    # The same cell judged from recorded facts instead of the live objects.
                    from crane_llm.checks import run_checks_on_facts
                    from paper_facts import record_namespace

                    facts = record_namespace({k: v for k, v in ns.items() if k not in pristine})
                    try:
                        o = run_checks_on_facts(case["cell"], facts, names_complete=True)
                        result["replay_claim"] = o.crash.to_json() if o.crash else None
                    except Exception as exc:
                        result["checker_error"] = f"replay: {type(exc).__name__}: {exc}"
                result["mutated"] = _fingerprint(ns) != before
                try:
                    code = compile(python_source(case["cell"]), "<cell>", "exec")
                    exec(code, ns)
                except BaseException as exc:
                    result["raised"] = {"exception": type(exc).__name__, "line": _raised_line(exc),
                                        "message": str(exc)[:300]}
        finally:
            sys.stdout = real_stdout
        results.append(result)
    Path(out).write_text(json.dumps(results))


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2])
