"""The benchmark's figures as Markdown tables (printed, and written to summary.md)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional


def pct(x: Optional[float]) -> str:
    return "-" if x is None else "%.3f" % x


def _table(header: List[str], rows: List[List[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def checks_markdown(figures: Dict[str, Any], records: List[Dict[str, Any]]) -> str:
    out = ["## Checks track (built-in checks on the recorded facts)", ""]
    out.append(_table(
        ["cases", "claims on crashing cells", "recall", "right exception type", "claims on fixed cells", "errors"],
        [[str(figures["cases"]), str(figures["claimsOnCrashing"]), pct(figures["recall"]), str(figures["rightType"]),
          str(figures["claimsOnFixed"]), str(figures["errors"])]]))
    out += ["", "By the recorded exception type:", ""]
    out.append(_table(["exception", "cases", "claimed", "right type", "recall"],
                      [[k, str(v["cases"]), str(v["claimed"]), str(v["rightType"]), pct(v["recall"])]
                       for k, v in figures["byException"].items()]))
    if figures.get("byRule"):
        out += ["", "By rule:", ""]
        out.append(_table(["rule", "claims on crashing cells", "right type", "claims on fixed cells"],
                          [[k, str(v["claimed"]), str(v["rightType"]), str(v["onFixed"])]
                           for k, v in figures["byRule"].items()]))
    claims = [r for r in records if r.get("crash")]
    if claims:
        out += ["", "Claims on crashing cells:", ""]
        out.append(_table(["case", "recorded", "claimed", "line", "rule", "message"],
                          [[r["case"], r["ename"], r["crash"]["exception"], str(r["crash"]["line"]), r["crash"]["rule"],
                            r["crash"]["message"].replace("|", "\\|")] for r in claims]))
    unclaimed = [r for r in records if not r.get("crash")]
    if unclaimed:
        out += ["", "Crashing cells not claimed, with where the checker stopped and why:", ""]
        out.append(_table(["case", "recorded", "stopped at"],
                          [[r["case"], r["ename"], _stop_text(r).replace("|", "\\|")] for r in unclaimed]))
    alarms = [r for r in records if r.get("fixed")]
    if alarms:
        out += ["", "**FALSE ALARMS: claims on FIXED cells (must be 0):**", ""]
        out.append(_table(["case", "claimed", "line", "rule", "message"],
                          [[r["case"], r["fixed"]["exception"], str(r["fixed"]["line"]), r["fixed"]["rule"],
                            r["fixed"]["message"].replace("|", "\\|")] for r in alarms]))
    return "\n".join(out)


def _stop_text(record: Dict[str, Any]) -> str:
    if record.get("error"):
        return "error: %s" % record["error"]
    stop = record.get("crashStoppedAt")
    if not stop:
        return "read to the end: nothing certain"
    return str(stop.get("reason") or "")


def _metric_row(label: str, m: Dict[str, Any]) -> List[str]:
    return [label, str(m["n"]), pct(m["accuracy"]), pct(m["precision"]), pct(m["recall"]), pct(m["f1"]),
            "%d/%d/%d/%d" % (m["tp"], m["fp"], m["tn"], m["fn"]), str(m["undecided"])]


ROWS = (("without", "without runtime information"), ("with", "with runtime information"),
        ("product", "with runtime information, built-in checks first"))
_HEADER = ["", "n", "accuracy", "precision", "recall", "F1", "TP/FP/TN/FN", "undecided",
           "s per call (median)", "tokens in per call", "tokens out per call"]


def _cost_cells(items: List[Dict[str, Any]]) -> List[str]:
    """Latency and tokens of the calls behind these items (cached answers keep their own timing);
    a call that reported no usage counts our estimate of its input and no output."""
    runs = [r for i in items if not i.get("byChecks") for r in i.get("runs", [])]
    if not runs:
        return ["-", "-", "-"]
    seconds = sorted(float(r.get("seconds") or 0.0) for r in runs)
    middle = len(seconds) // 2
    median = seconds[middle] if len(seconds) % 2 else (seconds[middle - 1] + seconds[middle]) / 2
    usage = [r.get("usage") if isinstance(r.get("usage"), dict) else {} for r in runs]
    tin = [int(u.get("input_tokens", u.get("prompt_tokens", 0)) or 0) or int(r.get("estimatedInputTokens") or 0)
           for u, r in zip(usage, runs)]
    tout = [int(u.get("output_tokens", u.get("completion_tokens", 0)) or 0) for u in usage]
    return ["%.1f" % median, "%d" % round(sum(tin) / len(runs)), "%d" % round(sum(tout) / len(runs))]


def model_markdown(model: Dict[str, Any]) -> str:
    configs = model["configs"]
    out = ["## Model track (%s, %d run%s per prompt, majority vote, context %s)" % (
        model["model"], model["runs"], "" if model["runs"] == 1 else "s", model.get("context", "all")), ""]
    items = model.get("items", [])
    out.append(_table(_HEADER, [_metric_row(label, configs[c]["overall"]) + _cost_cells([i for i in items if i["config"] == c])
                                for c, label in ROWS if c in configs]))
    if "product" in configs:
        out += ["", "The last row is what the product answers: the built-in checks' certain crash where they claim one "
                "(%d prompt%s), the model with runtime information elsewhere." % (
                    configs["product"]["byChecks"], "" if configs["product"]["byChecks"] == 1 else "s")]
    named = ["%s runtime information: %d of %d caught crashes" % (label, configs[c]["exceptionNamed"]["rightType"],
                                                                  configs[c]["exceptionNamed"]["caught"])
             for c, label in (("without", "without"), ("with", "with"))]
    out += ["", "The model named the exception that was raised: " + "; ".join(named) + "."]
    for group, title in (("byLibrary", "library"), ("byRootCause", "root cause")):
        names = sorted(set(configs["with"][group]) | set(configs["without"][group]))
        rows = []
        for name in names:
            a = configs["without"][group].get(name)
            b = configs["with"][group].get(name)
            rows.append([name, str((b or a)["n"]), pct(a and a["accuracy"]), pct(b and b["accuracy"]),
                         pct(a and a["f1"]), pct(b and b["f1"])])
        out += ["", "By %s:" % title, ""]
        out.append(_table([title, "n", "accuracy without", "accuracy with", "F1 without", "F1 with"], rows))
    usage = model["usage"]
    out += ["", "Calls: %d (%d answered from the cache, %d failed). Tokens reported by the provider: %s in, %s out "
            "(%d of %d calls reported usage); our estimate of the input: %d tokens.%s" % (
                usage["calls"], model["cached"], model["failed"], usage["inputTokens"], usage["outputTokens"],
                usage["callsWithUsage"], usage["calls"], usage["estimatedInputTokens"],
                "" if usage["costUsd"] is None else " Cost: $%.4f." % usage["costUsd"])]
    return "\n".join(out)


def context_markdown(sizes: Dict[str, Any]) -> str:
    """The prompt's size with every executed cell against only the target's slice (and against
    the slice's cells sent whole, to show what cutting inside cells saves)."""
    rows = [[label, str(sizes[key]["prompts"]), str(sizes[key]["cells"]["all"]), str(sizes[key]["cells"]["slice"]),
             str(sizes[key]["linesLeftOut"]), str(sizes[key]["chars"]["all"]), str(sizes[key]["chars"]["sliceCellsWhole"]),
             str(sizes[key]["chars"]["slice"]), "%.2fx" % sizes[key]["ratioCellsWhole"], "%.2fx" % sizes[key]["ratio"]]
            for key, label in (("without", "without runtime information"), ("with", "with runtime information"))]
    return "\n".join(["## Prompt size: --context slice against all (%s prompt)" % sizes["style"], "",
                      _table(["", "prompts", "cells all", "cells slice", "lines left out", "characters all",
                              "characters slice, cells whole", "characters slice", "cells whole/all", "slice/all"], rows)])