"""The execution log: every cell the kernel ran, in order, and what each run did to the variables.

A run holds only what must be captured while it happens (its code, cell id, execution count,
where it raised, the text of a `%run` script); what its code did is derived from that on
demand, once per run, when a check asks for the log (`ExecutionLog.to_json()`), matching the
`execution-log` wire schema in libs/core.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .effects import CellAnalysis, FunctionSummary, analyse, script_path

LOG_VERSION = 1
MAX_CALL_DEPTH = 4
# A run longer than a check reads as its cell (kernel/entry.py) is not read at all.
MAX_ANALYSED_CHARS = 100_000


class Run:
    # Written by hand, not a dataclass: a kernel keeps every run, so it has __slots__, and slots with
    # defaults need dataclass(slots=True), which the kernel side's Python 3.9 does not have.
    __slots__ = ("execution_count", "cell_id", "code", "recorded", "raised", "scripts", "script_error", "python", "_effects")

    def __init__(
        self,
        execution_count: Optional[int],
        cell_id: Optional[str],
        code: str,
        recorded: bool,
        raised: Optional[Dict[str, Any]] = None,
        scripts: Optional[Dict[str, Any]] = None,
        script_error: Optional[Dict[str, Any]] = None,
        python: Optional[str] = None,
    ):
        self.execution_count = execution_count
        self.cell_id = cell_id
        self.code = code
        self.recorded = recorded
        self.raised = raised  # {"exception", "line", "beforeExecution"}
        self.scripts = scripts or {}  # `%run` argument -> (absolute path, text) when it ran; None: unreadable
        self.script_error = script_error  # an exception shown while the cell ran, which did not raise (%run)
        self.python = python  # the code after IPython's input transformer, as the kernel ran it
        self._effects: Optional[List[Dict[str, Any]]] = None

    def to_json(self) -> Dict[str, Any]:
        return {
            "executionCount": self.execution_count,
            "cellId": self.cell_id,
            "code": self.code,
            "recorded": self.recorded,
            "raised": self.raised,
            "effects": self._effects or [],
        }


class ExecutionLog:
    """The runs of one kernel process, oldest first."""

    def __init__(self) -> None:
        self.runs: List[Run] = []
        self._resolved = 0  # runs[:_resolved] have their effects
        self._functions: Dict[str, FunctionSummary] = {}
        self._methods: Dict[str, int] = {}

    def add(self, run: Run) -> None:
        self.runs.append(run)

    def to_json(self, first: Optional[int] = None) -> Dict[str, Any]:
        """The log as the wire schema has it; `first`: only the oldest `first` runs (the log as a
        check saw it, asked for after more cells may have run)."""
        runs = self.runs[:first] if first is not None else self.runs
        self._resolve_pending(len(runs))
        return {"version": LOG_VERSION, "runs": [r.to_json() for r in runs]}

    def code_only_json(self, first: Optional[int] = None) -> Dict[str, Any]:
        """The runs known from their code alone (what they did not worked out): what a reply
        sends when there was no time to work it out."""
        runs = self.runs[:first] if first is not None else self.runs
        return {"version": LOG_VERSION, "runs": [dict(r.to_json(), recorded=False, raised=None, effects=[]) for r in runs]}

    # Effects of a run depend on the user functions defined by the runs before it, so runs are
    # resolved in order, and each only once.
    def _resolve_pending(self, until: int) -> None:
        while self._resolved < until:
            run = self.runs[self._resolved]
            run._effects = self._resolve(run)
            self._resolved += 1

    def _resolve(self, run: Run) -> List[Dict[str, Any]]:
        if len(run.code) > MAX_ANALYSED_CHARS:
            # (parsing is one C call no alarm can cut, 1.7 s a megabyte, and even the line scanner
            # takes seconds: such a run may bind or change anything)
            return [_effect("*", 1, "assign", "unread", str(len(run.code)), None, "maybe", "dynamic")]
        analysis = analyse(run.code, python=run.python)
        if analysis.syntax_error is not None:
            return _unparsed_effects(run)
        effects = list(analysis.effects)
        functions = dict(self._functions)
        for script in analysis.script_runs:
            effects.extend(_script_effects(script, run, functions, analysis))
        for name, summary in analysis.functions.items():
            functions[name] = summary
        methods = set(self._methods) | analysis.methods
        effects.extend(_call_effects(analysis, functions, methods))
        _apply_raise(effects, analysis, run.raised)
        if run.raised is None and run.script_error is not None:
            # An exception was shown while the cell ran, yet the cell did not raise: a magic caught it.
            for e in effects:
                if e["via"] in ("%%capture", "%%time", "%time") and e["status"] == "done":
                    e["status"], e["why"] = "maybe", "magic-raised"
        effects.sort(key=lambda e: e["line"])
        self._learn(effects, analysis)
        return effects

    def _learn(self, effects: List[Dict[str, Any]], analysis: CellAnalysis) -> None:
        """Keep the user functions and methods later runs may call."""
        for e in effects:
            if e["status"] == "skipped":
                continue
            if e["op"] == "delete" and e["name"] == "*" and e["status"] == "done":
                self._functions.clear()
            elif e["op"] == "assign" and e["how"] in ("def", "class", "run") and e["name"] in analysis.functions:
                self._functions[e["name"]] = analysis.functions[e["name"]]
            elif e["op"] == "assign" and e["status"] == "done":
                self._functions.pop(e["name"], None)
        for m in analysis.methods:
            self._methods[m] = 1


def _effect(name: str, line: int, op: str, how: str, detail: Optional[str], target: Optional[str], status: str, why: Optional[str], via: Optional[str] = None) -> Dict[str, Any]:
    return {"name": name, "line": line, "op": op, "how": how, "detail": detail, "target": target,
            "via": via, "status": status, "why": why}


def _unparsed_effects(run: Run) -> List[Dict[str, Any]]:
    """Code Python cannot parse: the line scanner says what it would have assigned."""
    from .defines import binding_lines

    if run.raised is not None and run.raised.get("beforeExecution"):
        status, why = "skipped", "syntax"
    else:
        status, why = "maybe", "dynamic"
    return [_effect(name, line, "assign", "assign", None, name, status, why) for line, name in binding_lines(run.code)]


def _script_effects(script: Dict[str, Any], run: Run, functions: Dict[str, FunctionSummary], analysis: CellAnalysis) -> List[Dict[str, Any]]:
    """A `%run file.py` leaves the file's top-level names in the namespace, as of that line."""
    arg, line = script["arg"], script["line"]
    found = script_path(arg)
    stored = run.scripts.get(arg)
    if found is None or stored is None:
        return [_effect("*", line, "assign", "run", arg, None, "maybe", "dynamic")]
    path = found[0]
    absolute, text = stored
    inner = analyse(text)
    error = run.script_error
    stopped_at = None
    if error is not None:
        # Where this script stopped; another script's error, or an unknown spot, makes all of it uncertain.
        stopped_at = error["line"] if error.get("file") == absolute and error.get("line") else 0
    out = []
    for e in inner.effects:
        status, why = e["status"], e["why"]
        if stopped_at is not None and (stopped_at == 0 or e["line"] >= stopped_at) and status != "skipped":
            status, why = "maybe", "script-raised"
        how = "run" if e["op"] == "assign" else e["how"]
        out.append(_effect(e["name"], line, e["op"], how, e["detail"] if how != "run" else path, e["target"], status, why,
                           via="%s:%d" % (path, e["line"])))
    functions.update(inner.functions)
    analysis.functions.update(inner.functions)  # the script's functions stay defined after it
    analysis.methods.update(inner.methods)
    for c in inner.calls:
        summary = functions.get(c["name"])
        if summary is not None:
            for name, op in _reach(summary, functions):
                out.append(_effect(name, line, op, "call", c["name"], None, "maybe", "call", via="%s:%d" % (path, c["line"])))
    return out


