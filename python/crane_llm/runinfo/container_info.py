"""Builtin values: scalars, sequences and dicts (with the Keras-history, Bunch and numbers cases)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..checks.abc_hooks import notebook_abc_hook
from ..checks.library_namespace import numpy_untouched
from ..checks.provenance import class_module, class_name, instance_dict, mro
from ..checks.static_reads import held_by_its_module
from .pandas_guard import unreadable_pandas
from .safe import NAME_MAX, cut, int_text, loaded, member, number, one_of, plain_type, short_text
from .value_summary import list_values

DICT_ENTRIES_SHOWN = 5
DICT_VALUE_TEXT_MAX = 50
DICT_KEYS_SHOWN = 50
STR_SHOWN = 10_000  # characters of a string variable's value (libs/prompt's STR_SHOWN)
_NUMBER_TYPES = (int, float)


def scalar_summary(value: Any) -> Dict[str, Any]:
    t = type(value)
    if t is bool:
        return {"kind": "bool", "value": value}
    if t is int:
        return {"kind": "int", "value": int_text(value)}  # text: JSON numbers lose digits past 2**53
    if t is float:
        return {"kind": "float", "value": number(value)}
    # The prompt shows at most STR_SHOWN characters: the reply carries no more (the length says the rest).
    return {"kind": "str", "value": value[:STR_SHOWN], "length": len(value)}


def sequence_summary(value: Any) -> Dict[str, Any]:
    """list, tuple, set, frozenset (or a subclass: measured with the builtin's own `__len__`)."""
    bases = mro(type(value))
    base = next(b for b in (list, tuple, set, frozenset) if one_of(b, bases))
    out: Dict[str, Any] = {"kind": "sequence", "type": class_name(base), "length": base.__len__(value)}
    if type(value) is list and out["length"]:
        summary, _ = list_values(value)
        if summary is not None:
            out["values"] = summary
    return out


def _keys(d: dict, limit: int = DICT_KEYS_SHOWN) -> List[str]:
    keys = []
    for i, key in enumerate(dict.keys(d)):
        if i == limit:
            break
        keys.append(cut(key, NAME_MAX) if type(key) is str else short_text(key, 50))
    return keys


def _is_number(value: Any) -> bool:
    t = type(value)
    if one_of(t, _NUMBER_TYPES):
        return True
    np = loaded("numpy")
    kinds = tuple(k for k in (member(np, "integer"), member(np, "floating")) if type(k) is type)
    return len(kinds) == 2 and plain_type(t) and class_module(t) == "numpy" and issubclass(t, kinds)


def _history_epochs(d: dict) -> Optional[int]:
    """Epoch count when every value is a list of numbers of one common length (Keras History)."""
    lengths = set()
    for key, series in dict.items(d):
        if type(key) is not str or type(series) is not list or not series:
            return None
        if not all(_is_number(v) for v in series[:5]):
            return None
        lengths.add(len(series))
    return lengths.pop() if len(lengths) == 1 else None


def _shape_of(value: Any) -> Optional[List[int]]:
    """An array's, frame's or list's shape. A frame's `shape` is pandas' code: read only when the
    frame would be read as a variable (its classes unpatched, its columns in pandas' own arrays)."""
    ndarray = member(loaded("numpy"), "ndarray")
    if ndarray is not None and type(value) is ndarray:
        return [int(d) for d in value.shape]  # (NumPy's compiled getter)
    pd = loaded("pandas")
    if pd is not None and one_of(type(value), (member(pd, "DataFrame"), member(pd, "Series"))):
        # (what the variable's own summary asks first: no ABC hook of the notebook's, NumPy's
        # namespaces untouched)
        if notebook_abc_hook() or not numpy_untouched() or unreadable_pandas(value, type(value)) is not None:
            return None
        return [int(d) for d in value.shape]
    if type(value) is list:
        return [len(value)]
    return None


def dict_summary(value: Any) -> Dict[str, Any]:
    d = value
    n = dict.__len__(d)
    out: Dict[str, Any] = {"kind": "dict", "length": n}
    if n == 0:
        out["entries"] = []
        return out
    sklearn_bunch = _is_bunch(d)
    if sklearn_bunch:
        out["kind"] = "dict-dataset"
        out["keys"] = _keys(d)
        data, target = dict.get(d, "data"), dict.get(d, "target")
        out["dataShape"] = _shape_of(data)
        out["targetShape"] = _shape_of(target)
        return out
    if n <= 200:
        epochs = _history_epochs(d)
        if epochs is not None:
            out["kind"] = "dict-history"
            out["metrics"] = _keys(d)
            out["epochs"] = epochs
            return out
    if n <= 10_000 and all(_is_number(v) for v in dict.values(d)):
        out["kind"] = "dict-numbers"
        out["keys"] = _keys(d)
        return out
    entries = []
    for i, (key, item) in enumerate(dict.items(d)):
        if i == DICT_ENTRIES_SHOWN:
            break
        entries.append({"key": short_text(key, DICT_VALUE_TEXT_MAX), "value": _entry_text(item)})
    out["entries"] = entries
    return out


def _entry_text(item: Any) -> str:
    """A dict value up to 50 characters; a known library object says what it is instead of its repr."""
    shape = _shape_of(item) if type(item) is not list else None
    if shape is not None:
        return cut(class_name(type(item)) + " shape (" + ", ".join(str(s) for s in shape) + ")", DICT_VALUE_TEXT_MAX)
    return short_text(item, DICT_VALUE_TEXT_MAX)


def _is_bunch(d: Any) -> bool:
    # (from the module's dictionary: `sklearn.utils.Bunch` after `del` would run a module `__getattr__`)
    bunch = member(loaded("sklearn.utils"), "Bunch")
    if type(bunch) is not type or not held_by_its_module(bunch):
        return False
    # Every key an exact str before looking one up: a lookup may compare a colliding key with `==`.
    return bunch is not None and type(d) is bunch and all(type(k) is str for k in dict.keys(d)) \
        and dict.__contains__(d, "data")


def keras_history_summary(obj: Any) -> Optional[Dict[str, Any]]:
    """A Keras `History` callback object: its `.history` dict, read from the instance dict."""
    history = instance_dict(obj, {}).get("history")
    return dict_summary(history) if type(history) is dict else None
