"""pandas accessors on the wrong dtype: `.str` on numbers, `.dt` on numbers or strings, `.cat` on
anything but a category.

pandas decides it from the Series' dtype alone (`StringMethods` / `CombinedDatetimelikeProperties` /
`CategoricalAccessor` refuse it with AttributeError). A claim needs the dtype known (`series_dtype`:
an exact, unpatched Series, or a column of an exact DataFrame), and the accessor the Series class
holds to be pandas' own, wrapping pandas' own, unpatched class: a notebook may register its own
accessor under the same name.
"""

from __future__ import annotations

import types
from typing import Any

from ..static_reads import library_version, loaded_module, checked
from ..abstract_values import Value
from ..live_adapter import LiveValue
from ..class_facts import pandas_types
from ..dtypes import dtype_category  # noqa: F401  (the categories the table speaks of)
from ..outcome import CertainCrash, Crash
from ..provenance import (audit, class_dict, class_module, class_name, instance_dict, lookup_static, mro, own,
                          plain_class)
from . import frames

# accessor -> (pandas' class behind it, the dtype categories it refuses)
_REFUSES = {
    "str": ("pandas.core.strings.accessor.StringMethods", {"numeric", "bool", "datetime", "timedelta"}),
    "dt": ("pandas.core.indexes.accessors.CombinedDatetimelikeProperties", {"numeric", "bool", "str", "string"}),
    "cat": ("pandas.core.arrays.categorical.CategoricalAccessor",
            {"numeric", "bool", "datetime", "timedelta", "str", "string", "object"}),
}
_NEEDS = {"str": "string values", "dt": "datetime-like values", "cat": "a 'category' dtype"}


def _own_accessor(attr: str) -> bool:
    pd = loaded_module("pandas")
    series = checked(pd.__dict__).get("Series") if type(pd) is types.ModuleType else None
    if series is None:
        return False
    acc = lookup_static(series, attr, None)
    if acc is None or not plain_class(type(acc)) or class_module(type(acc)) != "pandas.core.accessor" \
            or not own(lookup_static(type(acc), "__get__"), "pandas"):
        return False
    try:
        inner = object.__getattribute__(acc, "__dict__").get("_accessor")
    except Exception:
        return False
    expected = _REFUSES[attr][0]
    if not plain_class(inner) or f"{class_module(inner)}.{class_name(inner)}" != expected:
        return False
    if audit().pristine(inner, "pandas"):
        return True
    # The refusal happens as the accessor is made (`__new__`, `__init__`, its `_validate`), before any
    # other of its code: those being pandas' own is what the claim needs.
    return all(own(lookup_static(inner, name), "pandas") for name in ("__new__", "__init__", "_validate")
               if lookup_static(inner, name) is not None and name in _defined_in_pandas(inner, name))


def _defined_in_pandas(cls: Any, name: str) -> tuple:
    """(name,) when the class that holds `name` first along the MRO is not `object` (object's own
    `__new__` / `__init__` are C and cannot be replaced), else ()."""
    for klass in mro(cls):
        if name in class_dict(klass):
            return () if klass is object else (name,)
    return ()


def may_be_shadowed(base: Value, attr: str) -> bool:
    """The Series itself may hold `attr` (`s.__dict__['str'] = ...`): pandas' accessor is not a data
    descriptor, so that value wins. A Series the cell selects is a new one, except under pandas 2,
    whose frames hand out the same cached Series for a column each time."""
    if isinstance(base, LiveValue):
        own_dict = instance_dict(base.obj, None)
        return type(own_dict) is not dict or attr in own_dict
    version = library_version("pandas")
    if version is None:
        return True
    return version < (3, 0) and not _selected_as_cached(base, attr)


def _selected_as_cached(base: Value, attr: str) -> bool:
    """Under pandas 2, `df['n']` of the kernel's frame is the Series its `_item_cache` holds for
    'n' when it holds one (a new one otherwise, cached then): that one must be an exact Series of
    the column's dtype with nothing of the accessor's name in its own dict. The cache is read as
    data: a dict of str or int keys, so finding 'n' in it compares nothing of the notebook's."""
    source = frames.selected_from(base)
    frame = source[0] if source is not None else None
    frame_cls, series_cls, _ = pandas_types()
    if not isinstance(frame, LiveValue) or frame_cls is None or type(frame.obj) is not frame_cls:
        return False
    label = source[2]
    own_fields = instance_dict(frame.obj, None)
    cache = own_fields.get("_item_cache") if type(own_fields) is dict else None
    if type(label) not in (str, int) or type(cache) is not dict or \
            not all(type(k) is str or type(k) is int for k in list(cache)):
        return False
    cached = cache.get(label)
    if cached is None:
        return True
    own_dict = instance_dict(cached, None)
    return type(cached) is series_cls and type(own_dict) is dict and attr not in own_dict and \
        LiveValue(cached).series_dtype() == base.series_dtype()


def check(base: Value, attr: str, node) -> None:
    """Raise Crash when `series.attr` certainly refuses the Series' dtype; return otherwise."""
    if attr not in _REFUSES or base.kind() != "series":
        return
    category = base.series_dtype()
    if category is None or category not in _REFUSES[attr][1] or not _own_accessor(attr) or may_be_shadowed(base, attr):
        return
    label = f"`{base.name}`" if base.name else "this Series"
    raise Crash(CertainCrash("AttributeError", node.lineno, node.col_offset,
                             f"`.{attr}` works only on a Series of {_NEEDS[attr]}; {label} holds "
                             f"{'strings' if category == 'str' else category + ' values'}.",
                             "accessor-dtype", [base.name] if base.name else []))
