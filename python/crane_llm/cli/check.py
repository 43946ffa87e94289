"""`crane-llm check NOTEBOOK.ipynb --cell N`: one cell of a notebook file, checked headlessly.

Exit codes (for CI and pre-commit hooks):
  0  no crash found: the model predicts none, or (--no-llm) the built-in checks found nothing certain
  1  a crash is certain (built-in check) or predicted (model)
  2  could not decide: an unreadable answer, a provider or kernel problem, a usage error, or an
     earlier cell that raised (unless --keep-going)

An earlier cell that raises stops the run by default: the kernel would then hold a state the
notebook's author never had at that cell, and a verdict on it would mislead. --keep-going runs
the remaining cells anyway (as "Run All" with errors allowed) and says which cells failed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List, Optional, TextIO

from ..lineage.slice import slice_runs
from ..plain_text import escaped_controls, without_terminal_controls
from ..present import (CHECKER_RAN_FIRST, badge_of, budget_detail, certain_crash_verdict_of, headline_of, nothing_certain_verdict,
                       token_usage, usage_line)
from ..prompt.from_check import executed_cells
from .notebook import (
    CliError,
    cells_to_run,
    code_cells,
    find_target,
    load_notebook,
    parse_order,
)

EXIT_NO_CRASH = 0
EXIT_CRASH = 1
EXIT_UNDECIDED = 2

def exit_code_for(verdict: Optional[Dict[str, Any]]) -> int:
    if verdict is None:
        return EXIT_UNDECIDED
    kind = verdict["kind"]
    if kind in ("certain-crash", "predicted-crash"):
        return EXIT_CRASH
    if kind in ("no-crash", "nothing-certain"):
        return EXIT_NO_CRASH
    return EXIT_UNDECIDED


class Progress:
    """One line on stderr, rewritten in place on a terminal, one line per cell otherwise."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.open = False

    def cell(self, position: int, total: int, cell: Any) -> None:
        first = (cell.source.strip().splitlines() or [""])[0]
        first = first if len(first) <= 50 else first[:47] + "..."
        text = "Running cell %d (%d of %d): %s" % (cell.number, position, total, without_terminal_controls(first))
        if self.tty:
            self.stream.write("\r\033[K" + text)
            self.open = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def say(self, text: str) -> None:
        self.done()
        self.stream.write(without_terminal_controls(text) + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.open:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.open = False


def run_check(args: Any, out: Optional[TextIO] = None, err: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    # The fields of schema/check-answer.json (shared with the MCP tool), then the command's own.
    report: Dict[str, Any] = {"notebook": args.notebook, "cell": None, "cellId": None, "cellIndex": None, "verdict": None,
                              "checks": None, "failedCells": [], "problem": None, "prompt": None,
                              "raw": None, "usage": None, "origin": [], "exitCode": EXIT_UNDECIDED}
    progress = Progress(err)
    try:
        _check(args, report, progress)
    except CliError as exc:
        report["problem"] = {"kind": exc.kind, "message": exc.message}
        report["exitCode"] = exc.code
    except KeyboardInterrupt:
        progress.done()  # the interrupted line is cleared; main says "interrupted" on its own line
        raise
    progress.done()
    _emit(report, args.json, out, err)
    return report["exitCode"]


def _check(args: Any, report: Dict[str, Any], progress: Progress) -> None:
    from .kernel import run_and_gather
    from .model import ask_model, make_prompt, resolve_settings, settings_problem

    nb = load_notebook(args.notebook)
    cells = code_cells(nb)
    target = find_target(cells, args.cell, args.cell_id)
    order = parse_order(args.order) if args.order else None
    before = cells_to_run(cells, target, order)
    report["cell"], report["cellId"], report["cellIndex"] = target.number, target.cell_id, target.index
    use_llm = not args.no_llm
    include_runinfo = not args.no_runinfo
    settings = None
    if use_llm:  # say so before spending seconds on the earlier cells
        settings = resolve_settings(args.model)
        for warning in settings.warnings:
            progress.say("Warning: %s" % warning)
        problem = settings_problem(settings)
        if problem:
            raise CliError(problem, kind="settings")
    request = {"protocol": 1, "source": target.source, "cellId": target.cell_id, "useLlm": use_llm,
               "includeRuntimeInfo": include_runinfo}
    if getattr(args, "budget", None) is not None:
        request["budgetSeconds"] = args.budget
    cwd = os.path.dirname(os.path.abspath(args.notebook))
    try:
        ran = run_and_gather(nb, cwd, before, request, progress.cell, stop_on_error=not args.keep_going,
                             timeout=args.timeout)
    except Exception as exc:  # kernel start, a dead kernel, a timeout: said plainly
        raise CliError("The kernel failed: %s" % (exc,), kind="kernel")
    progress.done()
    report["failedCells"] = [f.to_json() for f in ran["failures"]]
    if ran["stoppedAfter"] is not None:
        failure = ran["failures"][-1]
        raise CliError(
            "Stopped: %s, so cell %d was not checked (the kernel would not hold the state the notebook "
            "expects there). Fix that cell, or pass --keep-going to run the remaining cells anyway."
            % (_sentence(failure.describe()), target.number), kind="earlier-cell")
    for failure in ran["failures"]:
        progress.say("Warning: %s; kept going (--keep-going)." % _sentence(failure.describe()))
    facts = ran["facts"]
    if facts.get("problem"):
        raise CliError(facts["problem"]["message"], kind="kernel-side")
    report["checks"] = facts["checks"]
    report["budget"] = facts.get("budget")
    if budget_detail(facts):
        progress.say("Note: the built-in checks%s." % budget_detail(facts))
    crash = facts["checks"].get("crash")
    if crash:
        report["verdict"] = certain_crash_verdict_of(facts)
    elif not use_llm:
        report["verdict"] = nothing_certain_verdict()
    else:
        executed = executed_cells(facts)
        context = getattr(args, "context", "all")
        if context == "slice":
            executed = slice_runs(executed, target.source)
        prompt = make_prompt(executed, facts.get("runtimeInfo"), target.source, include_runinfo, context=context)
        report["prompt"] = prompt["text"]
        progress.say("Asking %s at %s..." % (settings.model.value, settings.provider_host))
        answer = ask_model(prompt, settings, checker_ran_first=bool(facts["checks"].get("ran")))
        report["raw"], report["usage"] = answer["raw"], answer["usage"]
        if answer["problem"]:
            raise CliError(answer["problem"]["message"], kind="provider:" + answer["problem"]["kind"])
        report["verdict"] = answer["verdict"]
    report["exitCode"] = exit_code_for(report["verdict"])
    if report["exitCode"] == EXIT_CRASH:
        report["origin"] = origin_entries(facts, report["verdict"], cells, target)


def origin_entries(facts: Dict[str, Any], verdict: Dict[str, Any], cells: List[Any], target: Any) -> List[Dict[str, Any]]:
    """Origin of the crash from the kernel's execution log, with the notebook's code cells.

    Cells are given by their position among code cells, so "Cell N" reads as `--cell N` does.
    The origin is an aid, never a reason to fail the check: any problem leaves it empty.
    """
    log = facts.get("log")
    if not log or not verdict.get("variables"):
        return []
    try:
        from ..lineage.origin import origin

        notebook = [{"cellId": c.cell_id, "index": c.number - 1, "source": c.source} for c in cells]
        return origin(log, verdict["variables"], None, notebook, target.cell_id)
    except Exception:
        return []


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _write(stream: TextIO, text: str) -> None:
    """Model text (explanation, raw answer) and provider messages reach a terminal without its
    escape sequences: they would act instead of being shown."""
    stream.write(without_terminal_controls(text))


def _emit(report: Dict[str, Any], as_json: bool, out: TextIO, err: TextIO) -> None:
    if as_json:
        out.write(escaped_controls(json.dumps(report, indent=2, ensure_ascii=False)) + "\n")
        return
    if report["verdict"] is None:
        _write(err, "crane-llm: %s\n" % report["problem"]["message"])
        return
    v = report["verdict"]
    _write(out, "Cell %d: %s  [%s]\n" % (report["cell"], headline_of(v), badge_of(v)))
    if v.get("explanation"):
        _write(out, "  %s\n" % v["explanation"])
    if v["kind"] == "unreadable" and report.get("raw"):
        _write(out, "  Raw response: %s\n" % report["raw"][:2000])
    if report.get("raw") is not None:  # a model answered: what it cost, as the provider reported it
        _write(out, "  %s\n" % usage_line(token_usage(report["usage"])))
    if v["source"]["type"] == "llm" and v.get("checkerRanFirst"):
        _write(out, "  %s\n" % CHECKER_RAN_FIRST)
    if v.get("fix") and v["kind"] == "predicted-crash":
        _write(out, "  Suggested fix (the whole cell):\n")
        for line in v["fix"].split("\n"):
            _write(out, "    %s\n" % line)
    if report.get("origin"):
        _write(out, "  Origin of the crash:\n")
        for entry in report["origin"]:
            _write(out, "    - %s\n" % entry["sentence"])
    for failure in report["failedCells"]:
        _write(out, "  Note: cell %d raised %s while the earlier cells ran.\n" % (failure["cell"], failure["ename"]))
