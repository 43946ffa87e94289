"""The value summary of a 1-D array, a Series or a flat list: binary, categorical or continuous.

Distinct counts are exact where that fits in the time budget (small inputs, bounded integer
ranges, booleans, sortable numbers) and otherwise estimated from a fixed-size sample with the
bias-corrected Chao1 estimator, flagged `distinctApprox`. Sampling uses its own generator, so the
user's random state is untouched.

No C call here may be long, since the hard stop cannot interrupt one: a numpy reduction reads at
most REDUCE_MAX elements (a broadcast view can claim billions at no memory cost), and values whose
hashes a notebook can make collide (ints, Decimals, complex numbers) are hashed HASH_EXACT_MAX at a
time at most (n colliding values cost a set n*n/2 comparisons).
"""

from __future__ import annotations

import datetime
import itertools
import math
import sys
import types
from typing import Any, Dict, List, Optional, Tuple

from ..checks.library_code import genuine
from ..checks.provenance import audit, class_module, class_name, lookup_static, own_module_function
from ..checks.static_reads import checked, held_by_its_module, is_sealed_type, is_static_type
from ..checks.wide_numbers import any_wide_number
from .safe import cut, loaded, member, number, one_of, pandas_missing_types, plain_type

EXACT_DISTINCT_MAX = 200_000  # elements: exact hashing of this many stays within a few ms
SAMPLE_SIZE = 10_000
HASH_EXACT_MAX = 2_000  # values of a collision-prone type hashed at once (2e6 comparisons at worst)
REDUCE_MAX = 20_000_000  # elements one numpy reduction reads; beyond, a strided view of about as many
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
    if value is None:
        return None
    if not plain_parts(value):  # (its `str` would run a notebook's code: a time zone's, an int's)
        return cut("<" + class_name(t) + ">", VALUE_TEXT_MAX)
    np = loaded("numpy")
    generic = member(np, "generic")
    if generic is not None and issubclass(t, generic):
        # (by the real type: isinstance would read a `__class__` a subclass defines)
        if issubclass(t, member(np, "bool_")):
            return bool(value)
        if issubclass(t, (member(np, "integer"), member(np, "floating"))):
            return number(value.item())
        return cut(str(value), VALUE_TEXT_MAX)  # str_, datetime64, timedelta64: numpy's own str
    return cut(str(value), VALUE_TEXT_MAX)


def plain_scalars(values: Any, builtin_only: bool = False) -> bool:
    """Every element is a builtin scalar (or, unless `builtin_only`, a trusted library scalar whose
    parts are plain), so hashing, comparing and printing them runs no user code. The element types
    are told apart by identity (`id`), never hashed or compared: a user metaclass could hook both."""
    type_ids = set(map(id, map(type, values)))
    allowed = {id(t) for t in _SCALARS}
    unknown = type_ids - allowed
    if not unknown:
        return True
    if builtin_only:
        return False
    whole = set()  # library types every instance of which is plain (nothing held of anyone's)
    for found in values:
        t = type(found)
        if id(t) in allowed or id(t) in whole:
            continue
        if not is_library_scalar(t):
            return False
        if _parts_free(t):
            whole.add(id(t))
        elif not plain_parts(found):  # (an aware datetime, a Fraction, an Interval: each one)
            return False
    return True


# Types whose hash is a function of a fixed-size value, so a notebook cannot make thousands of them
# collide (str hashes are keyed by the process' random seed).
_BOUNDED_HASH = (str, float, bool, type(None), datetime.date, datetime.datetime, datetime.time,
                 datetime.timedelta)
_BOUNDED_NUMPY = ("integer", "floating", "bool_", "datetime64", "timedelta64", "str_")
_BOUNDED_PANDAS = ("Timestamp", "Timedelta", "Period")


