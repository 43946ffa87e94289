"""Execution recorder: which cells this kernel ran, in what order, and where each one raised.

`install(shell)` registers two IPython event callbacks. They fire for every cell a user runs and
never for silent executions, which is how the front end's checks run, so a check is not recorded.
The cell id comes from JupyterLab's `execute_request` metadata (`cellId`), which ipykernel 6.x/7
passes to `run_cell(cell_id=...)` and IPython exposes as `ExecutionInfo.cell_id`; elsewhere it is
None.

A run costs a few microseconds: the hook keeps strings and walks the traceback only when the
cell raised. What the code did to the variables is derived later, when a check asks for the log.

`install` is idempotent: calling it again (the front end does so on every kernel start, and a
user may also `%load_ext crane_llm`) keeps the one log and the one pair of callbacks. A kernel
restart is a new process with a new shell, so it starts a new, empty log: "since the kernel
started" is exactly what the log covers. Cells already in the input history when recording
begins are kept as runs known from their code only (`recorded: false`).
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, Optional

from ..kernel.source import python_source
from .log import ExecutionLog, Run
from .effects import script_path

_ATTRIBUTE = "_crane_llm_recorder"
MAX_SCRIPT_BYTES = 1_000_000


class Recorder:
    def __init__(self, shell: Any):
        self.shell = shell
        self.log = ExecutionLog()
        self.depth = 0  # >0 while a cell runs; nested run_cell calls (%%capture) belong to it
        self.installed = False
        self.shown_before: Any = None  # the last exception IPython displayed before this cell

    # -- IPython event callbacks --------------------------------------------------------------
    def pre_run_cell(self, info: Any = None) -> None:
        if self.depth == 0:
            self.shown_before = getattr(sys, "last_value", None)
        self.depth += 1

    def post_run_cell(self, result: Any = None) -> None:
        depth = self.depth
        self.depth = max(0, depth - 1)
        if depth > 1 or result is None:
            return  # a cell run from inside another cell: the outer cell's record covers it
        try:
            self._record(result)
        except Exception:  # recording must never disturb the user's notebook
            pass

    def _record(self, result: Any) -> None:
        info = getattr(result, "info", None)
        raw = getattr(info, "raw_cell", None)
        if raw is None or not raw.strip():
            return
        count = getattr(result, "execution_count", None)
        if not getattr(info, "store_history", True):
            count = None  # the kernel did not number this run
        cell_id = getattr(info, "cell_id", None)
        transformed = getattr(info, "transformed_cell", None) or raw  # IPython < 8.2x: not given
        raised = _raised(result, self.shell)
        scripts = _scripts(python_source(raw) if transformed is raw and "run" in raw else transformed)
        script_error = None
        shown = getattr(sys, "last_value", None)
        if raised is None and shown is not None and shown is not self.shown_before:
            # `%run` and `%%capture` show an exception themselves and the cell goes on: find where.
            script_error = _script_error(shown, getattr(sys, "last_traceback", None))
        if count is not None:
            # The cell that installed the recorder was already in the history snapshot.
            while self.log.runs and not self.log.runs[-1].recorded and (self.log.runs[-1].execution_count or 0) >= count:
                self.log.runs.pop()
        python = transformed if transformed is not raw else None
        self.log.add(Run(count, cell_id if isinstance(cell_id, str) else None, raw, True, raised, scripts, script_error, python))

    def snapshot_history(self) -> None:
        """Cells run before recording began: known from their code only."""
        manager = _static(self.shell, "history_manager")
        raw, parsed = _static(manager, "input_hist_raw"), _static(manager, "input_hist_parsed")
        # (a notebook may have put list subclasses there: their indexing would be its code)
        raw = list.copy(raw) if type(raw) is list else []
        parsed = list.copy(parsed) if type(parsed) is list else []
        for count, code in enumerate(raw[1:], start=1):
            if isinstance(code, str) and code.strip():
                python = parsed[count] if count < len(parsed) and isinstance(parsed[count], str) else None
                self.log.add(Run(count, None, code, False, python=python))



def _static(obj: Any, name: str) -> Any:
    """A traitlets attribute (or a plain one) as the object's own dict holds it, read without
    running a property, a `__getattr__` or a trait's getter (None when absent)."""
    try:
        own = object.__getattribute__(obj, "__dict__")
    except Exception:
        return None
    if type(own) is not dict:
        return None
    traits = own.get("_trait_values")
    if type(traits) is dict and name in traits:
        return traits.get(name)
    return own.get(name)


