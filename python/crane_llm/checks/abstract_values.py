"""Abstract values: the questions the rules ask about an object, answered yes / no / unknown.

A rule never touches an object itself. It asks a `Value` ("columns?", "shape?", "fitted?",
"has attribute a?", "length?") and gets a definite answer or None (unknown). Three kinds of value
answer the same questions:

- `LiveValue` (see live_adapter.py) wraps a real object of the kernel and answers from it exactly,
  without calling user code or changing anything;
- `FactValue` answers from a dict of facts: recorded runtime information (replay.py) or what the
  interpreter derived itself (the result of `df.drop(columns='a')`, a literal list, ...);
- `OPAQUE` knows nothing, but evaluating it is known to have raised nothing.

Tri-state answers are Python's True / False / None; rules claim a crash only on True/False.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .class_facts import class_has_attr, safe_class_property
from .torch_facts import TensorFacts

NOTHING = object()  # "no concrete value": distinct from a concrete None


def _simple_label(label: Any) -> bool:
    return type(label) in (str, int, float, bool)


class FrameFacts:
    """What is known of a pandas DataFrame. `columns` is complete when not None."""

    def __init__(self, columns: Optional[Sequence[Any]] = None, nrows: Optional[int] = None,
                 index_names: Optional[Sequence[Any]] = None, flat: Optional[bool] = None,
                 exact: bool = False, live_columns: Any = None, live_index: Any = None,
                 column_dtypes: Optional[Sequence[Optional[str]]] = None,
                 integer_spans: Optional[Dict[Any, Tuple[int, int]]] = None):
        self.columns = list(columns) if columns is not None else None
        self.nrows = nrows
        self.index_names = list(index_names) if index_names is not None else None
        self.flat = flat  # True when the columns are a plain (not Multi) Index of simple labels
        self.exact = exact  # True when the object is exactly pandas.DataFrame (no subclass)
        self.live_columns = live_columns  # the real Index, for pandas' own membership semantics
        self.live_index = live_index  # the real row Index when it is a plain Index / RangeIndex
        self.column_dtypes = list(column_dtypes) if column_dtypes is not None else None  # by position
        # (lowest, highest) of the columns recorded as integers with no missing value
        self.integer_spans = integer_spans
        # Replay: row labels known absent from the row index (int / str), with why.
        self.absent_rows: List[Tuple[Any, str]] = []

    def column_dtype(self, label: Any) -> Optional[str]:
        """The dtype category of the one column named `label` (None when unknown or repeated)."""
        if self.column_dtypes is None or self.columns is None or not self.flat or not _simple_label(label):
            return None
        at = [i for i, c in enumerate(self.columns) if type(c) is type(label) and c == label]
        return self.column_dtypes[at[0]] if len(at) == 1 else None

    def has_row(self, label: Any) -> Optional[bool]:
        if self.live_index is None and any(type(a) is type(label) and a == label for a, _ in self.absent_rows):
            return False
        if self.live_index is None or not _simple_label(label):
            return None
        try:
            return bool(label in self.live_index)
        except Exception:
            return None

    def has_column(self, label: Any) -> Optional[bool]:
        """Whether `df[label]` finds a column, by pandas' own rules where the real Index is at hand."""
        if not self.flat or not _simple_label(label):
            return None
        if self.live_columns is not None:
            try:
                return bool(label in self.live_columns)
            except Exception:
                return None
        if self.columns is None:
            return None
        if isinstance(label, str):
            return label in [c for c in self.columns if isinstance(c, str)]
        return None  # recorded facts do not say how non-string labels compare

    def has_index_name(self, label: Any) -> Optional[bool]:
        if self.index_names is None:
            return None
        try:
            return label in self.index_names
        except Exception:
            return None


class ArrayFacts:
    """What is known of a NumPy ndarray: its shape and dtype kind ('f', 'i', 'b', 'O', ...)."""

    def __init__(self, shape: Optional[Tuple[int, ...]] = None, kind: Optional[str] = None):
        self.shape = tuple(shape) if shape is not None else None
        self.kind = kind

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


