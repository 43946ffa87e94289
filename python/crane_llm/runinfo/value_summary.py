"""The value summary of a 1-D array, a Series or a flat list: binary, categorical or continuous.

Distinct counts are exact where that fits in the time budget (small inputs, bounded integer
ranges, booleans) and otherwise estimated from a fixed-size sample with the bias-corrected Chao1
estimator, flagged `distinctApprox`. Sampling uses its own generator, so the user's
random state is untouched.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Dict, List, Optional, Tuple

from ..checks.provenance import class_module, class_name
from ..checks.static_reads import held_by_its_module, is_static_type
from .safe import cut, loaded, number, one_of, plain_type

EXACT_DISTINCT_MAX = 200_000  # elements: exact hashing of this many stays within a few ms
SAMPLE_SIZE = 10_000
PROBE_SIZE = 1_000
LISTED_MAX = 5
CONTINUOUS_ABOVE = 10  # a numeric with more distinct values than this is described by its range
VALUE_TEXT_MAX = 20
_SCALARS = (int, float, bool, str, type(None))


def scalar_json(value: Any) -> Any:
    """A distinct value as JSON: numbers and booleans as themselves, anything else as short text."""
    t = type(value)
    if t is bool or t is str:
        return value if t is bool else cut(value, VALUE_TEXT_MAX)
    if t is int or t is float:
        return number(value)
    np = loaded("numpy")
    if np is not None and is_library_scalar(t) and issubclass(t, np.generic):
        # (by the real type: isinstance would read a `__class__` a subclass defines)
        if issubclass(t, np.bool_):
            return bool(value)
        if issubclass(t, (np.integer, np.floating)):
            return number(value.item())
        if issubclass(t, np.str_):
            return cut(str(value), VALUE_TEXT_MAX)
        return cut(str(value), VALUE_TEXT_MAX)  # datetime64, timedelta64: numpy's own str
    if value is None:
        return None
    if is_library_scalar(t):
        return cut(str(value), VALUE_TEXT_MAX)
    return cut("<" + class_name(t) + ">", VALUE_TEXT_MAX)


def plain_scalars(values: Any, builtin_only: bool = False) -> bool:
    """Every element is a builtin scalar (or, unless `builtin_only`, a trusted library scalar), so
    hashing, comparing and printing them runs no user code. The element types are told apart by
    identity (`id`), never hashed or compared: a user metaclass could hook both."""
    type_ids = set(map(id, map(type, values)))
    allowed = {id(t) for t in _SCALARS}
    unknown = type_ids - allowed
    if not unknown:
        return True
    if builtin_only:
        return False
    for found in values:
        t = type(found)
        if id(t) in unknown:
            if not is_library_scalar(t):
                return False
            unknown.discard(id(t))
            if not unknown:
                return True
    return not unknown


def is_library_scalar(t: type) -> bool:
    """Scalar types whose `str` and hash are library code we trust: stdlib dates and decimals,
    NumPy scalars, pandas' Timestamp/Timedelta/Period/Interval/NaT/NA (never arrays or frames)."""
    if not plain_type(t):
        return False
    module = class_module(t)
    # (`__module__` is anyone's to write: the class must be the one the module holds, or NumPy's
    # own C scalar type, never a notebook's subclass naming itself so)
    if module in ("datetime", "decimal", "fractions"):
        return held_by_its_module(t)
    np = loaded("numpy")
    if module == "numpy":
        return np is not None and issubclass(t, np.generic) and is_static_type(t)
    pd = loaded("pandas")
    if pd is not None and module.startswith("pandas"):
        return one_of(t, (pd.Timestamp, pd.Timedelta, pd.Period, pd.Interval, type(pd.NaT), type(pd.NA)))
    return False


def _sort_key(value: Any) -> Tuple[int, Any]:
    if isinstance(value, bool):
        return (0, int(value))
    if isinstance(value, (int, float)):
        return (1, value)
    if value is None:
        return (3, 0)
    return (2, str(value))


