"""JunoBench-format cases on disk (the layout of ../shared/junobench/dev/, see its README).

A case has two versions: "crash" (the target raises `ename`) and "fixed" (the target runs clean).
Each version has the executed cells in the order they ran, the target cell, and the paper's
recorded runtime information.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ...paper_runinfo import RecordedFactsError, parse_facts, split_prompt_file

VERSIONS = ("crash", "fixed")
_PROCESSED = {"crash": "input_nb_buggy_processed", "fixed": "input_nb_fixed_processed"}
_RUNINFO_SUFFIX = {"crash": "_reproduced.txt", "fixed": "_fixed.txt"}


@dataclass(eq=False)
class Version:
    label: str
    executed: List[Dict[str, Any]]  # [{"executionCount", "cellId", "code"}], as our prompt takes them
    target: str
    facts: Optional[Dict[str, Any]]  # the recorded dict, None when missing or unreadable
    facts_problem: Optional[str]
    runinfo_path: Optional[str]  # the paper's prompt input file, when the case has one
    crashes: bool = field(init=False)

    def __post_init__(self) -> None:
        self.crashes = self.label == "crash"


@dataclass(eq=False)
class Case:
    name: str
    library: str
    root_cause: str
    ename: str
    evalue: str
    versions: Dict[str, Version]


def _read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _index(root: str) -> Dict[str, Dict[str, Any]]:
    path = os.path.join(root, "index.json")
    if not os.path.exists(path):
        return {}
    return {rec["case"]: rec for rec in _read_json(path) if isinstance(rec, dict) and "case" in rec}


def _labels(case_dir: str, name: str, index: Dict[str, Dict[str, Any]]) -> Dict[str, str]:
    rec = dict(index.get(name) or {})
    meta_path = os.path.join(case_dir, "case_meta.json")
    if os.path.exists(meta_path):
        meta = _read_json(meta_path)
        desc = meta.get("benchmark_desc") or {}
        rec.setdefault("label_root_cause", desc.get("label_root_cause"))
        rec.setdefault("ename", desc.get("ename"))
        rec.setdefault("evalue", desc.get("evalue"))
        rec.setdefault("library", (meta.get("benchmark_labels_extra") or {}).get("Libs-cause"))
    library = rec.get("library") or name.rsplit("_", 1)[0]
    return {"library": str(library), "root_cause": str(rec.get("label_root_cause") or "unlabelled"),
            "ename": str(rec.get("ename") or "unknown"), "evalue": str(rec.get("evalue") or "")}


def _version(case_dir: str, name: str, label: str) -> Optional[Version]:
    """The code comes from the runinfo file when there is one: the processed JSON's copies lost
    their indentation in places (160 of 1090 executed cells and 20 of 118 targets of the dev half
    do not compile), while the runinfo files hold the code exactly as the paper's prompts had it."""
    processed = os.path.join(case_dir, _PROCESSED[label], name + ".json")
    runinfo = os.path.join(case_dir, "crane_llm_executed_code_runinfo", name + _RUNINFO_SUFFIX[label])
    if not os.path.exists(processed) and not os.path.exists(runinfo):
        return None
    facts, problem = None, None
    if os.path.exists(runinfo):
        with open(runinfo, encoding="utf-8") as fh:
            text = fh.read()
        try:
            cells, target = split_prompt_file(text)
            executed = [{"executionCount": i + 1, "cellId": None, "code": c} for i, c in enumerate(cells)]
            facts = parse_facts(text)
            return Version(label, executed, target, facts, None, runinfo)
        except RecordedFactsError as exc:
            problem = str(exc)
    else:
        problem = "no recorded runtime information"
    if not os.path.exists(processed):
        return None
    data = _read_json(processed)
    executed = [{"executionCount": c.get("execution_count"), "cellId": str(c.get("code_cell_id")), "code": c.get("code", "")}
                for c in data.get("executed", [])]
    return Version(label, executed, data["target"]["code"], facts, problem, None)


def load_cases(root: str, only: Optional[List[str]] = None, limit: Optional[int] = None) -> List[Case]:
    """Every case folder under `root` that has both versions, sorted by name."""
    if not os.path.isdir(root):
        raise FileNotFoundError("no such directory: %s" % root)
    index = _index(root)
    names = sorted(n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n)))
    if only:
        missing = [n for n in only if n not in names]
        if missing:
            raise FileNotFoundError("no such case in %s: %s" % (root, ", ".join(missing)))
        names = [n for n in names if n in only]
    cases = []
    for name in names:
        case_dir = os.path.join(root, name)
        versions = {label: _version(case_dir, name, label) for label in VERSIONS}
        if any(v is None for v in versions.values()):
            continue
        labels = _labels(case_dir, name, index)
        cases.append(Case(name, labels["library"], labels["root_cause"], labels["ename"], labels["evalue"], versions))
    return cases[:limit] if limit else cases
