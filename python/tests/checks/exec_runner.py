"""Ground truth for the checker: runs cells for real, in a subprocess, and records what happened.

Each case is setup code plus a target cell. In one subprocess per batch, for every case: the
namespace of a real IPython InteractiveShell is reset, the setup runs in it (`setup` as plain
Python, `shell` through the shell itself, so magics, `%autocall` and future imports take effect),
the checker reads the target cell against that live namespace (which must not change), and then
the shell really runs the target cell (`run_cell`: its transformers, prefilter and compile flags).
The result records the checker's claim and the exception the cell raised (type and cell line).
`teardown` undoes what a case patched; the runner refuses to go on if a library class, the
builtins or the shell's settings stay changed.

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
# In a case's setup, this line starts another executed cell for the replay (`replay_executed`).
CELL_BREAK = "\n# In[ ]:\n"


def run_batch(cases: List[Dict[str, str]], timeout: float = 600, python: str = sys.executable,
              optimize: bool = False) -> List[Dict[str, Any]]:
    """Run `cases` ([{setup, cell}, ...]) in one fresh subprocess (`python -O` when `optimize`);
    one result dict per case."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "cases.json"
        out = Path(tmp) / "results.json"
        src.write_text(json.dumps(cases))
        env = dict(os.environ, CRANE_LLM_CHECKS_DEBUG="1", TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0")
        flags = ["-O"] if optimize else []
        proc = subprocess.run([python, *flags, str(Path(__file__).resolve()), str(src), str(out)], cwd=tmp, env=env,
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(f"runner failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
        return json.loads(out.read_text())


# ---- inside the subprocess ------------------------------------------------------------------

_PICKLED_MODULES = ("builtins", "numpy", "pandas", "collections", "sklearn")


def _fingerprint(ns: Dict[str, Any]) -> Dict[str, Any]:
    """A value-level picture of the namespace, to prove the checker changed nothing (only values of
    library types are pickled: pickling a test's hostile object would run its code)."""
    import pickle

    from crane_llm.checks.provenance import class_module, plain_class

    out = {}
    for k, v in ns.items():
        if k.startswith("_") or k in ("In", "Out", "exit", "quit", "get_ipython"):
            continue
        t = type(v)
        if plain_class(t) and class_module(t).split(".")[0] in _PICKLED_MODULES:
            try:
                out[k] = (id(v), pickle.dumps(v))
                continue
            except Exception:
                pass
        out[k] = (id(v), None)
    return out


def _raised_line(exc: BaseException) -> Any:
    if isinstance(exc, SyntaxError):
        return exc.lineno
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith("<ipython-input-"):
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
        cache.pop(code, None)  # not picklable: the setup simply runs again next time


def _mutable(v: Any) -> bool:
    import types

    return not issubclass(type(v), (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type))


def _world() -> Dict[str, Any]:
    """What a case may patch and must restore: library classes, module functions, builtins."""
    import builtins

    out: Dict[str, Any] = {"builtins": dict(builtins.__dict__)}
    for modname in ("pandas", "numpy", "sklearn.base", "sklearn.linear_model", "sklearn.preprocessing",
                    "sklearn.model_selection", "sklearn.utils.validation", "IPython.core.display_functions",
                    "IPython.core.getipython", "warnings"):
        mod = sys.modules.get(modname)
        if mod is not None:
            out[modname] = dict(mod.__dict__)
    for clsname in ("pandas.DataFrame", "pandas.Series", "pandas.Index", "pandas.RangeIndex",
                    "pandas.core.generic.NDFrame", "sklearn.linear_model.LinearRegression",
                    "sklearn.linear_model.LogisticRegression", "sklearn.preprocessing.StandardScaler",
                    "sklearn.base.BaseEstimator"):
        modname, _, name = clsname.rpartition(".")
        mod = sys.modules.get(modname)
        cls = getattr(mod, name, None) if mod is not None else None
        if cls is not None:
            out[clsname] = dict(cls.__dict__)
    return out


_VOLATILE = {"_", "__", "___", "__warningregistry__", "_showwarnmsg", "_filters_version", "_onceregistry"}


def _code_like(v: Any) -> bool:
    import types

    return v is not None and (callable(v) or hasattr(type(v), "__get__")) and not isinstance(v, types.ModuleType)


def _same_world(a: Dict[str, Any], b: Dict[str, Any]) -> List[str]:
    changed = []
    for k in set(a) | set(b):
        da, db = a.get(k, {}), b.get(k, {})
        names = (set(da) | set(db)) - _VOLATILE
        # Libraries cache data on their classes as they run; what a case patches is code.
        if any((n not in da or n not in db or da[n] is not db[n])
               and (_code_like(da.get(n)) or _code_like(db.get(n))) for n in names):
            changed.append(k)
    return changed


def _main(src: str, out: str) -> None:
    import time
    import warnings

    sys.path.insert(0, str(PYTHON_DIR))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    warnings.simplefilter("ignore")
    from IPython.core.interactiveshell import InteractiveShell

    from crane_llm.checks import run_checks

    shell = InteractiveShell.instance()
    shell.showtraceback = lambda *a, **k: None  # the tracebacks go nowhere; the runner reads the result
    shell.showsyntaxerror = lambda *a, **k: None
    ns = shell.user_ns
    pristine = dict(ns)
    base_flags = shell.compile.flags
    base_filters = list(warnings.filters)
    np = sys.modules.get("numpy")
    cases = json.loads(Path(src).read_text())
    results = []
    setups: Dict[str, Dict[str, Any]] = {}
    devnull = open(os.devnull, "w")
    real_stdout, real_stderr = sys.stdout, sys.stderr
    import pandas  # noqa: F401  (the world to watch)
    import sklearn.linear_model  # noqa: F401
    import sklearn.model_selection  # noqa: F401
    import sklearn.preprocessing  # noqa: F401
    np = sys.modules.get("numpy")
    base_err = np.geterr() if np is not None else None
    world = _world()
    trace = os.environ.get("CRANE_RUNNER_TRACE")
    for case in cases:
        if trace:
            with open(trace, "a") as fh:
                fh.write(json.dumps(case) + "\n")
        for k in list(ns):
            if k not in pristine:
                del ns[k]
        ns.update(pristine)
        result: Dict[str, Any] = {"claim": None, "stop": None, "raised": None, "setup_error": None,
                                  "mutated": False, "checker_error": None, "check_seconds": None}
        sys.stdout = sys.stderr = devnull
        try:
            try:
                # A case that patches (and so restores in teardown) runs its setup afresh each time.
                _setup(case.get("setup", ""), ns, setups if not case.get("teardown") else {})
                # (one shell cell at a time, so each shows its last value as a notebook's would)
                for part in case["shell"].split(CELL_BREAK) if case.get("shell") else ():
                    r = shell.run_cell(part, store_history=False)
                    if not r.success:
                        raise RuntimeError(f"shell setup failed: {r.error_before_exec or r.error_in_exec!r}")
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
            # (taken before the replay's facts are recorded: the test's recorder reads the values,
            # and pandas caches what some reads compute; the replay itself reads only the facts)
            result["mutated"] = _fingerprint(ns) != before
            if case.get("replay"):
                # The same cell judged from recorded facts instead of the live objects.
                from crane_llm.checks import run_checks_on_facts
                from paper_facts import record_namespace

                facts = record_namespace({k: v for k, v in ns.items() if k not in pristine})
                try:
                    # `replay_executed`: the replay also reads the setup as the kernel's executed cells
                    # (split where a line is CELL_BREAK; the setup itself runs whole, the line a comment).
                    # (a `shell` part ran after the setup, through the shell: its cells come last)
                    executed = (case["setup"].split(CELL_BREAK) +
                                (case["shell"].split(CELL_BREAK) if case.get("shell") else [])
                                if case.get("replay_executed") else None)
                    o = run_checks_on_facts(case["cell"], facts, names_complete=True, executed=executed)
                    result["replay_claim"] = o.crash.to_json() if o.crash else None
                    result["replay_stop"] = o.stopped_at.to_json() if o.stopped_at else None
                except Exception as exc:
                    result["checker_error"] = f"replay: {type(exc).__name__}: {exc}"
            r = shell.run_cell(case["cell"], store_history=False)
            exc = r.error_before_exec or r.error_in_exec
            if exc is not None:
                # Python 3.13's `_IncompleteInputError` is the SyntaxError users see (public name).
                public = next((c.__name__ for c in type(exc).__mro__ if not c.__name__.startswith("_")), type(exc).__name__)
                result["raised"] = {"exception": public, "line": _raised_line(exc),
                                    "message": str(exc)[:300]}
        finally:
            if case.get("teardown"):
                exec(compile(case["teardown"], "<teardown>", "exec"), ns)
            sys.stdout, sys.stderr = real_stdout, real_stderr
            shell.compile.flags = base_flags
            shell.autocall = 0
            shell.automagic = True
            warnings.filters[:] = base_filters
            if base_err is not None:
                np.seterr(**base_err)
            # As Jupyter's inline backend does after every cell: no figure outlives the case.
            plt = sys.modules.get("matplotlib.pyplot")
            if plt is not None:
                plt.close("all")
        changed = _same_world(world, _world())
        if changed:
            raise RuntimeError(f"case left the world changed ({changed}): {case}")
        results.append(result)
    Path(out).write_text(json.dumps(results))


if __name__ == "__main__":
    _main(sys.argv[1], sys.argv[2])
