"""NumPy arrays, pandas Series and DataFrames: exact where cheap, sampled and flagged otherwise.

Cost model for big data (the 250 ms target): min and max are exact numpy reductions (NaN shows up
as a NaN minimum, so float columns need no mask); distinct counts are exact for small inputs,
booleans and bounded integer ranges, and otherwise estimated from a sample; missing values in
object columns are scanned in chunks while the deadline allows, then from a sample.
"""

from __future__ import annotations

import datetime
import types
from typing import Any, Dict, List, Optional, Tuple

from .budget import Deadline
from ..checks.library_code import plain_data
from ..checks.provenance import class_module, class_name, is_subclass, lookup_static, own, own_call
from ..checks.static_reads import checked, held_by_its_module, instance_dict, is_static_type, loaded_module
from ..checks.wide_numbers import wide_number
from .safe import NAME_MAX, cut, loaded, member, one_of, pandas_missing_types, short_text
from .value_summary import (
    EXACT_DISTINCT_MAX,
    HASH_EXACT_MAX,
    LISTED_MAX,
    array_distinct,
    array_min_max_nan,
    array_values,
    counted,
    describe,
    estimate_distinct,
    hash_bounded,
    numpy_getattr_own,
    plain_scalars,
    sample_positions,
    scalar_json,
    stat,
    trusted_tz,
)

FRAME_COLUMNS_SHOWN = 20
FRAME_EXTRA_SECONDS = 0.06  # past the soft deadline, exact min/max go on this long before sampling
HEAD_SCAN = 1000  # rows read from the top for a column's example values
CODES_SECONDS_PER_ELEMENT = 3e-9
HASH_SECONDS_PER_ELEMENT = 1e-7  # pandas hashing of object/string values, measured here
ALWAYS_EXACT = 20_000  # below this an exact count costs a couple of milliseconds at most
TEXT_HASHED_MAX = 20_000_000  # characters of text counted distinct at once (a few ms of comparing at worst)
NAN_CHUNK = 1 << 17  # elements per missing-value pass over an object column
DTYPE_TEXT_MAX = 200  # characters of a dtype's text (a structured dtype's can run to megabytes)
FIELDS_MAX = 1_000  # fields of a structured dtype read to judge it; more and it is named by count

NUMPY_GETATTR = "NumPy's module `__getattr__` was replaced in this kernel (it would run as NumPy is read)"
LABELS_NOT_PLAIN = ("its column labels hold time zones or values of the notebook's (their code would run as the "
                    "columns are read)")


# -- dtypes: plain ones are printed, others are named by their class --------------------------------

def dtype_text(np: Any, dt: Any) -> str:
    """`str(dt)` cut to DTYPE_TEXT_MAX, when nothing of the notebook's runs in it (plain_dtype and
    NumPy's dtype printer unpatched); else `<ClassName>`."""
    if not plain_dtype(np, dt) or not _dtype_printer_own(np, dt):
        return "<" + class_name(type(dt)) + ">"
    names = getattr(dt, "names", None) if _numpy_dtype(np, dt) else None
    if names is not None and len(names) > FIELDS_MAX:
        return "structured (%d fields)" % len(names)
    return cut(str(dt), DTYPE_TEXT_MAX)


def plain_dtype(np: Any, dt: Any, depth: int = 0) -> bool:
    """A dtype whose text, comparisons and values' boxing run only library code: a NumPy dtype whose
    field names and titles are exact strings and metadata plain data; or one of pandas' own extension
    dtypes whose parameters are plain (a DatetimeTZDtype's time zone a library's: its `str` and
    `utcoffset` run for the dtype's text and for every Timestamp pandas boxes)."""
    if depth > 3:
        return False
    if _numpy_dtype(np, dt):
        return _plain_numpy_dtype(np, dt, depth)
    t = type(dt)
    if class_module(t).split(".", 1)[0] != "pandas" or not held_by_its_module(t):
        return False
    parts = instance_dict(dt, {})
    return type(parts) is dict and all(_plain_part(np, v, depth + 1) for v in parts.values())


