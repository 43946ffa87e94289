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
from ..checks import read_cell, run_checks
from ..lineage.log import ExecutionLog
from ..runinfo import collect, kernel_reads
from ..switches import checks_run
from .history import execution_log


class Reply:
    """Returned to `user_expressions`; IPython's JSON formatter sends it as application/json."""

    def __init__(self, payload: Dict[str, Any]):
        self.payload = payload

    def _repr_json_(self):
        return self.payload

    # IPython formats a user expression in every MIME type it can: a short text/plain keeps the
    # reply from being serialised and sent a second time.
    def __repr__(self):
        return "<CRANE-LLM check reply>"


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def gather(request: Dict[str, Any], namespace: Dict[str, Any], shell: Any = None) -> Dict[str, Any]:
    """The facts about `request['source']` against `namespace`, as a check-result dict.

    Each thing is done once: the cell is parsed once, its reads are found once (the used names and
    the runtime information share them), and the executed cells travel once, inside the log.
    """
    source = request["source"]
    use_llm = bool(request.get("useLlm", True))
    checks_on = checks_run(use_llm, bool(request.get("includeRuntimeInfo", True)))
    started = time.perf_counter()
    checks: Dict[str, Any] = {"ran": False, "crash": None, "stoppedAt": None, "elapsedMs": 0.0}
    runtime_info: Optional[Dict[str, Any]] = None
    read = read_cell(source, namespace, shell)
    # The names are read before the checks walk the tree, so nothing they do to it can change
    # them; a cell the checks do not walk (a syntax error, a shell rewrite) is read on its own.
    reads = kernel_reads(source, namespace, read.tree)
    if checks_on:
        outcome = run_checks(source, namespace, shell=shell, read=read)
        checks = {
            "ran": True,
            "crash": outcome.crash.to_json() if outcome.crash else None,
            "stoppedAt": outcome.stopped_at.to_json() if outcome.stopped_at else None,
            "elapsedMs": round((time.perf_counter() - started) * 1000, 3),
        }
        # A certain crash needs no model, so the model's prompt material is not collected for it.
        if outcome.crash is None and use_llm:
            runtime_info = collect(source, namespace, reads)
    # What each run assigned, modified and where it raised: the origin of the crash reads it, and
    # the prompt reads the executed cells from it.
    log = execution_log(shell) if shell is not None else ExecutionLog()
    return {
        "protocol": 1,
        "craneVersion": __version__,
        "python": platform.python_version(),
        "checks": checks,
        "usedNames": [name for name, _ in reads],
        "runtimeInfo": runtime_info,
        "log": log.to_json(),
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
        "log": None,
        "problem": {"kind": kind, "message": message},
    }
