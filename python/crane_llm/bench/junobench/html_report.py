"""A self-contained HTML report: the tables and bar charts as inline SVG, no script, no external asset."""

from __future__ import annotations

import html
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .report import ROWS, pct

WITHOUT_COLOUR = "#9e9e9e"
WITH_COLOUR = "#1976d2"
CLAIM_COLOUR = "#388e3c"
ALARM_COLOUR = "#d32f2f"


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def bar_chart(title: str, groups: Sequence[Tuple[str, Sequence[Optional[float]]]], series: Sequence[Tuple[str, str]],
              max_value: float = 1.0, value_format: str = "%.2f") -> str:
    """Grouped vertical bars. groups: (label, one value per series); series: (name, colour)."""
    bar_w, gap, pad_l, pad_b, height = 18, 14, 40, 90, 200
    group_w = bar_w * len(series) + gap
    width = max(600, pad_l + group_w * max(1, len(groups)) + 20)
    legend_top = 30 + height + pad_b
    total_h = legend_top + 16 * len(series) + 6
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">' % (width, total_h, _e(title)),
             '<text x="%d" y="16" font-size="13" font-weight="bold">%s</text>' % (pad_l, _e(title))]
    top = 30
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + height - tick * height
        parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e0e0e0"/>' % (pad_l, width - 10, y, y))
        parts.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end">%s</text>' % (pad_l - 4, y + 3, value_format % (tick * max_value)))
    for gi, (label, values) in enumerate(groups):
        x0 = pad_l + gi * group_w + gap / 2
        for si, value in enumerate(values):
            x = x0 + si * bar_w
            if value is None:
                parts.append('<text x="%.1f" y="%d" font-size="9" text-anchor="middle">n/a</text>' % (x + bar_w / 2, top + height - 2))
                continue
            h = max(0.0, min(1.0, value / max_value if max_value else 0.0)) * height
            parts.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s: %s</title></rect>'
                         % (x, top + height - h, bar_w - 2, h, series[si][1], _e(series[si][0]), _e(value_format % value)))
        cx = x0 + bar_w * len(series) / 2
        parts.append('<text transform="translate(%.1f,%d) rotate(-45)" font-size="10" text-anchor="end">%s</text>'
                     % (cx, top + height + 12, _e(label)))
    for i, (name, colour) in enumerate(series):
        y = legend_top + 16 * i
        parts.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11">%s</text>'
                     % (pad_l, y, colour, pad_l + 14, y + 9, _e(name)))
    parts.append("</svg>")
    return "".join(parts)


def _table(header: List[str], rows: List[List[str]]) -> str:
    head = "".join("<th>%s</th>" % _e(h) for h in header)
    body = "".join("<tr>%s</tr>" % "".join("<td>%s</td>" % _e(c) for c in r) for r in rows)
    return "<table><thead><tr>%s</tr></thead><tbody>%s</tbody></table>" % (head, body)


def _checks_section(figures: Dict[str, Any], records: List[Dict[str, Any]]) -> str:
    parts = ["<h2>Checks track</h2>",
             "<p>The built-in checks on each target cell, their questions answered from the paper's recorded runtime "
             "information (anything the facts do not say is unknown).</p>",
             _table(["cases", "claims on crashing cells", "recall", "right exception type", "claims on fixed cells"],
                    [[str(figures["cases"]), str(figures["claimsOnCrashing"]), pct(figures["recall"]),
                      str(figures["rightType"]), str(figures["claimsOnFixed"])]])]
    if figures["claimsOnFixed"]:
        parts.append('<p class="alarm">FALSE ALARMS: %d claim(s) on fixed cells. They must be 0.</p>' % figures["claimsOnFixed"])
    groups = [(k, [v["recall"]]) for k, v in figures["byException"].items()]
    parts.append(bar_chart("Recall of the checks by recorded exception type", groups, [("recall", CLAIM_COLOUR)]))
    rows = [[r["case"], r["ename"], r["crash"]["exception"] if r.get("crash") else "",
             r["fixed"]["exception"] if r.get("fixed") else "",
             (r.get("crashStoppedAt") or {}).get("reason", "") if not r.get("crash") else r["crash"]["message"]]
            for r in records]
    parts.append("<details><summary>Every case</summary>%s</details>"
                 % _table(["case", "recorded exception", "claim (crashing)", "claim (fixed)", "message or where the checker stopped"], rows))
    return "".join(parts)


