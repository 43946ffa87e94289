"""The one function the front end calls in the kernel, through a silent request.

It gathers the facts about a target cell (the built-in checks, the runtime information, the
executed cells) and returns JSON matching `schema/check-result.json`. It never executes the cell.
Any failure inside becomes a `problem` in the reply, never a traceback in the user's face.
"""

import json
import platform
from pathlib import Path
from typing import Any, Dict, List, Optional

from .. import interpreter_functions as _f
from .. import stdlib_untouched
from .held_signals import held_signals
from ..version import __version__
from ..checks import ReadCell, read_cell, recursion_room, run_checks, tracing
from ..checks.static_reads import new_epoch
from ..checks.outcome import CheckStop, Outcome
from ..checks.shell_source import running_ipython
from ..deadline import Deadline, OutOfTime, hard_stop
from ..lineage.log import ExecutionLog
from ..lineage.origin import defined_in
from ..policy import SwitchValues, capped, current_policy
from ..present import suggested_name
from ..runinfo import collect, kernel_reads, not_summarised
from ..settings import resolve_check_budget
from ..switches import checks_run
from .. import audit_sentinel
from .history import execution_log
from .own_builtins import interpreters_builtins


_PYTHON_VERSION = platform.python_version()  # (read once: `platform` may open files)

# How much of a cell one second of the budget reads: Python parses it twice and the used names walk
# it once, at ~3 µs a character each on a busy machine; 2 s read cells of up to 100,000 characters,
# and so does any shorter budget (the checks' own deadline stops them between statements).
CELL_CHARS_PER_SECOND = 50_000
CELL_CHARS_MIN = 100_000
_TOO_LONG = "the cell (%d characters) is too long to read within the check's budget"
OWN_RECURSION_LIMIT = 2000  # (Python's default is 1000; the kernel's own frames come on top)


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
    return running_ipython()


def gather(request: Dict[str, Any], namespace: Dict[str, Any], shell: Any = None) -> Dict[str, Any]:
    """The facts about `request['source']`; see `_gather`. A notebook's trace or profile function
    or monitoring callback does not run while they are gathered (the checks then claim nothing:
    see checks/tracing.py)."""
    # Taken off inline (C calls only): a helper function's own frame would be traced first.
    # A C-level profiler (cProfile) is no notebook code, and `sys` could not put it back: left on.
    trace, profile = _f.gettrace(), _f.getprofile()
    trace = trace if callable(trace) else None
    profile = profile if callable(profile) else None
    if trace is not None:
        _f.settrace(None)
    if profile is not None:
        _f.setprofile(None)
    # No collection while the facts are gathered: a notebook's `gc.callbacks` run at every one
    # (switched back on last, so no allocation of ours after it can start one).
    collecting = _f.gc_isenabled()
    _f.gc_disable()
    # A limit of our own: the notebook's may be so high that compiling a deep cell overflows the C
    # stack (CPython's compiler derives its guard from it), or so low that reading it fails.
    limit = _f.getrecursionlimit()
    _f.setrecursionlimit(OWN_RECURSION_LIMIT)
    recursion_room.NOTEBOOK_LIMITS.append(limit)
    try:
        callbacks = tracing.take_off_callbacks()
        tracing.TAKEN.append(trace is not None or profile is not None or bool(callbacks))
        try:
            with held_signals():  # (the notebook's signal handlers run once the facts are gathered)
                if audit_sentinel.notebook_hook_added():
                    return _standing_aside(shell, audit_sentinel.STANDS_ASIDE)  # (the magic's way in)
                changed = stdlib_untouched.changed()
                if changed:
                    return _standing_aside(shell, stdlib_untouched.reason(changed))
                with interpreters_builtins():
                    return _gather(request, namespace, shell)
        finally:
            tracing.TAKEN.pop()
            tracing.put_back_callbacks(callbacks)
    finally:
        recursion_room.NOTEBOOK_LIMITS.pop()
        _f.setrecursionlimit(limit)
        if collecting:
            _f.gc_enable()
        if trace is not None:
            _f.settrace(trace)
        if profile is not None:
            _f.setprofile(profile)


