""""Did you mean ...?": the closest existing name, column or attribute to a misspelt one.

The distance is the one CPython 3.12 uses for its own NameError / AttributeError suggestions: an
edit distance where changing only the case of a letter costs half of any other edit, and a
candidate is close enough when the distance is at most (len(a) + len(b) + 3) / 3 edits. Only
strings are compared; the candidates are plain data the caller already holds (dict keys, recorded
column labels, class dictionaries), so suggesting never runs user code.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

_MOVE = 2  # an insertion, deletion or substitution
_CASE = 1  # a substitution that only changes the case
_MAX_CANDIDATES = 750  # CPython's own bound: beyond it, a near-miss search costs seconds
_MAX_LENGTH = 40


def _distance(a: str, b: str, limit: int) -> int:
    if a == b:
        return 0
    prev = [j * _MOVE for j in range(len(b) + 1)]
    for i, ca in enumerate(a, 1):
        row = [i * _MOVE]
        best = row[0]
        for j, cb in enumerate(b, 1):
            if ca == cb:
                sub = 0
            elif ca.lower() == cb.lower():
                sub = _CASE
            else:
                sub = _MOVE
            cost = min(prev[j - 1] + sub, prev[j] + _MOVE, row[j - 1] + _MOVE)
            row.append(cost)
            best = min(best, cost)
        if best > limit:
            return limit + 1
        prev = row
    return prev[-1]


def closest(wrong: Any, candidates: Iterable[Any]) -> Optional[str]:
    """The candidate closest to `wrong`, or None when none is close enough (ties: the first seen)."""
    if type(wrong) is not str or not wrong or len(wrong) > _MAX_LENGTH:
        return None
    best: Optional[str] = None
    best_cost = None
    for n, cand in enumerate(candidates):
        if n >= _MAX_CANDIDATES:
            break
        if type(cand) is not str or cand == wrong or not cand or len(cand) > _MAX_LENGTH:
            continue
        limit = (len(wrong) + len(cand) + 3) * _MOVE // 6
        if best_cost is not None:
            limit = min(limit, best_cost - 1)  # (only a strictly closer one changes the answer)
        if abs(len(wrong) - len(cand)) * _MOVE > limit:
            continue
        cost = _distance(wrong, cand, limit)
        if cost <= limit and (best_cost is None or cost < best_cost):
            best, best_cost = cand, cost
    return best


def hint_for(found: Optional[str], quote: str = "`") -> str:
    """" Did you mean `x`?" (or 'x' for a column) for the match `closest` found, or ""."""
    if found is None:
        return ""
    shown = repr(found) if quote == "'" else f"`{found}`"
    return f" Did you mean {shown}?"


def correct(crash: Any, old: str, new: Optional[str]) -> None:
    """Offer the match as a "Replace" action: `old` is the text as the cell's line holds it."""
    if new is not None and crash.line is not None:
        crash.correction = {"old": old, "new": new, "line": crash.line}
