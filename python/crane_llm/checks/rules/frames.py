"""pandas DataFrame rules: columns that do not exist (KeyError), columns of the wrong length
(ValueError), and the calls that leave a frame as None (`inplace=True`).

Only calls whose every outcome is known are modelled: a missing column with pandas' default
`errors='raise'` raises KeyError; the same call on existing columns yields a frame whose columns the
rule computes, so the reading goes on. Membership follows pandas' own Index semantics on live
frames; MultiIndex columns, `errors='ignore'` and anything unusual end the reading instead.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any, Dict, List, Optional, Tuple

from ..static_reads import loaded_module, checked
from ..class_facts import pandas_index_types, pandas_types, pristine_pandas
from ..live_adapter import LiveValue, bools_among_numbers, is_simple_constant
from ..outcome import CertainCrash, Crash, Stop
from ..suggest import closest, correct, hint_for
from .library_state import pandas_option
from .streams import stdout_is_plain
from ..replay import ReplayValue
from ..abstract_values import NOTHING, ArrayFacts, FactValue, FrameFacts, Opaque, Value, hashed_cheaply

FRAME_TYPE = "pandas.core.frame.DataFrame"
SERIES_TYPE = "pandas.core.series.Series"


def _frame(base: Value, node) -> FrameFacts:
    f = base.frame()
    if f is None or not f.flat:
        raise Stop(node.lineno, f"a DataFrame operation on {_label(base)} the checker does not model")
    return f


def _label(v: Value) -> str:
    return f"`{v.name}`" if v.name else "a DataFrame"


def _labels(v: Value) -> Optional[List[Any]]:
    """A column label or list of labels as plain constants, or None."""
    c = v.concrete()
    if c is NOTHING:
        items = v.items()
        if items is None:
            return None
        c = [i.concrete() for i in items]
        if any(x is NOTHING for x in c):
            return None
    if type(c) in (list, tuple) and type(c) is list:
        return list(c) if all(_scalar(x) for x in c) else None
    if _scalar(c):
        return [c]
    return None


def _scalar(x: Any) -> bool:
    return type(x) in (str, int, float, bool)


def _boolean_mask(labels: Optional[List[Any]], key: Value) -> bool:
    """A non-empty list of bools is no list of labels to `df[...]` or `.loc`: pandas reads it as a
    boolean mask (`com.is_bool_indexer`) over the rows (`df[mask]`) or the columns (`.loc[:, mask]`),
    which a mask of the right length passes and one of the wrong length fails with ValueError or
    IndexError, never the KeyError of a missing label."""
    return bool(labels) and type(key.concrete()) is not bool and all(type(x) is bool for x in labels)


def _missing(f: FrameFacts, labels: List[Any], also_index: bool = False) -> Optional[List[Any]]:
    """The labels that are certainly not columns (nor index level names when `also_index`)."""
    missing = []
    for label in labels:
        has = f.has_column(label)
        if has is None:
            return None
        if not has:
            if also_index:
                in_index = f.has_index_name(label)
                if in_index is None:
                    return None
                if in_index:
                    continue
            missing.append(label)
    return missing


_SORTABLE = ("numeric", "bool", "datetime", "timedelta", "str", "string", "category")
# Dtypes whose values pandas' hash tables take as they are (an object column may hold lists, dicts or
# sets, TypeError, or run a notebook class's `__hash__`); 'numeric' only where its width is known.
_HASHED = ("bool", "datetime", "timedelta", "str", "string", "category")


def _hashed_plainly(f: FrameFacts, labels: List[Any]) -> bool:
    """Every column named in `labels` is one pandas can group, index or deduplicate by (an object
    column the recording shows holding text only counts: replay._seen_text)."""
    return all(f.column_dtype(label) in _HASHED or (f.column_dtype(label) == "numeric" and f.numbers_plain) or
               (type(label) is str and label in f.seen_text) for label in labels)


def _unambiguous(base: Value, f: FrameFacts, labels: List[Any], node, how: str) -> None:
    """Stop unless no key that names a column also names an index level: pandas raises ValueError
    ("'a' is both an index level and a column label, which is ambiguous") for those, so the
    reading may go on past the call only when the row index's names are known not to hold them."""
    for label in labels:
        if f.has_column(label):
            in_index = f.has_index_name(label)
            if in_index:
                raise Stop(node.lineno, f"{how} by {label!r}, both a column and a row index level of {_label(base)}")
            if in_index is None:
                raise Stop(node.lineno, f"{how} on {_label(base)}, whose row index names the checker does not know")


def _key_error(base: Value, missing: List[Any], node, how: str) -> Crash:
    shown = ", ".join(repr(m) for m in missing)
    s = "s" if len(missing) > 1 else ""
    f = base.frame()
    columns = f.columns if f is not None and f.columns is not None else []
    near = closest(missing[0], columns) if len(missing) == 1 else None
    said = hint_for(near, quote="'")
    crash = CertainCrash("KeyError", node.lineno, node.col_offset,
                         f"{_label(base)} has no column{s} {shown}, which {how} needs.{said}",
                         "missing-column", [base.name] if base.name else [])
    if type(missing[0]) is str:
        correct(crash, repr(missing[0]), None if near is None else repr(near))
    return Crash(crash)


