"""What a class audit read, kept so that a later check can tell, by identity and in C loops, that
none of it changed: then the audit's verdict still holds and is not made again.

An audit (provenance.own_type) reads class dictionaries, MROs, names, metaclasses, functions'
code, defaults and closure cells, the globals of the modules those functions live in, the
instances a class holds and their classes, and pandas' class data. Between two checks the notebook
may have changed any of it: a replaced method, a `__code__` or `__defaults__` swapped, a closure
cell rewritten, `__bases__` or `__class__` reassigned, a list of class data appended to, a module's
`__name__`/`__file__` or its `sys.modules` entry replaced, a non-string key put in a module's
globals. The witness walks everything the audit can reach (more than it reads: the walk does not
stop where the audit would) and records each of those slots with the object it held; it holds
when every slot holds the very same object again (a container of class data: an equal copy).
Nothing here runs code of anyone's: slots are read through the C descriptors of the exact
built-in types, and data is compared only once it is known to be plain constants.
"""

from __future__ import annotations

import abc
import functools
import operator
import sys
import types
from typing import Any, Dict, List, Optional, Tuple

from .library_code import plain_data
from .static_reads import is_static_type, plain_keys

_MRO = type.__dict__["__mro__"].__get__
_TYPE_DICT = type.__dict__["__dict__"].__get__
_TYPE_NAME = type.__dict__["__name__"].__get__
_TYPE_QUALNAME = type.__dict__["__qualname__"].__get__
# (a function's and a cell's class cannot be reassigned, and their instance dictionaries cannot
# shadow these data descriptors: a plain attribute read is the C getter)
_CODE = operator.attrgetter("__code__")
_DEFAULTS = operator.attrgetter("__defaults__")
_KWDEFAULTS = operator.attrgetter("__kwdefaults__")
_CELL = operator.attrgetter("cell_contents")
_FUNC = operator.attrgetter("__func__")  # (on the exact staticmethod / classmethod types)
_CACHED_PROPERTY_DICT = functools.cached_property.__dict__["__dict__"].__get__
_is = operator.is_
# A walk this large is not remembered (the audit is simply made again each check).
_MAX_SLOTS = 60000
_EMPTY = object()
# Values whose own contents no audit reads (it accepts them as data or compiled code by type).
_OPAQUE = (str, int, float, bool, complex, bytes, type(None), tuple, frozenset, types.BuiltinFunctionType,
           types.MethodDescriptorType, types.WrapperDescriptorType, types.GetSetDescriptorType,
           types.MemberDescriptorType, types.ClassMethodDescriptorType, types.MethodWrapperType,
           types.ModuleType, types.CodeType, type(Ellipsis), type(NotImplemented))


class TooLarge(Exception):
    pass


