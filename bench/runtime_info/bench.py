"""Cost of summarising one variable, per object kind and size, against one isna().any() pass.

    /work/venv/bin/python bench/runtime_info/bench.py [--max-rows 10000000] [--big-array]
    /work/venv/bin/python bench/runtime_info/bench.py --targets

For each object: the median summary time (3 runs, tracemalloc off), the median time of one
`isna().any()` pass over the same object in the same run (the baseline), their ratio, and the
peak memory allocated during one summary (tracemalloc) as a share of the object's own size.
`--big-array` adds the 10^8-element array of the issue's target (800 MB of RAM).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from crane_llm.runinfo import summarize  # noqa: E402


def mixed_frame(rows: int, rng: np.random.Generator) -> pd.DataFrame:
    """20 columns as a notebook has them: floats with NaN, ints, labels, strings, booleans, dates."""
    words = np.array(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"], dtype=object)
    cols = {}
    for i in range(8):
        col = rng.standard_normal(rows)
        if i % 3 == 0:
            col[rng.integers(0, rows, max(rows // 1000, 1))] = np.nan
        cols[f"f{i}"] = col
    for i in range(4):
        cols[f"i{i}"] = rng.integers(0, 10 ** (i + 1), rows)
    cols["label"] = rng.integers(0, 2, rows)
    cols["flag"] = rng.random(rows) > 0.5
    cols["when"] = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 10 ** 6, rows), unit="s")
    cols["city"] = words[rng.integers(0, len(words), rows)]
    cols["text"] = pd.array(words[rng.integers(0, len(words), rows)], dtype="str")
    cols["obj"] = words[rng.integers(0, len(words), rows)]
    cols["cat"] = pd.Categorical(words[rng.integers(0, 4, rows)])
    cols["u"] = rng.random(rows).astype(np.float32)
    return pd.DataFrame(cols)


def object_size(obj) -> int:
    if isinstance(obj, pd.DataFrame):
        return int(obj.memory_usage(deep=False, index=True).sum())
    if isinstance(obj, pd.Series):
        return int(obj.memory_usage(deep=False, index=True))
    if isinstance(obj, np.ndarray):
        return int(obj.nbytes)
    if isinstance(obj, list):  # the list's pointer array plus its (distinct) element objects
        return sys.getsizeof(obj) + sum(sys.getsizeof(x) for x in set(obj[:100_000])) + 8 * len(obj)
    return sys.getsizeof(obj)


def baseline(obj) -> None:
    if isinstance(obj, pd.DataFrame):
        obj.isna().values.any()
    elif isinstance(obj, (pd.Series, np.ndarray)):
        pd.isna(obj).any()
    else:
        pd.isna(obj).any()


def min_time(fn, runs: int = 5) -> float:
    """Best of `runs`: the cost without interference from other processes on a shared machine."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def targets() -> None:
    """The issue's three targets, best of 5 (each must stay <= 250 ms with < 5% extra memory)."""
    import random

    rng = np.random.default_rng(0)
    objects = [
        ("dataframe 10^7 x 20", lambda: mixed_frame(10_000_000, rng)),
        ("ndarray 10^8 float64", lambda: rng.standard_normal(100_000_000)),
        ("list 10^6 float", lambda: [random.random() for _ in range(1_000_000)]),
        ("list 10^6 str", lambda: [random.choice(["a", "b", "c", "d"]) for _ in range(1_000_000)]),
    ]
    print(f"{'target':24} {'best ms':>8} {'median ms':>10} {'isna best ms':>13} {'ratio':>6} {'peak MB':>8} {'extra %':>8}")
    for label, make in objects:
        obj = make()
        best = min_time(lambda: summarize(obj))
        med = median_time(lambda: summarize(obj), 5)
        base = min_time(lambda: baseline(obj), 3)
        extra = peak_extra(lambda: summarize(obj))
        print(f"{label:24} {best * 1000:>8.1f} {med * 1000:>10.1f} {base * 1000:>13.1f} {best / base:>6.3f} "
              f"{extra / 2**20:>8.2f} {100 * extra / object_size(obj):>8.2f}")
        obj = None  # free it before building the next one


def median_time(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_extra(fn) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak - before


def measure(kind: str, rows: int, obj) -> dict:
    summary = summarize(obj)
    t_sum = median_time(lambda: summarize(obj))
    t_base = median_time(lambda: baseline(obj))
    extra = peak_extra(lambda: summarize(obj))
    size = object_size(obj)
    approx = '"distinctApprox": true' in json.dumps(summary) or "Approx" in json.dumps(summary)
    return {
        "kind": kind, "rows": rows, "summaryMs": round(t_sum * 1000, 1), "isnaAnyMs": round(t_base * 1000, 1),
        "ratio": round(t_sum / t_base, 3) if t_base else None, "peakExtraMB": round(extra / 2**20, 2),
        "objectMB": round(size / 2**20, 1), "extraPct": round(100 * extra / size, 2), "approx": approx,
        "summaryKind": summary["kind"],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-rows", type=int, default=10_000_000)
    parser.add_argument("--big-array", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--targets", action="store_true", help="only the issue's three targets, best of 5")
    args = parser.parse_args()
    if args.targets:
        targets()
        return
    rng = np.random.default_rng(0)
    results = []
    rows = 10_000
    while rows <= args.max_rows:
        frame = mixed_frame(rows, rng)
        results.append(measure("dataframe 20 cols", rows, frame))
        results.append(measure("series float", rows, frame["f0"]))
        results.append(measure("series str", rows, frame["text"]))
        results.append(measure("ndarray float 1-D", rows, frame["f1"].to_numpy()))
        results.append(measure("ndarray float 2-D (rows x 20)", rows, rng.standard_normal((rows, 20))))
        results.append(measure("list float", rows, frame["f2"].tolist()))
        results.append(measure("list str", rows, frame["obj"].tolist()))
        del frame
        rows *= 10
    if args.big_array:
        big = rng.standard_normal(100_000_000)
        results.append(measure("ndarray float 1-D", 100_000_000, big))
        del big
    header = f"{'kind':32} {'rows':>10} {'summary ms':>11} {'isna.any ms':>12} {'ratio':>7} {'peak MB':>8} {'obj MB':>8} {'extra %':>8} approx"
    print(header)
    for r in results:
        print(f"{r['kind']:32} {r['rows']:>10} {r['summaryMs']:>11} {r['isnaAnyMs']:>12} {r['ratio']:>7} "
              f"{r['peakExtraMB']:>8} {r['objectMB']:>8} {r['extraPct']:>8} {r['approx']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