def derived(columns: Optional[List[Any]], nrows: Optional[int], index_of: Optional[FrameFacts] = None, dtypes=None,
            ordered: bool = True, dtypes_of: Optional[FrameFacts] = None) -> FactValue:
    """A frame the cell derives; `index_of` the frame whose row index it keeps (what is known of its
    level names carries over), `dtypes_of` the frame its `dtypes` come from (`index_of` when not given)."""
    frame_cls, _, _ = pandas_types()
    source = dtypes_of if dtypes_of is not None else index_of
    return FactValue("frame", type_name=FRAME_TYPE, cls=frame_cls,
                     frame=FrameFacts(columns=columns, nrows=nrows,
                                      index_names=None if index_of is None else index_of.index_names,
                                      unnamed_index=index_of is not None and index_of.unnamed_index,
                                      flat=columns is not None and all(_scalar(c) for c in columns), exact=True,
                                      column_dtypes=dtypes, ordered=ordered,
                                      numbers_plain=source is not None and source.numbers_plain))


def _dtypes_of(f: FrameFacts, labels: List[Any]) -> Optional[List[Optional[str]]]:
    """The dtype categories of the columns `labels` (each naming one column of `f`) keep, for the
    frame a selection or a row operation derives: scikit-learn's rules need them (a datetime column
    fails X's conversion with a TypeError before the feature count is looked at)."""
    if f.column_dtypes is None:
        return None
    return [f.column_dtype(label) for label in labels]


def series_value(nrows: Optional[int], dtype: Optional[str] = None) -> FactValue:
    _, series_cls, _ = pandas_types()
    return FactValue("series", length=nrows, type_name=SERIES_TYPE, cls=series_cls, series_dtype=dtype)


def getitem(interp, base: Value, index: Value, node) -> Value:
    f = _frame(base, node)
    labels = _labels(index)
    if labels is None or _boolean_mask(labels, index):
        raise Stop(node.lineno, f"selecting from {_label(base)} with a key the checker does not model")
    missing = _missing(f, labels)
    if missing is None:
        raise Stop(node.lineno, f"selecting from {_label(base)}")
    if missing:
        raise _key_error(base, missing, node, "the selection")
    if type(index.concrete()) is list or index.items() is not None:
        if labels_repeat(labels) or _duplicated_columns(f):
            raise Stop(node.lineno, "selecting repeated columns")
        return derived(labels, f.nrows, dtypes=_dtypes_of(f, labels), dtypes_of=f)
    if _duplicated_columns(f):
        raise Stop(node.lineno, "selecting a repeated column")
    column = series_value(f.nrows, f.column_dtype(labels[0]) if len(labels) == 1 else None)
    column.integer_span = _integer_span(base, f, labels[0])
    column.text_of = (base, f, labels[0])  # read only if a rule needs the texts (`.astype(int)`)
    return column


def selected_from(column: Value) -> Optional[Tuple[Value, FrameFacts, Any]]:
    """(frame, its facts then, label) of a column this cell selected by one label (`df['n']`),
    None for any other value: where its values come from, for the rules that read them."""
    source = getattr(column, "text_of", None)
    return source if type(source) is tuple and len(source) == 3 else None


def _column_texts(base: Value, f: FrameFacts, label: Any) -> Optional[List[str]]:
    """The values of a column of text (str or object dtype) of the kernel's frame, when every one
    is an exact str: what converting it reads, in order."""
    frame_cls, series_cls, pd = pandas_types()
    np = loaded_module("numpy")
    if not isinstance(base, LiveValue) or type(base.obj) is not frame_cls or not f.exact or np is None or \
            f.live_columns is None or not pristine_pandas(series_cls):
        return None
    try:
        col = base.obj[label]  # pandas' own selection (the frame's classes are unpatched)
        dt = col.dtype
        if type(col) is not series_cls or len(col) > 100000 or not (
                type(dt) is checked(pd.__dict__).get("StringDtype") or (issubclass(type(dt), np.dtype) and dt.kind == "O")):
            return None
        values = col.tolist()
    except Exception:
        return None
    return values if all(type(v) is str and len(v) <= 1000 for v in values) else None


def _text_not_integer(texts: List[str]) -> Optional[bool]:
    """True when converting the texts to integers, in order, meets one int() rejects before any
    number too large for int64."""
    for v in texts:
        try:
            n = int(v)
        except ValueError:
            return True
        if not -2 ** 63 <= n < 2 ** 63:
            return None
    return False


# ASCII letters no spelling of a float has (`1e5`, `nan`, `inf`, `Infinity` use only the others).
_NOT_IN_FLOATS = frozenset("bcdghjklmopqrsuvwxzBCDGHJKLMOPQRSUVWXZ")


def _first_not_float(texts: List[str]) -> Optional[str]:
    """The first text holding a letter no float's spelling has: every parser of floats rejects it."""
    return next((v for v in texts if not _NOT_IN_FLOATS.isdisjoint(v)), None)


