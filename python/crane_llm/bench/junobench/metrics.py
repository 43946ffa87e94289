"""Detection metrics, as in the paper's tables: pure functions over plain records.

The positive class is "crash". Each item is one target cell (a case's crashing or fixed version)
with its truth and the majority vote of K model answers. An answer that could not be read as a
verdict (or a failed call) is not a vote; an item with no readable vote at all, or a tie, is
predicted "no crash" (the tool would not have warned) and counted in `undecided`.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence


def majority(votes: Sequence[Optional[bool]]) -> Dict[str, Any]:
    """votes: True (crash), False (no crash), None (unreadable or failed)."""
    crash = sum(1 for v in votes if v is True)
    clean = sum(1 for v in votes if v is False)
    return {"crash": crash > clean, "undecided": crash == clean, "crashVotes": crash, "cleanVotes": clean,
            "unreadable": sum(1 for v in votes if v is None)}


def _ratio(num: int, den: int) -> Optional[float]:
    return num / den if den else None


def detection(items: Iterable[Dict[str, Any]]) -> Dict[str, Any]:
    """items: {"truth": bool, "predicted": bool, "undecided": bool}. Counts and the four rates."""
    tp = fp = tn = fn = undecided = 0
    for item in items:
        if item.get("undecided"):
            undecided += 1
        if item["truth"]:
            tp += item["predicted"]
            fn += not item["predicted"]
        else:
            fp += item["predicted"]
            tn += not item["predicted"]
    n = tp + fp + tn + fn
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    f1 = None
    if precision is not None and recall is not None:
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"n": n, "tp": tp, "fp": fp, "tn": tn, "fn": fn, "undecided": undecided,
            "accuracy": _ratio(tp + tn, n), "precision": precision, "recall": recall, "f1": f1}


def grouped(items: List[Dict[str, Any]], key: str) -> Dict[str, Dict[str, Any]]:
    groups: Dict[str, List[Dict[str, Any]]] = {}
    for item in items:
        groups.setdefault(str(item[key]), []).append(item)
    return {name: detection(groups[name]) for name in sorted(groups)}


def checks_figures(records: List[Dict[str, Any]]) -> Dict[str, Any]:
    """records: one per case {"ename", "crash": claim or None, "fixed": claim or None, "error"}.

    Recall is claims on crashing cells over crashing cells; a claim counts as the right type when
    its exception is the recorded one. Claims on fixed cells are false alarms and must be 0.
    """
    by_type: Dict[str, Dict[str, int]] = {}
    by_rule: Dict[str, Dict[str, int]] = {}
    claims = right_type = fixed_claims = errors = 0
    for r in records:
        if r.get("error"):
            errors += 1
        row = by_type.setdefault(r["ename"], {"cases": 0, "claimed": 0, "rightType": 0})
        row["cases"] += 1
        if r.get("crash"):
            claims += 1
            row["claimed"] += 1
            rule = by_rule.setdefault(r["crash"]["rule"], {"claimed": 0, "rightType": 0, "onFixed": 0})
            rule["claimed"] += 1
            if r["crash"]["exception"] == r["ename"]:
                right_type += 1
                row["rightType"] += 1
                rule["rightType"] += 1
        if r.get("fixed"):
            fixed_claims += 1
            by_rule.setdefault(r["fixed"]["rule"], {"claimed": 0, "rightType": 0, "onFixed": 0})["onFixed"] += 1
    n = len(records)
    return {"cases": n, "claimsOnCrashing": claims, "rightType": right_type, "recall": _ratio(claims, n),
            "claimsOnFixed": fixed_claims, "errors": errors,
            "byException": {k: dict(v, recall=_ratio(v["claimed"], v["cases"])) for k, v in sorted(by_type.items())},
            "byRule": {k: by_rule[k] for k in sorted(by_rule)}}
