"""What the execution recorder costs.

1. Per executed cell: `run_cell` of the same cells with and without the recorder, interleaved in
   one process, so the ratio is against a baseline measured in the same run. The cells are small
   and fast on purpose (the recorder's cost is per cell, not per second of user work, so short
   cells are its worst case), and some raise, so the traceback walk is included.
2. Per check: turning the log into JSON, which is when each run's code is analysed (once per
   run, cached). Measured over the executed cells of the real JunoBench notebooks.

Run: /work/venv/bin/python bench/recorder/bench_recorder.py   (writes bench/recorder/results.json)
"""

from __future__ import annotations

import contextlib
import io
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "python"))

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from traitlets.config import Config  # noqa: E402

from crane_llm.lineage import recorder  # noqa: E402
from crane_llm.kernel.source import python_source  # noqa: E402
from crane_llm.lineage.log import ExecutionLog, Run  # noqa: E402

JUNOBENCH = Path("/work/shared/junobench/dev")

CELLS = [
    "x = 1",
    "import math\nvalues = [math.sqrt(i) for i in range(20)]",
    "values.append(3.0)\ntotal = sum(values)",
    "def scale(v, k=2):\n    return [e * k for e in v]\n\nscaled = scale(values)",
    "config = {'lr': 0.01, 'epochs': 3}\nconfig.update(lr=0.1)\nconfig['seed'] = 0",
    "for i in range(3):\n    values.append(i)\nif total > 10:\n    big = True\nelse:\n    big = False",
    "y = values[100]",  # raises IndexError: the traceback walk is part of the cost
    "a, b = 1, 2\na += b\ndel b",
    "text = 'tf_idf = 3'  # not code\nwords = text.split()\ncounts = {w: len(w) for w in words}",
    "class Box:\n    def __init__(self):\n        self.items = []\n    def add(self, x):\n        self.items.append(x)\nbox = Box()\nbox.add(1)",
]


def _run_all(shell: InteractiveShell, cells, rounds: int) -> float:
    sink = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        for _ in range(rounds):
            for i, code in enumerate(cells):
                shell.run_cell(code, store_history=True, cell_id="cell-%d" % i)
    return time.perf_counter() - start


def _shell() -> InteractiveShell:
    # No history database: its writer thread's I/O would be noise in both arms alike.
    config = Config()
    config.HistoryManager.enabled = False
    return InteractiveShell(config=config)


def per_cell_cost(rounds: int = 20, repeats: int = 31) -> dict:
    # The ratio uses the cells that do not raise: IPython's traceback formatting (milliseconds)
    # would bury the difference in noise. The hooks are then timed directly on all cells.
    quiet = [c for c in CELLS if "values[100]" not in c]
    plain = _shell()
    recorded = _shell()
    recorder.install(recorded)
    _run_all(plain, CELLS, 2)  # warm both: imports, caches
    _run_all(recorded, CELLS, 2)
    without, with_ = [], []
    for _ in range(repeats):  # interleaved, so drift affects both alike
        without.append(_run_all(plain, quiet, rounds))
        with_.append(_run_all(recorded, quiet, rounds))
    n = rounds * len(quiet)
    base, rec = statistics.median(without) / n * 1e6, statistics.median(with_) / n * 1e6
    base_min, rec_min = min(without) / n * 1e6, min(with_) / n * 1e6

    # The hooks themselves, timed directly: the part of the difference that is the recorder's.
    spent = [0.0]
    rec_obj = recorded._crane_llm_recorder
    for event in ("pre_run_cell", "post_run_cell"):
        original = getattr(rec_obj, event)
        recorded.events.unregister(event, original)

        def timed(arg, _original=original):
            start = time.perf_counter()
            _original(arg)
            spent[0] += time.perf_counter() - start

        recorded.events.register(event, timed)
    _run_all(recorded, CELLS, rounds)
    hook_us = spent[0] / (rounds * len(CELLS)) * 1e6

    log = recorder.current(recorded)
    start = time.perf_counter()
    log.to_json()
    analyse_all = time.perf_counter() - start
    return {
        "cells_per_measurement": n,
        "note": "ratio over cells that do not raise; hooks timed over all cells, one raising",
        "run_cell_us_without_recorder_median": round(base, 1),
        "run_cell_us_with_recorder_median": round(rec, 1),
        "ratio_with_over_without_median": round(rec / base, 3),
        "ratio_with_over_without_min": round(rec_min / base_min, 3),
        "recorder_hooks_us_per_cell": round(hook_us, 2),
        "recorder_hooks_share_of_run_cell": round(hook_us / base, 4),
        "runs_in_log": len(log.runs),
        "log_to_json_us_per_run_first_time": round(analyse_all / len(log.runs) * 1e6, 1),
    }


def _junobench_notebooks():
    for case in sorted(JUNOBENCH.iterdir()):
        path = case / "input_nb_buggy_processed" / (case.name + ".json")
        if path.is_file():
            data = json.loads(path.read_text())
            yield case.name, [c["code"] for c in data.get("executed", [])]


def _transformed(code: str):
    try:
        return python_source(code)
    except Exception:
        return None


def check_time_cost(with_transformed: bool) -> dict:
    """Analysis of real notebooks' cells, as the first check after they ran pays it.

    with_transformed: the run carries IPython's transformed cell, as recorded runs do; without it
    the analysis runs IPython's input transformer again (the slower path).
    """
    per_notebook_ms, per_cell_us, incremental_ms, cells_total = [], [], [], 0
    for _, cells in _junobench_notebooks():
        if not cells:
            continue
        python = [_transformed(c) if with_transformed else None for c in cells]
        log = ExecutionLog()
        for i, code in enumerate(cells, start=1):
            log.add(Run(i, "c%d" % i, code, True, python=python[i - 1]))
        start = time.perf_counter()
        log.to_json()
        elapsed = time.perf_counter() - start
        per_notebook_ms.append(elapsed * 1e3)
        per_cell_us.append(elapsed / len(cells) * 1e6)
        cells_total += len(cells)
        log.add(Run(len(cells) + 1, "new", cells[-1], True, python=python[-1]))  # one more cell, next check
        start = time.perf_counter()
        log.to_json()
        incremental_ms.append((time.perf_counter() - start) * 1e3)
    return {
        "notebooks": len(per_notebook_ms),
        "cells": cells_total,
        "first_check_ms_median": round(statistics.median(per_notebook_ms), 2),
        "first_check_ms_max": round(max(per_notebook_ms), 2),
        "analysis_us_per_cell_median": round(statistics.median(per_cell_us), 1),
        "next_check_after_one_more_cell_ms_median": round(statistics.median(incremental_ms), 3),
        "next_check_after_one_more_cell_ms_max": round(max(incremental_ms), 3),
    }


def main() -> None:
    results = {"python": sys.version.split()[0], "per_cell": per_cell_cost()}
    if JUNOBENCH.is_dir():
        results["check_time_junobench_as_recorded"] = check_time_cost(with_transformed=True)
        results["check_time_junobench_retransforming"] = check_time_cost(with_transformed=False)
    text = json.dumps(results, indent=2)
    (HERE / "results.json").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
