"""NumPy arrays, pandas Series and DataFrames: exact where cheap, sampled and flagged otherwise.

Cost model for big data (the 250 ms target): min and max are exact numpy reductions (NaN shows up
as a NaN minimum, so float columns need no mask); distinct counts are exact for small inputs,
booleans and bounded integer ranges, and otherwise estimated from a sample; missing values in
object columns are scanned in chunks while the deadline allows, then from a sample.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .budget import Deadline
from ..checks.provenance import class_module
from .safe import NAME_MAX, cut, loaded, one_of, short_text
from .value_summary import (
    EXACT_DISTINCT_MAX,
    LISTED_MAX,
    array_distinct,
    array_min_max_nan,
    array_values,
    describe,
    estimate_distinct,
    plain_scalars,
    sample_positions,
    scalar_json,
    stat,
)

FRAME_COLUMNS_SHOWN = 20
FRAME_EXTRA_SECONDS = 0.06  # past the soft deadline, exact min/max go on this long before sampling
HEAD_SCAN = 1000  # rows read from the top for a column's example values
CODES_SECONDS_PER_ELEMENT = 3e-9
HASH_SECONDS_PER_ELEMENT = 1e-7  # pandas hashing of object/string values, measured here
ALWAYS_EXACT = 20_000  # below this an exact count costs a couple of milliseconds at most
NAN_CHUNK = 1 << 17  # elements per missing-value pass over an object column


def ndarray_summary(np: Any, a: Any, deadline: Deadline) -> Dict[str, Any]:
    lo, hi, has_nan = array_min_max_nan(np, a)
    out: Dict[str, Any] = {
        "kind": "ndarray",
        "shape": [int(d) for d in a.shape],
        "dtype": str(a.dtype),
        "hasNaN": has_nan,
        "min": stat(lo),
        "max": stat(hi),
    }
    if a.ndim == 1 and a.shape[0] > 0:
        values = array_values(np, a, lo, hi)
        if values is not None:
            out["values"] = values
    return out


def _numpy_backed(np: Any, series: Any) -> Optional[Any]:
    """The Series' own ndarray (no copy) when its dtype is a plain numpy dtype."""
    if not issubclass(type(series.dtype), np.dtype):  # (a notebook's dtype may define __class__)
        return None
    arr = series.to_numpy(copy=False)
    return arr if type(arr) is np.ndarray else None


def _missing(np: Any, pd: Any, series: Any, arr: Optional[Any], deadline: Deadline, share: float = 1.0) -> Tuple[Optional[bool], bool]:
    """(has missing values, approximate?) of one Series.

    Numeric and date columns: exact reductions. Object and extension columns: chunked scans while
    this column's share of the remaining time lasts, then a sample of the rest.
    """
    n = len(series)
    if n == 0:
        return False, False
    if arr is not None and arr.dtype.kind in "iufcbmM":
        return array_min_max_nan(np, arr)[2], False
    data = arr.reshape(-1) if arr is not None else series.array
    test = pd.isna if arr is not None else (lambda chunk: chunk.isna())
    stop_at = Deadline(max(deadline.left() * share, 0.0))
    for start in range(0, n, NAN_CHUNK):
        if start and stop_at.passed():  # the first chunk is always read: small columns stay exact
            positions = sample_positions(n)
            sample = data[positions] if arr is not None else data.take(positions)
            return (True if test(sample).any() else False), True
        if test(data[start:start + NAN_CHUNK]).any():
            return True, False
    return False, False


def _categorical(np: Any, pd: Any, series: Any, deadline: Deadline) -> Optional[Tuple[int, bool, List[Any]]]:
    """A categorical column's distinct values, exact from its integer codes."""
    if not issubclass(type(series.dtype), pd.CategoricalDtype):
        return None
    codes = series.array.codes
    categories = series.array.categories
    k = len(categories)
    if k == 0:
        return 0, False, []
    n = codes.shape[0]
    approx = False
    if n <= EXACT_DISTINCT_MAX:
        found = np.unique(codes[codes >= 0])
        distinct, listed = int(found.shape[0]), found[: LISTED_MAX + 1].tolist()
    elif deadline.left() > n * CODES_SECONDS_PER_ELEMENT:
        distinct, listed = _codes_present(np, codes, k)
    else:
        sample = codes[sample_positions(n)]
        found, counts = np.unique(sample[sample >= 0], return_counts=True)
        distinct = estimate_distinct(counts, int(counts.sum()) or 1, n)
        listed, approx = found[: LISTED_MAX + 1].tolist(), True
    return distinct, approx, [categories[i] for i in listed]


