"""`pd.Categorical(...)`: the array it builds, whose attributes are its class's and no more.

A notebook that builds a Categorical and then reads `.cat` on it (the accessor of a *Series* of
category dtype) gets AttributeError: a freshly built Categorical has an empty instance dictionary
and its class has no `__getattr__`, so its attributes are exactly what its class defines.

Building it must itself be certain not to fail, so only the plain form is modelled: one Series of
integers (with no missing values) taken from a DataFrame column, and optionally `categories=` a
range or list of unique integers holding every value the column has (values outside the
categories warn in pandas 3 and are to raise later, so they are not modelled), and `ordered=` a
bool. The integer values and their range come from the live column, or from the recorded facts
(an integer `value_range` in a frame recorded with no NaN).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..static_reads import loaded_module, checked
from ..abstract_values import NOTHING, Value
from ..outcome import Stop
from ..provenance import audit, lookup_static, plain_class
from .library_state import library_state_plain

_MISSING = object()
_MAX_CATEGORIES = 100000


def is_pandas_categorical(obj: Any) -> bool:
    pd = loaded_module("pandas")
    return pd is not None and checked(pd.__dict__).get("Categorical") is obj and audit().pristine(obj, "pandas")


class FreshCategorical(Value):
    """A Categorical the cell just built: its attributes are its class's."""

    def __init__(self, cls: type):
        self.cls = cls

    def kind(self):
        return "categorical"

    def type_name(self):
        return "pandas.Categorical"

    def has_attr(self, attr: str) -> Optional[bool]:
        if not plain_class(self.cls):
            return None
        if lookup_static(self.cls, attr, _MISSING) is not _MISSING:
            return True
        if attr.startswith("_") or lookup_static(self.cls, "__getattr__", _MISSING) is not _MISSING:
            return None
        if lookup_static(self.cls, "__getattribute__", None) is not object.__dict__["__getattribute__"]:
            return None
        return False


def construct(interp, cls: type, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    library_state_plain(interp, node)
    if len(args) != 1 or not set(kwargs) <= {"categories", "ordered"}:
        raise Stop(node.lineno, "creating a `Categorical` with arguments the checker does not model")
    ordered = kwargs["ordered"].concrete() if "ordered" in kwargs else False
    if type(ordered) is not bool:
        raise Stop(node.lineno, "creating a `Categorical` with `ordered=` the checker does not know")
    span = integer_span(args[0])
    if span is None:
        raise Stop(node.lineno, "creating a `Categorical` of values the checker does not know")
    if "categories" in kwargs and not _covers(kwargs["categories"].concrete(), span):
        raise Stop(node.lineno, "creating a `Categorical` whose categories may not hold every value")
    return FreshCategorical(cls)


def integer_span(v: Value) -> Optional[Tuple[int, int]]:
    """(lowest, highest) of a Series of integers with no missing values; (0, -1) when it is empty."""
    span = getattr(v, "integer_span", None)
    return span if type(span) is tuple else None


def _covers(categories: Any, span: Tuple[int, int]) -> bool:
    lo, hi = span
    if type(categories) is range:
        if categories.step != 1 or len(categories) > _MAX_CATEGORIES:
            return False
        return lo > hi or (categories.start <= lo and hi < categories.stop)
    if type(categories) is list and len(categories) <= _MAX_CATEGORIES and \
            all(type(c) is int for c in categories) and len(set(categories)) == len(categories):
        return lo > hi or (hi - lo <= _MAX_CATEGORIES and set(range(lo, hi + 1)) <= set(categories))
    return False


__all__ = ["is_pandas_categorical", "construct", "FreshCategorical", "integer_span", "NOTHING"]