def _model_section(model: Dict[str, Any]) -> str:
    configs = model["configs"]
    parts = ["<h2>Model track</h2>",
             "<p>Model %s, %d run(s) per prompt, majority vote. Crash is the positive class.</p>" % (_e(model["model"]), model["runs"])]
    rows = []
    for c, label in ROWS:
        if c not in configs:
            continue
        m = configs[c]["overall"]
        rows.append([label, str(m["n"]), pct(m["accuracy"]), pct(m["precision"]), pct(m["recall"]), pct(m["f1"]),
                     "%d/%d/%d/%d" % (m["tp"], m["fp"], m["tn"], m["fn"]), str(m["undecided"])])
    parts.append(_table(["", "n", "accuracy", "precision", "recall", "F1", "TP/FP/TN/FN", "undecided"], rows))
    overall = [(metric, [configs["without"]["overall"][metric], configs["with"]["overall"][metric]])
               for metric in ("accuracy", "precision", "recall", "f1")]
    series = [("without runtime information", WITHOUT_COLOUR), ("with runtime information", WITH_COLOUR)]
    parts.append(bar_chart("Overall", overall, series))
    for group, title in (("byLibrary", "Accuracy per library"), ("byRootCause", "Accuracy per root cause")):
        names = sorted(set(configs["with"][group]) | set(configs["without"][group]))
        groups = [(n, [(configs["without"][group].get(n) or {}).get("accuracy"), (configs["with"][group].get(n) or {}).get("accuracy")])
                  for n in names]
        parts.append(bar_chart(title, groups, series))
        parts.append(_table(["", "n", "accuracy without", "accuracy with", "F1 without", "F1 with"],
                            [[n, str((configs["with"][group].get(n) or configs["without"][group][n])["n"]),
                              pct((configs["without"][group].get(n) or {}).get("accuracy")), pct((configs["with"][group].get(n) or {}).get("accuracy")),
                              pct((configs["without"][group].get(n) or {}).get("f1")), pct((configs["with"][group].get(n) or {}).get("f1"))]
                             for n in names]))
    rows = [[i["case"], i["version"], i["config"], "crash" if i["truth"] else "no crash",
             ("crash" if i["predicted"] else "no crash") + (" (undecided)" if i["undecided"] else ""),
             "%d crash / %d no crash / %d unreadable" % (i["votes"]["crashVotes"], i["votes"]["cleanVotes"], i["votes"]["unreadable"]),
             i["predictedException"] or ""] for i in model["items"]]
    parts.append("<details><summary>Every prompt</summary>%s</details>" % _table(
        ["case", "version", "runtime information", "truth", "prediction", "votes", "exception named"], rows))
    u = model["usage"]
    parts.append("<p>%d calls (%d from the cache, %d failed); tokens reported: %d in, %d out (%d calls reported usage); "
                 "estimated input tokens: %d%s.</p>" % (u["calls"], model["cached"], model["failed"], u["inputTokens"],
                                                        u["outputTokens"], u["callsWithUsage"], u["estimatedInputTokens"],
                                                        "" if u["costUsd"] is None else "; cost $%.4f" % u["costUsd"]))
    return "".join(parts)


_STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#f5f5f5}.alarm{color:#d32f2f;font-weight:bold;font-size:1.2em}svg{display:block;margin:1em 0}"""


def html_report(result: Dict[str, Any]) -> str:
    meta = result["meta"]
    parts = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>JunoBench: CRANE-LLM</title>",
             "<style>%s</style></head><body>" % _STYLE,
             "<h1>JunoBench: CRANE-LLM</h1>",
             "<p>%d cases from %s, run %s.</p>" % (meta["cases"], _e(meta["dir"]), _e(meta["finished"]))]
    if result.get("checks"):
        parts.append(_checks_section(result["checks"]["figures"], result["checks"]["records"]))
    if result.get("model"):
        parts.append(_model_section(result["model"]))
    parts.append("</body></html>")
    return "".join(parts)