def _public_name(error: BaseException) -> str:
    """The exception's type name as users know it: Python 3.13 raises private subclasses such as
    `_IncompleteInputError` for a SyntaxError, so the first public class of its MRO is reported."""
    for cls in type(error).__mro__:
        if not cls.__name__.startswith("_"):
            return cls.__name__
    return type(error).__name__

def _raised(result: Any, shell: Any) -> Optional[Dict[str, Any]]:
    before = getattr(result, "error_before_exec", None)
    if before is not None:
        line = getattr(before, "lineno", None)
        return {"exception": _public_name(before), "line": line if isinstance(line, int) else None, "beforeExecution": True}
    error = getattr(result, "error_in_exec", None)
    if error is None:
        return None
    return {"exception": _public_name(error), "line": _cell_line(error, shell), "beforeExecution": False}


def _cell_line(error: BaseException, shell: Any) -> Optional[int]:
    """The line of the cell itself that was running: its module frame, the outermost user frame."""
    user_globals = getattr(shell, "user_global_ns", None)
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "<module>" and frame.f_globals is user_globals:
            return tb.tb_lineno
        tb = tb.tb_next
    return None


def _script_error(error: BaseException, tb: Any) -> Dict[str, Any]:
    """The file and line of the outermost module-level frame of a script, where it raised."""
    found: Dict[str, Any] = {"exception": _public_name(error), "file": None, "line": None}
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "<module>" and os.path.isfile(code.co_filename):
            found["file"], found["line"] = os.path.abspath(code.co_filename), tb.tb_lineno
            break
        tb = tb.tb_next
    return found


def _scripts(transformed: str) -> Dict[str, Optional[Any]]:
    """The text of each file a `%run` ran, read now: it may change before the log is read."""
    if "run_line_magic('run'" not in transformed and 'run_line_magic("run"' not in transformed:
        return {}
    import ast

    from .effects import dotted

    out: Dict[str, Optional[Any]] = {}
    try:
        tree = ast.parse(transformed)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "run_line_magic"
                and len(node.args) >= 2 and all(isinstance(a, ast.Constant) for a in node.args[:2])
                and node.args[0].value == "run" and isinstance(node.func.value, ast.Call)
                and dotted(node.func.value.func) == "get_ipython"):
            arg = str(node.args[1].value)
            found = script_path(arg)
            out[arg] = _read(found[0]) if found else None
    return out


def _read(path: str) -> Optional[Any]:
    """(absolute path, text) of the script, or None when it cannot be read."""
    candidates = [path] if path.endswith(".py") or os.path.exists(path) else [path, path + ".py"]
    for candidate in candidates:
        try:
            if os.path.getsize(candidate) <= MAX_SCRIPT_BYTES:
                with open(candidate, encoding="utf-8", errors="replace") as f:
                    return os.path.abspath(candidate), f.read()
        except OSError:
            continue
    return None


def current(shell: Any) -> Optional[ExecutionLog]:
    """The live log of this shell, or None when the recorder is not installed."""
    recorder = getattr(shell, _ATTRIBUTE, None) if shell is not None else None
    if recorder is None or not recorder.installed:
        return None
    return recorder.log


def install(shell: Any) -> Optional[ExecutionLog]:
    """Start recording (idempotent: a second call keeps the same log and callbacks)."""
    if shell is None:
        return None
    recorder = getattr(shell, _ATTRIBUTE, None)
    if recorder is not None and recorder.installed:
        return recorder.log
    if recorder is None:
        recorder = Recorder(shell)
        recorder.snapshot_history()
        setattr(shell, _ATTRIBUTE, recorder)
    shell.events.register("pre_run_cell", recorder.pre_run_cell)
    shell.events.register("post_run_cell", recorder.post_run_cell)
    recorder.installed = True
    return recorder.log


def uninstall(shell: Any) -> None:
    """Stop recording; the log is kept, and `install` resumes it."""
    recorder = getattr(shell, _ATTRIBUTE, None) if shell is not None else None
    if recorder is None or not recorder.installed:
        return None
    for event, callback in (("pre_run_cell", recorder.pre_run_cell), ("post_run_cell", recorder.post_run_cell)):
        try:
            shell.events.unregister(event, callback)
        except ValueError:
            pass
    recorder.installed = False
    recorder.depth = 0
    return None


def origin_for(shell: Any, variables: Any) -> list:
    """Origin entries for the crash's variables from this kernel's log (the cell magic's path:
    no notebook cells). Empty when the recorder is not installed."""
    from .origin import origin, root_of

    log = current(shell)
    if log is None:
        return []
    namespace = getattr(shell, "user_ns", {})
    defined = [root_of(v) for v in variables if root_of(v) in namespace]
    return origin(log.to_json(), list(variables), defined)
