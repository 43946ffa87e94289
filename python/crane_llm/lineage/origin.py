"""Origin of the crash: which cells gave the crash's variables their state (twin of libs/lineage).

Pure: the execution log (`ExecutionLog.to_json()`), the variables involved in the crash, which of
them exist now, and, in JupyterLab, the notebook's current cells in; origin entries out. The
golden vectors in libs/lineage/fixtures hold this module and the TypeScript one to the same
output, byte for byte, so every branch here has its counterpart in origin.ts.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence

from .defines import defines_line

Json = Dict[str, Any]

METHOD_PHRASES = {
    "append": "appended to {t}", "extend": "extended {t}", "insert": "inserted into {t}",
    "pop": "popped from {t}", "remove": "removed an item from {t}", "clear": "cleared {t}",
    "sort": "sorted {t} in place", "reverse": "reversed {t} in place", "update": "updated {t}",
    "setdefault": "set a default in {t}", "popitem": "popped from {t}", "add": "added to {t}",
    "discard": "discarded from {t}", "fill": "filled {t}", "resize": "resized {t}",
    "put": "put values into {t}", "compile": "compiled {t}", "load_state_dict": "loaded weights into {t}",
    "load_weights": "loaded weights into {t}", "set_weights": "set the weights of {t}",
    "train": "set {t} to training mode", "eval": "set {t} to evaluation mode", "to": "moved {t} to a device",
    "cuda": "moved {t} to the GPU", "cpu": "moved {t} to the CPU",
}
INPLACE_PHRASES = {
    "drop:columns": "dropped columns of {t} in place", "drop:rows": "dropped rows of {t} in place",
    "dropna": "dropped missing values of {t} in place", "fillna": "filled missing values of {t} in place",
    "rename": "renamed labels of {t} in place", "set_index": "set the index of {t} in place",
    "reset_index": "reset the index of {t} in place", "sort_values": "sorted {t} in place",
    "sort_index": "sorted {t} in place", "drop_duplicates": "dropped duplicate rows of {t} in place",
    "replace": "replaced values of {t} in place", "astype": "changed the types of {t} in place",
}
FIT_PHRASES = {"partial_fit": "partially fitted {t}", "train_on_batch": "trained {t} on a batch"}
QUALIFIERS = {
    "branch": "inside a conditional branch, which may not have run",
    "loop": "inside a loop, which may have run zero times",
    "try": "inside a try block, which may have stopped before it",
    "chained": "through a chained call, which may not change it",
    "dynamic": "which may or may not change it",
    "script-raised": "in a script that raised before it finished",
    "magic-raised": "in a cell magic's body that raised before it finished",
}
KIND_ORDER = ("assigned", "modified", "maybe", "deleted")


def _code(name: str) -> str:
    return "`" + name + "`"


def root_of(variable: str) -> str:
    return re.split(r"[.\[( ]", variable.strip(), maxsplit=1)[0]


def what(effect: Json, variable: str) -> str:
    """A verb phrase for what an effect did, e.g. 'dropped columns of `df` in place'."""
    how, detail = effect["how"], effect["detail"]
    v = _code(variable)
    t = _code(effect["target"]) if effect["target"] else v
    if how == "call":
        verb = {"assign": "assign", "modify": "modify", "delete": "delete"}[effect["op"]]
        return "called %s, which may %s %s" % (_code(detail or "?"), verb, v)
    if how == "dynamic":
        return "called %s, which may change any variable" % _code((detail or "?") + "()")
    if how == "import-star":
        return "may have assigned %s with %s" % (v, _code("from %s import *" % (detail or "?")))
    if how == "run" and effect["name"] == "*":
        return "ran %s, which may assign any variable" % _code("%run " + (detail or "?"))
    if how == "unread":
        return "is too long to read (%s characters), so it may assign any variable" % (detail or "?")
    if effect["op"] == "assign":
        if how == "def":
            return "defined the function " + v
        if how == "class":
            return "defined the class " + v
        if how == "import":
            return "imported " + v
        if how == "for":
            return "assigned %s as a loop variable" % v
        if how == "with":
            return "assigned %s in a with statement" % v
        if how == "except":
            return "assigned %s in an except clause" % v
        if how == "magic":
            return "assigned %s with %s" % (v, detail)
        if how == "run":
            return "assigned %s by running %s" % (v, effect["via"] or detail)
        if how == "assign-none":
            return "assigned %s the result of %s, which is None" % (v, _code("%s(inplace=True)" % detail))
        return "assigned " + v
    if effect["op"] == "delete":
        if how == "reset":
            return "deleted every variable with " + (detail or "%reset")
        if how == "xdel":
            return "deleted %s with %%xdel" % v
        return "deleted " + v
    if how == "augmented":
        return "updated %s with %s" % (t, detail)
    if how in ("item-store", "attr-store"):
        return "set " + t
    if how in ("item-delete", "attr-delete"):
        return "deleted " + t
    if how == "inplace":
        phrase = INPLACE_PHRASES.get(detail or "")
        return phrase.format(t=t) if phrase else "changed %s in place with %s" % (t, _code("%s(inplace=True)" % (detail or "").split(":")[0]))
    if how == "fit":
        return FIT_PHRASES.get(detail or "", "fitted {t}").format(t=t)
    if how == "method":
        phrase = METHOD_PHRASES.get(detail or "")
        return phrase.format(t=t) if phrase else "changed %s in place with %s" % (t, _code("%s()" % detail))
    if how == "function":
        if (detail or "").endswith("shuffle"):
            return "shuffled %s in place" % t
        return "changed %s in place with %s" % (t, _code("%s()" % detail))
    if how == "out":
        return "wrote into %s with %s" % (t, _code("%s(out=...)" % detail))
    return "changed " + t


class _Cells:
    """The notebook's current cells, and which of them each run was."""

    def __init__(self, cells: Optional[Sequence[Json]], target_cell_id: Optional[str]):
        self.cells = list(cells) if cells is not None else None
        self.by_id = {c["cellId"]: c for c in self.cells or []}
        self.target = self.by_id.get(target_cell_id) if target_cell_id else None

    def of(self, run: Json) -> Optional[Json]:
        if self.cells is None:
            return None
        if run["cellId"] is not None:
            return self.by_id.get(run["cellId"])
        same = [c for c in self.cells if c["source"] == run["code"]]
        return same[0] if len(same) == 1 else None

    def below_target(self, cell: Optional[Json]) -> bool:
        return bool(cell and self.target and cell["index"] > self.target["index"])


