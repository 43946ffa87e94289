"""What a class alone says about its instances, read without an instance and without running
code: whether they have an attribute, and which properties of the exact pandas / NumPy classes are
pure. Both adapters ask it: the live one of a live object's class, the replay one of a recorded
type the kernel has loaded.
"""

from __future__ import annotations

import types
from typing import Any, Optional

from .library_code import plain_data
from .library_namespace import pandas_untouched
from .static_reads import loaded_module, checked, held_by_its_module, is_static_type
from .provenance import (TRUSTED_BASES, audit, class_dict, class_module, instance_dict, is_subclass, lookup_static,
                         mro, own, plain_class)

_MISSING = object()
# Data descriptors of these types always succeed when read on their own class's instances.
_PLAIN_DESCRIPTORS = (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                      types.WrapperDescriptorType, types.ClassMethodDescriptorType, staticmethod,
                      classmethod, type)


def _module(name: str) -> Any:
    """A library module only if the kernel already imported it: the checker never imports one."""
    return loaded_module(name)


def pandas_types():
    pd = _module("pandas")
    if type(pd) is not types.ModuleType:
        return None, None, None
    return checked(pd.__dict__).get("DataFrame"), checked(pd.__dict__).get("Series"), pd


def pandas_index_types() -> tuple:
    """pandas' `Index` and `RangeIndex` (none while pandas is not loaded)."""
    pd = _module("pandas")
    if type(pd) is not types.ModuleType:
        return ()
    return tuple(c for c in (checked(pd.__dict__).get("Index"), checked(pd.__dict__).get("RangeIndex")) if c is not None)


def pristine_pandas(cls: Any) -> bool:
    """`cls` is one of pandas' classes and nothing in it or its bases was replaced, nor in the core
    classes every DataFrame operation goes through (Series, Index, the block managers), nor in the
    module globals their methods call by name (library_namespace.pandas_untouched): a rule on
    frames leans on all of them."""
    a = audit()
    hit = a.pandas.get(id(cls))
    if hit is not None and hit[0] is cls:
        return hit[1]
    if a.pandas_namespace is None:
        a.pandas_namespace = pandas_untouched()  # (once a check: a class may be patched between two, never during one)
    ok = a.pristine(cls, "pandas") and all(a.pristine(c, "pandas") for c in _pandas_core()) and a.pandas_namespace
    a.pandas[id(cls)] = (cls, ok)
    return ok


def _pandas_core() -> list:
    out = []
    for modname, names in (("pandas", ("DataFrame", "Series", "Index", "RangeIndex", "MultiIndex")),
                           ("pandas.core.internals.managers", ("BlockManager", "SingleBlockManager")),
                           ("pandas.core.indexing", ("_LocIndexer", "_iLocIndexer"))):
        mod = loaded_module(modname)
        if type(mod) is types.ModuleType:
            out.extend(c for c in (checked(mod.__dict__).get(n) for n in names) if c is not None)
    return out


def own_column_arrays(obj: Any) -> bool:
    """Every column of a pandas DataFrame or Series, and every label of its axes, is held in an
    ndarray or in one of pandas' own array classes, read from its block manager through pandas'
    compiled slots. An ExtensionArray the notebook defined answers `dtype`, `len`, `isna`, `min`
    and iteration with its own code, which pandas runs for `df.dtypes`, a lookup or a print: such
    a frame is not read at all."""
    lib = _module("pandas._libs.internals")
    arr = ndarray_type()
    if type(lib) is not types.ModuleType or arr is None:
        return False
    names = checked(lib.__dict__)
    manager_cls, block_cls = names.get("BlockManager"), names.get("Block")
    if manager_cls is None or block_cls is None:
        return False
    slots = class_dict(manager_cls)
    blocks_of, axes_of, values_of = slots.get("blocks"), slots.get("axes"), class_dict(block_cls).get("values")
    if not all(type(d) is types.GetSetDescriptorType for d in (blocks_of, axes_of, values_of)):
        return False
    mgr = instance_dict(obj, {}).get("_mgr")
    if not _pandas_own_class(type(mgr)):
        return False
    try:
        # (a DataFrame's manager keeps its blocks and axes in compiled slots, a Series' in its __dict__)
        if is_subclass(type(mgr), manager_cls):
            blocks, axes = blocks_of.__get__(mgr), axes_of.__get__(mgr)
        else:
            blocks, axes = instance_dict(mgr, {}).get("blocks"), instance_dict(mgr, {}).get("axes")
        if type(blocks) not in (tuple, list) or type(axes) is not list:
            return False
        for block in blocks:
            if not _pandas_own_class(type(block)) or not is_subclass(type(block), block_cls):
                return False
            t = type(values_of.__get__(block))
            # (a pandas array class with a method the notebook replaced, `SparseArray.isna = ...`,
            # would run it in any read of the column)
            if t is not arr and not (_pandas_own_class(t) and _array_class_own(t)):
                return False
    except (TypeError, AttributeError):
        return False
    return all(_own_index(axis, arr, 0) for axis in axes)