def hash_bounded(values: Any) -> bool:
    """Hashing every element stays linear: no int, complex, Decimal, Fraction or Interval, whose
    hashes reduce unbounded numbers and so can be made to collide. For plain scalars only
    (plain_scalars): `issubclass` then meets builtin and library classes alone."""
    np, pd = loaded("numpy"), loaded("pandas")
    numpy_kinds = tuple(c for c in (member(np, n) for n in _BOUNDED_NUMPY) if type(c) is type)
    pandas_kinds = tuple(c for c in (member(pd, n) for n in _BOUNDED_PANDAS) if c is not None)
    pandas_kinds += pandas_missing_types()
    for t in set(map(type, values)):
        if one_of(t, _BOUNDED_HASH) or one_of(t, pandas_kinds):
            continue
        if not (numpy_kinds and class_module(t) == "numpy" and issubclass(t, numpy_kinds)):
            return False
    return True


def is_library_scalar(t: type) -> bool:
    """Scalar types whose `str` and hash are library code we trust: stdlib dates and decimals,
    NumPy scalars, pandas' Timestamp/Timedelta/Period/Interval/NaT/NA (never arrays or frames).
    Those that hold other objects (a time zone, a numerator, an interval's ends) are trusted one
    value at a time (plain_parts)."""
    if not plain_type(t):
        return False
    module = class_module(t)
    # (`__module__` is anyone's to write: the class must be the one the module holds, or NumPy's
    # own C scalar type, never a notebook's subclass naming itself so)
    if module in ("datetime", "decimal", "fractions"):
        return held_by_its_module(t) and (is_sealed_type(t) or _unpatched(t))
    np = loaded("numpy")
    if module == "numpy":
        generic, void = member(np, "generic"), member(np, "void")
        # (a structured scalar prints and hashes whatever objects its fields hold)
        return type(generic) is type and issubclass(t, generic) and is_static_type(t) and \
            not (type(void) is type and issubclass(t, void))
    pd = loaded("pandas")
    if pd is not None and module.startswith("pandas"):
        known = tuple(member(pd, n) for n in ("Timestamp", "Timedelta", "Period", "Interval"))
        return one_of(t, known + pandas_missing_types())
    return False


# What hashing, comparing and printing an instance of a pure-Python library scalar (Fraction) runs.
_SCALAR_HOOKS = ("__hash__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__str__", "__repr__",
                 "__format__", "__bool__", "numerator", "denominator")
_C_METHODS = (types.WrapperDescriptorType, types.MethodDescriptorType, types.BuiltinFunctionType)


def _unpatched(t: type) -> bool:
    """What hashing, comparing and printing an instance of the Python class `t` runs is the code its
    module's file defines (`Fraction.__hash__ = f` would run f)."""
    for name in _SCALAR_HOOKS:
        fn = lookup_static(t, name)
        if type(fn) is property:
            fn = fn.fget
        if fn is None or one_of(type(fn), _C_METHODS):
            continue
        if type(fn) is not types.FunctionType or not genuine(fn):
            return False
    return True


_DATETIME_TZ = datetime.datetime.__dict__["tzinfo"]  # C getters: no property of a subclass's runs
_TIME_TZ = datetime.time.__dict__["tzinfo"]
_TIMEZONE = datetime.timezone
_HOLDERS = ("Fraction", "Interval")  # library scalars holding other objects, besides aware dates


def _parts_free(t: type) -> bool:
    """Every instance of the library scalar type `t` holds fixed-size data only (nobody's object)."""
    return not (issubclass(t, datetime.datetime) or issubclass(t, datetime.time) or class_name(t) in _HOLDERS)


def plain_parts(value: Any, depth: int = 0) -> bool:
    """`value` is a builtin scalar, or a trusted library scalar whose parts are plain: an aware
    date's time zone is a library's own (its `utcoffset` runs whenever the value is hashed, compared
    or printed), a Fraction's terms are exact ints, an Interval's ends plain scalars themselves."""
    t = type(value)
    if one_of(t, _SCALARS):
        return True
    if depth > 2 or not is_library_scalar(t):
        return False
    if _parts_free(t):
        return True
    if issubclass(t, datetime.datetime):
        return trusted_tz(_DATETIME_TZ.__get__(value))
    if issubclass(t, datetime.time):
        return trusted_tz(_TIME_TZ.__get__(value))
    if class_name(t) == "Fraction":
        return all(type(_slot(t, value, name)) is int for name in ("_numerator", "_denominator"))
    ends = (_slot(t, value, "left"), _slot(t, value, "right"))  # an Interval
    return all(end is not _NO_SLOT and plain_parts(end, depth + 1) for end in ends)


