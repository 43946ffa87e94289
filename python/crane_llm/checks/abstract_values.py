"""Abstract values: the questions the rules ask about an object, answered yes / no / unknown.

A rule never touches an object itself. It asks a `Value` ("columns?", "shape?", "fitted?",
"has attribute a?", "length?") and gets a definite answer or None (unknown). Three kinds of value
answer the same questions:

- `LiveValue` (see live_adapter.py) wraps a real object of the kernel and answers from it exactly,
  without calling user code or changing anything;
- `FactValue` answers from its `Facts`: recorded runtime information (replay.py) or what the
  interpreter derived itself (the result of `df.drop(columns='a')`, a literal list, ...);
- `Opaque` knows nothing but its kind, and evaluating it is known to have raised nothing.

Tri-state answers are Python's True / False / None; rules claim a crash only on True/False.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .class_facts import cached_engine, class_has_attr, engine_own, pandas_index_types, safe_class_property
from .torch_facts import TensorFacts
from .wide_numbers import any_wide_number

NOTHING = object()  # "no concrete value": distinct from a concrete None


def _simple_label(label: Any) -> bool:
    return type(label) in (str, int, float, bool)


# Labels a live Index is asked about by hashing only up to this length: pandas builds a hash table of
# all of them first, and labels made to share a hash (ints are easy to make so) take it seconds.
_HASHED_LABELS = 2000
_HASHED_CHARS = 1_000_000  # characters of text labels hashed; past them, labels are compared one by one


def hashed_cheaply(index: Any) -> bool:
    """pandas can build the hash table of this object Index (for `in`, `is_unique`, an indexer) in
    time linear in its size: text labels of no more than _HASHED_CHARS characters in all, or a few
    other labels, none a wide number (wide_numbers)."""
    labels = list(index)
    if _all_text(labels):
        return sum(map(len, labels)) <= _HASHED_CHARS
    return len(labels) <= _HASHED_LABELS and not any_wide_number(labels)


def _all_text(labels: Any) -> bool:
    return all(type(x) is str for x in labels)


def _member(index: Any, label: Any) -> Optional[bool]:
    """`label in index`, by pandas' rules, in time linear in the Index: a numeric one is compared
    element-wise (no hash table), a long one of other labels only when they are all text."""
    try:
        kind = index.dtype.kind
        if type(index).__name__ == "RangeIndex" and type(index) in pandas_index_types():
            # (pandas' own RangeIndex: arithmetic on its start, stop and step)
            return bool(label in index)
        engine = cached_engine(index)
        if engine is not None and len(index) > _HASHED_LABELS and kind in "iufO":
            # pandas looks the label up in the engine it keeps, which may have been built for another
            # Index (the notebook can put one there): answered through it, once its table is built
            populated = getattr(engine, "is_mapping_populated", None) if engine_own(engine) else None
            return bool(label in index) if populated is True else None
        if kind in "iuf" and len(index) > _HASHED_LABELS:
            if type(label) is bool or (type(label) is float and label != label):
                return None  # (pandas' own rules for True and NaN are not those of `==`)
            if type(label) is int and not -2 ** 63 <= label < 2 ** 63 or type(label) not in (int, float):
                return None
            return bool((index.to_numpy(copy=False) == label).any())
        if kind == "O" and not hashed_cheaply(index):
            # (equal labels hash alike, and the table compares each such pair whole: duplicated
            # long labels cost their length times their number, in one call)
            if type(label) is str and len(label) <= 1000 and _all_text(index):
                return any(x == label for x in index)
            return None
        return bool(label in index)
    except Exception:
        return None


@dataclass(frozen=True, eq=False)
class FrameFacts:
    """What is known of a pandas DataFrame. `columns` is complete when not None."""

    columns: Optional[Sequence[Any]] = None
    nrows: Optional[int] = None
    index_names: Optional[Sequence[Any]] = None
    flat: Optional[bool] = None  # True when the columns are a plain (not Multi) Index of simple labels
    exact: bool = False  # True when the object is exactly pandas.DataFrame (no subclass)
    live_columns: Any = None  # the real Index, for pandas' own membership semantics
    live_index: Any = None  # the real row Index when it is a plain Index / RangeIndex
    column_dtypes: Optional[Sequence[Optional[str]]] = None  # by position
    # True when a 'numeric' column is known to be of a width pandas hashes (int, uint, float32/64:
    # live dtypes); a recording says only "numbers", which may be float16 or longdouble, whose keys
    # pandas' hash tables refuse.
    numbers_plain: bool = False
    # (lowest, highest) of the columns recorded as integers with no missing value
    integer_spans: Optional[Dict[Any, Tuple[int, int]]] = None
    # False when the columns' order is not known (a recording lists them sorted): their set is.
    ordered: bool = True
    # Replay: row labels known absent from the row index (int / str), with why.
    absent_rows: List[Tuple[Any, str]] = field(default_factory=list)
    # Replay: no level of the row index has a name (how many levels there are is not known), as
    # for a frame the executed cells read with `pd.read_csv` and never re-indexed (fresh_frames.py).
    unnamed_index: bool = False
    # Replay: text values each column is known to hold, for columns known to hold text only (the
    # recording's examples of their values; replay._seen_text).
    seen_text: Dict[Any, frozenset] = field(default_factory=dict)
    # Replay, when `columns` is not recorded: how many columns there are, and the names of the dtypes
    # they hold (the recording's set of them).
    ncols: Optional[int] = None
    dtype_names: Optional[frozenset] = None
    no_missing: bool = False  # recorded: the frame holds no NaN nor other missing value

    def __post_init__(self) -> None:
        for labels in ("columns", "index_names", "column_dtypes"):  # held as lists, whatever the caller passed
            given = getattr(self, labels)
            if given is not None:
                object.__setattr__(self, labels, list(given))

    def column_dtype(self, label: Any) -> Optional[str]:
        """The dtype category of the one column named `label` (None when unknown or repeated)."""
        if self.column_dtypes is None or self.columns is None or not self.flat or not _simple_label(label):
            return None
        at = [i for i, c in enumerate(self.columns) if type(c) is type(label) and c == label]
        # (pandas takes `1` and `1.0` for one label)
        alike = type(label) in (int, float) and any(type(c) in (int, float, bool) and type(c) is not type(label)
                                                     and c == label for c in self.columns)
        return self.column_dtypes[at[0]] if len(at) == 1 and not alike else None

    def has_row(self, label: Any) -> Optional[bool]:
        if self.live_index is None and any(type(a) is type(label) and a == label for a, _ in self.absent_rows):
            return False
        if self.live_index is None or not _simple_label(label):
            return None
        return _member(self.live_index, label)

    def holds_text(self, label: Any, value: Any) -> Optional[bool]:
        """True when column `label` is known to hold the text `value` in some row; else unknown."""
        seen = self.seen_text.get(label) if type(label) is str and type(value) is str else None
        return True if seen is not None and value in seen else None

    def has_column(self, label: Any) -> Optional[bool]:
        """Whether `df[label]` finds a column, by pandas' own rules where the real Index is at hand."""
        if not self.flat or not _simple_label(label):
            return None
        if self.live_columns is not None:
            try:
                dtype = self.live_columns.dtype
                if getattr(dtype, "kind", "O") in "iuf" and (dtype.kind == "u" or dtype.itemsize < 8):
                    # (a list of labels is cast to such an Index's dtype: 257 finds the uint8 column 1)
                    return None
            except Exception:
                return None
            return _member(self.live_columns, label)
        if self.columns is None:
            return None
        if isinstance(label, str):
            return label in [c for c in self.columns if isinstance(c, str)]
        return None  # recorded facts do not say how non-string labels compare

    def has_index_name(self, label: Any) -> Optional[bool]:
        if self.index_names is None:
            return False if self.unnamed_index and _simple_label(label) else None
        try:
            return label in self.index_names
        except Exception:
            return None