def _array_class_own(cls: Any) -> bool:
    """Every function, property and method of a pandas array class (and its bases) is pandas' own
    code, whatever name it sits under (`DatetimeArray._is_recognized_dtype` is a lambda); once per
    check per class."""
    a = audit()
    hit = a.facts.get(("array-class", id(cls)))
    if hit is not None and hit[0] is cls:
        return hit[1]
    ok = plain_class(cls)
    for klass in mro(cls) if ok else ():
        if klass is object or is_static_type(klass):
            continue
        top = class_module(klass).split(".", 1)[0]
        if top not in ("pandas", "numpy") and top not in TRUSTED_BASES:
            ok = False
            break
        if not all(type(k) is str and (own(v, top) or _library_c_data(v)) for k, v in class_dict(klass).items()):
            ok = False
            break
    a.facts[("array-class", id(cls))] = (cls, ok)
    return ok


def _library_c_data(value: Any) -> bool:
    """An object of pandas' or NumPy's compiled types held as class data (`pd.NA`, a dtype): it
    runs no one's code but theirs."""
    t = type(value)
    home = class_module(t)
    compiled = is_static_type(t) or (home.startswith("pandas._libs.") and plain_class(t) and
                                      not any(type(v) is types.FunctionType for v in class_dict(t).values()))
    return compiled and not callable(value) and home.split(".", 1)[0] in ("pandas", "numpy")


def _own_index(index: Any, arr: Any, depth: int) -> bool:
    """A pandas Index whose labels sit in an ndarray, a pandas array or a range; a MultiIndex's
    levels likewise."""
    if depth > 2 or not _pandas_own_class(type(index)):
        return False
    d = instance_dict(index, {})
    if not _cache_own(d.get("_cache", {})):
        return False
    if "_data" in d:
        t = type(d["_data"])
        return t is arr or _pandas_own_class(t)
    if "_levels" in d:
        levels = d["_levels"]
        return _pandas_own_class(type(levels)) and is_subclass(type(levels), list) and \
            all(_own_index(level, arr, depth + 1) for level in list.__iter__(levels))
    return type(d.get("_range")) is range


_CACHED_SCALARS = (bool, int, float, str, type(None))


def _cache_own(cache: Any) -> bool:
    """An Index's `_cache` (where pandas keeps its `_engine`, `dtype`, `is_unique`, ...) holds only
    plain scalars and objects of pandas' and NumPy's own classes: a lookup (`label in df.columns`)
    asks the cached engine, which the notebook could have put there (seventh red team, 7 Dec)."""
    if type(cache) is not dict:
        return False
    for key, value in cache.items():
        t = type(value)
        if t is type:  # (a class pandas keeps, a RangeIndex's `_constructor`)
            t = value
        if type(key) is not str or not (t in _CACHED_SCALARS or _pandas_own_class(t) or
                                        (class_module(t).split(".", 1)[0] == "numpy" and held_by_its_module(t))):
            return False
    return True


def cached_engine(index: Any) -> Any:
    """The lookup engine pandas keeps for `index`, or None when none is built yet."""
    cache = instance_dict(index, {}).get("_cache")
    return cache.get("_engine") if type(cache) is dict else None


def engine_own(engine: Any) -> bool:
    return _pandas_own_class(type(engine))


def _pandas_own_class(cls: Any) -> bool:
    return class_module(cls).split(".", 1)[0] == "pandas" and held_by_its_module(cls)


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


def attrs_plain(value: Any) -> bool:
    """A frame's or series' `attrs` are empty or plain data: pandas deep-copies them into every
    frame or series it derives, which would run the code of objects of the notebook's."""
    d = instance_dict(value)
    attrs = d.get("_attrs") if d is not None else None
    return attrs is None or (type(attrs) is dict and (not attrs or plain_data(attrs)))
