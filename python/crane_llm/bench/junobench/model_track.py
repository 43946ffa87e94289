"""The model track: the paper's experiment with our prompt and the case's recorded facts.

For every case, both versions (crashing, fixed), with and without runtime information, K runs.
Each answer is cached in the output directory under a key made of the model, the endpoint, the
exact prompt and the run number, so an interrupted benchmark resumes where it stopped and a
changed prompt is asked again. Failed calls are not cached (they are retried on the next run).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from ...cli.model import ask_model, make_prompt
from ...lineage.slice import slice_indices, slice_runs
from ...settings import Settings
from .cases import VERSIONS, Case
from .metrics import majority
from .recorded import to_runtime_info

CONFIGS = (("with", True), ("without", False))  # runtime information in the prompt or not


@dataclass(eq=False)
class Job:
    case: Case
    version: str
    config: str
    run: int
    prompt: Dict[str, Any]
    key: str


def prompt_for(case: Case, version: str, include_runtime_info: bool, style: str = "paper",
               context: str = "all") -> Dict[str, Any]:
    """context: "all" sends every executed cell (the paper's); "slice" only those the target depends on."""
    v = case.versions[version]
    runtime_info = to_runtime_info(v.facts or {}, v.target) if include_runtime_info else None
    executed = slice_runs(v.executed, v.target) if context == "slice" else v.executed
    return make_prompt(executed, runtime_info, v.target, include_runtime_info, style=style, context=context)


def context_sizes(cases: List[Case], style: str = "paper") -> Dict[str, Any]:
    """Characters and executed cells of every prompt with `--context all` and `slice`: no call.
    "slice cells whole" measures the same cells sent whole (the slice before it cut inside cells),
    so what cutting statements saves is read off one run."""
    out: Dict[str, Any] = {"style": style}
    for config, include in CONFIGS:
        chars = {"all": 0, "slice": 0, "sliceCellsWhole": 0}
        cells = {"all": 0, "slice": 0}
        lines_left_out = 0
        prompts = 0
        for case in cases:
            for version in VERSIONS:
                v = case.versions[version]
                prompts += 1
                sliced = slice_runs(v.executed, v.target)
                whole = [v.executed[i] for i in slice_indices([r.get("code", "") for r in v.executed], v.target)]
                runtime_info = to_runtime_info(v.facts or {}, v.target) if include else None
                cells["all"] += len(v.executed)
                cells["slice"] += len(sliced)
                lines_left_out += sum(r.get("linesLeftOut", 0) for r in sliced)
                chars["all"] += len(prompt_for(case, version, include, style, "all")["text"])
                chars["slice"] += len(prompt_for(case, version, include, style, "slice")["text"])
                chars["sliceCellsWhole"] += len(make_prompt(whole, runtime_info, v.target, include, style=style,
                                                            context="slice")["text"])
        out[config] = {"prompts": prompts, "chars": chars, "cells": cells, "linesLeftOut": lines_left_out,
                       "ratio": chars["slice"] / chars["all"] if chars["all"] else 1.0,
                       "ratioCellsWhole": chars["sliceCellsWhole"] / chars["all"] if chars["all"] else 1.0}
    return out


def cache_key(settings: Settings, prompt: Dict[str, Any], run: int) -> str:
    material = json.dumps({"model": settings.model.value, "api": settings.api_kind, "endpoint": settings.endpoint,
                           "prompt": prompt["text"], "run": run}, sort_keys=True)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


class Cache:
    """One small JSON file per answer: safe to interrupt at any moment (written then renamed)."""

    def __init__(self, directory: str):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, key + ".json")

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        try:
            with open(self._path(key), encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def put(self, key: str, value: Dict[str, Any]) -> None:
        tmp = self._path(key) + ".tmp%d" % threading.get_ident()
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(value, fh)
        os.replace(tmp, self._path(key))


def plan(cases: List[Case], settings: Settings, runs: int, style: str = "paper", context: str = "all") -> List[Job]:
    jobs = []
    for case in cases:
        for version in VERSIONS:
            for config, include in CONFIGS:
                prompt = prompt_for(case, version, include, style, context)
                for run in range(runs):
                    jobs.append(Job(case, version, config, run, prompt, cache_key(settings, prompt, run)))
    return jobs


def _vote(verdict: Optional[Dict[str, Any]]) -> Optional[bool]:
    if verdict is None:
        return None
    if verdict["kind"] == "predicted-crash":
        return True
    if verdict["kind"] == "no-crash":
        return False
    return None


def _ask(job: Job, settings: Settings, timeout: Optional[float] = None) -> Dict[str, Any]:
    started = time.monotonic()
    answer = ask_model(job.prompt, settings, checker_ran_first=False, timeout=timeout)
    verdict = answer["verdict"]
    return {
        "vote": _vote(verdict),
        "kind": verdict["kind"] if verdict else None,
        "exception": verdict.get("exception") if verdict else None,
        "line": verdict.get("line") if verdict else None,
        "explanation": verdict.get("explanation") if verdict else None,
        "raw": answer["raw"],
        "problem": answer["problem"],
        "usage": answer.get("usage"),
        "estimatedInputTokens": job.prompt["estimatedTokens"],
        "seconds": round(time.monotonic() - started, 3),
    }


def run_jobs(jobs: List[Job], settings: Settings, cache: Cache, workers: int, fresh: bool,
             on_done: Callable[[Job, Dict[str, Any], bool], None], timeout: Optional[float] = None) -> Dict[str, Dict[str, Any]]:
    """Every job's answer by key; cached answers first, the rest `workers` at a time."""
    answers: Dict[str, Dict[str, Any]] = {}
    pending = []
    for job in jobs:
        hit = None if fresh else cache.get(job.key)
        if hit is not None:
            answers[job.key] = hit
            on_done(job, hit, True)
        else:
            pending.append(job)
    def ask_and_keep(job: Job) -> Dict[str, Any]:
        answer = _ask(job, settings, timeout)
        if answer["problem"] is None:  # kept by the worker, so a call in flight at an interruption is not lost
            cache.put(job.key, answer)
        return answer

    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        futures = {pool.submit(ask_and_keep, job): job for job in pending}
        for future in as_completed(futures):
            job = futures[future]
            try:
                answer = future.result()
            except Exception as exc:  # a bug in one call must not lose the others' answers
                answer = {"vote": None, "kind": None, "problem": {"kind": "other", "message": "%s: %s" % (type(exc).__name__, exc)},
                          "raw": "", "usage": None, "estimatedInputTokens": job.prompt["estimatedTokens"], "seconds": 0.0}
            answers[job.key] = answer
            on_done(job, answer, False)
    except BaseException:
        # Interrupted: drop the calls not yet sent; every answer already in is in the cache.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return answers


def items_from(jobs: List[Job], answers: Dict[str, Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One item per case x version x config: the K answers and their majority vote."""
    grouped: Dict[tuple, List[Job]] = {}
    for job in jobs:
        grouped.setdefault((job.case.name, job.version, job.config), []).append(job)
    items = []
    for (name, version, config), group in grouped.items():
        case = group[0].case
        runs = [answers[j.key] for j in sorted(group, key=lambda j: j.run)]
        vote = majority([r["vote"] for r in runs])
        exceptions = [r.get("exception") for r in runs if r["vote"] is True and r.get("exception")]
        items.append({
            "case": name, "version": version, "config": config, "library": case.library,
            "rootCause": case.root_cause, "ename": case.ename, "truth": version == "crash",
            "predicted": vote["crash"], "undecided": vote["undecided"], "votes": vote,
            "predictedException": max(set(exceptions), key=exceptions.count) if exceptions else None,
            "problems": [r["problem"]["message"] for r in runs if r.get("problem")],
            "runs": runs,
        })
    return items


def usage_totals(answers: List[Dict[str, Any]], price_in: Optional[float], price_out: Optional[float]) -> Dict[str, Any]:
    """Token counts as the provider reported them; our own estimate of the input otherwise."""
    reported = [a["usage"] for a in answers if isinstance(a.get("usage"), dict)]
    tin = sum(int(u.get("input_tokens", u.get("prompt_tokens", 0)) or 0) for u in reported)
    tout = sum(int(u.get("output_tokens", u.get("completion_tokens", 0)) or 0) for u in reported)
    out: Dict[str, Any] = {"calls": len(answers), "callsWithUsage": len(reported), "inputTokens": tin,
                           "outputTokens": tout,
                           "estimatedInputTokens": sum(int(a.get("estimatedInputTokens") or 0) for a in answers),
                           "costUsd": None}
    if reported and price_in is not None and price_out is not None:
        out["costUsd"] = round(tin / 1e6 * price_in + tout / 1e6 * price_out, 6)
    return out