def describe(distinct: Optional[int], approx: bool, sample_values: List[Any], numeric: bool,
             lo: Any = None, hi: Any = None, range_approx: bool = False) -> Optional[Dict[str, Any]]:
    """Classify from the distinct count; `sample_values` are (some of) the distinct values."""
    if distinct is None:
        return None
    values = sorted((scalar_json(v) for v in sample_values), key=_sort_key)
    if distinct == 2 and len(values) == 2:
        return {"valueKind": "binary", "values": values}
    if numeric and distinct > CONTINUOUS_ABOVE:
        out_range: Dict[str, Any] = {"valueKind": "continuous", "min": stat(lo), "max": stat(hi)}
        if range_approx:
            out_range["rangeApprox"] = True
        return out_range
    out: Dict[str, Any] = {"valueKind": "categorical", "distinct": int(distinct)}
    if approx:
        out["distinctApprox"] = True
    if distinct <= LISTED_MAX and len(values) == distinct:
        out["values"] = values
    return out


def stat(value: Any) -> Any:
    """A minimum or maximum as JSON: numbers and booleans as such, dates as numpy's own text."""
    if value is None:
        return None
    np = loaded("numpy")
    if np is not None and issubclass(type(value), np.generic):
        value = str(value) if value.dtype.kind in "mM" else value.item()
    if issubclass(type(value), (bool, int, float)):
        return number(value)
    return cut(value if type(value) is str else "<" + type(value).__name__ + ">", 40)


def estimate_distinct(sample_counts: Any, sample_size: int, population: int) -> int:
    """Distinct values in the whole from per-value counts in a sample (bias-corrected Chao1).

    Values seen once (f1) against values seen twice (f2) say how many were never seen: few
    singletons mean the sample has met nearly every value; all singletons mean nearly every row
    is distinct. The result lies between the distinct count in the sample and the population.
    """
    np = loaded("numpy")
    seen = int(np.count_nonzero(sample_counts))
    if sample_size >= population:
        return seen
    once = int(np.count_nonzero(sample_counts == 1))
    twice = int(np.count_nonzero(sample_counts == 2))
    estimate = seen + once * (once - 1) / (2 * (twice + 1))
    return int(min(max(round(estimate), seen), population))


def sample_positions(n: int, size: int = SAMPLE_SIZE) -> Any:
    """Sorted distinct random positions, from a private generator (the user's RNG does not move).

    Drawn with replacement and deduplicated: no O(n) scratch memory, a handful fewer than `size`.
    """
    np = loaded("numpy")
    if n <= size:
        return np.arange(n)
    rng = np.random.default_rng(20_260_218)
    return np.unique(rng.integers(0, n, size=size))


# -- NumPy arrays -------------------------------------------------------------------------------

def array_min_max_nan(np: Any, a: Any) -> Tuple[Any, Any, Optional[bool]]:
    """Exact (min, max, has NaN) with no copy of the array: NaN propagates through `min`."""
    if a.size == 0:
        return None, None, False
    kind = a.dtype.kind
    if kind in "iub":
        return a.min(), a.max(), False
    if kind == "f" or kind == "c":
        plain_min = a.min()
        if not np.isnan(plain_min):
            return plain_min, a.max(), False
        lo = np.fmin.reduce(a, axis=None)  # fmin skips NaN without allocating a mask
        if np.isnan(lo):  # nothing but NaN: there is no range
            return None, None, True
        return lo, np.fmax.reduce(a, axis=None), True
    if kind in "mM":
        lo = a.min()  # NaT propagates through min, like NaN
        if np.isnat(lo):
            return None, None, True
        return lo, a.max(), False
    return None, None, None


BINCOUNT_CHUNK = 1 << 17
BINCOUNT_SECONDS_PER_ELEMENT = 3e-9  # measured here: 10M int64 in about 25 ms


def _bincount_distinct(np: Any, a: Any, hi: int) -> Tuple[int, List[Any]]:
    """Exact distinct count of non-negative ints in [0, hi], in chunks (no full-size temporary)."""
    counts = np.zeros(hi + 1, dtype=np.int64)
    for start in range(0, a.shape[0], BINCOUNT_CHUNK):
        counts += np.bincount(a[start:start + BINCOUNT_CHUNK], minlength=hi + 1)
    present = np.flatnonzero(counts)
    return int(present.shape[0]), present[:LISTED_MAX + 1].tolist()


