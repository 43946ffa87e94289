"""Benchmark of the built-in checks: differential fuzzing at full size, and checker speed.

    /work/venv/bin/python bench/checks/run.py [--cells 10000] [--workers 2] [--seed 1]

1. Fuzz: generates straight-line cells over a pool of live pandas / NumPy / scikit-learn /
   builtin values (python/tests/checks/fuzzgen.py), runs each for real in subprocesses together
   with the checker (python/tests/checks/exec_runner.py), and counts real crashes, crashes the
   checker caught, and false claims (a claim that differs from what really happened: must be 0).
   The same cells are also judged by the replay adapter from facts recorded from the same live
   values in the paper's runtime-information format (python/tests/checks/paper_facts.py).
2. Speed: checker time per cell for straight-line cells of 10 to 500 lines that the checker
   follows to the end, as a ratio to `ast.parse` of the same cell measured in the same run.

Writes bench/checks/results.json and prints a summary.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "python" / "tests" / "checks"))

from exec_runner import run_batch  # noqa: E402
from fuzzgen import POOL_SETUP, generate_cases, verdict  # noqa: E402

SPEED_STATEMENTS = [
    "r{i} = df['a']",
    "t{i} = df[['a', 'b']].head(2)",
    "u{i} = m43 @ m34",
    "w{i} = (m43 + v3) * 2.0",
    "k{i} = lst[0] + three",
    "s{i} = txt.upper()",
    "c{i} = [x * 2 for x in lst]",
    "d{i} = df.drop(columns=['a'])",
    "e{i} = np.vstack([m43, m43])",
    "print(df.shape)",
    "mu{i} = np.mean(v4) + v4",
    "sq{i} = sum(m43 ** 2)",
]


def fuzz(n: int, workers: int, seed: int, batch: int = 500) -> dict:
    cases = [dict(c, replay=True) for c in generate_cases(n, seed=seed)]
    cells = [c["cell"] for c in cases]
    batches = [cases[i:i + batch] for i in range(0, n, batch)]
    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(run_batch, batches))
    elapsed = time.perf_counter() - started
    results = [r for part in parts for r in part]
    tally = Counter(verdict(r) for r in results)
    mutated = sum(1 for r in results if r["mutated"])
    by_exc = Counter(r["raised"]["exception"] for r in results if r["raised"])
    caught_by_exc = Counter(r["raised"]["exception"] for r in results if verdict(r) == "caught")
    false = [(c, r) for c, r in zip(cells, results)
             if verdict(r) in ("false-claim", "broken") or verdict(r, "replay_claim") == "false-claim"]
    check_ms = [r["check_seconds"] * 1000 for r in results if r["check_seconds"] is not None]
    real = tally["caught"] + tally["missed"] + tally["false-claim"]
    replay = Counter(verdict(r, "replay_claim") for r in results)
    return {
        "replay_adapter": {"caught": replay["caught"], "false_claims": replay["false-claim"],
                           "missed": replay["missed"]},
        "cells": n,
        "real_crashes": real,
        "caught": tally["caught"],
        "missed": tally["missed"],
        "clean": tally["clean"],
        "false_claims": tally["false-claim"],
        "checker_errors": tally["broken"],
        "namespace_changed": mutated,
        "crashes_by_exception": dict(by_exc.most_common()),
        "caught_by_exception": dict(caught_by_exc.most_common()),
        "checker_ms_median": round(statistics.median(check_ms), 4) if check_ms else None,
        "checker_ms_p99": round(sorted(check_ms)[int(len(check_ms) * 0.99)], 4) if check_ms else None,
        "wall_seconds": round(elapsed, 1),
        "examples_of_false_claims": [{"cell": c, "claim": r["claim"], "raised": r["raised"]} for c, r in false[:5]],
    }


def speed(sizes=(10, 50, 100, 200, 500), reps: int = 30) -> list:
    from crane_llm.checks import run_checks
    from crane_llm.kernel.source import python_source

    ns: dict = {"__name__": "__main__"}
    exec(POOL_SETUP, ns)
    # exec() leaves a copy of the builtins dict in the namespace; a kernel holds the builtins module,
    # which is what the checker trusts (a namespace's own dict of builtins may be anything).
    ns["__builtins__"] = builtins
    rows = []
    for size in sizes:
        cell = "\n".join(SPEED_STATEMENTS[i % len(SPEED_STATEMENTS)].format(i=i) for i in range(size))
        outcome = run_checks(cell, ns)
        assert outcome.crash is None and outcome.stopped_at is None, outcome  # followed to the end
        check, parse = [], []
        for _ in range(reps):
            python_source.cache_clear()  # the transformer's cache would hide its cost
            t0 = time.perf_counter()
            run_checks(cell, ns)
            check.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ast.parse(cell)
            parse.append(time.perf_counter() - t0)
        # Medians, and minima (this machine is shared, so the minimum shows the cost without noise).
        c, p = statistics.median(check), statistics.median(parse)
        rows.append({"lines": size, "checker_ms": round(c * 1000, 3), "ast_parse_ms": round(p * 1000, 3),
                     "ratio": round(c / p, 1), "checker_ms_min": round(min(check) * 1000, 3),
                     "ast_parse_ms_min": round(min(parse) * 1000, 3), "ratio_min": round(min(check) / min(parse), 1)})
    return rows


# The statements of the first speed table (the checker of any version follows them to the end).
BASELINE_STATEMENTS = SPEED_STATEMENTS[:10]
_TIMER = r"""
import builtins, json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from fuzzgen import POOL_SETUP
from crane_llm.checks import run_checks
ns = {"__name__": "__main__"}
exec(POOL_SETUP, ns)
ns["__builtins__"] = builtins
cell = sys.stdin.read()
out = run_checks(cell, ns)
assert out.crash is None and out.stopped_at is None, out
times = []
for _ in range(int(sys.argv[3])):
    t0 = time.perf_counter()
    run_checks(cell, ns)
    times.append(time.perf_counter() - t0)