_NO_SLOT = object()


def _slot(t: type, value: Any, name: str) -> Any:
    """A field read through the class's compiled slot descriptor only (never a property's code)."""
    slot = lookup_static(t, name)
    if type(slot) is not types.MemberDescriptorType and type(slot) is not types.GetSetDescriptorType:
        return _NO_SLOT
    try:
        return slot.__get__(value)
    except Exception:
        return _NO_SLOT


def trusted_tz(tz: Any) -> bool:
    """A time zone whose `utcoffset`, `tzname` and `str` are a library's code: the standard library's
    fixed offsets, ZoneInfo (compiled and sealed), dateutil's and pytz's classes by identity and
    unpatched. A notebook's `tzinfo` subclass runs its methods whenever a value in it is boxed,
    hashed, compared or printed (pandas boxes a Timestamp for every label or value it hands out)."""
    if tz is None:
        return True
    t = type(tz)
    if t is _TIMEZONE:
        return True
    if t is member(loaded("zoneinfo"), "ZoneInfo"):
        return is_sealed_type(t)
    top = class_module(t).split(".", 1)[0]
    if (top == "dateutil" or top == "pytz") and held_by_its_module(t):
        try:
            return audit().pristine(t, top)
        except Exception:  # (a class dictionary with keys that are not plain strings)
            return False
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
    generic = member(loaded("numpy"), "generic")
    if type(generic) is type and issubclass(type(value), generic) and plain_parts(value):
        value = str(value) if value.dtype.kind in "mM" else value.item()
    if issubclass(type(value), (bool, int, float)):
        return number(value)
    return cut(value if type(value) is str else "<" + class_name(type(value)) + ">", 40)


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


def numpy_getattr_own() -> bool:
    """NumPy's module-level `__getattr__` (what `np.name` runs for a name the notebook deleted) is
    absent or NumPy's own: the summaries read NumPy's functions as module attributes. (The audit of
    NumPy's namespace (numpy_untouched) passes dunder entries by design.)"""
    np = loaded("numpy")
    if np is None:
        return False
    hook = checked(np.__dict__).get("__getattr__")
    return hook is None or own_module_function("numpy", "__getattr__", hook, "numpy")


def _numpy_class(module_name: str, name: str) -> Any:
    """NumPy's compiled class `module_name.name`, read from that module's dictionary and sealed (no
    notebook class is, and no method of a sealed class can be replaced); else None."""
    cls = member(loaded(module_name), name)
    return cls if type(cls) is type and class_module(cls) == module_name and is_sealed_type(cls) else None