def _codes_present(np: Any, codes: Any, k: int) -> Tuple[int, List[int]]:
    seen = np.zeros(k, dtype=bool)
    for start in range(0, codes.shape[0], NAN_CHUNK * 8):
        chunk = codes[start:start + NAN_CHUNK * 8]
        seen[chunk[chunk >= 0]] = True
    idx = np.flatnonzero(seen)
    return int(idx.shape[0]), idx[: LISTED_MAX + 1].tolist()


def _distinct(np: Any, pd: Any, series: Any, arr: Optional[Any], deadline: Deadline, lo: Any, hi: Any) -> Tuple[Optional[int], bool, List[Any]]:
    """(distinct non-missing values, approximate?, up to 6 of them) of one Series."""
    n = len(series)
    if n == 0:
        return 0, False, []
    if arr is not None and arr.dtype.kind in "iufb":
        return array_distinct(np, arr, lo, hi, deadline)
    categorical = _categorical(np, pd, series, deadline)
    if categorical is not None:
        return categorical
    if n <= ALWAYS_EXACT or (n <= EXACT_DISTINCT_MAX and deadline.left() > n * HASH_SECONDS_PER_ELEMENT):
        if not _hashable_without_user_code(arr):
            return None, False, []
        uniques = series.dropna().unique()
        return len(uniques), False, list(uniques[: LISTED_MAX + 1])
    positions = sample_positions(n)
    if arr is not None and not _hashable_without_user_code(arr.reshape(-1)[positions]):
        return None, False, []
    sample = series.iloc[positions]
    counts = sample.value_counts(dropna=True)
    return estimate_distinct(counts.to_numpy(), int(sample.notna().sum()) or 1, n), True, counts.index[: LISTED_MAX + 1].tolist()


def _hashable_without_user_code(values: Optional[Any]) -> bool:
    """Exactly the object values about to be hashed are builtin or library scalars, so no user
    `__hash__`/`__eq__` runs (one C-level pass over their types)."""
    if values is None or values.dtype.kind != "O":
        return True
    return plain_scalars(values.reshape(-1))


def pd_missing(name: str) -> Any:
    pd = loaded("pandas")
    return getattr(pd, name, None) if pd is not None else None


def _head_values(series: Any, arr: Optional[Any]) -> List[Any]:
    """The first 5 distinct non-missing values from the top of the column, each as short JSON."""
    head = arr[:HEAD_SCAN] if arr is not None else series.iloc[:HEAD_SCAN].array
    seen: List[Any] = []
    keys = set()
    missing_types = (type(None), type(pd_missing("NA")), type(pd_missing("NaT")))
    for value in head:
        if one_of(type(value), missing_types):
            continue
        json_value = scalar_json(value)
        if json_value == "nan" and type(value) is not str:  # float NaN, numpy NaN
            continue
        if json_value == "NaT" and class_module(type(value)) == "numpy":
            continue
        key = (type(json_value).__name__, json_value)
        if key in keys:
            continue
        keys.add(key)
        seen.append(json_value)
        if len(seen) == LISTED_MAX:
            break
    return seen


