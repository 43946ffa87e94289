"""The one presentation of a verdict in Python: the verdicts the built-in checks give, their
colours, headlines, badges and fixed sentences. The Python twin of libs/core/src/present.ts,
verdict.ts, check-state.ts's STALE_TEXT and usage.ts's usageLine, serving the magic, the CLI and
the benchmark.

The magic's output must look like the JupyterLab verdict, so every string here is the one the
TypeScript side shows; tests/magic/test_present.py reads present.ts and holds the two to it.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .lineage.origin import defined_in

COLOUR = {
    "certain-crash": "red",
    "predicted-crash": "red",
    "no-crash": "green",
    "unreadable": "amber",
    "nothing-certain": "blue",
}

HEADLINE = {
    "certain-crash": "This cell will crash",
    "predicted-crash": "Crash predicted",
    "no-crash": "No crash predicted",
    "unreadable": "The response could not be read as a verdict",
    "nothing-certain": "The built-in checks found no certain crash",
}

CERTAIN_BADGE = "Built-in check · certain"
CHECKS_ONLY_BADGE = "Built-in checks only"
CHECKER_RAN_FIRST = "The built-in checker ran first and found no certain crash."
CODE_ONLY_NOTE = "Runtime information was off: the model saw the code alone, and the built-in checks were skipped."
CHECKING = "CRANE-LLM is checking this cell\u2026"
CANCELLED = "Check cancelled. Nothing was changed."

# The headline of a check that could not finish, by ProblemKind (as apps/jlab's verdict view).
PROBLEM_TITLE = {
    "no-kernel": "No kernel",
    "not-python": "Not a Python kernel",
    "busy": "The notebook is busy",
    "not-installed": "crane_llm is not installed in this kernel",
    "kernel": "The kernel could not run the check",
    "kernel-restarted": "The kernel restarted during the check",
    "closed": "The notebook was closed during the check",
    "no-key": "No API key",
    "settings": "The model settings cannot be used",
    "server": "The CRANE-LLM server extension did not answer",
    "provider": "The model call failed",
    "internal": "The check could not finish",
}
NOTHING_CERTAIN_EXPLANATION = (
    'This is not a "no crash" prediction: the built-in checks only report crashes they are certain of, '
    "and nothing was sent to any model."
)

STALE_TEXT = {
    "edited": "Stale: the cell was edited after this verdict.",
    "other-cell-ran": "Stale: another cell ran after this verdict, so the kernel state may have changed.",
    "kernel-restarted": "Stale: the kernel restarted after this verdict.",
}

# The icons of apps/jlab's verdict view, so that colour is never the only signal.
ICON = {"red": "\u2716", "green": "\u2714", "amber": "?", "blue": "\u2139", "grey": "\u25f7"}
STEP_ICON = {"running": "\u2026", "done": "\u2713", "skipped": "\u2013", "failed": "\u2716"}

# The static HTML has no theme variables to read, so it uses the values JupyterLab's light theme
# gives the ones apps/jlab's stylesheet uses: --jp-error-color1, --jp-success-color1,
# --jp-warn-color1, --jp-info-color1 and --jp-border-color2.
HEX = {"red": "#d32f2f", "green": "#388e3c", "amber": "#f57c00", "blue": "#0097a7", "grey": "#e0e0e0"}
GREY_TEXT = "#757575"  # --jp-ui-font-color2, for a stale verdict's text


def colour_of(kind: str, stale: bool) -> str:
    return "grey" if stale else COLOUR[kind]


def headline_of(verdict: Dict[str, Any]) -> str:
    base = HEADLINE[verdict["kind"]]
    if verdict.get("exception") and verdict["kind"] in ("certain-crash", "predicted-crash"):
        line = verdict.get("line")
        where = "" if line is None else " at line %d" % line
        return "%s: %s%s" % (base, verdict["exception"], where)
    return base


def badge_of(verdict: Dict[str, Any]) -> str:
    source = verdict["source"]
    if source["type"] == "llm":
        return "LLM prediction · %s" % source["model"]
    return CERTAIN_BADGE if verdict["kind"] == "certain-crash" else CHECKS_ONLY_BADGE


def certain_crash_verdict(crash: Dict[str, Any], defined_in: Optional[int] = None) -> Dict[str, Any]:
    """The verdict of a crash the built-in checks proved (libs/core's certainCrash). `defined_in`:
    the execution count of the run that defined a NameError's suggested name (lineage's
    defined_in), which its "Did you mean" then names: "Did you mean `df` (defined in In [3])?"."""
    return {
        "kind": "certain-crash",
        "source": {"type": "checks"},
        "exception": crash["exception"],
        "line": crash.get("line"),
        "explanation": _with_definition(crash, defined_in),
        "variables": list(crash.get("variables") or []),
        "checkerRanFirst": True,
        **({"correction": dict(crash["correction"])} if crash.get("correction") else {}),
    }


def certain_crash_verdict_of(facts: Dict[str, Any]) -> Dict[str, Any]:
    """The verdict of the kernel's certain crash, its "Did you mean" naming the run that defined the
    suggested name when the execution log knows it (as apps/jlab's run-check.ts does)."""
    crash = facts["checks"]["crash"]
    name = suggested_name(crash)
    log = facts.get("log")
    return certain_crash_verdict(crash, defined_in(log, name) if name is not None and log else None)


def suggested_name(crash: Dict[str, Any]) -> Optional[str]:
    """The name a NameError's correction suggests, whose defining cell the explanation can name."""
    correction = crash.get("correction")
    return correction["new"] if crash.get("exception") == "NameError" and correction else None


def _with_definition(crash: Dict[str, Any], defined_in: Optional[int]) -> str:
    message = crash.get("message", "")
    name = suggested_name(crash)
    hint = "Did you mean `%s`?" % name
    if name is None or defined_in is None or hint not in message:
        return message
    return message.replace(hint, "Did you mean `%s` (defined in In [%d])?" % (name, defined_in), 1)


def fix_actions(state: Dict[str, Any]) -> List[Dict[str, Any]]:
    """What a fresh certain crash offers to do before the run (libs/core's fixActions, same golden vector).

    The magic shows their labels as text: it has no notebook cells to run or edit.
    """
    verdict = state.get("verdict")
    if state.get("phase") != "done" or state.get("stale") is not None or not verdict or verdict["kind"] != "certain-crash":
        return []
    actions: List[Dict[str, Any]] = []
    if verdict.get("exception") == "NameError":
        definer = next((item for item in state.get("origin") or []
                        if item.get("cellId") is not None and item.get("kind") in ("not-run", "raised-before")), None)
        if definer is not None:
            index = definer.get("index")
            which = "cell %d" % (index + 1) if isinstance(index, int) else "the cell that defines it"
            actions.append({"kind": "run-cell", "cellId": definer["cellId"], "label": "Run %s first" % which,
                            "title": "Runs %s only (it defines `%s`); this cell stays unrun." % (which, definer["variable"])})
    correction = verdict.get("correction")
    if correction:
        actions.append({"kind": "replace", "correction": correction,
                        "label": "Replace %s with %s" % (correction["old"], correction["new"]),
                        "title": "Edits line %d of this cell; nothing runs." % correction["line"]})
    return actions


def model_fix(state: Dict[str, Any]) -> Optional[str]:
    """The model's corrected cell, shown under a fresh predicted crash."""
    verdict = state.get("verdict") or {}
    if verdict.get("kind") == "predicted-crash" and verdict.get("fix") and state.get("stale") is None:
        return verdict["fix"]
    return None


def nothing_certain_verdict() -> Dict[str, Any]:
    """The checks ran alone and proved nothing (libs/core's nothingCertain): not a "no crash"."""
    return {
        "kind": "nothing-certain",
        "source": {"type": "checks"},
        "exception": None,
        "line": None,
        "explanation": NOTHING_CERTAIN_EXPLANATION,
        "variables": [],
        "checkerRanFirst": True,
    }


def checks_detail(checks: Dict[str, Any]) -> str:
    """What the checks step says when it ends: the same words as apps/jlab's step detail."""
    ms = "%.1f ms" % checks.get("elapsedMs", 0.0)
    crash = checks.get("crash")
    if crash:
        return "found a certain %s (%s)" % (crash["exception"], ms)
    stop = checks.get("stoppedAt")
    if not stop:
        return "nothing certain; read the whole cell (%s)" % ms
    where = "" if stop.get("line") is None else " at line %d" % stop["line"]
    return "nothing certain; stopped%s: %s (%s)" % (where, stop.get("reason"), ms)


def budget_detail(facts: Dict[str, Any]) -> str:
    """What the kernel's time budget cut, added to the checks step (apps/jlab's budgetDetail)."""
    budget = facts.get("budget")
    if not budget:
        return ""
    text = ""
    if budget["ranOut"]:
        text += "; the time budget of %s s ran out, so the kernel left out %s" % (
            _js_number(budget["seconds"]), "; ".join(budget["cut"]))
    if budget.get("warning"):
        text += " (%s)" % budget["warning"]
    return text


def _js_number(value: float) -> str:
    """A number as JavaScript prints it (2, not 2.0)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def stale_text(reason: Optional[str]) -> Optional[str]:
    return STALE_TEXT.get(reason) if reason else None


def _token_count(value: Any) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if value >= 0 else None


def _first_count(counts: Dict[str, Any], *keys: str) -> Optional[int]:
    return next((c for c in (_token_count(counts.get(k)) for k in keys) if c is not None), None)


def token_usage(reported: Any) -> Optional[Dict[str, Optional[int]]]:
    """{"input", "output"} from what the provider reported (the Responses API's input/output_tokens,
    Chat Completions' prompt/completion_tokens, or anything a server sent); a count left out is
    None, never guessed, and None when it holds no count (libs/core usage.ts tokenUsage)."""
    counts = reported if isinstance(reported, dict) else {}
    given = _first_count(counts, "input_tokens", "prompt_tokens")
    taken = _first_count(counts, "output_tokens", "completion_tokens")
    return None if given is None and taken is None else {"input": given, "output": taken}


def usage_line(usage: Optional[Dict[str, Optional[int]]]) -> str:
    """"Tokens: 1,234 in, 56 out", the line the sidebar shows under the raw response (usage.ts
    usageLine; libs/core/fixtures/usage.json holds the two to the same words)."""
    if not usage:
        return "Tokens: not reported by the provider"
    given, taken = usage.get("input"), usage.get("output")
    return "Tokens: %s, %s" % ("input not reported" if given is None else "{:,} in".format(given),
                               "output not reported" if taken is None else "{:,} out".format(taken))