def values_readable(np: Any, dt: Any) -> bool:
    """A plain dtype whose values pandas hands out as library scalars: not an extension dtype over
    NumPy objects (a SparseDtype(object) hashes and prints the objects its array holds)."""
    if not plain_dtype(np, dt):
        return False
    if _numpy_dtype(np, dt):
        return True
    parts = instance_dict(dt, {})
    return not any(_numpy_dtype(np, v) and v.kind == "O" for v in parts.values())


def _numpy_dtype(np: Any, dt: Any) -> bool:
    """A NumPy dtype of one of NumPy's compiled dtype classes (by the MRO: no `__class__` read)."""
    base = member(np, "dtype")
    return base is not None and is_subclass(type(dt), base) and is_static_type(type(dt))


def _plain_numpy_dtype(np: Any, dt: Any, depth: int) -> bool:
    metadata = dt.metadata
    if metadata is not None and not (type(metadata) is dict and plain_data(metadata)):
        return False
    if dt.kind == "T":  # (NumPy's StringDType prints its missing-value object)
        try:
            na = dt.na_object
        except AttributeError:
            na = None
        if not _plain_part(np, na, depth + 1):
            return False
    sub = dt.subdtype
    if sub is not None:
        return _numpy_dtype(np, sub[0]) and _plain_numpy_dtype(np, sub[0], depth + 1)
    names = dt.names
    if names is None:
        return True
    if len(names) > FIELDS_MAX:
        return True  # (named by its field count, never printed)
    fields = dt.fields
    for name in names:
        if type(name) is not str:
            return False
        entry = fields[name]
        title = entry[2] if len(entry) > 2 else None
        if (title is not None and type(title) is not str) or not _numpy_dtype(np, entry[0]) or \
                not _plain_numpy_dtype(np, entry[0], depth + 1):
            return False
    return True


def _plain_part(np: Any, value: Any, depth: int) -> bool:
    """A parameter of a pandas dtype that prints and compares as library code: a builtin scalar,
    a plain dtype, a library time zone, pandas' missing-value marker, one of pandas' date offsets, or
    an Index of categories whose own dtype is plain."""
    t = type(value)
    if one_of(t, (str, int, float, bool, type(None))):
        return True
    if t is dict:  # (a dtype's `_cache` of computed attributes)
        return depth <= 4 and all(type(k) is str and _plain_part(np, v, depth + 1) for k, v in dict.items(value))
    if t is type and class_module(value).split(".", 1)[0] == "pandas":  # (`_cache['index_class']`)
        return held_by_its_module(value)
    if issubclass(t, datetime.tzinfo):
        return trusted_tz(value)
    if _numpy_dtype(np, value):
        return plain_dtype(np, value, depth)
    if one_of(t, pandas_missing_types()):
        return True
    if class_module(t).split(".", 1)[0] != "pandas" or not held_by_its_module(t):
        return False
    if class_module(t).startswith("pandas._libs.tslibs.offsets"):
        return True
    extension_dtype = member(loaded_module("pandas.core.dtypes.base"), "ExtensionDtype")
    if extension_dtype is not None and is_subclass(t, extension_dtype):
        return plain_dtype(np, value, depth)
    index = member(loaded("pandas"), "Index")
    return index is not None and is_subclass(t, index) and _index_plain(np, value, depth + 1)  # a categorical's


def _index_plain(np: Any, index: Any, depth: int) -> bool:
    """An Index whose labels pandas boxes with library code only: its dtype is plain (a MultiIndex:
    each level's), read from the arrays it holds (own_column_arrays has checked they are pandas' or
    NumPy's)."""
    if depth > 4:
        return False
    d = instance_dict(index, {})
    if "_levels" in d:
        levels = d["_levels"]
        return is_subclass(type(levels), list) and all(_index_plain(np, level, depth + 1)
                                                       for level in list.__iter__(levels))
    data = d.get("_data")
    if type(d.get("_range")) is range and data is None:
        return True
    return _array_plain(np, data, depth)


