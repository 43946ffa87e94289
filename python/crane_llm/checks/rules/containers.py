"""Lists, tuples, dicts and strings: indexing out of range, missing keys, unpacking.

Only the exact builtin types are judged (a subclass such as defaultdict may answer differently),
and only with plain constant keys and indices, whose hashing and comparison run no user code.
"""

from __future__ import annotations

import sys
from typing import List, Optional

from ..class_facts import pandas_index_types, pristine_pandas
from ..static_reads import checked
from ..live_adapter import LiveValue, is_simple_constant
from ..outcome import CertainCrash, Crash, Stop
from ..abstract_values import NOTHING, FactValue, Opaque, Value

MAX_ELEMENTS = 100000


def elements(v: Value) -> Optional[List[Value]]:
    """The items iterating `v` yields, when the checker knows them without consuming anything."""
    items = v.items()
    if items is not None:
        return items
    c = v.concrete()
    if c is NOTHING:
        return None
    t = type(c)
    if t in (str, bytes, range, dict, set, frozenset) and _length(c) <= MAX_ELEMENTS:
        return [LiveValue(x) for x in c]
    if any(t is it for it in pandas_index_types()) and pristine_pandas(t):
        # Only an index over a plain NumPy array: iterating one yields what `tolist()` gives, while
        # an extension array (Int64, boolean, a subclass of the notebook's) yields its own scalars
        # and may run the notebook's methods.
        own = checked(c.__dict__)
        span = own.get("_range")
        if type(span) is range:  # a RangeIndex iterates its range
            return [LiveValue(x) for x in span] if _length(span) <= MAX_ELEMENTS else None
        np = sys.modules.get("numpy")
        values = own.get("_data") if np is not None else None
        if values is not None and _own_text_array(type(values)):
            # pandas' text arrays iterate their values as they are: every one a str, no missing one
            if len(values) > MAX_ELEMENTS:
                return None
            texts = values.tolist()
            return [LiveValue(x) for x in texts] if all(type(x) is str for x in texts) else None
        if np is None or type(values) is not checked(np.__dict__).get("ndarray") or values.size > MAX_ELEMENTS:
            return None
        return [LiveValue(x) for x in values.tolist()]
    return None


def _own_text_array(cls) -> bool:
    """`cls` is pandas' own StringArray or ArrowStringArray (what a text Index holds), unpatched."""
    arrays = sys.modules.get("pandas.arrays")
    if arrays is None:
        return False
    own = checked(arrays.__dict__)
    return any(cls is own.get(name) for name in ("StringArray", "ArrowStringArray")) and pristine_pandas(cls)


def _length(c) -> int:
    """len(c), or more than any limit when it does not fit (`len(range(10**20))` raises OverflowError)."""
    try:
        return len(c)
    except OverflowError:
        return MAX_ELEMENTS + 1


def length_for_unpack(v: Value) -> Optional[int]:
    c = v.concrete()
    if c is not NOTHING and type(c) in (list, tuple, str, bytes, dict, set, frozenset, range):
        n = _length(c)
        return n if n <= MAX_ELEMENTS else None
    if v.items() is not None:
        return len(v.items())
    if v.kind() in ("list", "tuple", "str", "dict", "set"):
        return v.length()
    if v.kind() == "ndarray":
        a = v.array()
        if a is not None and a.shape:
            return a.shape[0]
    return None


def unpack(interp, value: Value, target, stmt) -> List[Value]:
    """Split `value` over the targets of `a, b = value`; ValueError when the count cannot fit."""
    n_targets = len(target.elts)
    starred = [i for i, e in enumerate(target.elts) if type(e).__name__ == "Starred"]
    n = length_for_unpack(value)
    # CPython unpacks where the target stands: in `x = \<newline> a, b = v` it fails on the second line.
    line, col = getattr(target, "lineno", None), getattr(target, "col_offset", None)
    if n is None:
        c = value.concrete()
        if c is not NOTHING and type(c) in (int, float, bool, type(None), complex):
            raise Crash(CertainCrash("TypeError", line, col,
                                     f"a {type(c).__name__} cannot be unpacked into {n_targets} names.",
                                     "unpacking", _vars(value)))
        raise Stop(line, "unpacking a value whose length the checker does not know")
    fixed = n_targets - len(starred)
    if (not starred and n != n_targets) or (starred and n < fixed):
        if n > n_targets and not starred:
            msg = f"too many values to unpack: {n} values into {n_targets} names."
        else:
            msg = f"not enough values to unpack: {n} values into {'at least ' if starred else ''}{fixed} names."
        raise Crash(CertainCrash("ValueError", line, col, msg, "unpacking", _vars(value)))
    elems = elements(value)
    if elems is None:
        elems = [Opaque() for _ in range(n)]
    if starred:
        s = starred[0]
        tail = n_targets - s - 1
        rest = elems[s:len(elems) - tail]
        return elems[:s] + [FactValue("list", items=rest, cls=list)] + elems[len(elems) - tail:]
    return elems


