"""What a class alone says about its instances, read without an instance and without running
code: whether they have an attribute, and which properties of the exact pandas / NumPy classes are
pure. Both adapters ask it: the live one of a live object's class, the replay one of a recorded
type the kernel has loaded.
"""

from __future__ import annotations

import sys
import types
from typing import Any, Optional

from .static_reads import checked
from .provenance import audit, lookup_static, plain_class

_MISSING = object()
# Data descriptors of these types always succeed when read on their own class's instances.
_PLAIN_DESCRIPTORS = (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                      types.WrapperDescriptorType, types.ClassMethodDescriptorType, staticmethod,
                      classmethod, type)


def _module(name: str) -> Any:
    """A library module only if the kernel already imported it: the checker never imports one."""
    return sys.modules.get(name)


def pandas_types():
    pd = _module("pandas")
    if type(pd) is not types.ModuleType:
        return None, None, None
    return checked(pd.__dict__).get("DataFrame"), checked(pd.__dict__).get("Series"), pd


def pristine_pandas(cls: Any) -> bool:
    """`cls` is one of pandas' classes and nothing in it or its bases was replaced, nor in the core
    classes every DataFrame operation goes through (Series, Index, the block managers): a rule
    on frames leans on all of them."""
    a = audit()
    hit = a.pandas.get(id(cls))
    if hit is not None and hit[0] is cls:
        return hit[1]
    ok = a.pristine(cls, "pandas") and all(a.pristine(c, "pandas") for c in _pandas_core())
    a.pandas[id(cls)] = (cls, ok)
    return ok


def _pandas_core() -> list:
    out = []
    for modname, names in (("pandas", ("DataFrame", "Series", "Index", "RangeIndex", "MultiIndex")),
                           ("pandas.core.internals.managers", ("BlockManager", "SingleBlockManager")),
                           ("pandas.core.indexing", ("_LocIndexer", "_iLocIndexer"))):
        mod = sys.modules.get(modname)
        if type(mod) is types.ModuleType:
            out.extend(c for c in (checked(mod.__dict__).get(n) for n in names) if c is not None)
    return out


def ndarray_type():
    np = _module("numpy")
    return checked(np.__dict__).get("ndarray") if type(np) is types.ModuleType else None


def _plain_getattribute(cls: type) -> bool:
    """True when attribute lookup on instances of `cls` is the standard one (no hidden code)."""
    if not plain_class(cls):
        return False
    ga = lookup_static(cls, "__getattribute__", _MISSING)
    return ga is object.__dict__["__getattribute__"] or ga is types.ModuleType.__dict__["__getattribute__"]


def _plain_value(found: Any) -> bool:
    """A class attribute that reading yields without running code: a function, a C descriptor, or an
    object whose type has no `__get__`."""
    t = type(found)
    if not plain_class(t):
        return False
    return issubclass(t, _PLAIN_DESCRIPTORS) or lookup_static(t, "__get__", _MISSING) is _MISSING


def class_has_attr(cls: type, attr: str) -> Optional[bool]:
    """Whether instances of `cls` (read on the class only, instance dict unknown) have `attr`."""
    if not plain_class(cls):
        return None
    found = lookup_static(cls, attr, _MISSING)
    if found is not _MISSING:
        return True if _plain_value(found) else None
    if not _plain_getattribute(cls):
        return None
    if lookup_static(cls, "__getattr__", _MISSING) is not _MISSING:
        return None
    # Instances of classes with a __dict__ may carry the attribute themselves.
    if lookup_static(cls, "__dict__", _MISSING) is not _MISSING or type.__dict__["__dictoffset__"].__get__(cls):
        return None
    return False


# Properties of the exact pandas / NumPy classes that are pure and never raise.
_FRAME_PROPS = {"columns", "index", "shape", "dtypes", "values", "empty", "size", "ndim", "T", "loc",
                "iloc", "at", "iat", "axes"}
_SERIES_PROPS = {"index", "shape", "values", "dtype", "name", "empty", "size", "ndim", "T", "loc", "iloc",
                 "at", "iat", "axes"}
_ARRAY_PROPS = {"shape", "ndim", "size", "dtype", "T", "itemsize", "nbytes"}


def safe_class_property(cls: type, attr: str) -> bool:
    """Properties of the exact pandas / NumPy classes that are pure and never raise."""
    frame_cls, series_cls, _ = pandas_types()
    if frame_cls is not None and cls is frame_cls:
        return attr in _FRAME_PROPS and pristine_pandas(cls)
    if series_cls is not None and cls is series_cls:
        return attr in _SERIES_PROPS and pristine_pandas(cls)
    arr = ndarray_type()
    if arr is not None and cls is arr:
        return attr in _ARRAY_PROPS
    return False