print(json.dumps({"median": statistics.median(times), "min": min(times)}))
"""


def _alternating(baseline_rev: str, script: str, args: List[str], cell: str, rounds: int) -> dict:
    """Runs `script` (given the checker's tree, the tests' folder, then `args`; the cell on stdin)
    with the checker of `baseline_rev` and with this one, in alternating fresh processes of the same
    run; returns each one's parsed last lines, {"baseline": [...], "current": [...]}."""
    import subprocess
    import tempfile

    tests = str(ROOT / "python" / "tests" / "checks")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", baseline_rev, "python/crane_llm"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        trees = {"baseline": str(Path(tmp) / "python"), "current": str(ROOT / "python")}
        runs: dict = {k: [] for k in trees}
        for _ in range(rounds):
            for name, tree in trees.items():
                proc = subprocess.run([sys.executable, "-c", script, tree, tests, *args], input=cell,
                                      capture_output=True, text=True, check=True)
                runs[name].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return runs


def speed_against(baseline_rev: str, lines: int = 200, reps: int = 30, rounds: int = 3) -> dict:
    """The checker of `baseline_rev` (git) and this one on the same `lines`-line cell, in alternating
    fresh processes of the same run: the time budget's and the soundness guards' cost."""
    cell = "\n".join(BASELINE_STATEMENTS[i % len(BASELINE_STATEMENTS)].format(i=i) for i in range(lines))
    runs = _alternating(baseline_rev, _TIMER, [str(reps)], cell, rounds)
    out = {"lines": lines, "baseline_rev": baseline_rev}
    for name, rows in runs.items():
        out[f"{name}_ms_median"] = round(statistics.median(r["median"] for r in rows) * 1000, 3)
        out[f"{name}_ms_min"] = round(min(r["min"] for r in rows) * 1000, 3)
    out["ratio_median"] = round(out["current_ms_median"] / out["baseline_ms_median"], 2)
    out["ratio_min"] = round(out["current_ms_min"] / out["baseline_ms_min"], 2)
    return out