def _gather(request: Dict[str, Any], namespace: Dict[str, Any], shell: Any = None) -> Dict[str, Any]:
    """The facts about `request['source']` against `namespace`, as a check-result dict.

    The whole gathering has one time budget (`budgetSeconds`, else the setting): each stage
    consults its deadline, a hard stop stands behind each, and what a stage could not finish is
    named in the reply's `budget.cut`, so the steps can say so.

    Each thing is done once: the cell is read once (the checks and the used names share its tree),
    its reads are found once (the used names and the runtime information share them), and the
    executed cells travel once, inside the log.

    `deferLog` (JupyterLab asks for it): the log travels only when a prompt is built from it (no
    certain crash, the LLM on). Otherwise the reply says how many runs the log held
    (`logDeferred`), and the front end asks `history()` for them once the verdict is drawn, if it
    needs them (the origin of the crash). A certain NameError's "Did you mean" names the cell that
    defined the name (`definedIn`) either way, so the verdict never waits for the log.
    """
    _validate(request)
    new_epoch()  # every dictionary is judged afresh once a gather (no notebook code runs within one)
    source = request["source"]
    # (the environment read without `os.environ`'s methods, which a notebook may have patched)
    environ = _f.environ_now()
    home = Path(environ["HOME"]) if environ.get("HOME") else None
    # The administrator's ceiling holds here too, whatever the front end asked for.
    use_llm, include_runtime_info, _ = capped(
        SwitchValues(request.get("useLlm", True), request.get("includeRuntimeInfo", True), True),
        current_policy(environ))
    budget = resolve_check_budget(request.get("budgetSeconds"), environ=environ, home=home)
    deadline = Deadline(budget.seconds)
    cut: List[str] = []
    checks_on = checks_run(use_llm, include_runtime_info)
    started = _f.perf_counter()
    checks: Dict[str, Any] = {"ran": False, "crash": None, "stoppedAt": None, "elapsedMs": 0.0}
    runtime_info: Optional[Dict[str, Any]] = None
    if len(source) > max(CELL_CHARS_MIN, budget.seconds * CELL_CHARS_PER_SECOND):
        # Python's parser cannot be interrupted: a cell it could not read within the budget is not
        # read at all (no checks, no used names; the prompt cuts the cell to its own budget).
        read = ReadCell(None, Outcome(stopped_at=CheckStop(None, _TOO_LONG % len(source))), None, None)
        reads: List[Any] = []
        cut.append("the reading of the cell (%d characters)" % len(source))
    else:
        read = read_cell(source, namespace, shell)
        # The names are read before the checks walk the tree, so nothing they do to it can change
        # them; a cell the checks do not walk (a syntax error, a shell rewrite) is read on its own.
        reads = kernel_reads(source, namespace, shell, read.tree)
    if checks_on:
        outcome = _bounded_checks(source, namespace, deadline, shell, read)
        if outcome.stopped_at is not None and "time budget" in outcome.stopped_at.reason:
            cut.append("the rest of the built-in checks")
        checks = {
            "ran": True,
            "crash": outcome.crash.to_json() if outcome.crash else None,
            "stoppedAt": outcome.stopped_at.to_json() if outcome.stopped_at else None,
            "elapsedMs": round((_f.perf_counter() - started) * 1000, 3),
        }
        # A certain crash needs no model, so the model's prompt material is not collected for it.
        if outcome.crash is None and use_llm:
            runtime_info = _bounded_runtime_info(source, namespace, deadline, cut, shell, reads)
    crash = checks["crash"]
    # Only a prompt needs the log at once; a certain crash's origin can have it after the verdict.
    log: Optional[Dict[str, Any]] = None
    deferred: Optional[Dict[str, int]] = None
    if request.get("deferLog") and (crash is not None or not use_llm):
        deferred = {"runs": len(execution_log(shell).runs) if shell is not None else 0}
    else:
        log = _history(shell, deadline, cut)
    suggested = suggested_name(crash) if crash is not None else None
    found: Optional[int] = None
    if suggested is not None:
        # Worked out here, from the log the reply may leave out: the verdict never waits for it.
        found = defined_in(log if log is not None else _history(shell, deadline, cut), suggested)
    return {
        "protocol": 1,
        "craneVersion": __version__,
        "python": _PYTHON_VERSION,
        "checks": checks,
        "usedNames": [name for name, _ in reads],
        "runtimeInfo": runtime_info,
        "log": log,
        "logDeferred": deferred,
        "definedIn": found,
        "problem": None,
        "budget": {
            "seconds": budget.seconds,
            "source": budget.setting.label,
            "ranOut": bool(cut),
            "cut": cut,
            "warning": budget.warning,
        },
    }


def _standing_aside(shell: Any, why: str) -> Dict[str, Any]:
    """The reply while a notebook's code would run on every step (its audit hook, audit_sentinel.py,
    or standard-library code it replaced, stdlib_untouched.py): the executed cells as plain text,
    for the model, and nothing else read, not even the settings (reading a file is an audited
    event too)."""
    try:
        log = execution_log(shell).code_only_json() if shell is not None else None
    except Exception:
        log = None
    return dict(_reply_without_facts(
        {"ran": True, "crash": None, "stoppedAt": {"line": None, "reason": why}, "elapsedMs": 0.0},
        log, None), logDeferred=None, definedIn=None)


def _bounded_checks(source: str, namespace: Dict[str, Any], deadline: Deadline, shell: Any, read: ReadCell) -> Outcome:
    """The built-in checks within the budget: they look at the deadline between statements, and
    the hard stop ends a single step that overruns it (a stop, never a claim)."""
    try:
        with hard_stop(max(deadline.left(), 0.0)):
            return run_checks(source, namespace, deadline, shell, read)
    except OutOfTime:
        return Outcome(stopped_at=CheckStop(None, "the check's time budget (%s) ran out" % deadline.describe()))