def series_astype(interp, owner: Value, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`s.astype(int)` / `s.astype(float)` on a column of text: ValueError at a text that is no
    integer (no float)."""
    np = loaded_module("numpy")
    target = args[0].concrete() if len(args) == 1 and not kwargs else NOTHING
    numpy_types = checked(np.__dict__) if np is not None else {}
    to_int64 = target is int or (type(target) is str and target in ("int", "int64")) or \
        (np is not None and target is numpy_types.get("int64"))
    to_float = target is float or (type(target) is str and target in ("float", "float64", "float32")) or \
        (np is not None and any(target is numpy_types.get(t) for t in ("float64", "float32")))
    source = selected_from(owner)
    texts = _column_texts(*source) if source is not None and (to_int64 or to_float) else None
    what = f"`{owner.name}`" if owner.name else "this column"
    if texts is not None and to_int64 and np.dtype(int) == np.dtype("int64") and _text_not_integer(texts) is True:
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 f"{what} holds text that is not an integer, so `.astype(int)` raises ValueError "
                                 "(invalid literal for int()).", "astype-text", [owner.name] if owner.name else []))
    shown = _first_not_float(texts) if texts is not None and to_float else None
    if shown is not None:
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 f"{what} holds text that is not a number ({shown[:40]!r}), so `.astype(float)` "
                                 "raises ValueError (could not convert string to float).", "astype-text",
                                 [owner.name] if owner.name else []))
    raise Stop(node.lineno, "a call to `.astype()` on a series, which the checker does not model")


def _integer_span(base: Value, f: FrameFacts, label: Any) -> Optional[Tuple[int, int]]:
    """(lowest, highest) of a column of integers with no missing value, (0, -1) when it is empty."""
    if f.integer_spans is not None and type(label) is str:
        return f.integer_spans.get(label)
    frame_cls, series_cls, _ = pandas_types()
    if not isinstance(base, LiveValue) or type(base.obj) is not frame_cls or not f.exact or \
            f.live_columns is None or not pristine_pandas(series_cls):
        return None
    try:
        col = base.obj[label]  # pandas' own selection (the frame's classes are unpatched)
        np = loaded_module("numpy")
        # (a NumPy dtype: pandas' nullable Int64 may hold missing values)
        if type(col) is not series_cls or np is None or not issubclass(type(col.dtype), np.dtype) or \
                col.dtype.kind not in "iu":
            return None
        values = col.to_numpy()
        return (0, -1) if values.size == 0 else (int(values.min()), int(values.max()))
    except Exception:
        return None


def _duplicated_columns(f: FrameFacts) -> bool:
    if f.columns is None:
        return True
    return labels_repeat(f.columns) or bools_among_numbers(f.columns)


def labels_repeat(labels: List[Any]) -> bool:
    """Some two labels are one to pandas: equal as Python compares numbers (`1` and `1.0`, `0.0` and
    `-0.0`), or both NaN; labels are simple constants (text, numbers, bools)."""
    return len({_label_key(x) for x in labels}) != len(labels)


def _label_key(x: Any) -> Any:
    if type(x) is float:
        return ("nan",) if x != x else (int(x) if x.is_integer() else x)
    return x if type(x) in (int, bool) else (type(x).__name__, repr(x))


def _numbered_rows(base: Value, f: FrameFacts) -> bool:
    """The frame's row index is live and pandas' own RangeIndex, or of NumPy's numbers."""
    index = f.live_index
    if not isinstance(base, LiveValue) or index is None:
        return False
    own = pandas_index_types()
    if len(own) == 2 and type(index) is own[1]:
        return True
    np = loaded_module("numpy")
    np_dtype = checked(np.__dict__).get("dtype") if np is not None else None
    try:
        dtype = index.dtype
        return isinstance(np_dtype, type) and isinstance(dtype, np_dtype) and dtype.kind in "iuf"
    except Exception:
        return False


def _plain_memory_option() -> bool:
    """pandas' `display.memory_usage` option is not 'deep'."""
    setting = pandas_option("display", "memory_usage")
    return setting is None or type(setting) is bool


def indexer_getitem(interp, indexer, index: Value, node) -> Value:
    base = indexer.frame_value
    if base.kind() == "series":
        return _series_iloc(base, index.concrete(), node)
    f = _frame(base, node)
    key = index.concrete()
    if indexer.how == "iloc":
        return _iloc(base, f, key, node)
    if indexer.how != "loc" or type(key) is not tuple or len(key) != 2:
        raise Stop(node.lineno, f"`.{indexer.how}[...]` on {_label(base)}")
    rows, cols = key
    single_level = f.index_names is not None and len(f.index_names) == 1
    if not (rows == slice(None) or (type(rows) in (int, str) and f.nrows and single_level)):
        raise Stop(node.lineno, "`.loc[...]` with rows the checker does not model")
    labels = _labels(LiveValue(cols))
    if labels is None or _boolean_mask(labels, LiveValue(cols)):
        raise Stop(node.lineno, "`.loc[...]` with columns the checker does not model")
    missing = _missing(f, labels)
    if missing is None:
        raise Stop(node.lineno, f"`.loc[...]` on {_label(base)}")
    if missing:
        raise _key_error(base, missing, node, "`.loc`")
    if rows == slice(None):
        if type(cols) is not list:
            return series_value(f.nrows)
        if labels_repeat(labels) or _duplicated_columns(f):
            raise Stop(node.lineno, "`.loc[...]` of repeated columns")
        return derived(labels, f.nrows, dtypes=_dtypes_of(f, labels), dtypes_of=f)
    raise Stop(node.lineno, "`.loc[...]` of single rows")


def _iloc(base: Value, f: FrameFacts, key: Any, node) -> Value:
    """`df.iloc[i]`, `df.iloc[:, j]`, `df.iloc[i, j]` with plain integers: IndexError past the ends."""
    rows, cols = key if type(key) is tuple and len(key) == 2 else (key, slice(None))
    # (a recorded frame reaches here only when its class is the installed pandas' and no executed
    # cell set an attribute on it: attributes.read; positions past the ends fail in every pandas)
    if not (f.exact or isinstance(base, ReplayValue)) or \
            not all(type(k) is int or (type(k) is slice and k == slice(None)) for k in (rows, cols)):
        raise Stop(node.lineno, f"`.iloc[...]` on {_label(base)}")
    for k, n, what in ((rows, f.nrows, "rows"), (cols, None if f.columns is None else len(f.columns), "columns")):
        if type(k) is not int:
            continue
        if n is None:
            raise Stop(node.lineno, f"`.iloc[...]` on {_label(base)}, whose size the checker does not know")
        if k >= n or k < -n:
            raise Crash(CertainCrash("IndexError", node.lineno, node.col_offset,
                                     f"position {k} is out of bounds: {_label(base)} has {n} {what}.",
                                     "index-out-of-range", [base.name] if base.name else []))
    if type(rows) is slice and type(cols) is int:
        # (a recording lists the columns sorted: which one sits at a position is then unknown)
        known = f.column_dtypes is not None and f.ordered
        return series_value(f.nrows, f.column_dtypes[cols] if known else None)
    return Opaque()


def _series_iloc(base: Value, key: Any, node) -> Value:
    """`s.iloc[i]` with a plain integer: IndexError past the ends (the length is the index's)."""
    n = base.series_length()
    if type(key) is not int or n is None:
        raise Stop(node.lineno, f"`.iloc[...]` on {_series_label(base)}")
    if key >= n or key < -n:
        raise Crash(CertainCrash("IndexError", node.lineno, node.col_offset,
                                 f"position {key} is out of bounds: {_series_label(base)} has {n} values.",
                                 "index-out-of-range", [base.name] if base.name else []))
    return Opaque()


def _series_label(v: Value) -> str:
    return f"`{v.name}`" if v.name else "a Series"


def _int_row_index(f: FrameFacts) -> bool:
    """The frame's row index is pandas' RangeIndex or an Index of NumPy integers: joining two of
    these on their indexes cannot fail (unlike, say, tz-naive with tz-aware dates)."""
    idx = f.live_index
    np = loaded_module("numpy")
    pd = loaded_module("pandas")
    if idx is None or np is None or pd is None:
        return False
    try:
        if type(idx) is checked(pd.__dict__).get("RangeIndex"):
            return True
        return type(idx) is checked(pd.__dict__).get("Index") and issubclass(type(idx.dtype), np.dtype) and idx.dtype.kind in "iu"
    except Exception:
        return False


def _join(base: Value, f: FrameFacts, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`left.join(right)` on the indexes with no suffix: ValueError when a column name is in both."""
    other = args[0].frame() if len(args) == 1 and not kwargs else None
    if other is None or not (f.exact and other.exact and f.flat and other.flat) or \
            f.columns is None or other.columns is None or not _int_row_index(f) or not _int_row_index(other) or \
            _duplicated_columns(f) or _duplicated_columns(other):
        raise Stop(node.lineno, f"a call to `.join()` on {_label(base)}, which the checker does not model")
    if not all(type(c) is str for c in list(f.columns) + list(other.columns)):
        raise Stop(node.lineno, "`.join()` of frames with columns that are not all strings")
    overlap = [c for c in f.columns if c in other.columns]
    if overlap:
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 f"{_label(base)} and {_label(args[0])} both have the column(s) "
                                 f"{', '.join(repr(c) for c in overlap[:5])}, and `.join()` was given no "
                                 "lsuffix / rsuffix to tell them apart.", "join-overlap",
                                 [n for n in (base.name, args[0].name) if n]))
    return derived(list(f.columns) + list(other.columns), None, ordered=f.ordered and other.ordered)


def construct(interp, cls: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`pd.DataFrame(array_2d, columns=[...])`: ValueError when the labels do not count the array's columns."""
    frame_cls, _, _ = pandas_types()
    data = args[0].array() if len(args) == 1 else None
    labels = kwargs["columns"].concrete() if "columns" in kwargs else NOTHING
    if cls is not frame_cls or not pristine_pandas(cls) or set(kwargs) != {"columns"} or data is None or \
            data.shape is None or len(data.shape) != 2 or None in data.shape or data.kind is None or \
            data.kind not in "biuf" or type(labels) is not list or not all(_scalar(c) for c in labels):
        raise Stop(node.lineno, "creating a `DataFrame`, which the checker does not model")
    nrows, ncols = data.shape
    if len(labels) != ncols:
        raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset,
                                 f"the array has {ncols} column(s) but {len(labels)} column name(s) were given "
                                 f"(shape of passed values is {(nrows, ncols)}, the names imply "
                                 f"{(nrows, len(labels))}).", "column-length",
                                 [n for n in (args[0].name, kwargs["columns"].name) if n]))
    return derived(list(labels), nrows)


