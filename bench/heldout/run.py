"""Held-out figure of the built-in checks: the share of hand-written certain crashes they catch.

    /work/main/.venv/bin/python bench/heldout/run.py [--workers 2] [--baseline REV] [--out bench/heldout/results.json]

Every crash cell and clean twin of `cases.py` runs for real in a fresh IPython shell after the
checker read it against the live namespace, and again judged by the replay adapter from facts
recorded from the same values (python/tests/checks/exec_runner.py). Caught: the claim names the
exception and the line the cell really raised. False claim: a claim on a twin that runs clean, or a
claim whose exception or line differs from what happened. Exits non-zero on any false claim or on a
broken case (a crash cell that runs clean, a twin that raises). `--baseline REV` first runs the same
cases with the checker of git revision REV (a temporary worktree), so both figures come from one run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests" / "checks"))
sys.path.insert(0, str(HERE))

from cases import CASES  # noqa: E402
from harness import run_parallel  # noqa: E402


def _judge(claim, raised) -> str:
    if claim is None:
        return "missed" if raised is not None else "quiet"
    if raised is None:
        return "false"
    return "caught" if (claim["exception"] == raised["exception"] and claim["line"] == raised["line"]) else "false"


def evaluate(results):
    """(case, crash result, clean result) triples -> the summary dict."""
    per_shape = defaultdict(lambda: {"cases": 0, "live": 0, "replay": 0})
    summary = {"cases": 0, "caught_live": 0, "caught_replay": 0, "false_live": 0, "false_replay": 0,
               "broken": [], "missed": [], "false": []}
    for case, crash, clean in results:
        for r in (crash, clean):
            if r["setup_error"] or r["checker_error"]:
                summary["broken"].append({"shape": case.shape, "cell": case.crash, "error": r["setup_error"] or r["checker_error"]})
        if crash["raised"] is None or clean["raised"] is not None:
            summary["broken"].append({"shape": case.shape, "cell": case.crash if crash["raised"] is None else case.clean,
                                      "error": "the crash cell ran clean" if crash["raised"] is None
                                      else f"the twin raised {clean['raised']}"})
            continue
        summary["cases"] += 1
        row = per_shape[case.shape]
        row["cases"] += 1
        for adapter, key in (("live", "claim"), ("replay", "replay_claim")):
            got = _judge(crash.get(key), crash["raised"])
            twin = _judge(clean.get(key), clean["raised"])
            if got == "caught":
                summary[f"caught_{adapter}"] += 1
                row[adapter] += 1
            elif got == "false":
                summary[f"false_{adapter}"] += 1
                summary["false"].append({"adapter": adapter, "cell": case.crash, "claim": crash.get(key),
                                         "raised": crash["raised"]})
            elif adapter == "live":
                summary["missed"].append({"shape": case.shape, "cell": case.crash,
                                          "raised": crash["raised"]["exception"],
                                          "stop": (crash["stop"] or {}).get("reason")})
            if twin == "false":
                summary[f"false_{adapter}"] += 1
                summary["false"].append({"adapter": adapter, "cell": case.clean, "claim": clean.get(key), "raised": None})
    summary["per_shape"] = dict(sorted(per_shape.items()))
    n = max(summary["cases"], 1)
    summary["share_live"] = round(summary["caught_live"] / n, 3)
    summary["share_replay"] = round(summary["caught_replay"] / n, 3)
    return summary


def _baseline(rev: str, runs):
    """The same cases judged by the checker of `rev`, run by that revision's own runner."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True,
                       capture_output=True)
        try:
            script = tree / "python" / "tests" / "checks" / "exec_runner.py"
            half = [runs[i::2] for i in range(2)]
            parts = [_run_with(script, part) for part in half]
            out = [None] * len(runs)
            for w, part in enumerate(parts):
                for j, r in enumerate(part):
                    out[w + 2 * j] = r
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    return evaluate([(c, out[2 * i], out[2 * i + 1]) for i, c in enumerate(CASES)])


def _run_with(script: Path, cases):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "cases.json", Path(tmp) / "results.json"
        src.write_text(json.dumps(cases))
        env = {"CRANE_LLM_CHECKS_DEBUG": "1", "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONHASHSEED": "0",
               "PATH": "/usr/bin:/bin", "HOME": tmp}
        subprocess.run([sys.executable, str(script), str(src), str(dst)], cwd=tmp, env=env, check=True,
                       capture_output=True, timeout=1800)
        return json.loads(dst.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--baseline", help="git revision whose checker is measured on the same cases first")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    args = ap.parse_args()
    runs = []
    # (the replay reads the setup as the executed cells, as JunoBench gives a notebook's history)
    for c in CASES:
        runs.append({"setup": c.setup, "cell": c.crash, "replay": True, "replay_executed": True})
        runs.append({"setup": c.setup, "cell": c.clean, "replay": True, "replay_executed": True})
    baseline = _baseline(args.baseline, runs) if args.baseline else None
    out = run_parallel(runs, workers=args.workers)
    summary = evaluate([(c, out[2 * i], out[2 * i + 1]) for i, c in enumerate(CASES)])
    if baseline is not None:
        summary["baseline"] = {"revision": args.baseline, **{k: baseline[k] for k in (
            "cases", "caught_live", "caught_replay", "false_live", "false_replay", "share_live", "share_replay")}}
        print(f"baseline {args.baseline}: caught live {baseline['caught_live']} ({baseline['share_live']:.0%}), "
              f"replay {baseline['caught_replay']} ({baseline['share_replay']:.0%}); false claims live "
              f"{baseline['false_live']}, replay {baseline['false_replay']}")
    Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    print(f"held-out: {summary['cases']} certain crashes; caught live {summary['caught_live']} "
          f"({summary['share_live']:.0%}), replay {summary['caught_replay']} ({summary['share_replay']:.0%}); "
          f"false claims live {summary['false_live']}, replay {summary['false_replay']}; "
          f"broken cases {len(summary['broken'])}")
    for shape, row in summary["per_shape"].items():
        print(f"  {shape:24s} {row['live']}/{row['cases']} live, {row['replay']}/{row['cases']} replay")
    for m in summary["missed"]:
        print(f"  missed {m['raised']:18s} {m['cell'].splitlines()[-1][:60]:60s} stop: {m['stop']}")
    for b in summary["broken"]:
        print(f"  BROKEN {b}")
    for f in summary["false"]:
        print(f"  FALSE {f}")
    return 1 if (summary["false_live"] or summary["false_replay"] or summary["broken"]) else 0


if __name__ == "__main__":
    sys.exit(main())
