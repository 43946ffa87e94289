"""The check budget's effect on the runtime information, baseline and after in the same run.

    /work/venv/bin/python bench/runtime_info/budget_effect.py [--max-rows 10000000] [--json out.json]

For the runtime-information benchmark's objects (bench.py: a 20-column DataFrame as notebooks have
them, its Series, arrays and lists, 10^4 to 10^7 rows) and one cell reading each:
  - `before ms`: `collect(cell, ns)` with no check budget (how main collected before the budget);
  - `after ms`: `collect(cell, ns, Deadline(2 s))` (what the kernel does now, within the budget);
  - `check ms`: the whole kernel check, `gather()`: names, built-in checks, runtime information,
    history, all under the 2 s budget and its hard stops;
  - `ratio`: after / before, and `cut`: whether the budget cut anything.
Medians of 3 runs; the machine is shared, so only ratios within one run are comparable.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from bench import mixed_frame  # noqa: E402
from crane_llm.deadline import Deadline  # noqa: E402
from crane_llm.kernel.entry import gather  # noqa: E402
from crane_llm.runinfo import collect  # noqa: E402

BUDGET = 2.0


def median_ms(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(kind: str, rows: int, obj) -> dict:
    ns = {"v": obj}
    cell = "v"
    request = {"protocol": 1, "source": cell, "cellId": None, "useLlm": True, "includeRuntimeInfo": True,
               "budgetSeconds": BUDGET}
    collect(cell, ns)  # warm-up: imports and caches are not what is measured
    before = median_ms(lambda: collect(cell, ns))
    after = median_ms(lambda: collect(cell, ns, Deadline(BUDGET)))
    check = median_ms(lambda: gather(request, ns))
    reply = gather(request, ns)
    return {"kind": kind, "rows": rows, "beforeMs": round(before, 1), "afterMs": round(after, 1),
            "checkMs": round(check, 1), "ratio": round(after / before, 3), "cut": reply["budget"]["ranOut"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-rows", type=int, default=10_000_000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    results = []
    rows = 10_000
    while rows <= args.max_rows:
        frame = mixed_frame(rows, rng)
        results.append(measure("dataframe 20 cols", rows, frame))
        results.append(measure("series str", rows, frame["text"]))
        results.append(measure("ndarray float 1-D", rows, frame["f1"].to_numpy()))
        results.append(measure("list str", rows, frame["obj"].tolist()))
        del frame
        rows *= 10
    print(f"{'kind':20} {'rows':>10} {'before ms':>10} {'after ms':>9} {'ratio':>6} {'check ms':>9} cut")
    for r in results:
        print(f"{r['kind']:20} {r['rows']:>10} {r['beforeMs']:>10.1f} {r['afterMs']:>9.1f} {r['ratio']:>6.3f} "
              f"{r['checkMs']:>9.1f} {'yes' if r['cut'] else 'no'}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