def array_distinct(np: Any, a: Any, lo: Any, hi: Any, deadline: Any = None) -> Tuple[int, bool, List[Any]]:
    """(distinct non-NaN values, approximate?, up to 6 of them) of a 1-D numeric/bool array."""
    n = a.shape[0]
    kind = a.dtype.kind
    if kind == "b":
        present = [v for v, here in ((False, not bool(a.all())), (True, bool(a.any()))) if here]
        return len(present), False, present
    affordable = deadline is None or deadline.left() > n * BINCOUNT_SECONDS_PER_ELEMENT + 0.005
    if kind in "iu" and n > EXACT_DISTINCT_MAX and affordable and lo is not None and 0 <= int(lo) \
            and int(hi) < min(4 * n, 50_000_000):
        distinct, listed = _bincount_distinct(np, a, int(hi))
        return distinct, False, listed
    if n <= EXACT_DISTINCT_MAX:
        uniq = np.unique(a)
        if kind in "fc":
            uniq = uniq[~np.isnan(uniq)]
        return int(uniq.shape[0]), False, uniq[:LISTED_MAX + 1].tolist()
    sample = a[sample_positions(n)]
    if kind in "fc":
        sample = sample[~np.isnan(sample)]
    uniq, counts = np.unique(sample, return_counts=True)
    return estimate_distinct(counts, max(sample.shape[0], 1), n), True, uniq[:LISTED_MAX + 1].tolist()


def array_values(np: Any, a: Any, lo: Any, hi: Any) -> Optional[Dict[str, Any]]:
    """Value summary of a 1-D numeric or boolean ndarray whose exact min/max are known."""
    if a.dtype.kind not in "iufb":
        return None  # strings, dates and objects go through the pandas path or stay unsummarised
    if a.dtype.kind in "iuf" and a.shape[0] > EXACT_DISTINCT_MAX:
        # A continuous summary shows no count: when a small probe already holds more distinct
        # values than a categorical one may have, the range says everything.
        probe = a[sample_positions(a.shape[0], PROBE_SIZE)]
        if a.dtype.kind == "f":
            probe = probe[~np.isnan(probe)]
        if np.unique(probe).shape[0] > CONTINUOUS_ABOVE:
            return describe(CONTINUOUS_ABOVE + 1, True, [], True, lo, hi)
    distinct, approx, listed = array_distinct(np, a, lo, hi)
    return describe(distinct, approx, listed, a.dtype.kind in "iuf", lo, hi)


# -- flat lists ---------------------------------------------------------------------------------

LIST_SCAN_MAX = 2_000_000  # elements scanned exactly; longer lists are read at an even stride


def list_values(items: list) -> Tuple[Optional[Dict[str, Any]], Optional[bool]]:
    """(value summary, has None/NaN) of a flat list, without copying it.

    Type, NaN and min/max scans are C-level passes (`map`, `min`, `max`) that allocate nothing;
    past LIST_SCAN_MAX elements they read an evenly strided subset (flagged `rangeApprox`).
    Distinct values are exact up to EXACT_DISTINCT_MAX elements and estimated from a sample beyond.
    """
    n = len(items)
    stride = -(-n // LIST_SCAN_MAX) if n > LIST_SCAN_MAX else 1

    def scanned() -> Any:
        return items if stride == 1 else itertools.islice(items, 0, None, stride)

    if not plain_scalars(scanned(), builtin_only=True):
        return None, None
    types = set(map(type, scanned()))  # now only builtin scalar types: hashing them is type's own
    numeric_types = types - {type(None)}
    numeric = bool(numeric_types) and numeric_types <= {int, float}
    has_none = type(None) in types
    if float not in types:
        has_nan = False
    elif types <= {int, float}:
        has_nan = any(map(math.isnan, scanned()))
    else:
        has_nan = any(x != x for x in scanned() if type(x) is float)
    clean = has_none or has_nan

    def values(seq: Any) -> Any:
        return (x for x in seq if x is not None and x == x) if clean else seq

    lo = hi = None
    if numeric:
        lo, hi = min(values(scanned())), max(values(scanned()))
    if n <= EXACT_DISTINCT_MAX:
        distinct = set(values(items))
        listed = list(distinct) if len(distinct) <= LISTED_MAX + 1 else []
        return describe(len(distinct), False, listed, numeric, lo, hi), clean
    counts: Dict[Any, int] = {}
    np = loaded("numpy")
    positions = sample_positions(n).tolist() if np is not None else range(0, n, -(-n // SAMPLE_SIZE))
    for x in values(items[i] for i in positions):
        counts[x] = counts.get(x, 0) + 1
    seen = sum(counts.values())
    if np is not None and seen:
        estimate = estimate_distinct(np.fromiter(counts.values(), dtype=np.int64), seen, n)
    else:
        estimate = len(counts)
    listed = list(counts) if len(counts) <= LISTED_MAX + 1 else []
    summary = describe(estimate, True, listed, numeric, lo, hi, range_approx=stride > 1)
    return summary, (True if clean else None)