def column_summary(np: Any, pd: Any, label: Any, series: Any, deadline: Deadline, share: float = 1.0,
                   frame_deadline: Optional[Deadline] = None) -> Tuple[Dict[str, Any], Optional[bool], bool]:
    """(column JSON, has missing values, missing check approximate?)

    `frame_deadline` is the whole frame's hard budget: past it, numeric columns fall back to a
    sample for min/max too. Without it (a Series) min and max are always exact.
    """
    arr = _numpy_backed(np, series)
    out: Dict[str, Any] = {
        "name": cut(label, NAME_MAX) if type(label) is str else short_text(label, 50),
        "dtype": str(series.dtype),
    }
    numeric = arr is not None and arr.dtype.kind in "iuf"
    extension_numeric = arr is None and getattr(series.dtype, "kind", "O") in "iuf"
    lo = hi = None
    range_approx = False
    if numeric and frame_deadline is not None and frame_deadline.passed() and len(arr) > ALWAYS_EXACT:
        # Out of time (a swamped machine): even min and max come from the sample, and say so.
        lo, hi, has_nan = array_min_max_nan(np, arr[sample_positions(len(arr))])
        nan_approx = not has_nan
        range_approx = True
    elif numeric:
        lo, hi, has_nan = array_min_max_nan(np, arr)
        nan_approx = False
    # This column's fair share of what is left, so the last columns are not starved.
    deadline = Deadline(max(deadline.left() * share, 0.0))
    if not numeric:
        has_nan, nan_approx = _missing(np, pd, series, arr, deadline)
    if extension_numeric and len(series) and not series.array.isna().all():
        lo, hi = series.array.min(skipna=True), series.array.max(skipna=True)
        numeric = True
    # A sampled range must not size the exact integer count, so it is not passed on.
    distinct, approx, _ = _distinct(np, pd, series, arr, deadline, None if range_approx else lo, None if range_approx else hi)
    out["distinct"] = distinct
    if approx:
        out["distinctApprox"] = True
    if numeric:
        out["min"] = stat(lo)
        out["max"] = stat(hi)
        if range_approx:
            out["rangeApprox"] = True
    else:
        out["values"] = _head_values(series, arr)
    return out, has_nan, nan_approx


def dataframe_summary(np: Any, pd: Any, frame: Any, deadline: Deadline) -> Dict[str, Any]:
    rows, cols = frame.shape
    frame_budget = Deadline(deadline.left() + FRAME_EXTRA_SECONDS)
    columns: List[Dict[str, Any]] = []
    any_nan = False
    nan_unknown = False
    for i in range(cols):
        series = frame.iloc[:, i]
        if i < FRAME_COLUMNS_SHOWN:
            summary, has_nan, approx = column_summary(np, pd, frame.columns[i], series, deadline, 1.0 / (cols - i),
                                                      frame_budget)
            columns.append(summary)
        else:  # unlisted columns still count towards "has NaN"
            has_nan, approx = _missing(np, pd, series, _numpy_backed(np, series), deadline, 1.0 / (cols - i))
        if has_nan:
            any_nan = True
        elif approx or has_nan is None:
            nan_unknown = True
    out: Dict[str, Any] = {
        "kind": "dataframe",
        "shape": [int(rows), int(cols)],
        "hasNaN": True if any_nan else False,
        "columns": columns,
    }
    if nan_unknown and not any_nan:
        out["hasNaNApprox"] = True
    return out


def series_summary(np: Any, pd: Any, series: Any, deadline: Deadline) -> Dict[str, Any]:
    arr = _numpy_backed(np, series)
    numeric = arr is not None and arr.dtype.kind in "iuf"
    lo = hi = None
    if numeric:
        lo, hi, has_nan = array_min_max_nan(np, arr)
        approx = False
    else:
        has_nan, approx = _missing(np, pd, series, arr, deadline)
    out: Dict[str, Any] = {
        "kind": "series",
        "dtype": str(series.dtype),
        "length": int(len(series)),
        "hasNaN": has_nan,
    }
    if approx and not has_nan:
        out["hasNaNApprox"] = True
    name = series.name
    if name is not None:
        out["name"] = cut(name, NAME_MAX) if type(name) is str else short_text(name, 50)
    if len(series):
        if numeric or (arr is not None and arr.dtype.kind == "b"):
            values = array_values(np, arr, lo, hi)
        else:
            distinct, d_approx, listed = _distinct(np, pd, series, arr, deadline, lo, hi)
            values = describe(distinct, d_approx, listed[: LISTED_MAX + 1], numeric=False)
        if values is not None:
            out["values"] = values
    return out
