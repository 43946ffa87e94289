"""Library values that carry a notebook's objects, patched library helpers, and values built to
make one C call long: the runtime information runs none of the notebook's code (the hook list stays
empty), raises nothing, and returns within its budget. Each case has a twin: an ordinary value of
the same shape still gets its summary."""

import datetime
import json
import sys
import time
from fractions import Fraction

import numpy as np
import pandas as pd

from crane_llm.kernel.entry import gather

CALLS = []
ARMED = [False]  # building the values hashes and prints them; only calls made while armed count
BUDGET = 2


def _record(name):
    if ARMED[0]:
        CALLS.append(name)


class TZ(datetime.tzinfo):
    """A notebook's time zone: every method records."""

    def utcoffset(self, dt):
        _record("utcoffset")
        return datetime.timedelta(hours=1)

    def dst(self, dt):
        _record("dst")
        return datetime.timedelta(0)

    def tzname(self, dt):
        _record("tzname")
        return "X"

    def __str__(self):
        _record("TZ.__str__")
        return "TZ"

    def __repr__(self):
        _record("TZ.__repr__")
        return "TZ()"


class HI(int):
    """An int subclass whose dunders record."""

    def _hooked(name):
        def hook(self, *args):
            _record("HI." + name)
            return getattr(int, name)(self, *args)
        return hook

    for _name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__str__", "__repr__",
                  "__int__", "__index__", "__pow__", "__rpow__", "__mul__", "__rmul__", "__add__", "__radd__",
                  "__mod__", "__neg__", "__abs__", "__bool__", "__format__", "__float__", "__floordiv__",
                  "__truediv__", "__sub__", "__rsub__"):
        locals()[_name] = _hooked(_name)
    del _name


class Hostile:
    def __repr__(self):
        _record("Hostile.__repr__")
        return "hostile"

    def __str__(self):
        _record("Hostile.__str__")
        return "hostile"

    def __hash__(self):
        _record("Hostile.__hash__")
        return 1

    def __eq__(self, other):
        _record("Hostile.__eq__")
        return True


def _gather(namespace, source=None):
    source = source if source is not None else "\n".join(namespace) + "\n"
    CALLS.clear()
    ARMED[0] = True
    started = time.monotonic()
    try:
        reply = gather({"protocol": 1, "source": source, "cellId": None, "useLlm": True, "includeRuntimeInfo": True,
                        "budgetSeconds": BUDGET}, namespace)
    finally:
        ARMED[0] = False
    seconds = time.monotonic() - started
    summaries = {v["name"]: v["summary"] for v in (reply["runtimeInfo"] or {"variables": []})["variables"]}
    return summaries, seconds, reply


def _quiet(namespace):
    summaries, seconds, reply = _gather(namespace)
    assert CALLS == [], CALLS
    assert seconds < BUDGET + 2
    return summaries, reply


def _aware(tz):
    return [datetime.datetime(2020, 1, day, tzinfo=tz) for day in (1, 2, 3)] * 2


# -- 1. library scalars and dtypes that hold the notebook's objects -----------------------------------

def _tz_values(tz):
    return {
        "frame": pd.DataFrame({"t": pd.DatetimeIndex([datetime.datetime(2020, 1, 1, tzinfo=tz)] * 3)}),
        "series": pd.Series(pd.date_range("2020-01-01", periods=3, tz=tz)),
        "labelled": pd.DataFrame([[1, 2]], columns=pd.DatetimeIndex(
            [datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 2)]).tz_localize(tz)),
        "dates": pd.Series(_aware(tz), dtype=object),
        "stamps": pd.Series([pd.Timestamp("2020-01-0%d" % day, tz=tz) for day in (1, 2, 3)], dtype=object),
        "listed": _aware(tz),
    }


def test_a_notebook_time_zone_is_never_asked():
    summaries, _ = _quiet(_tz_values(TZ()))
    assert summaries["series"]["hasNaN"] is None and "values" not in summaries["series"]
    assert summaries["frame"]["columns"][0]["distinct"] is None
    assert summaries["labelled"]["kind"] == "unavailable"
    assert summaries["dates"].get("values") is None and summaries["stamps"].get("values") is None
    assert "TZ]" not in json.dumps(summaries) and "TZ()" not in json.dumps(summaries)


def test_a_library_time_zone_is_still_read():
    summaries, _ = _quiet(_tz_values(datetime.timezone.utc))
    assert summaries["series"]["dtype"].endswith("UTC]") and summaries["series"]["values"]["distinct"] == 3
    assert summaries["frame"]["columns"][0]["distinct"] == 1
    assert summaries["labelled"]["kind"] == "dataframe"
    assert summaries["dates"]["values"]["distinct"] == 3
    assert summaries["stamps"]["values"]["distinct"] == 3