def _plain_slice(key: slice) -> bool:
    parts = (key.start, key.stop, key.step)
    return all(p is None or type(p) in (int, bool) for p in parts) and key.step != 0


def getitem(interp, base: Value, index: Value, node) -> Value:
    kind = base.kind()
    c = base.concrete()
    key = index.concrete()
    line = node.lineno
    if kind == "dict":
        keys = base.keys()
        if keys is None or not is_simple_constant(key) or key is NOTHING:
            raise Stop(line, "a dict lookup the checker cannot decide")
        if key not in keys:
            raise Crash(CertainCrash("KeyError", line, node.col_offset,
                                     f"the dict {_named(base)}has no key {key!r}.", "missing-key", _vars(base)))
        if c is not NOTHING:
            return LiveValue(c[key])
        return Opaque()
    if kind in ("list", "tuple", "str", "range"):
        if type(key) is slice:
            if not _plain_slice(key):  # (`[::0]`, `[1.0:]` raise; the checker leaves them to the model)
                raise Stop(line, "a slice whose parts are not plain integers")
            if c is not NOTHING:
                return LiveValue(c[key])
            return Opaque(kind)
        n = base.length()
        if type(key) in (int, bool) and n is not None:
            if key >= n or key < -n:
                raise Crash(CertainCrash("IndexError", line, node.col_offset,
                                         f"index {_index_text(key)} is out of range for the {kind} {_named(base)}of length {n}.",
                                         "index-out-of-range", _vars(base)))
            items = base.items()
            if items is not None:
                return items[key]
            if c is not NOTHING:
                return LiveValue(c[key])
            return Opaque()
        facts = index.array() if index.kind() == "ndarray" else None
        if facts is not None and facts.shape is not None and len(facts.shape) >= 1:
            # NumPy's ndarray.__index__ (C) accepts only 0-d integer arrays.
            raise Crash(CertainCrash("TypeError", line, node.col_offset,
                                     f"a {kind} {_named(base)}cannot be indexed by an array of shape "
                                     f"{tuple(facts.shape)}: only integer scalar arrays can be converted to a "
                                     "scalar index (take one element, e.g. `[0]`, or use `.item()`).",
                                     "array-as-index", _vars(base) + ([index.name] if index.name else [])))
        raise Stop(line, f"indexing a {kind} with a value the checker does not know")
    raise Stop(line, "indexing a value the checker does not model")


def setitem(interp, base: Value, index: Value, value: Value, target, stmt) -> None:
    kind = base.kind()
    key = index.concrete()
    line = target.lineno
    if kind == "list" and type(key) is int and base.length() is not None:
        n = base.length()
        if key >= n or key < -n:
            raise Crash(CertainCrash("IndexError", line, target.col_offset,
                                     f"assignment index {_index_text(key)} is out of range for the list {_named(base)}"
                                     f"of length {n}.",
                                     "index-out-of-range", _vars(base)))
    raise Stop(line, f"assigning into `{base.name or kind or 'a value'}`")


def _named(v: Value) -> str:
    return f"`{v.name}` " if v.name else ""


def _vars(v: Value) -> List[str]:
    return [v.name] if v.name else []


def _index_text(key: int) -> str:
    # (an int past the digit limit does not print: `lst[10 ** 5000]`)
    return str(key) if key.bit_length() <= 100 else f"of {key.bit_length()} bits"