def _label(run: Optional[Json], cell: Optional[Json], cells: _Cells) -> str:
    bits = []
    if cells.below_target(cell):
        bits.append("below this one")
    count = run["executionCount"] if run else None
    if cell is not None:
        head = "Cell %d" % (cell["index"] + 1)
        if count is not None:
            bits.append("In [%d]" % count)
    elif count is not None:
        head = "In [%d]" % count
    else:
        head = "A cell"
    if run is not None and not run["recorded"]:
        bits.append("run before recording began, known from its code only")
    return "%s (%s)" % (head, "; ".join(bits)) if bits else head


def _key(run: Json) -> str:
    return "id:" + run["cellId"] if run["cellId"] is not None else "code:" + run["code"]


def _entry(variable: str, kind: str, run: Optional[Json], cell: Optional[Json], line: Optional[int], note: str, sentence: str, edited: bool) -> Json:
    return {
        "variable": variable,
        "kind": kind,
        "cellId": (run["cellId"] if run and run["cellId"] is not None else (cell["cellId"] if cell else None)),
        "executionCount": run["executionCount"] if run else None,
        "index": cell["index"] if cell else None,
        "line": line,
        "recorded": run["recorded"] if run else True,
        "edited": edited,
        "note": note,
        "sentence": sentence,
    }


def _effect_entry(variable: str, kind: str, run: Json, effect: Json, cells: _Cells, again: bool) -> Json:
    cell = cells.of(run)
    edited = cell is not None and cell["source"] != run["code"]
    phrase = what(effect, variable)
    line = effect["line"]
    qualifier = ""
    if effect["status"] == "maybe" and effect["how"] not in ("call", "dynamic", "import-star", "unread") and not (effect["how"] == "run" and effect["name"] == "*"):
        if effect["why"] == "raised-inside":
            raised = run["raised"] or {}
            qualifier = ", possibly: the cell raised %s at line %s" % (raised.get("exception", "an exception"), raised.get("line") or "?")
        else:
            qualifier = ", " + QUALIFIERS.get(effect["why"] or "dynamic", QUALIFIERS["dynamic"])
    sentence = "%s, line %d, %s%s%s." % (_label(run, cell, cells), line, phrase, ", again" if again else "", qualifier)
    if edited:
        sentence += " The cell has been edited since it ran."
    note = "line %d: %s%s%s" % (line, phrase, " (again)" if again else "", " (maybe)" if kind == "maybe" and qualifier else "")
    return _entry(variable, kind, run, cell, line, note, sentence, edited)