def test_library_scalars_holding_hooked_ints_are_not_hashed():
    hostile_fraction = Fraction(1, 3)
    object.__setattr__(hostile_fraction, "_numerator", HI(1))
    namespace = {
        "fractions": pd.Series([hostile_fraction, Fraction(1, 2)], dtype=object),
        "intervals": pd.Series([pd.Interval(HI(1), HI(2)), pd.Interval(0, 1)], dtype=object),
        "plain_fractions": pd.Series([Fraction(1, 3), Fraction(1, 2), Fraction(1, 4), Fraction(1, 3)], dtype=object),
        "plain_intervals": pd.Series([pd.Interval(1, 2), pd.Interval(0, 1), pd.Interval(2, 3)], dtype=object),
    }
    summaries, _ = _quiet(namespace)
    assert "values" not in summaries["fractions"] and "values" not in summaries["intervals"]
    assert summaries["plain_fractions"]["values"]["distinct"] == 3
    assert summaries["plain_intervals"]["values"]["distinct"] == 3


def test_a_dtype_holding_an_object_is_named_not_printed():
    title = Hostile()
    namespace = {
        "sparse": pd.Series(pd.arrays.SparseArray([HI(7), 1, HI(7)], fill_value=HI(7), dtype=object)),
        "structured": np.zeros(2, dtype=np.dtype({"names": ["a"], "formats": ["i4"], "titles": [title]})),
        "plain_sparse": pd.Series(pd.arrays.SparseArray([0, 1, 0])),
        "plain_structured": np.zeros(2, dtype=np.dtype({"names": ["a"], "formats": ["i4"], "titles": ["T"]})),
    }
    summaries, _ = _quiet(namespace)
    assert summaries["sparse"]["dtype"] == "<SparseDtype>" and summaries["sparse"]["hasNaN"] is None
    assert summaries["structured"]["dtype"] == "<VoidDType>"
    assert summaries["plain_sparse"]["dtype"] == "Sparse[int64, 0]"
    assert summaries["plain_sparse"]["values"] == {"valueKind": "binary", "values": [0, 1]}
    assert "'T'" in summaries["plain_structured"]["dtype"]


# -- 2. patched pandas / NumPy / scikit-learn helpers ------------------------------------------------

def _patched(module, name, value):
    """Set `module.name` for one test; the original comes back after it."""
    had = name in module.__dict__
    old = module.__dict__.get(name)
    setattr(module, name, value)
    return had, old


def _restore(module, name, had, old):
    if had:
        setattr(module, name, old)
    else:
        module.__dict__.pop(name, None)


def _hook(*args, **kwargs):
    _record("hook")
    raise RuntimeError("hook")


def test_replaced_isna_and_default_rng_are_not_called():
    namespace = {"objects": pd.Series(["a", None, 1] * 5, dtype=object), "long": [i % 7 for i in range(300_000)]}
    saved = [_patched(pd, "isna", _hook), _patched(np.random, "default_rng", _hook)]
    try:
        summaries, _ = _quiet(namespace)
    finally:
        _restore(np.random, "default_rng", *saved[1])
        _restore(pd, "isna", *saved[0])
    # pandas' own isna is read where pandas keeps it, NumPy's generator built from its own classes
    assert summaries["objects"]["hasNaN"] is True
    assert summaries["long"]["values"]["distinct"] == 7 and summaries["long"]["values"]["distinctApprox"] is True
    missing = sys.modules["pandas.core.dtypes.missing"]
    saved = _patched(missing, "isna", _hook)
    try:
        summaries, _ = _quiet(namespace)  # (pandas' own module patched: the column's gaps go unknown)
    finally:
        _restore(missing, "isna", *saved)
    assert summaries["objects"]["kind"] == "unavailable" or summaries["objects"]["hasNaN"] is None


def test_module_getattr_hooks_are_not_reached():
    import sklearn.utils
    from sklearn.utils import Bunch

    timestamp, bunch = pd.Timestamp, sklearn.utils.Bunch
    namespace = {"stamps": pd.Series([pd.Timestamp("2020-01-01")] * 3, dtype=object),
                 "bunch": Bunch(data=np.zeros((3, 2)), target=np.zeros(3))}
    del pd.Timestamp
    del sklearn.utils.Bunch
    pd.__getattr__ = _hook
    sklearn.utils.__getattr__ = _hook
    try:
        summaries, _ = _quiet(namespace)
    finally:
        del pd.__getattr__
        del sklearn.utils.__getattr__
        pd.Timestamp, sklearn.utils.Bunch = timestamp, bunch
    assert summaries["stamps"]["kind"] == "series" and summaries["bunch"]["kind"] == "dict"
    summaries, _ = _quiet(namespace)
    assert summaries["stamps"]["values"]["distinct"] == 1 and summaries["bunch"]["kind"] == "dict-dataset"