def _array_plain(np: Any, data: Any, depth: int) -> bool:
    """An ndarray or pandas array (own_column_arrays has checked which) whose dtype is plain, read
    from the compiled slot or the instance dict that holds it (no `dtype` property runs)."""
    ndarray = member(np, "ndarray")
    if type(data) is ndarray:
        return plain_dtype(np, data.dtype, depth)
    t = type(data)
    if class_module(t).split(".", 1)[0] != "pandas" or not held_by_its_module(t):
        return False
    d = instance_dict(data, {})
    slot = lookup_static(t, "_dtype")
    if type(slot) is types.MemberDescriptorType or type(slot) is types.GetSetDescriptorType:
        return plain_dtype(np, slot.__get__(data), depth)
    if "_dtype" in d:
        return plain_dtype(np, d["_dtype"], depth)
    # pandas' masked arrays: the dtype is the one NumPy's values imply (Int64, Float64, boolean)
    return type(d.get("_data")) is ndarray and type(d.get("_mask")) is ndarray and d["_data"].dtype.kind in "iufb"


_PRINTER = ("numpy._core._dtype", "numpy.core._dtype")


def _dtype_printer_own(np: Any, dt: Any) -> bool:
    """`str` of a NumPy dtype runs `numpy._core._dtype.__str__`, which calls that module's helpers by
    global name: every function there must be NumPy's own. (pandas' dtypes print in pandas' code,
    whose modules pristine_pandas has checked.)"""
    if not _numpy_dtype(np, dt):
        return True
    for name in _PRINTER:
        mod = loaded_module(name)
        if mod is None:
            continue
        for value in checked(mod.__dict__).values():
            if type(value) is types.FunctionType and not own(value, "numpy"):
                return False
    return True


def ndarray_summary(np: Any, a: Any, deadline: Deadline) -> Dict[str, Any]:
    if not numpy_getattr_own():
        return {"kind": "unavailable", "reason": NUMPY_GETATTR}
    if file_backed(np, a):
        # (reading values of a file-mapped array reads the file: gigabytes, in one uninterruptible call)
        return {"kind": "ndarray", "shape": [int(d) for d in a.shape], "dtype": dtype_text(np, a.dtype),
                "hasNaN": None, "min": None, "max": None}
    lo, hi, has_nan, sampled = array_min_max_nan(np, a)
    out: Dict[str, Any] = {
        "kind": "ndarray",
        "shape": [int(d) for d in a.shape],
        "dtype": dtype_text(np, a.dtype),
        "hasNaN": has_nan,
        # (the schema has no flag for a sampled range here: a sampled one goes to `values` only)
        "min": None if sampled else stat(lo),
        "max": None if sampled else stat(hi),
    }
    if a.ndim == 1 and a.shape[0] > 0:
        values = array_values(np, a, lo, hi, range_approx=sampled)
        if values is not None:
            out["values"] = values
    return out


def file_backed(np: Any, a: Any) -> bool:
    """The array's memory maps a file (`np.memmap`, `np.load(..., mmap_mode='r')`, a view of one, or
    an array over an `mmap.mmap`): its base chain, read through the C `base` slot."""
    memmap = checked(np.__dict__).get("memmap")
    for _ in range(32):
        if a is None:
            return False
        if (memmap is not None and type(a) is memmap) or class_module(type(a)) == "mmap":
            return True
        a = getattr(a, "base", None) if is_static_type(type(a)) or type(a) is memmap else None
    return True


def _numpy_backed(np: Any, series: Any) -> Optional[Any]:
    """The Series' own ndarray (no copy) when its dtype is a plain numpy dtype."""
    if not _numpy_dtype(np, series.dtype):  # (a notebook's dtype may define __class__)
        return None
    arr = series.to_numpy(copy=False)
    return arr if type(arr) is np.ndarray and not file_backed(np, arr) else None