_FIRST = r"""
import builtins, json, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from fuzzgen import POOL_SETUP
ns = {"__name__": "__main__"}
exec(POOL_SETUP, ns)
ns["__builtins__"] = builtins
t0 = time.perf_counter()
from crane_llm.checks import run_checks
t1 = time.perf_counter()
run_checks(sys.stdin.read(), ns)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first": t2 - t1}))
"""


def first_check_against(baseline_rev: str, rounds: int = 5) -> dict:
    """The first check in a fresh process (importing the checker, then one check of a two-line cell
    on a DataFrame: the library audits and reference files are all paid here), for the checker of
    `baseline_rev` and this one, in alternating processes of the same run."""
    runs = _alternating(baseline_rev, _FIRST, [], "r = df['a']\nprint(r.shape)", rounds)
    out = {"baseline_rev": baseline_rev}
    for name, rows in runs.items():
        out[f"{name}_first_ms_median"] = round(statistics.median(r["first"] for r in rows) * 1000, 1)
        out[f"{name}_import_ms_median"] = round(statistics.median(r["import"] for r in rows) * 1000, 1)
    out["ratio_first"] = round(out["current_first_ms_median"] / out["baseline_first_ms_median"], 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", type=int, default=10000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", default="21d0806",
                    help="git revision whose checker the 200-line speed is compared with (same run)")
    ap.add_argument("--speed-only", action="store_true", help="the speed figures only, no fuzz")
    args = ap.parse_args()
    against = speed_against(args.baseline) if args.baseline else None
    first = first_check_against(args.baseline) if args.baseline else None
    speed_rows = speed()
    if args.speed_only:
        print(json.dumps({"speed": speed_rows, "speed_against_baseline": against, "first_check": first}, indent=2))
        return
    fuzz_figures = fuzz(args.cells, args.workers, args.seed)
    out = {"fuzz": fuzz_figures, "speed": speed_rows, "speed_against_baseline": against, "first_check": first,
           "python": sys.version.split()[0]}
    (Path(__file__).parent / "results.json").write_text(json.dumps(out, indent=2))
    f = fuzz_figures
    print(f"fuzz: {f['cells']} cells, {f['real_crashes']} real crashes, {f['caught']} caught, "
          f"{f['false_claims']} false claims, {f['checker_errors']} checker errors, "
          f"{f['namespace_changed']} namespace changes ({f['wall_seconds']} s)")
    ra = f["replay_adapter"]
    print(f"replay adapter on facts recorded from the same values: {ra['caught']} caught, "
          f"{ra['false_claims']} false claims")
    print("speed (checker vs ast.parse of the same cell, same run):")
    for r in speed_rows:
        print(f"  {r['lines']:>4} lines: checker {r['checker_ms']:.3f} ms, ast.parse {r['ast_parse_ms']:.3f} ms, "
              f"ratio {r['ratio']}x (minima: {r['checker_ms_min']:.3f} / {r['ast_parse_ms_min']:.3f} ms, "
              f"{r['ratio_min']}x)")
    if against:
        print(f"200-line cell against the checker of {against['baseline_rev']} (same run, alternating processes): "
              f"median {against['baseline_ms_median']} -> {against['current_ms_median']} ms "
              f"(x{against['ratio_median']}), min {against['baseline_ms_min']} -> {against['current_ms_min']} ms "
              f"(x{against['ratio_min']})")
    if first:
        print(f"first check in a fresh process against {first['baseline_rev']} (alternating processes): median "
              f"{first['baseline_first_ms_median']} -> {first['current_first_ms_median']} ms (x{first['ratio_first']}), "
              f"after importing the checker ({first['baseline_import_ms_median']} / {first['current_import_ms_median']} ms)")
    if f["false_claims"] or f["checker_errors"] or f["replay_adapter"]["false_claims"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