def test_a_patched_frame_shape_is_not_read_through_a_dict():
    from sklearn.utils import Bunch

    frame = pd.DataFrame({"a": [1, 2]})
    namespace = {"holder": {"frame": frame}, "bunch": Bunch(data=frame, target=frame["a"])}
    shape = pd.DataFrame.__dict__["shape"]
    pd.DataFrame.shape = property(_hook)
    try:
        summaries, _ = _quiet(namespace)
    finally:
        pd.DataFrame.shape = shape
    assert summaries["bunch"]["dataShape"] is None
    summaries, _ = _quiet(namespace)
    assert summaries["bunch"]["dataShape"] == [2, 1]
    assert summaries["holder"]["entries"][0]["value"] == "DataFrame shape (2, 1)"


# -- 3. one C call made long: colliding hashes, a broadcast array ------------------------------------

COLLIDING = (1 << 61) - 1  # every multiple of it hashes alike


def test_colliding_ints_are_counted_within_budget():
    namespace = {
        "colliding_list": [i * COLLIDING for i in range(30_000)],
        "colliding_series": pd.Series([i * COLLIDING for i in range(20_000)], dtype=object),
        "mixed_list": [i * COLLIDING for i in range(30_000)] + ["a"],
        "mixed_series": pd.Series([i * COLLIDING for i in range(20_000)] + ["a"], dtype=object),
    }
    summaries, _ = _quiet(namespace)
    assert summaries["colliding_list"]["values"]["valueKind"] == "continuous"  # (exact: counted by sorting)
    assert summaries["colliding_series"]["values"] == {"valueKind": "categorical", "distinct": 20_000}  # (sorted)
    values = summaries["mixed_series"]["values"]
    assert values["distinctApprox"] is True and values["distinct"] > 10_000
    assert summaries["mixed_list"]["values"]["distinctApprox"] is True


def test_plain_ints_are_still_counted_exactly():
    summaries, _ = _quiet({"small": [i % 5 for i in range(30_000)],
                           "objects": pd.Series([i % 5 for i in range(20_000)], dtype=object)})
    assert summaries["small"]["values"] == {"valueKind": "categorical", "distinct": 5, "values": [0, 1, 2, 3, 4]}
    assert summaries["objects"]["values"] == {"valueKind": "categorical", "distinct": 5, "values": [0, 1, 2, 3, 4]}


def test_a_broadcast_array_is_sampled_within_budget():
    summaries, _ = _quiet({"wide": np.broadcast_to(np.float64(1.0), (4_000_000_000,)),
                           "wide_ints": np.broadcast_to(np.int64(3), (4_000_000_000,)),
                           "ordinary": np.arange(10.0)})
    assert summaries["wide"]["min"] is None and summaries["wide"]["hasNaN"] is None
    assert summaries["wide"]["values"]["distinct"] == 1 and summaries["wide"]["values"]["distinctApprox"] is True
    assert summaries["wide_ints"]["values"]["distinctApprox"] is True
    assert summaries["ordinary"]["min"] == 0.0 and summaries["ordinary"]["hasNaN"] is False


# -- 4. a long list's sample holds only elements whose type was read ---------------------------------

def test_a_long_list_sample_checks_each_element():
    big = [0] * 2_000_002
    big[1::2] = [Hostile()] * 1_000_001
    twin = [0] * 2_000_002
    twin[1::2] = [1] * 1_000_001
    summaries, _ = _quiet({"big": big, "twin": twin})
    assert "values" not in summaries["big"]
    assert summaries["twin"]["values"]["valueKind"] == "binary"


# -- 5. and 6. all-missing lists; a dtype whose text runs to megabytes -------------------------------

def test_a_list_of_nothing_but_nan():
    summaries, _ = _quiet({"nans": [float("nan")] * 3, "nones": [None, None]})
    assert summaries["nans"]["values"] == {"valueKind": "categorical", "distinct": 0, "values": []}
    assert summaries["nans"]["values"] == summaries["nones"]["values"]


def test_a_huge_structured_dtype_text_is_cut():
    wide = np.zeros(1, dtype=[("f%d" % i, "i4") for i in range(5_000)])
    narrow = np.zeros(1, dtype=[("a", "i4"), ("b", "f8")])
    summaries, reply = _quiet({"wide": wide, "narrow": narrow})
    assert len(summaries["wide"]["dtype"]) <= 200
    assert len(json.dumps(reply)) < 20_000
    assert summaries["narrow"]["dtype"] == "[('a', '<i4'), ('b', '<f8')]"