@dataclass(frozen=True)
class ArrayFacts:
    """What is known of a NumPy ndarray: its shape and dtype kind ('f', 'i', 'b', 'O', ...)."""

    shape: Optional[Tuple[int, ...]] = None
    kind: Optional[str] = None

    def __post_init__(self) -> None:
        if self.shape is not None:
            object.__setattr__(self, "shape", tuple(self.shape))

    @property
    def numeric(self) -> Optional[bool]:
        if self.kind is None:
            return None
        return self.kind in "biufc"


@dataclass(eq=False)
class EstimatorFacts:
    """What is known of a scikit-learn estimator: class, fitted or not, input feature count."""

    cls: Any = None
    class_name: Optional[str] = None  # default: the class's own name
    fitted: Optional[bool] = None
    n_features: Optional[int] = None
    meta: Optional[bool] = None  # wraps other estimators (Pipeline, GridSearchCV, ...): those may be user code

    def __post_init__(self) -> None:
        self.class_name = self.class_name or (self.cls.__name__ if self.cls is not None else None)


@dataclass(frozen=True, eq=False)
class Facts:
    """What is known of a value; a fact not given is unknown."""

    kind: Optional[str] = None  # coarse and exact: 'none', 'int', 'str', 'list', 'frame', 'series', 'ndarray', ...
    type_name: Optional[str] = None
    frame: Optional[FrameFacts] = None
    array: Optional[ArrayFacts] = None
    length: Optional[int] = None
    items: Optional[List["Value"]] = None  # the elements of a list/tuple, each known as a Value
    keys: Optional[List[Any]] = None  # all keys of a dict, when they are plain hashable constants
    estimator: Optional[EstimatorFacts] = None
    concrete: Any = NOTHING  # the real Python object when the checker holds one safely
    attrs: Dict[str, bool] = field(default_factory=dict)  # has_attr answers known for these names
    cls: Any = None  # the installed class, asked about the attributes `attrs` does not list
    tensor: Optional[TensorFacts] = None  # a PyTorch tensor's shape, dtype and device
    # A pandas Series' dtype category ('numeric', 'bool', 'datetime', 'timedelta', 'object', 'str', 'category').
    series_dtype: Optional[str] = None
    # A value a float array, Series or list is known to hold that is no whole number (a fraction,
    # NaN or infinity): scikit-learn reads such targets as continuous.
    non_integer: Optional[float] = None