class Value:
    """Base: every question answers unknown."""

    name: Optional[str] = None  # the variable it was read from, for messages and `variables`

    def kind(self) -> Optional[str]:
        """A coarse, exact kind: 'none', 'int', 'str', 'list', 'frame', 'series', 'ndarray', ..."""
        return None

    def type_name(self) -> Optional[str]:
        return None

    def concrete(self) -> Any:
        """The real Python object when the checker holds one safely, else NOTHING."""
        return NOTHING

    def has_attr(self, attr: str) -> Optional[bool]:
        return None

    def frame(self) -> Optional[FrameFacts]:
        return None

    def series_length(self) -> Optional[int]:
        return None

    def array(self) -> Optional[ArrayFacts]:
        return None

    def length(self) -> Optional[int]:
        return None

    def items(self) -> Optional[List["Value"]]:
        """The elements of a list/tuple when each is known as a Value."""
        return None

    def keys(self) -> Optional[List[Any]]:
        """All keys of a dict, when they are plain hashable constants."""
        return None

    def estimator(self) -> Optional[EstimatorFacts]:
        return None

    def tensor(self) -> Optional[TensorFacts]:
        """A PyTorch tensor's shape, dtype and device, when known."""
        return None

    def series_dtype(self) -> Optional[str]:
        """A pandas Series' dtype category ('numeric', 'bool', 'datetime', 'timedelta', 'object',
        'str', 'category'), when known."""
        return None

    def named(self, name: Optional[str]) -> "Value":
        self.name = name
        return self


class Opaque(Value):
    """A value the checker knows nothing about (but whose evaluation raised nothing)."""

    def __init__(self, kind: Optional[str] = None):
        self._kind = kind

    def kind(self) -> Optional[str]:
        return self._kind


class FactValue(Value):
    """A value described by facts: derived by the interpreter or recorded (replay)."""

    def __init__(self, kind: Optional[str], *, type_name: Optional[str] = None, frame: Optional[FrameFacts] = None,
                 array: Optional[ArrayFacts] = None, length: Optional[int] = None,
                 items: Optional[List[Value]] = None, keys: Optional[List[Any]] = None,
                 estimator: Optional[EstimatorFacts] = None, concrete: Any = NOTHING,
                 attrs: Optional[Dict[str, bool]] = None, cls: Any = None,
                 tensor: Optional[TensorFacts] = None, series_dtype: Optional[str] = None):
        self._series_dtype = series_dtype
        self._kind = kind
        self._tensor = tensor
        self._type_name = type_name
        self._frame = frame
        self._array = array
        self._length = length
        self._items = items
        self._keys = keys
        self._estimator = estimator
        self._concrete = concrete
        self._attrs = attrs or {}
        self.cls = cls

    def kind(self):
        return self._kind

    def type_name(self):
        return self._type_name

    def concrete(self):
        return self._concrete

    def has_attr(self, attr):
        if attr in self._attrs:
            return self._attrs[attr]
        if self.cls is not None:
            if safe_class_property(self.cls, attr):
                return True
            return class_has_attr(self.cls, attr)
        return None

    def frame(self):
        return self._frame

    def array(self):
        return self._array

    def series_length(self):
        return self._length if self._kind == "series" else None

    def length(self):
        if self._length is not None:
            return self._length
        if self._items is not None:
            return len(self._items)
        if self._frame is not None:
            return self._frame.nrows
        if self._array is not None and self._array.shape:
            return self._array.shape[0]
        return None

    def items(self):
        return self._items

    def keys(self):
        return self._keys

    def estimator(self):
        return self._estimator

    def tensor(self):
        return self._tensor

    def series_dtype(self):
        return self._series_dtype if self._kind == "series" else None


NONE_VALUE_KIND = "none"


class BoundMethod(Value):
    """`owner.attr` where attr is a method: calling it is what a rule models."""

    def __init__(self, owner: Value, attr: str, func: Any = None):
        self.owner = owner
        self.attr = attr
        self.func = func

    def kind(self):
        return "method"


class UserFunction(Value):
    """A function or class the cell itself defines, or a lambda: calling it runs user code."""

    def __init__(self, name: str):
        self.fname = name

    def kind(self):
        return "function"