def _touches(effect: Json, variable: str) -> bool:
    return effect["name"] == variable or effect["name"] == "*"


def _kind(effect: Json) -> str:
    if effect["status"] == "maybe":
        return "maybe"
    return {"assign": "assigned", "modify": "modified", "delete": "deleted"}[effect["op"]]


def _last_assignment(runs: List[Json], variable: str) -> Optional[Any]:
    for r in range(len(runs) - 1, -1, -1):
        effects = runs[r]["effects"]
        for e in range(len(effects) - 1, -1, -1):
            eff = effects[e]
            if eff["name"] == variable and eff["op"] == "assign" and eff["status"] == "done":
                return r, e
    return None


def _history(runs: List[Json], variable: str, cells: _Cells, start: Optional[Any], exists: bool) -> List[Json]:
    """The assignment that set it, then everything since that changed (or may have changed) it.

    For a variable that does not exist, only the assignment and what may have deleted it since.
    """
    if start is None and not exists:
        return []
    out: List[Json] = []
    seen_keys: Dict[str, bool] = {}
    first_run, first_effect = start if start is not None else (0, 0)
    for r in range(first_run, len(runs)):
        run = runs[r]
        if not exists and out and out[-1]["kind"] == "deleted":
            break  # the first certain deletion explains it; later ones add nothing
        for e, effect in enumerate(run["effects"]):
            if r == first_run and e < first_effect:
                continue
            if not _touches(effect, variable) or effect["status"] == "skipped":
                continue
            is_start = start is not None and (r, e) == (first_run, first_effect)
            if not exists and not is_start and effect["op"] != "delete":
                continue
            kind = "assigned" if is_start else _kind(effect)
            key = _key(run) + "|" + effect["how"] + "|" + str(effect["detail"]) + "|" + str(effect["line"])
            again = key in seen_keys
            seen_keys[key] = True
            out.append(_effect_entry(variable, kind, run, effect, cells, again))
    return out


def _attempts(runs: List[Json], variable: str, cells: _Cells, after: int) -> List[Json]:
    """Runs whose assignment of a missing variable did not happen, the latest run of each cell."""
    latest: Dict[str, int] = {}
    for r, run in enumerate(runs):
        latest[_key(run)] = r
    out: List[Json] = []
    for r in range(after + 1, len(runs)):
        run = runs[r]
        if latest[_key(run)] != r:
            continue
        tried = [e for e in run["effects"] if e["name"] == variable and e["op"] == "assign" and e["status"] != "done"]
        if not tried:
            continue
        effect = tried[0]
        cell = cells.of(run)
        edited = cell is not None and cell["source"] != run["code"]
        label = _label(run, cell, cells)
        raised = run["raised"] or {}
        line = effect["line"]
        v = _code(variable)
        if effect["status"] == "skipped" and effect["why"] == "syntax":
            kind = "raised-before"
            sentence = "%s did not run: it has a %s at line %s, so the assignment of %s at line %d never ran." % (
                label, raised.get("exception", "SyntaxError"), raised.get("line") or "?", v, line)
            note = "%s at line %s: %s (line %d) never ran" % (raised.get("exception", "SyntaxError"), raised.get("line") or "?", v, line)
        elif effect["status"] == "skipped" or effect["why"] == "raised-inside":
            kind = "raised-before"
            possibly = "" if effect["status"] == "skipped" else "possibly "
            if raised.get("line") == line:
                sentence = "%s raised %s at line %d, in the statement that assigns %s." % (
                    label, raised.get("exception", "an exception"), line, v)
            else:
                sentence = "%s raised %s at line %s, %sbefore reaching the assignment of %s at line %d." % (
                    label, raised.get("exception", "an exception"), raised.get("line") or "?", possibly, v, line)
            note = "raised %s at line %s before assigning %s (line %d)" % (raised.get("exception", "an exception"), raised.get("line") or "?", v, line)
        elif effect["how"] == "call":
            kind = "conditional"
            sentence = "%s calls %s at line %d, which may assign %s; it did not, since %s is not defined now." % (
                label, _code(effect["detail"] or "?"), line, v, v)
            note = "calls %s, which may assign %s (line %d)" % (_code(effect["detail"] or "?"), v, line)
        else:
            kind = "conditional"
            sentence = "%s assigns %s at line %d %s; it did not, since %s is not defined now." % (
                label, v, line, QUALIFIERS.get(effect["why"] or "dynamic", QUALIFIERS["dynamic"]), v)
            note = "assigns %s only conditionally (line %d)" % (v, line)
        if edited:
            sentence += " The cell has been edited since it ran."
        out.append(_entry(variable, kind, run, cell, line, note, sentence, edited))
    return out