class GroupBy(Value):
    """`df.groupby(key)` on a frame whose columns exist: pandas groups lazily, so nothing ran yet."""

    def __init__(self, frame: FrameFacts, key: Any):
        self.frame_facts = frame
        self.key = key

    def kind(self):
        return "groupby"

    def has_attr(self, attr):
        return True if attr in ("sum", "get_group") else None


def groupby_call(interp, owner: GroupBy, attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`df.groupby(key).sum()`: no error when every column is numbers, booleans or (python-stored)
    text, all of which pandas sums; the result's rows are unknown, the reading goes on.
    `.get_group(text)` of a group the column is known to hold: its rows, every column kept."""
    f = owner.frame_facts
    if attr == "get_group":
        name = args[0].concrete() if len(args) == 1 and not kwargs else NOTHING
        if f.holds_text(owner.key, name) is not True:
            raise Stop(node.lineno, "`.get_group()` of a group the checker does not know is there")
        return derived(f.columns, None, f, f.column_dtypes, f.ordered)
    cats = f.column_dtypes
    allowed = ("numeric", "bool") if "pyarrow" in sys.modules else ("numeric", "bool", "str")
    if attr != "sum" or args or kwargs or not f.exact or cats is None or _duplicated_columns(f) or \
            not all(c in allowed for c in cats):
        raise Stop(node.lineno, f"a call to `.{attr}()` on a groupby, which the checker does not model")
    return Opaque("frame")


def _kw(kwargs: Dict[str, Value], name: str, default: Any = None) -> Any:
    if name not in kwargs:
        return default
    return kwargs[name].concrete()


def _drop_rows(interp, base: Value, f: FrameFacts, rows: Value, inplace: bool, node) -> Value:
    """`df.drop(labels)` along the rows: KeyError when a label is not in the (plain) row index."""
    labels = _labels(rows)
    if labels is None:
        raise Stop(node.lineno, "`.drop()` of rows the checker does not model")
    missing = []
    for label in labels:
        has = f.has_row(label)
        if has is None:
            raise Stop(node.lineno, f"`.drop()` of rows of {_label(base)}")
        if not has:
            missing.append(label)
    if missing:
        shown = ", ".join(repr(m) for m in missing)
        why = [w for a, w in f.absent_rows if any(type(a) is type(m) and a == m for m in missing)]
        raise Crash(CertainCrash("KeyError", node.lineno, node.col_offset,
                                 f"the row index of {_label(base)} has no label {shown}, which `.drop()` needs"
                                 f"{' (' + why[0] + ')' if why else ''}.",
                                 "missing-row", [base.name] if base.name else []))
    return _result(interp, base, f, f.columns, None, inplace, node, dtypes=f.column_dtypes)


def _only(kwargs: Dict[str, Value], allowed, node) -> None:
    for k in kwargs:
        if k not in allowed:
            raise Stop(node.lineno, f"a DataFrame call with `{k}=`, which the checker does not model")
    for k, v in kwargs.items():
        if v.concrete() is NOTHING and v.items() is None:
            raise Stop(node.lineno, f"a DataFrame call whose `{k}=` the checker does not know")


def _result(interp, base: Value, f: FrameFacts, columns, nrows, inplace: bool, node, attr: str = "",
            dtypes=None) -> Value:
    if inplace:
        new = derived(columns, nrows, f, dtypes, f.ordered)
        if isinstance(base, LiveValue):
            interp.set_shadow(base, new, node)
        else:
            base.facts = replace(base.facts, frame=new.frame())
        interp.changed_in_place(node)
        none = LiveValue(None)
        none.note = "pandas methods called with inplace=True return None"
        return none
    return derived(columns, nrows, f, dtypes, f.ordered)


def method(interp, base: Value, attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    f = _frame(base, node)
    inplace = _kw(kwargs, "inplace", False)
    if type(inplace) is not bool:
        raise Stop(node.lineno, "`inplace=` with a value the checker does not know")
    if attr in ("head", "tail"):
        _only(kwargs, ("n",), node)
        n = args[0].concrete() if args else _kw(kwargs, "n", 5)
        if len(args) > 1 or type(n) is not int:
            raise Stop(node.lineno, f"`.{attr}()` with arguments the checker does not model")
        rows = None if f.nrows is None else (min(n, f.nrows) if n >= 0 else max(f.nrows + n, 0))
        return derived(f.columns, rows, f, f.column_dtypes, f.ordered)
    if attr == "copy" and not args:
        _only(kwargs, ("deep",), node)
        return derived(f.columns, f.nrows, f, f.column_dtypes, f.ordered)
    if attr in ("isnull", "isna", "notnull", "notna") and not args and not kwargs:
        return derived(f.columns, f.nrows, f, None if f.columns is None else ["bool"] * len(f.columns),
                       f.ordered)
    if attr == "info":
        _only(kwargs, ("verbose", "memory_usage", "show_counts"), node)
        if args:
            raise Stop(node.lineno, "`.info()` with positional arguments")
        if not stdout_is_plain():
            raise Stop(node.lineno, "`.info()` writes to a `sys.stdout` the checker does not know")
        if _kw(kwargs, "memory_usage", None) not in (None, True, False) or not _plain_memory_option():
            # ('deep' asks every object value its `__sizeof__`, which may be the notebook's and fail)
            raise Stop(node.lineno, "`.info()` that measures the values themselves")
        if not _numbered_rows(base, f):
            # (it prints the first and last row labels, through their own `format` when they have
            # one: a type's unbound `str.format`, a text holding `{0}`, raise)
            raise Stop(node.lineno, "`.info()` of a frame whose row labels the checker does not know to print")
        return LiveValue(None)
    if attr == "drop":
        _only(kwargs, ("columns", "axis", "inplace", "errors", "labels", "index"), node)
        if _kw(kwargs, "errors", "raise") != "raise":
            raise Stop(node.lineno, "`.drop(errors='ignore')`")
        if len(args) + len({"columns", "index", "labels"} & set(kwargs)) > 1:
            # pandas refuses labels beside index/columns, and drops rows and columns together: not modelled.
            raise Stop(node.lineno, "`.drop()` given its labels more than one way")
        if "axis" in kwargs and {"columns", "index"} & set(kwargs):
            # (pandas refuses `axis=1` beside `columns=` with a ValueError, before any label is looked up)
            raise Stop(node.lineno, "`.drop()` given an axis and `index=` / `columns=`")
        axis = _kw(kwargs, "axis", 0)
        rows = None
        if len(args) == 1 and axis in (0, "index") and not ({"columns", "index", "labels"} & set(kwargs)):
            rows = args[0]
        elif "index" in kwargs and not args and not ({"columns", "labels"} & set(kwargs)):
            rows = kwargs["index"]
        if rows is not None:
            return _drop_rows(interp, base, f, rows, inplace, node)
        if "columns" in kwargs and not args and "labels" not in kwargs:
            target = kwargs["columns"]
        elif len(args) == 1 and axis in (1, "columns") and "columns" not in kwargs:
            target = args[0]
        elif "labels" in kwargs and not args and axis in (1, "columns") and "columns" not in kwargs:
            target = kwargs["labels"]
        else:
            raise Stop(node.lineno, "`.drop()` of rows or with arguments the checker does not model")
        labels = _labels(target)
        missing = _missing(f, labels) if labels is not None else None
        if missing is None:
            raise Stop(node.lineno, f"`.drop()` on {_label(base)}")
        if missing:
            raise _key_error(base, missing, node, "`.drop()`")
        if _duplicated_columns(f):
            raise Stop(node.lineno, "`.drop()` with repeated columns")
        kept = [c for c in f.columns if not any(c == x for x in labels)]
        return _result(interp, base, f, kept, f.nrows, inplace, node, dtypes=_dtypes_of(f, kept))
    if attr == "join":
        return _join(base, f, args, kwargs, node)
    if attr in ("groupby", "sort_values") and args and "by" in kwargs:
        # (`by` given twice: Python's TypeError at the call, before pandas looks at either)
        raise Stop(node.lineno, f"`.{attr}()` given `by` twice")
    if attr == "groupby":
        by = args[0] if args else kwargs.get("by")
        _only({k: v for k, v in kwargs.items() if k != "by"}, ("as_index", "sort", "dropna", "observed"), node)
        if by is None or len(args) > 1 or type(by.concrete()) not in (str, int, float, bool):
            raise Stop(node.lineno, "`.groupby()` with keys the checker does not model")
        missing = _missing(f, [by.concrete()], also_index=True)
        if missing is None:
            raise Stop(node.lineno, f"`.groupby()` on {_label(base)}")
        if missing:
            raise _key_error(base, missing, node, "`.groupby()`")
        _unambiguous(base, f, [by.concrete()], node, "`.groupby()`")
        if f.has_column(by.concrete()) is not True or not _hashed_plainly(f, [by.concrete()]):
            # (an index level's name: pandas reads an int key as a level number first, "Too many
            # levels"; a float16 key: NotImplementedError)
            raise Stop(node.lineno, f"`.groupby()` by {by.concrete()!r}, whose values the checker cannot vouch "
                                    "pandas groups by")
        if _duplicated_columns(f):
            # A repeated label is a 2-D grouper: ValueError ("Grouper for 'a' not 1-dimensional").
            raise Stop(node.lineno, "`.groupby()` with repeated columns")
        return GroupBy(f, by.concrete())
    if attr == "sort_values":
        by = args[0] if args else kwargs.get("by")
        _only({k: v for k, v in kwargs.items() if k != "by"}, ("ascending", "inplace", "na_position",
                                                             "ignore_index", "kind"), node)
        if by is None or len(args) > 1 or _kw(kwargs, "axis", 0) not in (0, "index") or \
                _kw(kwargs, "kind", "quicksort") not in ("quicksort", "mergesort", "heapsort", "stable") or \
                _kw(kwargs, "na_position", "last") not in ("first", "last") or \
                type(_kw(kwargs, "ignore_index", False)) is not bool or \
                type(_kw(kwargs, "ascending", True)) is not bool:
            # (pandas checks these where it likes, possibly before the keys: unusual values are not judged)
            raise Stop(node.lineno, "`.sort_values()` with arguments the checker does not model")
        labels = _labels(by)
        missing = _missing(f, labels, also_index=True) if labels else None
        if missing is None:
            raise Stop(node.lineno, f"`.sort_values()` on {_label(base)}")
        if missing:
            raise _key_error(base, missing[:1], node, "`.sort_values()`")
        _unambiguous(base, f, labels, node, "`.sort_values()`")
        for label in labels:
            # Sorting compares the values: objects may not compare (1 < 'x' is a TypeError) or may
            # run a notebook's own __lt__; only dtypes whose values always order are passed over.
            if f.column_dtype(label) not in _SORTABLE:
                raise Stop(node.lineno, f"`.sort_values()` by {label!r}, whose values the checker cannot vouch "
                                        "are comparable")
        if _duplicated_columns(f):
            raise Stop(node.lineno, "`.sort_values()` with arguments the checker does not model")
        return _result(interp, base, f, f.columns, f.nrows, inplace, node, dtypes=f.column_dtypes)
    if attr == "set_index":
        _only(kwargs, ("inplace", "drop"), node)
        if len(args) != 1:
            raise Stop(node.lineno, "`.set_index()` with arguments the checker does not model")
        labels = _labels(args[0])
        missing = _missing(f, labels) if labels else None
        if missing is None:
            raise Stop(node.lineno, f"`.set_index()` on {_label(base)}")
        if missing:
            raise _key_error(base, missing, node, "`.set_index()`")
        if _duplicated_columns(f) or _kw(kwargs, "drop", True) is not True:
            raise Stop(node.lineno, "`.set_index()` with arguments the checker does not model")
        if any(f.column_dtype(label) is None or f.column_dtype(label) == "numeric" and not f.numbers_plain
               for label in labels):
            # (pandas has no float16 index: NotImplementedError)
            raise Stop(node.lineno, "`.set_index()` of a column whose dtype the checker does not know")
        kept = [c for c in f.columns if not any(c == x for x in labels)]
        return _result(interp, base, FrameFacts(index_names=labels), kept, f.nrows, inplace, node)
    if attr == "dropna":
        _only(kwargs, ("subset", "how", "inplace", "ignore_index"), node)
        if args:
            raise Stop(node.lineno, "`.dropna()` with positional arguments")
        if "subset" in kwargs:
            labels = _labels(kwargs["subset"])
            missing = _missing(f, labels) if labels else None
            if missing is None:
                raise Stop(node.lineno, f"`.dropna(subset=...)` on {_label(base)}")
            if missing:
                raise _key_error(base, missing, node, "`.dropna(subset=...)`")
        if _kw(kwargs, "how", "any") not in ("any", "all") or type(_kw(kwargs, "ignore_index", False)) is not bool:
            raise Stop(node.lineno, "`.dropna()` with arguments the checker does not model")
        return _result(interp, base, f, f.columns, None, inplace, node, dtypes=f.column_dtypes)
    if attr == "drop_duplicates" and not args:
        _only(kwargs, ("inplace", "keep", "ignore_index"), node)
        if _kw(kwargs, "keep", "first") not in ("first", "last", False) or \
                type(_kw(kwargs, "ignore_index", False)) is not bool:
            raise Stop(node.lineno, "`.drop_duplicates()` with arguments the checker does not model")
        if f.columns is None or _duplicated_columns(f) or not _hashed_plainly(f, list(f.columns)):
            raise Stop(node.lineno, "`.drop_duplicates()` of values the checker cannot vouch pandas hashes")
        return _result(interp, base, f, f.columns, None, inplace, node, dtypes=f.column_dtypes)
    if attr == "reset_index" and not args:
        _only(kwargs, ("drop", "inplace"), node)
        if _kw(kwargs, "drop", False) is not True:
            raise Stop(node.lineno, "`.reset_index()` that keeps the index as columns")
        return _result(interp, base, f, f.columns, f.nrows, inplace, node, dtypes=f.column_dtypes)
    if attr == "pop" and len(args) == 1 and not kwargs:
        _remove_column(interp, base, f, args[0].concrete(), node, "`.pop()`",
                       ("`.pop()` with a key the checker does not model", f"`.pop()` on {_label(base)}",
                        "`.pop()` of a repeated column"))
        return series_value(f.nrows)
    if attr == "rename" and not args:
        _only(kwargs, ("columns", "inplace"), node)
        mapping = _kw(kwargs, "columns")
        if type(mapping) is not dict or f.columns is None or _duplicated_columns(f):
            raise Stop(node.lineno, "`.rename()` with arguments the checker does not model")
        if not all(_scalar(k) and _scalar(v) for k, v in mapping.items()):
            raise Stop(node.lineno, "`.rename()` with labels the checker does not model")
        if any(f.has_column(k) is None for k in mapping):
            raise Stop(node.lineno, f"`.rename()` on {_label(base)}")
        if not all(isinstance(c, str) for c in f.columns) or not all(isinstance(k, str) for k in mapping):
            raise Stop(node.lineno, "`.rename()` of non-string labels")
        cols = [mapping.get(c, c) for c in f.columns]
        return _result(interp, base, f, cols, f.nrows, inplace, node)
    raise Stop(node.lineno, f"a call to `.{attr}()` on {_label(base)}, which the checker does not model")


def setitem(interp, base: Value, index: Value, value: Value, target, stmt) -> None:
    """`df[c] = value`: ValueError when a list or 1-D array does not match the number of rows."""
    f = _frame(base, target)
    label = index.concrete()
    if not _scalar(label):
        raise Stop(target.lineno, f"assigning into {_label(base)} with a key the checker does not model")
    n = None
    vk = value.kind()
    if vk == "list":
        n = value.length()
    elif vk == "ndarray":
        a = value.array()
        if a is not None and a.shape is not None and len(a.shape) == 1:
            n = a.shape[0]
        else:
            raise Stop(target.lineno, f"assigning an array into {_label(base)}")
    elif value.concrete() is not NOTHING and is_simple_constant(value.concrete()) \
            and type(value.concrete()) is not tuple:
        n = -1  # a scalar fills the column
    else:
        raise Stop(target.lineno, f"assigning a value the checker does not model into {_label(base)}")
    if n is None or f.nrows is None:
        raise Stop(target.lineno, f"assigning into {_label(base)}")
    named = _columns_named(f, label)
    if n >= 0 and (named is None or 1 < named == n):
        raise Stop(target.lineno, f"assigning a list into a repeated column of {_label(base)}")
    if n >= 0 and n != f.nrows and f.nrows > 0:
        raise Crash(CertainCrash("ValueError", target.lineno, target.col_offset,
                                 f"the {vk} assigned to column {label!r} has {n} values but {_label(base)} has "
                                 f"{f.nrows} rows.", "column-length", [n for n in [base.name, value.name] if n]))
    if f.nrows == 0 and n > 0:
        raise Stop(target.lineno, "assigning into an empty DataFrame")
    has = f.has_column(label)
    if has is None or f.columns is None:
        raise Stop(target.lineno, f"assigning into {_label(base)}")
    if not has and not _labels_kept_as_given(list(f.columns) + [label]):
        raise Stop(target.lineno, f"a new column of {_label(base)} whose label pandas may convert")
    _replace_columns(interp, base, f, list(f.columns) + ([] if has else [label]), stmt)


def _columns_named(f: FrameFacts, label: Any) -> Optional[int]:
    """How many columns `label` names (None when unknown). pandas sets a list-like into every column
    a repeated label names, one value per column (`df['a'] = [1, 2]` on columns a, a, b fills both
    a's), when the list has as many values as there are such columns: no row count is checked then.
    Labels compare as pandas' Index does (1, 1.0 and True are one key), so only the real Index, or
    text labels among known columns, say how many."""
    if f.live_columns is not None:
        try:
            if f.live_columns.dtype.kind == "O" and not hashed_cheaply(f.live_columns):
                return None
            return 1 if f.live_columns.is_unique else len(f.live_columns.get_indexer_for([label]))
        except Exception:
            return None
    if f.columns is None:
        return None
    if type(label) is str:
        return sum(1 for c in f.columns if type(c) is str and c == label)
    return 1 if sum(1 for c in f.columns if type(c) is not str) <= 1 else None


def _replace_columns(interp, base: Value, f: FrameFacts, cols: List[Any], node, ordered: Optional[bool] = None) -> None:
    new = derived(cols, f.nrows, f, ordered=f.ordered if ordered is None else ordered)
    if isinstance(base, LiveValue):
        interp.set_shadow(base, new, node)
    else:
        base.facts = replace(base.facts, frame=new.frame())
    interp.changed_in_place(node)


def set_columns(interp, base: Value, value: Value, target, stmt) -> None:
    """`df.columns = labels`: ValueError when the number of labels differs from the columns."""
    f = _frame(base, target)
    labels = value.concrete()
    if type(labels) not in (list, tuple) or not all(_scalar(x) for x in labels) or f.columns is None:
        raise Stop(target.lineno, f"renaming the columns of {_label(base)}")
    if len(labels) != len(f.columns):
        raise Crash(CertainCrash("ValueError", target.lineno, target.col_offset,
                                 f"{_label(base)} has {len(f.columns)} columns but {len(labels)} names were given.",
                                 "column-length", [n for n in [base.name, value.name] if n]))
    if not _labels_kept_as_given(list(labels)):
        raise Stop(target.lineno, f"renaming the columns of {_label(base)} with labels pandas may convert")
    _replace_columns(interp, base, f, list(labels), target, ordered=True)


def _labels_kept_as_given(labels: List[Any]) -> bool:
    """pandas builds the new Index from the labels and infers its dtype: ints beside a float become
    floats (`[0, 1, 1.5]` is `[0.0, 1.0, 1.5]`), and so on. Only all-text or all-int labels come
    back as they were given."""
    return all(type(x) is str for x in labels) or all(type(x) is int for x in labels)


def delitem(interp, base: Value, index: Value, target) -> None:
    """`del df[c]`: KeyError when the column does not exist."""
    f = _frame(base, target)
    _remove_column(interp, base, f, index.concrete(), target, "`del`",
                   (f"deleting from {_label(base)} with a key the checker does not model",
                    f"deleting from {_label(base)}", "deleting a repeated column"))


def _remove_column(interp, base, f, label, node, needs: str, stops) -> None:
    """Take one column out of a frame, as `.pop(c)` and `del df[c]` do: KeyError when it is certainly
    missing; `stops` says why the checker stops otherwise (unmodelled key, unknown columns, repeats)."""
    unmodelled, unknown, repeated = stops
    if not _scalar(label):
        raise Stop(node.lineno, unmodelled)
    missing = _missing(f, [label])
    if missing is None:
        raise Stop(node.lineno, unknown)
    if missing:
        raise _key_error(base, missing, node, needs)
    if _duplicated_columns(f):
        raise Stop(node.lineno, repeated)
    _replace_columns(interp, base, f, [c for c in f.columns if not c == label], node)


def function(interp, fn: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    raise Stop(node.lineno, f"a call to `pandas.{getattr(fn, '__name__', '?')}`, which the checker does not model")


__all__ = ["getitem", "indexer_getitem", "method", "setitem", "function", "derived", "series_value", "construct",
           "ArrayFacts"]
