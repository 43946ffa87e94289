"""The one function the front end calls in the kernel, through a silent request.

It gathers the facts about a target cell (the built-in checks, the runtime information, the
executed cells) and returns JSON matching `schema/check-result.json`. It never executes the cell.
Any failure inside becomes a `problem` in the reply, never a traceback in the user's face.
"""

import json
import platform
import time
from typing import Any, Dict, Optional

from .. import __version__
from ..policy import SwitchValues, capped, current_policy
from ..switches import checks_run
from .history import executed_cells


class Reply:
    """Returned to `user_expressions`; IPython's JSON formatter sends it as application/json."""

    def __init__(self, payload: Dict[str, Any]):
        self.payload = payload

    def _repr_json_(self):
        return self.payload

    def __repr__(self):
        return json.dumps(self.payload)


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def gather(request: Dict[str, Any], namespace: Dict[str, Any], shell: Any = None) -> Dict[str, Any]:
    """The facts about `request['source']` against `namespace`, as a check-result dict."""
    from ..checks import run_checks
    from ..runinfo import collect, used_names

    source = request["source"]
    # The administrator's ceiling holds here too, whatever the front end asked for.
    use_llm, include_runtime_info, _ = capped(
        SwitchValues(bool(request.get("useLlm", True)), bool(request.get("includeRuntimeInfo", True)), True), current_policy())
    checks_on = checks_run(use_llm, include_runtime_info)
    started = time.perf_counter()
    checks: Dict[str, Any] = {"ran": False, "crash": None, "stoppedAt": None, "elapsedMs": 0.0}
    runtime_info: Optional[Dict[str, Any]] = None
    names = used_names(source, namespace)
    if checks_on:
        outcome = run_checks(source, namespace)
        checks = {
            "ran": True,
            "crash": outcome.crash.to_json() if outcome.crash else None,
            "stoppedAt": outcome.stopped_at.to_json() if outcome.stopped_at else None,
            "elapsedMs": round((time.perf_counter() - started) * 1000, 3),
        }
        # A certain crash needs no model, so the model's prompt material is not collected for it.
        if outcome.crash is None and use_llm:
            runtime_info = collect(source, namespace)
    from ..lineage import recorder

    # What each run assigned, modified and where it raised: the origin of the crash reads it.
    execution_log = recorder.current(shell) if shell is not None else None
    return {
        "protocol": 1,
        "craneVersion": __version__,
        "python": platform.python_version(),
        "checks": checks,
        "usedNames": names,
        "runtimeInfo": runtime_info,
        "executed": executed_cells(shell) if shell is not None else [],
        "log": execution_log.to_json() if execution_log is not None else None,
        "problem": None,
    }


def check(request_json: str) -> Reply:
    """Entry point for the front end: `crane_llm.kernel.entry.check('<CheckRequest JSON>')`."""
    shell = _shell()
    namespace = shell.user_ns if shell is not None else {}
    try:
        request = json.loads(request_json)
        return Reply(gather(request, namespace, shell))
    except Exception as exc:  # the user sees a message, the notebook loses nothing
        return Reply(_problem("internal", f"The kernel side of CRANE-LLM failed: {type(exc).__name__}: {exc}"))


def _problem(kind: str, message: str) -> Dict[str, Any]:
    return {
        "protocol": 1,
        "craneVersion": __version__,
        "python": platform.python_version(),
        "checks": {"ran": False, "crash": None, "stoppedAt": None, "elapsedMs": 0.0},
        "usedNames": [],
        "runtimeInfo": None,
        "executed": [],
        "log": None,
        "problem": {"kind": kind, "message": message},
    }