def _unrun_definitions(runs: List[Json], variable: str, cells: _Cells, explained: List[Json]) -> List[Json]:
    """Notebook cells whose current code defines the variable, and why that did not count."""
    if cells.cells is None:
        return []
    since = "since recording began" if any(not r["recorded"] for r in runs) else "since the kernel started"
    latest: Dict[str, Json] = {}
    for run in runs:
        cell = cells.of(run)
        if cell is not None:
            latest[cell["cellId"]] = run
    mentioned = {e["cellId"] for e in explained if e["cellId"] is not None}
    out: List[Json] = []
    v = _code(variable)
    for cell in sorted(cells.cells, key=lambda c: c["index"]):
        if cells.target is not None and cell["cellId"] == cells.target["cellId"]:
            continue
        line = defines_line(cell["source"], variable)
        if line is None or cell["cellId"] in mentioned:
            continue
        run = latest.get(cell["cellId"])
        where = "cell %d, below this one," % (cell["index"] + 1) if cells.below_target(cell) else "cell %d" % (cell["index"] + 1)
        if run is None:
            sentence = "%s is defined at line %d of %s which has not run %s." % (v, line, where if where.endswith(",") else where + ",", since)
            note = "defines %s (line %d); not run %s" % (v, line, since)
            out.append(_entry(variable, "not-run", None, cell, line, note, sentence, False))
        elif run["code"] != cell["source"] and not any(e["name"] == variable and e["op"] == "assign" for e in run["effects"]):
            sentence = "%s is defined at line %d of %s but the cell was edited after it last ran (In [%s]): the code that ran did not assign it." % (
                v, line, where if where.endswith(",") else where + ",", run["executionCount"] if run["executionCount"] is not None else "?")
            note = "defines %s (line %d); edited since it ran" % (v, line)
            out.append(_entry(variable, "edited", run, cell, line, note, sentence, True))
    return out


def defined_in(log: Json, name: str) -> Optional[int]:
    """The execution count of the run that last assigned `name` for certain, when nothing deleted it
    since: the cell a "Did you mean `df`?" can point to. None when the log does not know one."""
    runs = log["runs"]
    start = _last_assignment(runs, name)
    if start is None or _deleted_since(runs, name, start):
        return None
    return runs[start[0]].get("executionCount")


def _deleted_since(runs: List[Json], variable: str, start: Any) -> bool:
    return any(
        e["op"] == "delete" and e["status"] == "done" and _touches(e, variable)
        for r in range(start[0], len(runs)) for e in runs[r]["effects"][(start[1] if r == start[0] else 0):]
    )


def origin(log: Json, variables: Sequence[str], defined: Optional[Sequence[str]] = None,
           cells: Optional[Sequence[Json]] = None, target_cell_id: Optional[str] = None) -> List[Json]:
    """Origin entries for each variable, in the order the variables are given.

    `defined`: the names that exist in the kernel now (None: judged from the log alone).
    `cells`: the notebook's current cells `[{cellId, index, source}]` (None outside JupyterLab).
    `target_cell_id`: the cell being checked, so cells below it can be called out.
    """
    runs = log["runs"]
    notebook = _Cells(cells, target_cell_id)
    out: List[Json] = []
    seen = set()
    for raw in variables:
        variable = root_of(raw)
        if not variable or variable in seen:
            continue
        seen.add(variable)
        start = _last_assignment(runs, variable)
        if defined is not None:
            exists = variable in defined
        else:
            exists = start is not None and not _deleted_since(runs, variable, start)
        history = _history(runs, variable, notebook, start, exists)
        out.extend(history)
        if not exists:
            attempts = _attempts(runs, variable, notebook, start[0] if start is not None else -1)
            out.extend(attempts)
            out.extend(_unrun_definitions(runs, variable, notebook, history + attempts))
    return out
