"""`crane-llm bench junobench DIR`: both tracks, then results.json, summary.md and report.html.

Exit code: 0 done; 1 the built-in checks claimed a crash on a fixed cell (a false alarm, which
must never happen, so CI fails on it); 2 the benchmark could not run (no cases, no model, ...).
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from typing import Any, Dict, List, Optional, TextIO

from .cases import Case, load_cases
from .checks_track import run_checks_track
from .html_report import html_report
from .metrics import checks_figures, detection, grouped
from .model_track import context_sizes
from .progress import ProgressBar
from .report import checks_markdown, context_markdown, model_markdown


def product_items(items: List[Dict[str, Any]], records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """What the product answers: a certain crash from the checks when they claim one (no model
    call), else the model's answer with runtime information. Derived, no extra calls."""
    claims = {(r["case"], version) for r in records for version in ("crash", "fixed") if r.get(version)}
    out = []
    for item in items:
        if item["config"] != "with":
            continue
        derived = dict(item, config="product")
        if (item["case"], item["version"]) in claims:
            derived.update(predicted=True, undecided=False, byChecks=True)
        out.append(derived)
    return out


def model_figures(items: List[Dict[str, Any]]) -> Dict[str, Any]:
    configs = {}
    for config in sorted({i["config"] for i in items}):
        subset = [i for i in items if i["config"] == config]
        caught = [i for i in subset if i["truth"] and i["predicted"]]
        configs[config] = {"overall": detection(subset), "byLibrary": grouped(subset, "library"),
                           "byRootCause": grouped(subset, "rootCause"),
                           # Of the crashes the model caught, how often it named the exception raised.
                           "exceptionNamed": {"caught": len(caught),
                                              "rightType": sum(1 for i in caught if i["predictedException"] == i["ename"])},
                           "byChecks": sum(1 for i in subset if i.get("byChecks"))}
    return configs


def run_model_track(cases: List[Case], options: Any, err: TextIO, records: List[Dict[str, Any]]) -> Dict[str, Any]:
    from ...cli.model import resolve_settings, settings_problem
    from .model_track import Cache, items_from, plan, run_jobs, usage_totals

    settings = resolve_settings(options.model)
    problem = settings_problem(settings)
    if problem:
        raise RuntimeError(problem)
    jobs = plan(cases, settings, max(1, options.runs), options.prompt, options.context)
    bar = ProgressBar(len(jobs), "model calls", err, enabled=not options.quiet)

    def on_done(job, answer, cached):
        bar.advance(cached=cached, failed=answer.get("problem") is not None)

    answers = run_jobs(jobs, settings, Cache(os.path.join(options.out, "cache")), options.jobs, options.fresh, on_done,
                       getattr(options, "timeout", None))
    bar.close()
    items = items_from(jobs, answers)
    failed = [a for a in answers.values() if a.get("problem")]
    return {
        "model": settings.model.value, "context": options.context, "host": settings.provider_host, "api": settings.api_kind, "runs": max(1, options.runs),
        "configs": model_figures(items + product_items(items, records)), "items": items, "cached": bar.cached, "failed": len(failed),
        "failures": sorted({a["problem"]["message"] for a in failed})[:10],
        "usage": usage_totals(list(answers.values()), options.price_in, options.price_out),
    }


def run(options: Any, out: Optional[TextIO] = None, err: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    only = [c.strip() for c in options.cases.split(",") if c.strip()] if getattr(options, "cases", None) else None
    try:
        cases = load_cases(options.dir, only, options.limit)
    except FileNotFoundError as exc:
        err.write("crane-llm bench: %s\n" % exc)
        return 2
    if not cases:
        err.write("crane-llm bench: no JunoBench-format case in %s (see bench/junobench/README.md for the layout)\n" % options.dir)
        return 2
    os.makedirs(options.out, exist_ok=True)
    result: Dict[str, Any] = {"meta": {"dir": os.path.abspath(options.dir), "cases": len(cases),
                                       "caseNames": [c.name for c in cases]}}
    unreadable = [(c.name, v.label, v.facts_problem) for c in cases for v in c.versions.values() if v.facts_problem]
    for name, label, problem in unreadable:
        err.write("warning: %s (%s): recorded runtime information unusable: %s\n" % (name, label, problem))

    records = run_checks_track(cases)
    figures = checks_figures(records)
    result["checks"] = {"figures": figures, "records": records}
    sections = [checks_markdown(figures, records)]
    result["promptSize"] = context_sizes(cases, options.prompt)
    sections.append(context_markdown(result["promptSize"]))

    code = 0
    if not options.no_llm:
        try:
            result["model"] = run_model_track(cases, options, err, records)
        except KeyboardInterrupt:
            err.write("\nInterrupted. The answers received so far are cached in %s; run the same command "
                      "again to resume.\n" % os.path.join(options.out, "cache"))
            return 130
        except RuntimeError as exc:
            err.write("crane-llm bench: the model track could not run: %s\n" % exc)
            code = 2
        else:
            sections.append(model_markdown(result["model"]))
            for message in result["model"]["failures"]:
                err.write("warning: a model call failed: %s\n" % message)

    result["meta"]["finished"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    markdown = "# JunoBench: CRANE-LLM (%d cases)\n\n" % len(cases) + "\n\n".join(sections) + "\n"
    _write(os.path.join(options.out, "results.json"), json.dumps(result, indent=1, ensure_ascii=False, default=str))
    _write(os.path.join(options.out, "summary.md"), markdown)
    _write(os.path.join(options.out, "report.html"), html_report(result))
    out.write(markdown)
    out.write("\nWritten: %s, summary.md, report.html\n" % os.path.join(options.out, "results.json"))
    if figures["claimsOnFixed"]:
        err.write("\n" + "!" * 78 + "\n")
        err.write("FALSE ALARM: the built-in checks claimed a crash on %d FIXED cell(s), which run clean:\n" % figures["claimsOnFixed"])
        for r in records:
            if r.get("fixed"):
                err.write("  %s: %s at line %s (%s): %s\n" % (r["case"], r["fixed"]["exception"], r["fixed"]["line"],
                                                             r["fixed"]["rule"], r["fixed"]["message"]))
        err.write("!" * 78 + "\n")
        code = 1
    return code


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def run_from_args(args: Any) -> int:
    return run(args)