def _bounded_runtime_info(source: str, namespace: Dict[str, Any], deadline: Deadline, cut: List[str],
                          shell: Any, reads: List[tuple]) -> Dict[str, Any]:
    """The runtime information within what is left of the budget; past it, names and types only."""
    try:
        # (past the budget there is nothing left to summarise, only names and types to list: that
        # too keeps a short grace period, whatever the namespace or its classes' names hold)
        with hard_stop(max(deadline.left(), LISTING_GRACE_SECONDS)):
            info = collect(source, namespace, deadline, shell, reads)
    except OutOfTime:
        cut.append("the runtime information")
        return {"variables": []}
    skipped = not_summarised(info)
    if skipped:
        named = ", ".join(skipped[:SKIPPED_NAMED_MAX])
        more = len(skipped) - SKIPPED_NAMED_MAX
        cut.append("runtime information for " + named + (f" and {more} more" if more > 0 else ""))
    return info


LISTING_GRACE_SECONDS = 0.25
SKIPPED_NAMED_MAX = 20  # variables named in the step that says their summaries were left out


# What the origin of the crash needs is not the user's objects, so it keeps a short grace period
# even when the checks used the whole budget.
HISTORY_GRACE_SECONDS = 0.25


def _history(shell: Any, deadline: Deadline, cut: List[str]) -> Optional[Dict[str, Any]]:
    """The execution log: the executed cells (the prompt reads their code) and what each did (the
    origin of the crash reads it). Out of time while working out what they did: the cells alone."""
    if shell is None:
        return ExecutionLog().to_json()
    log = execution_log(shell)
    try:
        with hard_stop(max(deadline.left(), HISTORY_GRACE_SECONDS)):
            return log.to_json()
    except OutOfTime:
        cut.append("the execution log (the origin of the crash)")
        return log.code_only_json()


def history(runs: int, shell: Any = None) -> Reply:
    """The execution log a deferred reply left out (`logDeferred`): its oldest `runs` runs, as the
    check saw them, whatever ran since. `log` is null when the log no longer holds them (a restart)."""
    shell = shell if shell is not None else _shell()
    try:
        log = execution_log(shell) if shell is not None else ExecutionLog()
        if len(log.runs) < runs:
            return Reply({"protocol": 1, "log": None})
        if audit_sentinel.notebook_hook_added():
            return Reply({"protocol": 1, "log": log.code_only_json(runs)})  # (working out effects parses)
        deadline = Deadline(resolve_check_budget(None).seconds)
        try:
            with hard_stop(max(deadline.left(), HISTORY_GRACE_SECONDS)):
                return Reply({"protocol": 1, "log": log.to_json(runs)})
        except OutOfTime:
            return Reply({"protocol": 1, "log": log.code_only_json(runs)})
    except Exception:  # the origin is an aid: without the log the verdict still stands
        return Reply({"protocol": 1, "log": None})


def check(request_json: str, shell: Any = None) -> Reply:
    """Entry point for the front end: `crane_llm.kernel.entry.check('<CheckRequest JSON>')`, or the
    kernel channel's, which knows the shell (finding it reads module dicts, which `id()` audits)."""
    if audit_sentinel.notebook_hook_added():
        return Reply(_standing_aside(shell if shell is not None else _shell(), audit_sentinel.STANDS_ASIDE))
    with interpreters_builtins():  # (reading the request and building the reply call builtins too)
        return _check(request_json)


class BadRequest(ValueError):
    """A request the front end, the magic or the CLI should never send: said plainly."""


_FLAGS = ("useLlm", "includeRuntimeInfo", "deferLog")


def _validate(request: Any) -> None:
    if type(request) is not dict:
        raise BadRequest("The check request must be a JSON object.")
    if type(request.get("source")) is not str:
        raise BadRequest("The check request must give the cell's source as text (`source`).")
    for flag in _FLAGS:
        if flag in request and type(request[flag]) is not bool:
            raise BadRequest(f"The check request's `{flag}` must be true or false.")


def _check(request_json: str) -> Reply:
    shell = _shell()
    namespace = shell.user_ns if shell is not None else {}
    try:
        request = json.loads(request_json)
        return Reply(gather(request, namespace, shell))
    except BadRequest as exc:
        return Reply(problem_reply("internal", str(exc)))
    except OutOfTime:  # every stage catches its own; this is the last guard for the user's notebook
        return Reply(problem_reply("timeout", "The check ran out of its time budget before it could answer."))
    except Exception as exc:  # the user sees a message, the notebook loses nothing
        return Reply(problem_reply("internal", f"The kernel side of CRANE-LLM failed: {type(exc).__name__}: {exc}"))


def problem_reply(kind: str, message: str) -> Dict[str, Any]:
    """A check result that carries only a problem (the front end shows its message)."""
    return _reply_without_facts({"ran": False, "crash": None, "stoppedAt": None, "elapsedMs": 0.0}, None,
                                {"kind": kind, "message": message})


def _reply_without_facts(checks: Dict[str, Any], log: Optional[Dict[str, Any]],
                         problem: Optional[Dict[str, str]]) -> Dict[str, Any]:
    return {
        "protocol": 1,
        "craneVersion": __version__,
        "python": _PYTHON_VERSION,
        "checks": checks,
        "usedNames": [],
        "runtimeInfo": None,
        "log": log,
        "problem": problem,
    }