def sample_positions(n: int, size: int = SAMPLE_SIZE) -> Any:
    """Sorted distinct random positions, from a private generator (the user's RNG does not move).

    Drawn with replacement and deduplicated: no O(n) scratch memory, a handful fewer than `size`.
    The generator is built from NumPy's sealed classes themselves (what `default_rng` returns), not
    through `np.random.default_rng`, which a notebook may have replaced; without them the positions
    are evenly strided.
    """
    np = loaded("numpy")
    if n <= size:
        return np.arange(n)
    generator = _numpy_class("numpy.random._generator", "Generator")
    bits = _numpy_class("numpy.random._pcg64", "PCG64")
    if generator is None or bits is None:
        return np.arange(0, n, -(-n // size))
    rng = generator(bits(20_260_218))
    return np.unique(rng.integers(0, n, size=size))


# -- NumPy arrays -------------------------------------------------------------------------------

def bounded_view(a: Any) -> Tuple[Any, bool]:
    """`a`, or when it has more than REDUCE_MAX elements a strided view (no copy) of at most that
    many, evenly spread over every axis; and whether it is such a view."""
    shape = [int(d) for d in a.shape]
    if int(a.size) <= REDUCE_MAX:
        return a, False
    steps = [1] * len(shape)

    def kept(i: int) -> int:
        return -(-shape[i] // steps[i])

    while math.prod(kept(i) for i in range(len(shape))) > REDUCE_MAX:
        widest = max(range(len(shape)), key=kept)
        steps[widest] *= 2
    return a[tuple(slice(None, None, step) for step in steps)], True


def array_min_max_nan(np: Any, a: Any) -> Tuple[Any, Any, Optional[bool], bool]:
    """(min, max, has NaN, from a sample?) with no copy of the array: NaN propagates through `min`.

    Exact up to REDUCE_MAX elements; past that, of a strided view (a NaN not met there leaves "has
    NaN" unknown, None)."""
    view, sampled = bounded_view(a)
    lo, hi, has_nan = _exact_min_max_nan(np, view)
    if sampled and has_nan is False:
        has_nan = None
    return lo, hi, has_nan, sampled


def _exact_min_max_nan(np: Any, a: Any) -> Tuple[Any, Any, Optional[bool]]:
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
    """(distinct non-NaN values, approximate?, up to 6 of them) of a 1-D numeric/bool array.

    `lo` and `hi` are its exact minimum and maximum, or None."""
    n = a.shape[0]
    kind = a.dtype.kind
    huge = n > REDUCE_MAX  # (even one pass over every element would be a long C call)
    if huge:
        lo = hi = None
    if kind == "b":
        seen = a[sample_positions(n)] if huge else a
        present = [v for v, here in ((False, not bool(seen.all())), (True, bool(seen.any()))) if here]
        return len(present), huge, present
    affordable = deadline is None or deadline.left() > n * BINCOUNT_SECONDS_PER_ELEMENT + 0.005
    # (each chunk's count array is hi + 1 long: past a few chunks' length, counting costs chunks x hi)
    if kind in "iu" and n > EXACT_DISTINCT_MAX and affordable and lo is not None and 0 <= int(lo) \
            and int(hi) < min(4 * n, 4 * BINCOUNT_CHUNK):
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


def array_values(np: Any, a: Any, lo: Any, hi: Any, range_approx: bool = False) -> Optional[Dict[str, Any]]:
    """Value summary of a 1-D numeric or boolean ndarray whose min/max are known (exactly, unless
    `range_approx`)."""
    if a.dtype.kind not in "iufb":
        return None  # strings, dates and objects go through the pandas path or stay unsummarised
    if a.dtype.kind in "iuf" and a.shape[0] > EXACT_DISTINCT_MAX:
        # A continuous summary shows no count: when a small probe already holds more distinct
        # values than a categorical one may have, the range says everything.
        probe = a[sample_positions(a.shape[0], PROBE_SIZE)]
        if a.dtype.kind == "f":
            probe = probe[~np.isnan(probe)]
        if np.unique(probe).shape[0] > CONTINUOUS_ABOVE:
            return describe(CONTINUOUS_ABOVE + 1, True, [], True, lo, hi, range_approx)
    distinct, approx, listed = array_distinct(np, a, None if range_approx else lo, None if range_approx else hi)
    return describe(distinct, approx, listed, a.dtype.kind in "iuf", lo, hi, range_approx)


# -- flat lists ---------------------------------------------------------------------------------

LIST_SCAN_MAX = 2_000_000  # elements scanned exactly; longer lists are read at an even stride
# The size of an int of about 300 decimal digits: past it (or any element of a list that also holds
# ints and other things), a list's values are not summarised.
WIDE_INT_BYTES = 160
TEXT_COUNTED_MAX = 20_000_000  # characters of a list's texts sorted and counted at once


def list_values(items: list) -> Tuple[Optional[Dict[str, Any]], Optional[bool]]:
    """(value summary, has None/NaN) of a flat list, without copying it.

    Type, NaN and min/max scans are C-level passes (`map`, `min`, `max`) that allocate nothing;
    past LIST_SCAN_MAX elements they read an evenly strided subset (flagged `rangeApprox`).
    Distinct values are exact up to EXACT_DISTINCT_MAX elements and estimated from a sample beyond
    (whose every element's type is checked in turn: the scan did not read them all).
    """
    n = len(items)
    stride = -(-n // LIST_SCAN_MAX) if n > LIST_SCAN_MAX else 1

    def scanned() -> Any:
        return items if stride == 1 else itertools.islice(items, 0, None, stride)

    if not plain_scalars(scanned(), builtin_only=True):
        return None, None
    types_ = set(map(type, scanned()))  # now only builtin scalar types: hashing them is type's own
    if int in types_ and _wide_ints(types_, items if stride == 1 else list(scanned())):
        return None, None  # (comparing, sorting and hashing ints of millions of digits takes as long as their digits)
    if str in types_ and _text_chars(types_, scanned()) > TEXT_COUNTED_MAX:
        return None, None  # (equal long texts in distinct objects are compared whole each time they meet)
    numeric = _numeric(types_)
    clean = _has_missing(types_, scanned())
    lo = hi = None
    if numeric:  # (`default`: a list of nothing but NaN and None has no range)
        lo, hi = min(_present(scanned(), clean), default=None), max(_present(scanned(), clean), default=None)
    if n <= EXACT_DISTINCT_MAX:
        found = counted(list(_present(items, clean)), numeric, int in types_)
        if found is not None:
            distinct = found[1]
            listed = distinct if len(distinct) <= LISTED_MAX + 1 else []
            return describe(len(distinct), False, listed, numeric, lo, hi), clean
    np = loaded("numpy") if numpy_getattr_own() else None
    positions = sample_positions(n).tolist() if np is not None else range(0, n, -(-n // SAMPLE_SIZE))
    sample = [items[i] for i in positions]
    if not plain_scalars(sample, builtin_only=True):  # (past LIST_SCAN_MAX the scan skipped these)
        return None, None
    sample_types = set(map(type, sample))
    clean = _has_missing(sample_types, sample) or clean
    kept = list(_present(sample, clean))
    if not _numeric(sample_types) and int in sample_types and len(kept) > HASH_EXACT_MAX:
        kept = kept[::-(-len(kept) // HASH_EXACT_MAX)]
    counts, distinct = counted(kept, _numeric(sample_types), False)
    if np is not None and kept:
        estimate = estimate_distinct(np.array(counts, dtype=np.int64), len(kept), n)
    else:
        estimate = len(distinct)
    listed = distinct if len(distinct) <= LISTED_MAX + 1 else []
    summary = describe(estimate, True, listed, numeric, lo, hi, range_approx=stride > 1)
    return summary, (True if clean else None)


def _text_chars(types_: set, items: Any) -> int:
    if types_ == {str}:
        return sum(map(len, items))
    return sum(len(x) for x in items if type(x) is str)


def _wide_ints(types_: set, items: list) -> bool:
    """An int among `items` too wide for a float (ints of a float's range compare and hash in a few
    steps). Only numbers: one C pass (`any_wide_number`); else each element's size, also in C."""
    if types_ <= {int, float}:
        return any_wide_number(items)
    return max(map(sys.getsizeof, items)) > WIDE_INT_BYTES


def _numeric(types_: set) -> bool:
    numbers = types_ - {type(None)}
    return bool(numbers) and numbers <= {int, float}


def _has_missing(types_: set, seq: Any) -> bool:
    """A None or a NaN among `seq` (builtin scalars of the types `types_`)."""
    if type(None) in types_:
        return True
    if float not in types_:
        return False
    if types_ <= {int, float}:
        return any(map(math.isnan, seq))
    return any(x != x for x in seq if type(x) is float)


def _present(seq: Any, clean: bool) -> Any:
    """The values of `seq` that are neither None nor NaN (builtin scalars only)."""
    return (x for x in seq if x is not None and x == x) if clean else seq


def counted(values: list, numeric: bool, any_int: bool) -> Optional[Tuple[List[int], List[Any]]]:
    """(count of each distinct value, the distinct values) of builtin scalars with no None or NaN.

    Numbers are sorted and counted in runs of equals: no hashing, so no collisions a notebook can
    craft (`i * (2**61 - 1)` all hash alike). Other values are hashed; with ints among them, only up
    to HASH_EXACT_MAX of them (None beyond: the caller samples)."""
    if numeric:
        counts: List[int] = []
        distinct: List[Any] = []
        for x in sorted(values):
            if distinct and x == distinct[-1]:
                counts[-1] += 1
            else:
                distinct.append(x)
                counts.append(1)
        return counts, distinct
    if any_int and len(values) > HASH_EXACT_MAX:
        return None
    seen: Dict[Any, int] = {}
    for x in values:
        seen[x] = seen.get(x, 0) + 1
    return list(seen.values()), list(seen)
