"""Abstract base classes a notebook hooked: `isinstance(x, collections.abc.Mapping)`, which library
code asks all the time, calls `__subclasshook__` of every subclass of Mapping and the metaclass of
every class registered with it (until its cache knows the answer). A notebook's subclass that
defines its own hook, or uses its own metaclass, runs its code inside library calls the checks and
the runtime information would make; with one present they make none.

Read through `type`'s own `__subclasses__` and `_abc`'s registry dump, without running anything.
"""

from __future__ import annotations

import abc
import collections.abc
import numbers
import os
import sysconfig
import types
from typing import Any, List, Optional

from .static_reads import EPOCH, class_dict, is_static_type, lookup_static, mro

_SUBCLASSES = type.__dict__["__subclasses__"]
_MAX_CLASSES = 20000
_TYPE_CHECK = type.__dict__["__subclasscheck__"]
_ABC_CHECK = abc.ABCMeta.__dict__["__subclasscheck__"]
_TYPE_LOOKUP = type.__dict__["__getattribute__"]
_ROOTS = tuple(v for module in (collections.abc, numbers) for v in vars(module).values()
               if type(v) is abc.ABCMeta) + (os.PathLike,)
_LIBRARY_DIRS = tuple({os.path.realpath(p) + os.sep for p in (sysconfig.get_paths()["stdlib"],
                                                             sysconfig.get_paths()["purelib"],
                                                             sysconfig.get_paths()["platlib"])})


def _function(hook: Any) -> Any:
    if type(hook) is classmethod or type(hook) is staticmethod:
        hook = hook.__func__
    return hook if type(hook) is types.FunctionType else None


# The standard library's own hooks (frozen modules: no file to compare with), and their code,
# as they were when this module was imported.
_OWN_HOOKS = {}
for _root in _ROOTS:
    _fn = _function(vars(_root).get("__subclasshook__"))
    if _fn is not None:
        _OWN_HOOKS[id(_fn)] = (_fn, _fn.__code__)


def _library_function(hook: Any) -> bool:
    if hook is _TYPE_LOOKUP:
        return True
    fn = _function(hook)
    if fn is None:
        return False
    known = _OWN_HOOKS.get(id(fn))
    if known is not None and known[0] is fn and known[1] is fn.__code__:
        return True
    filename = fn.__code__.co_filename
    return type(filename) is str and os.path.realpath(filename).startswith(_LIBRARY_DIRS)


def _registered(cls: Any) -> List[Any]:
    try:
        from _abc import _get_dump
    except ImportError:  # the pure-Python ABC implementation: its registry is a plain attribute
        return []
    try:
        registry = _get_dump(cls)[0]
    except Exception:
        return []
    out = []
    for ref in list(registry):
        target = ref()
        if target is not None:
            out.append(target)
    return out


_MEMO: List[Any] = [None, None]  # (epoch, answer): one walk per check


def notebook_abc_hook() -> Optional[str]:
    """Why a library's `isinstance` against a standard ABC may run a notebook's code, or None."""
    if _MEMO[0] == EPOCH[0]:
        return _MEMO[1]
    answer = _walk()
    _MEMO[:] = [EPOCH[0], answer]
    return answer


def _walk() -> Optional[str]:
    todo: List[Any] = list(_ROOTS)
    seen = set()
    while todo:
        cls = todo.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        if len(seen) > _MAX_CLASSES:
            return "too many classes derive from the standard abstract base classes to read them all"
        meta = type(cls)
        if meta is not type and meta is not abc.ABCMeta and not is_static_type(meta):
            check = lookup_static(meta, "__subclasscheck__")
            lookup = lookup_static(meta, "__getattribute__")
            if ((check is not _TYPE_CHECK and check is not _ABC_CHECK and not _library_function(check))
                    or (lookup is not _TYPE_LOOKUP and not _library_function(lookup))
                    or not _library_function(lookup_static(meta, "__getattr__", _TYPE_LOOKUP))):
                return "a class with its own metaclass derives from (or is registered with) a standard abstract base class"
        if abc.ABCMeta not in mro(meta):
            continue  # `type`'s subclass check reads the MRO only: it asks none of its subclasses
        hook = class_dict(cls).get("__subclasshook__")
        if hook is not None and not _library_function(hook):
            return "a class of the notebook's defines `__subclasshook__` under a standard abstract base class"
        todo.extend(_registered(cls))
        try:
            todo.extend(_SUBCLASSES(cls))
        except Exception:
            continue
    return None


__all__ = ["notebook_abc_hook"]