def _stated(fact: str) -> Callable[["Value"], Any]:
    """The question of that name, answered with the value's fact as it is given."""
    def answer(self: "Value") -> Any:
        return getattr(self.facts, fact)
    answer.__name__ = fact
    return answer


class Value:
    """The questions a rule asks of a value, answered from its `facts`. The base knows no fact, so
    every answer is unknown; `LiveValue` answers each from the live object instead."""

    name: Optional[str] = None  # the variable it was read from, for messages and `variables`
    facts = Facts()

    kind = _stated("kind")
    type_name = _stated("type_name")
    concrete = _stated("concrete")
    frame = _stated("frame")
    array = _stated("array")
    items = _stated("items")
    keys = _stated("keys")
    estimator = _stated("estimator")
    tensor = _stated("tensor")
    non_integer = _stated("non_integer")

    def has_attr(self, attr: str) -> Optional[bool]:
        known = self.facts.attrs
        if attr in known:
            return known[attr]
        cls = self.facts.cls
        if cls is not None:
            if safe_class_property(cls, attr):
                return True
            return class_has_attr(cls, attr)
        return None

    def series_length(self) -> Optional[int]:
        return self.facts.length if self.facts.kind == "series" else None

    def series_dtype(self) -> Optional[str]:
        return self.facts.series_dtype if self.facts.kind == "series" else None

    def length(self) -> Optional[int]:
        f = self.facts
        if f.length is not None:
            return f.length
        if f.items is not None:
            return len(f.items)
        if f.frame is not None:
            return f.frame.nrows
        if f.array is not None and f.array.shape:
            return f.array.shape[0]
        return None

    def named(self, name: Optional[str]) -> "Value":
        self.name = name
        return self


class Opaque(Value):
    """A value the checker knows nothing about (but whose evaluation raised nothing)."""

    def __init__(self, kind: Optional[str] = None):
        self.facts = Facts(kind)


class FactValue(Value):
    """A value described by facts: derived by the interpreter or recorded (replay)."""

    def __init__(self, kind: Optional[str], **facts: Any):
        self.facts = Facts(kind, **facts)

    @property
    def cls(self) -> Any:
        return self.facts.cls


NONE_VALUE_KIND = "none"


@dataclass(eq=False)
class BoundMethod(Value):
    """`owner.attr` where attr is a method: calling it is what a rule models."""

    owner: Value
    attr: str
    func: Any = None
    facts = Facts("method")


@dataclass(eq=False)
class UserFunction(Value):
    """A function or class the cell itself defines, or a lambda: calling it runs user code."""

    fname: str
    facts = Facts("function")
