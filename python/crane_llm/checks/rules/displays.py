"""scikit-learn's `ConfusionMatrixDisplay`: display labels that do not fit the matrix (ValueError).

`ConfusionMatrixDisplay(confusion_matrix=cm, display_labels=labels)` only stores what it is given.
Its `.plot()` draws the matrix, then sets the Axes' ticks to the matrix's n classes and their
labels to `labels`: matplotlib refuses labels whose count differs from the ticks' ("The number of
FixedLocator locations (3), usually from a call to set_ticks, does not match the number of labels
(2)"). An empty label list is accepted (no labels at all), so only a count of 1 or more that is not
n is claimed.

Everything before that step must run clean on the recorded matrix, so the matrix is a square 2-D
ndarray of integers or floats (its cells are formatted by NumPy, never by user code) and the labels
are a list or tuple literal written in the call, of plain constants (matplotlib asks each label for
`get_text`: a user object could answer anything). `.plot()` is claimed only without arguments (an
`ax=` of the notebook's could be anything), with scikit-learn's and matplotlib's own code, no
figure open in pyplot, a backend that draws off screen, and warnings that stay warnings. The
versions are those this behaviour was seen on (scikit-learn 1.6 and 1.9, matplotlib 3.9 and 3.11)
and later ones.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ..abstract_values import ArrayFacts, Facts, FactValue, Value
from ..live_adapter import LiveValue
from ..outcome import CertainCrash, Crash, Stop
from ..provenance import audit, classes_pristine, is_subclass, own_call, own_module_function
from ..static_reads import library_version, loaded_module, checked
from .drawing import pyplot_plain
from .library_state import library_state_plain

_CLASS = "ConfusionMatrixDisplay"
_MIN_SKLEARN = (1, 6)
_MIN_MATPLOTLIB = (3, 9)
# Classes plot() drives beyond the ones pyplot's catalogue already audits, as (module, class name).
_MPL_CLASSES = (("matplotlib.colorbar", "Colorbar"), ("matplotlib.axis", "Axis"), ("matplotlib.axis", "XAxis"),
                ("matplotlib.axis", "YAxis"), ("matplotlib.ticker", "FixedLocator"),
                ("matplotlib.ticker", "FixedFormatter"), ("matplotlib.artist", "Artist"))
_MAX_CLASSES = 1000
_MAX_LABELS = 100000


def confusion_matrix(interp, fn: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Optional[Value]:
    """`confusion_matrix(y_true, y_pred)` of two live 1-D label vectors of one family (integers, or
    exact strings) and one length: an n x n integer matrix, n the labels of both together. None when
    the checker cannot say (scikit-learn may raise then: lengths or label kinds that differ)."""
    if not own_module_function("sklearn.metrics", "confusion_matrix", fn, "sklearn"):
        return None
    given = dict(zip(("y_true", "y_pred"), args))
    if len(args) > 2 or set(kwargs) - {"y_true", "y_pred"} or set(given) & set(kwargs):
        return None
    given.update(kwargs)
    if set(given) != {"y_true", "y_pred"}:
        return None
    true, pred = _labels(given["y_true"]), _labels(given["y_pred"])
    if true is None or pred is None or true[0] != pred[0] or true[1] != pred[1] or true[1] == 0:
        return None
    return FactValue("ndarray", array=ArrayFacts(shape=(len(true[2] | pred[2]),) * 2, kind="i"))


def _labels(v: Value) -> Optional[Tuple[str, int, set]]:
    """(family, length, distinct labels) of a live exact ndarray or Series of plain labels: integers
    (integer dtype) or exact strings (no missing value: scikit-learn cannot sort NaN with text)."""
    if not isinstance(v, LiveValue) or v.kind() not in ("ndarray", "series"):
        return None
    obj = v.obj
    try:
        if obj.ndim != 1 or len(obj) > _MAX_LABELS:
            return None
        dtype = obj.dtype
        # An extension dtype of the notebook's own would answer `.kind` and `tolist()` with its code.
        if not _library_dtype(dtype):
            return None
        kind = dtype.kind
        values = obj.tolist()
    except Exception:
        return None
    if kind in "iu" and all(type(x) is int for x in values):
        return "int", len(values), set(values)
    if kind in "OU" and all(type(x) is str for x in values):
        return "str", len(values), set(values)
    return None


def _library_dtype(dtype: Any) -> bool:
    """A NumPy dtype or pandas' own StringDtype, told by the type's identity and static MRO."""
    np, pd = loaded_module("numpy"), loaded_module("pandas")
    np_dtype = checked(np.__dict__).get("dtype") if np is not None else None
    pd_string = checked(pd.__dict__).get("StringDtype") if pd is not None else None
    t = type(dtype)
    return (isinstance(np_dtype, type) and is_subclass(t, np_dtype)) or (pd_string is not None and t is pd_string)


def is_confusion_display(obj: Any) -> bool:
    """`obj` is scikit-learn's own ConfusionMatrixDisplay class, as `sklearn.metrics` exports it."""
    mod = loaded_module("sklearn.metrics")
    return mod is not None and checked(mod.__dict__).get(_CLASS) is obj and audit().pristine(obj, "sklearn")