class Witness:
    """Slots and the objects they held when the audit ran."""

    __slots__ = ("objects", "types", "classes", "mros", "names", "qualnames", "values", "keys",
                 "functions", "codes", "defaults", "kwdefaults", "cells", "contents", "dicts", "keys_of_dicts",
                 "values_of_dicts", "owners", "owned", "slots",
                 "globals", "data", "_seen")

    def __init__(self):
        self.objects: List[Any] = []      # type(obj) is types[i]: `__class__` not reassigned
        self.types: List[Any] = []
        self.classes: List[Any] = []      # heap classes: MRO, name, qualname, dictionary
        self.mros: List[Any] = []
        self.names: List[Any] = []
        self.qualnames: List[Any] = []
        self.keys: List[Tuple[Any, ...]] = []
        self.values: List[Tuple[Any, ...]] = []
        self.functions: List[Any] = []    # __code__, __defaults__, __kwdefaults__
        self.codes: List[Any] = []
        self.defaults: List[Any] = []
        self.kwdefaults: List[Any] = []
        self.cells: List[Any] = []        # closure cells and what they held
        self.contents: List[Any] = []
        self.dicts: List[Any] = []        # other dictionaries read (kwdefaults, a cached_property's)
        self.keys_of_dicts: List[Tuple[Any, ...]] = []
        self.values_of_dicts: List[Tuple[Any, ...]] = []
        self.owners: List[Any] = []       # a cached_property and the instance dictionary it had
        self.owned: List[Any] = []
        self.slots: List[Tuple[Any, Any, Any]] = []  # (C member getter, object, what the member held)
        self.globals: List[Tuple[Any, Any, Any, Any]] = []  # (globals, __name__, its sys.modules entry, __file__)
        self.data: List[Tuple[Any, Any]] = []  # (mutable plain container, an equal copy)
        self._seen: Dict[int, Any] = {}

    def _size(self) -> int:
        return len(self.objects) + len(self.functions) + len(self.cells) + sum(map(len, self.values))

    def holds(self) -> bool:
        """Every slot holds what it held when the witness was taken."""
        try:
            return (all(map(_is, map(type, self.objects), self.types))
                    and all(map(_is, map(_MRO, self.classes), self.mros))
                    and all(map(_is, map(_TYPE_NAME, self.classes), self.names))
                    and all(map(_is, map(_TYPE_QUALNAME, self.classes), self.qualnames))
                    and all(map(_same_mapping, map(_TYPE_DICT, self.classes), self.keys, self.values))
                    and all(map(_is, map(_CODE, self.functions), self.codes))
                    and all(map(_is, map(_DEFAULTS, self.functions), self.defaults))
                    and all(map(_is, map(_KWDEFAULTS, self.functions), self.kwdefaults))
                    and all(map(_is, map(_CELL, self.cells), self.contents))
                    and all(map(_same_mapping, self.dicts, self.keys_of_dicts, self.values_of_dicts))
                    and all(map(_is, map(_CACHED_PROPERTY_DICT, self.owners), self.owned))
                    and all(getter(obj) is held for getter, obj, held in self.slots)
                    and all(map(_same_globals, self.globals))
                    and all(map(_same_data, self.data)))
        except Exception:
            return False


def _same_mapping(d: Any, keys: Tuple[Any, ...], values: Tuple[Any, ...]) -> bool:
    return len(d) == len(keys) and all(map(_is, d, keys)) and all(map(_is, d.values(), values))


def _same_globals(entry: Tuple[Any, Any, Any, Any]) -> bool:
    g, name, module, file = entry
    if type(g) is not dict or not plain_keys(g):
        return False  # a hostile key in a library module's globals: the audit refuses it
    return (g.get("__name__", _EMPTY) is name and g.get("__file__", _EMPTY) is file
            and sys.modules.get(name) is module if type(name) is str else module is None)


def _same_data(entry: Tuple[Any, Any]) -> bool:
    live, copy = entry
    return plain_data(live) and type(live) is type(copy) and live == copy


def _copy_data(value: Any) -> Any:
    t = type(value)
    if t is list or t is tuple:
        return t(_copy_data(v) for v in value)
    if t is set or t is frozenset:
        return t(value)  # plain constants: immutable
    if t is dict:
        return {k: _copy_data(v) for k, v in value.items()}
    return value


def witness_of(cls: Any) -> Optional[Witness]:
    """A witness of everything an audit of `cls` may read, or None when it is too large to keep."""
    w = Witness()
    try:
        _class(w, cls)
    except (TooLarge, RecursionError, ValueError):
        return None
    w._seen = {}
    return w


def _once(w: Witness, obj: Any) -> bool:
    if id(obj) in w._seen:
        return False
    w._seen[id(obj)] = obj  # (held, so the identity is not reused during the walk)
    return True


