"""Runs batches of cases for real in parallel subprocesses (two, one per core) and keeps the order."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List

from exec_runner import run_batch


def run_parallel(cases: List[Dict[str, Any]], workers: int = 2, optimize: bool = False) -> List[Dict[str, Any]]:
    chunks = [cases[i::workers] for i in range(workers)]
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(lambda chunk: run_batch(chunk, optimize=optimize), chunks))
    out: List[Any] = [None] * len(cases)
    for w, part in enumerate(parts):
        for j, r in enumerate(part):
            out[w + j * workers] = r
    return out