@dataclass(eq=False)
class ConfusionDisplay(Value):
    """A ConfusionMatrixDisplay built in this cell: its matrix's class count and its label count."""

    cls: Any
    classes: int
    labels: Optional[int]  # None: labels the checker does not count (or none given)
    facts = Facts("confusion-display")

    def has_attr(self, attr: str) -> Optional[bool]:
        return True if attr == "plot" else None


def _label_count(node: ast.Call) -> Optional[int]:
    """How many labels a `display_labels=[...]` literal of plain constants holds (None otherwise)."""
    for kw in node.keywords:
        if kw.arg == "display_labels":
            v = kw.value
            if isinstance(v, (ast.List, ast.Tuple)) and all(
                    isinstance(e, ast.Constant) and type(e.value) in (str, int, float, bool) for e in v.elts):
                return len(v.elts)
    return None


def construct(interp, cls: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`ConfusionMatrixDisplay(confusion_matrix=cm, display_labels=[...])`: stores its arguments."""
    if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords) or \
            any(isinstance(a, ast.Starred) for a in node.args):
        raise Stop(node.lineno, f"creating a `{_CLASS}` with arguments the checker does not model")
    given = dict(kwargs)
    if len(args) == 1 and "confusion_matrix" not in given:
        given["confusion_matrix"] = args[0]
    if len(args) > 1 or set(given) - {"confusion_matrix", "display_labels"} or "confusion_matrix" not in given:
        raise Stop(node.lineno, f"creating a `{_CLASS}` with arguments the checker does not model")
    cm = given["confusion_matrix"]
    arr = cm.array() if cm.kind() == "ndarray" else None
    if arr is None or arr.shape is None or len(arr.shape) != 2 or arr.shape[0] != arr.shape[1] \
            or arr.kind is None or arr.kind not in "iuf" or not 1 <= arr.shape[0] <= _MAX_CLASSES:
        raise Stop(node.lineno, f"creating a `{_CLASS}` of a matrix the checker does not know")
    labels = _label_count(node) if "display_labels" in given else None
    return ConfusionDisplay(cls, arr.shape[0], labels)


def plot(interp, owner: ConfusionDisplay, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """`.plot()`: a certain ValueError when the labels cannot be the matrix's tick labels."""
    if args or kwargs or owner.labels is None or owner.labels == 0 or owner.labels == owner.classes:
        raise Stop(node.lineno, f"a call to `{_CLASS}.plot()`, which draws")
    library_state_plain(interp, node)
    sk, mpl = library_version("sklearn"), library_version("matplotlib")
    if sk is None or mpl is None or sk < _MIN_SKLEARN or mpl < _MIN_MATPLOTLIB:
        raise Stop(node.lineno, f"`{_CLASS}.plot()` on versions the checker has not seen")
    if not audit().pristine(owner.cls, "sklearn") or not _matplotlib_own() or not pyplot_plain(interp, node):
        raise Stop(node.lineno, f"`{_CLASS}.plot()` with a patched library or a backend that opens windows")
    n, k = owner.classes, owner.labels
    raise Crash(CertainCrash(
        "ValueError", node.lineno, node.col_offset,
        f"the confusion matrix has {n} classes but `display_labels` gives {k} label{'s' if k != 1 else ''}: "
        f"`.plot()` sets {n} ticks and matplotlib refuses {k} labels for them (The number of FixedLocator "
        f"locations ({n}), usually from a call to set_ticks, does not match the number of labels ({k})).",
        "display-labels", []))


def _matplotlib_own() -> bool:
    return own_call("matplotlib.pyplot", "subplots", "matplotlib") is not None and \
        classes_pristine(_MPL_CLASSES, "matplotlib")