def _missing(np: Any, pd: Any, series: Any, arr: Optional[Any], deadline: Deadline, share: float = 1.0) -> Tuple[Optional[bool], bool]:
    """(has missing values, approximate?) of one Series.

    Numeric and date columns: exact reductions. Object and extension columns: chunked scans while
    this column's share of the remaining time lasts, then a sample of the rest.
    """
    n = len(series)
    if n == 0:
        return False, False
    if arr is not None and arr.dtype.kind in "iufcbmM":
        has_nan = array_min_max_nan(np, arr)[2]
        return has_nan, has_nan is None
    data = arr.reshape(-1) if arr is not None else series.array
    # (pandas' own `isna`, from the module pristine_pandas checked: `pd.isna` is the notebook's to
    # replace)
    isna = own_call("pandas.core.dtypes.missing", "isna", "pandas")
    if arr is not None and isna is None:
        return None, False
    test = isna if arr is not None else (lambda chunk: chunk.isna())
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
    categorical = member(pd, "CategoricalDtype")
    if type(categorical) is not type or not issubclass(type(series.dtype), categorical):
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
        if _costly_to_compare(series, arr):
            return None, False, []
        if n <= HASH_EXACT_MAX or _hash_linear(series, arr):
            uniques = series.dropna().unique()
            return len(uniques), False, list(uniques[: LISTED_MAX + 1])
        numbers = _sorted_distinct(arr)
        if numbers is not None:
            return len(numbers), False, numbers[: LISTED_MAX + 1]
    positions = sample_positions(n)
    if arr is not None and not _hashable_without_user_code(arr.reshape(-1)[positions]):
        return None, False, []
    if len(positions) > HASH_EXACT_MAX and not _hash_linear(series, arr, positions):
        # (a subset of the positions just checked: every value hashed had its type read)
        positions = positions[::-(-len(positions) // HASH_EXACT_MAX)]
    if _costly_to_compare(series, arr, positions):
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


_NUMBER_IDS = frozenset(map(id, (int, float, type(None))))


def _sorted_distinct(arr: Optional[Any]) -> Optional[List[Any]]:
    """The distinct values of an object column of builtin ints and floats (and None), counted by
    sorting: no hashing, so no collisions a notebook can craft. None for any other column."""
    if arr is None:
        return None
    values = arr.reshape(-1)
    if not set(map(id, map(type, values))) <= _NUMBER_IDS:
        return None
    found = counted([x for x in values if x is not None and x == x], True, True)
    return found[1] if found is not None else None


def _costly_to_compare(series: Any, arr: Optional[Any], positions: Any = None) -> bool:
    """Hashing or sorting these values (all, or those at `positions`) could take one call longer
    than a check: a hash table or a sort compares equal values whole, so equal long texts in
    distinct objects, or ints, Decimals and Fractions past a float's range (whose hashes are easy to
    make collide, and whose comparisons read every digit) cost their size each time they meet.
    Texts count up to TEXT_HASHED_MAX characters. A text column of pandas' own that holds objects
    other than exact `str` (a subclass's `__len__`, `__hash__` would run) counts as costly too."""
    if arr is not None:
        values = arr.reshape(-1) if positions is None else arr.reshape(-1)[positions]
        if values.dtype.kind == "U":
            return values.dtype.itemsize // 4 * values.size > TEXT_HASHED_MAX
        return values.dtype.kind == "O" and _costly_objects(values)
    pd = loaded("pandas")
    string = member(pd, "StringDtype")
    if type(string) is not type or type(series.dtype) is not string:
        return False
    texts = series if positions is None else series.iloc[positions]
    if getattr(series.dtype, "storage", None) == "pyarrow":
        return float(texts.str.len().sum()) > TEXT_HASHED_MAX  # (Arrow's own text: no Python objects)
    stored = getattr(texts.array, "_ndarray", None)
    missing = (type(None), float) + pandas_missing_types()
    if stored is None or any(type(x) is not str and not one_of(type(x), missing) for x in stored):
        return True
    return sum(len(x) for x in stored if type(x) is str) > TEXT_HASHED_MAX


def _costly_objects(values: Any) -> bool:
    """For object values whose types were found plain (`_hashable_without_user_code`)."""
    chars = 0
    for x in values:
        if issubclass(type(x), (str, bytes)):  # (NumPy's `str_` and `bytes_` too)
            chars += len(x)
        elif wide_number(x):
            return True
    return chars > TEXT_HASHED_MAX


def _hash_linear(series: Any, arr: Optional[Any], positions: Any = None) -> bool:
    """Hashing these values (all, or those at `positions`) costs time in proportion to their number:
    object values of types whose hashes cannot be made to collide (value_summary.hash_bounded), or
    pandas' string arrays (str hashes are seeded). Ints, Decimals and the like, and the integer
    codes of pandas' other extension arrays, are hashed HASH_EXACT_MAX at a time."""
    if arr is not None:
        values = arr.reshape(-1)
        return hash_bounded(values if positions is None else values[positions])
    pd = loaded("pandas")
    string = member(pd, "StringDtype")
    return type(string) is type and type(series.dtype) is string


def _head_values(series: Any, arr: Optional[Any]) -> List[Any]:
    """The first 5 distinct non-missing values from the top of the column, each as short JSON."""
    head = arr[:HEAD_SCAN] if arr is not None else series.iloc[:HEAD_SCAN].array
    seen: List[Any] = []
    keys = set()
    missing_types = (type(None),) + pandas_missing_types()
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
    out: Dict[str, Any] = {
        "name": cut(label, NAME_MAX) if type(label) is str else short_text(label, 50),
        "dtype": dtype_text(np, series.dtype),
    }
    if not values_readable(np, series.dtype):  # (its values would run the notebook's code as read)
        out["distinct"] = None
        return out, None, False
    arr = _numpy_backed(np, series)
    numeric = arr is not None and arr.dtype.kind in "iuf"
    extension_numeric = arr is None and getattr(series.dtype, "kind", "O") in "iuf"
    lo = hi = None
    range_approx = False
    if numeric and frame_deadline is not None and frame_deadline.passed() and len(arr) > ALWAYS_EXACT:
        # Out of time (a swamped machine): even min and max come from the sample, and say so.
        lo, hi, has_nan, _ = array_min_max_nan(np, arr[sample_positions(len(arr))])
        nan_approx = not has_nan
        range_approx = True
    elif numeric:
        lo, hi, has_nan, range_approx = array_min_max_nan(np, arr)
        nan_approx = has_nan is None
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


# Columns past the shown ones scanned for missing values whatever the time left; beyond, only while
# the rest fits in the budget at about this cost each (pandas' per-column overhead, measured here).
FRAME_NAN_COLUMNS = 1000
_SECONDS_PER_COLUMN = 2e-5


def dataframe_summary(np: Any, pd: Any, frame: Any, deadline: Deadline) -> Dict[str, Any]:
    if not numpy_getattr_own():
        return {"kind": "unavailable", "reason": NUMPY_GETATTR}
    # pandas boxes a column's label for every column it hands out (`frame.iloc[:, i]`)
    if not _index_plain(np, frame.columns, 0):
        return {"kind": "unavailable", "reason": LABELS_NOT_PLAIN}
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
        elif frame_budget.passed() or (i >= FRAME_NAN_COLUMNS and not any_nan and i % 64 == 0
                                        and deadline.left() < (cols - i) * _SECONDS_PER_COLUMN):
            # (each column costs pandas a Series of its own: 200,000 tiny columns would take the
            # budget of every variable after this one; the rest of them are not looked at)
            nan_unknown = True
            break
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
    if not numpy_getattr_own():
        return {"kind": "unavailable", "reason": NUMPY_GETATTR}
    out: Dict[str, Any] = {
        "kind": "series",
        "dtype": dtype_text(np, series.dtype),
        "length": int(len(series)),
        "hasNaN": None,
    }
    if not values_readable(np, series.dtype):  # (its values would run the notebook's code as read)
        _name(out, series)
        return out
    arr = _numpy_backed(np, series)
    numeric = arr is not None and arr.dtype.kind in "iuf"
    lo = hi = None
    range_approx = False
    if numeric:
        lo, hi, has_nan, range_approx = array_min_max_nan(np, arr)
        approx = has_nan is None
    else:
        has_nan, approx = _missing(np, pd, series, arr, deadline)
    out["hasNaN"] = has_nan
    if approx and not has_nan and has_nan is not None:
        out["hasNaNApprox"] = True
    _name(out, series)
    if len(series):
        if numeric or (arr is not None and arr.dtype.kind == "b"):
            values = array_values(np, arr, lo, hi, range_approx)
        else:
            distinct, d_approx, listed = _distinct(np, pd, series, arr, deadline, lo, hi)
            values = describe(distinct, d_approx, listed[: LISTED_MAX + 1], numeric=False)
        if values is not None:
            out["values"] = values
    return out


def _name(out: Dict[str, Any], series: Any) -> None:
    name = series.name
    if name is not None:
        out["name"] = cut(name, NAME_MAX) if type(name) is str else short_text(name, 50)