def _class(w: Witness, cls: Any) -> None:
    if not _once(w, cls):
        return
    w.objects.append(cls)
    w.types.append(type(cls))
    if is_static_type(cls):
        return
    mro = _MRO(cls)
    w.classes.append(cls)
    w.mros.append(mro)
    w.names.append(_TYPE_NAME(cls))
    w.qualnames.append(_TYPE_QUALNAME(cls))
    d = _TYPE_DICT(cls)
    if not plain_keys(d):
        raise TooLarge()  # (the audit refuses such a class; nothing to remember)
    keys, values = tuple(d), tuple(d.values())
    w.keys.append(keys)
    w.values.append(values)
    if w._size() > _MAX_SLOTS:
        raise TooLarge()
    _class(w, type(cls))  # a metaclass other than type / ABCMeta is audited too
    for klass in mro:
        if klass is not cls:
            _class(w, klass)
    for v in values:
        _value(w, v)


def _value(w: Witness, v: Any) -> None:
    t = type(v)
    for k in _OPAQUE:
        if t is k and (t is not tuple or _flat(v)):
            return
    if t is list or t is dict or t is set or (t is tuple and not _flat(v)):
        if plain_data(v) and _once(w, v):
            w.data.append((v, _copy_data(v)))
        return
    if not _once(w, v):
        return
    w.objects.append(v)
    w.types.append(t)
    if t is type or t is abc.ABCMeta:
        return  # a class as an attribute: the audit judges it where it is used, not here
    if t is types.FunctionType:
        _function(w, v)
        return
    if t is staticmethod or t is classmethod:
        func = v.__func__
        w.slots.append((_FUNC, v, func))
        _value(w, func)
    elif t is property:
        _value(w, v.fget)
        _value(w, v.fset)
        _value(w, v.fdel)
    elif t is functools.cached_property:
        d = _CACHED_PROPERTY_DICT(v)
        w.owners.append(v)
        w.owned.append(d)
        _dict(w, d)
        for x in d.values():
            _value(w, x)
    # Anything else: its class and what the class holds (pandas' CachedProperty holds its function
    # in a C slot, read through the class's member descriptor).
    fget = _member(t, "fget")
    if fget is not None:
        try:
            held = fget(v)
        except Exception:
            raise TooLarge()  # (an unset slot: not remembered)
        w.slots.append((fget, v, held))
        _value(w, held)
    _class(w, t)


def _flat(t: tuple) -> bool:
    """A tuple of constants only (nothing in it can change)."""
    for v in t:
        k = type(v)
        if not (k is str or k is int or k is float or k is bool or k is type(None) or k is bytes or k is complex):
            return False
    return True


def _member(t: type, name: str) -> Any:
    for klass in _MRO(t):
        d = _TYPE_DICT(klass)
        if name in d:
            m = d[name]
            return m.__get__ if type(m) is types.MemberDescriptorType else None
    return None


def _function(w: Witness, fn: types.FunctionType) -> None:
    code, defaults, kwdefaults = _CODE(fn), _DEFAULTS(fn), _KWDEFAULTS(fn)
    w.functions.append(fn)
    w.codes.append(code)
    w.defaults.append(defaults)
    w.kwdefaults.append(kwdefaults)
    if type(kwdefaults) is dict:
        _dict(w, kwdefaults)
    g = fn.__globals__
    if _once(w, g):
        name = g.get("__name__") if type(g) is dict and plain_keys(g) else None
        w.globals.append((g, name, sys.modules.get(name) if type(name) is str else None,
                          g.get("__file__", _EMPTY) if type(name) is str else None))
    for cell in fn.__closure__ or ():
        try:
            content = _CELL(cell)
        except ValueError:
            raise TooLarge()  # an empty cell (it may be filled later): not remembered
        w.cells.append(cell)
        w.contents.append(content)
        _value(w, content)


def _dict(w: Witness, d: dict) -> None:
    w.dicts.append(d)
    w.keys_of_dicts.append(tuple(d))
    w.values_of_dicts.append(tuple(d.values()))


__all__ = ["Witness", "witness_of"]