def _reach(summary: FunctionSummary, functions: Dict[str, FunctionSummary]) -> List[Any]:
    """The global effects of a function and of the user functions it calls, transitively."""
    seen = {summary.name}
    out: List[Any] = []
    keys = set()
    frontier = [(summary, 0)]
    while frontier:
        s, depth = frontier.pop()
        for key in s.global_effects:
            if key not in keys:
                keys.add(key)
                out.append(key)
        if depth < MAX_CALL_DEPTH:
            for callee in s.calls:
                if callee not in seen and callee in functions:
                    seen.add(callee)
                    frontier.append((functions[callee], depth + 1))
    return out


def _call_effects(analysis: CellAnalysis, functions: Dict[str, FunctionSummary], methods: set) -> List[Dict[str, Any]]:
    """Calls of the user's own functions may change their arguments and globals: maybe, never done."""
    out = []
    for c in analysis.calls:
        summary = functions.get(c["name"])
        if summary is None:
            continue
        done = set()
        for arg in c["args"]:
            if arg not in done:
                done.add(arg)
                out.append(_effect(arg, c["line"], "modify", "call", c["name"], None, "maybe", "call"))
        for name, op in _reach(summary, functions):
            if (name, op) not in done:
                done.add((name, op))
                out.append(_effect(name, c["line"], op, "call", c["name"], None, "maybe", "call"))
    for m in analysis.method_calls:
        if m["method"] in methods:
            out.append(_effect(m["name"], m["line"], "modify", "call", "%s.%s" % (m["target"] or m["name"], m["method"]), None, "maybe", "call"))
    return out


def _apply_raise(effects: List[Dict[str, Any]], analysis: CellAnalysis, raised: Optional[Dict[str, Any]]) -> None:
    """Effects after the line that raised did not happen; those beside it may have."""
    if raised is None:
        return
    if raised.get("beforeExecution"):
        for e in effects:
            e["status"], e["why"] = "skipped", "syntax"
        return
    line = raised.get("line")
    statement = None
    if line is not None:
        for first, last, compound in analysis.statements:
            if first <= line <= last:
                statement = (first, last, compound)
                break
    for e in effects:
        if statement is None:
            if e["status"] == "done":
                e["status"], e["why"] = "maybe", "raised-inside"
            continue
        first, last, compound = statement
        if e["line"] > last:
            e["status"], e["why"] = "skipped", "raised"
        elif e["line"] < first:
            continue
        elif e["via"] is not None or (e["how"] == "call" and e["line"] <= line):
            e["status"], e["why"] = "maybe", "raised-inside"
        elif compound and (e["line"] < line or e["why"] == "loop"):
            e["status"], e["why"] = "maybe", "raised-inside"
        else:
            e["status"], e["why"] = "skipped", "raised"
