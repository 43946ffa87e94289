"""`s.value_counts()`, gone on past: a new Series of counts, and every variable as it was.

The reading goes on past the call only when pandas counts the values without running anything of
the notebook's, so the call can neither raise nor change anything: pandas hashes and compares the
values (and the Series' name, which becomes the index's name). That is C work for values of a
bool or number dtype, and for an object column whose every value is an exact str, int, float,
bool or None. Where those values come from decides how they are known:

- the kernel's own Series, or a column the cell selects from the kernel's frame: read;
- in a replay, a column of a frame an executed cell read with `pd.read_csv` and nothing touched
  since (`RecordedKernel.csv_frames`): parsed text holds only text and numbers.

pandas' own code and compiled modules (its hash-table counter among them) must be unpatched
(`class_facts.pristine_pandas`). What the counts are is not modelled: the result is a Series of
unknown length, good for what needs only its existence (the arguments of a call that cannot bind them, `sns.barplot(s.value_counts().index,
s.value_counts())`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..class_facts import own_column_arrays, pandas_types, pristine_pandas
from ..live_adapter import LiveValue, is_simple_constant
from ..outcome import Stop
from ..dtypes import dtype_category
from ..provenance import audit, class_module, class_name, instance_dict
from ..abstract_values import Value
from .accessors import may_be_shadowed
from .frames import selected_from, series_value
from .library_state import library_state_plain

_FLAGS = ("sort", "ascending", "dropna")  # (`normalize` divides, `bins` cuts: not modelled)
_PLAIN_VALUES = (str, int, float, bool, type(None))
_MAX_VALUES = 1_000_000  # an object column longer than this is not scanned


def call(interp, owner: Value, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    library_state_plain(interp, node)
    if args or any(k not in _FLAGS or type(v.concrete()) is not bool for k, v in kwargs.items()):
        raise Stop(node.lineno, "`.value_counts()` with arguments the checker does not model")
    # (no executed cell touched a frame read from CSV: no column of it holds anything of its own)
    shadowed = may_be_shadowed(owner, "value_counts") and not _untouched_csv_column(owner)
    if shadowed or not counted_plainly(owner):
        raise Stop(node.lineno, "a call to `.value_counts()` on a series whose values the checker cannot read")
    return series_value(None, "numeric")


def counted_plainly(owner: Value) -> bool:
    """pandas counts this Series' values and takes its name without running anything of anyone's."""
    _, series_cls, _ = pandas_types()
    # (pristine_pandas also holds pandas' compiled modules to their own functions: the hash-table
    # module's `value_count`, which `value_counts` calls by that name, among them)
    if series_cls is None or not pristine_pandas(series_cls):
        return False
    if isinstance(owner, LiveValue):
        return _plain_series(owner.obj, series_cls)
    source = _selected_from(owner)
    if source is None:
        return False
    frame, facts, label = source
    if isinstance(frame, LiveValue):
        return _plain_column(frame, facts, label, series_cls)
    return _untouched_csv_column(owner)


def _selected_from(owner: Value) -> Optional[Tuple[Any, Any, str]]:
    """(frame, its facts then, label) of a column the cell selected by a text label."""
    source = selected_from(owner)
    return source if source is not None and type(source[2]) is str else None


def _untouched_csv_column(owner: Value) -> bool:
    """Replay: a column of a frame an executed cell read from CSV, as recorded (the cell changed
    nothing of the frame before selecting it)."""
    source = _selected_from(owner)
    if source is None or isinstance(source[0], LiveValue):
        return False
    read_from_csv = getattr(source[0], "read_from_csv", None)
    return read_from_csv is not None and read_from_csv is source[1]


def _plain_column(frame: LiveValue, facts: Any, label: str, series_cls: type) -> bool:
    """A column the cell selects from the kernel's own frame, as the kernel holds it (a frame the
    cell changed has no `live_columns`: the values the kernel holds are not those the cell meets)."""
    frame_cls, _, _ = pandas_types()
    if type(frame.obj) is not frame_cls or not facts.exact or facts.live_columns is None:
        return False
    try:
        column = frame.obj[label]  # (pandas' own selection: the frame's classes are unpatched)
    except Exception:
        return False
    return _plain_series(column, series_cls)


def _plain_series(series: Any, series_cls: type) -> bool:
    if type(series) is not series_cls or not own_column_arrays(series):
        return False
    try:
        name, dtype = series.name, series.dtype
        if not (name is None or is_simple_constant(name)) or type(name) is tuple:
            return False
        category = dtype_category(dtype)  # (NumPy's and pandas' own dtypes only)
        if category in ("numeric", "bool") and dtype.kind != "c":
            return True
        if not (category == "object" or _python_text(series, dtype)) or len(series) > _MAX_VALUES:
            return False
        return set(map(type, series.tolist())).issubset(_PLAIN_VALUES)
    except Exception:
        return False


def _python_text(series: Any, dtype: Any) -> bool:
    """pandas' default text dtype (`str`, NaN for missing) kept in Python objects, in pandas' own,
    unpatched StringArray: it counts the objects as for an object column."""
    fields = instance_dict(dtype)
    if dtype_category(dtype) != "str" or type(fields) is not dict or fields.get("_storage", fields.get("storage")) != "python":
        return False
    holder = type(series.array)
    return class_module(holder).split(".")[0] == "pandas" and class_name(holder) == "StringArray" and \
        audit().pristine(holder, "pandas")
