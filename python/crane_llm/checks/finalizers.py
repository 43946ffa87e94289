"""Whether dropping a reference may run code: `del o` or `o = None` frees the old object when that
was its last reference, and freeing runs its class's `__del__` and the callbacks of its weak
references (`weakref.finalize`), which may define names, patch libraries, anything. After such a
statement the checker knows nothing more about the namespace.

Read without running anything of the object: exact types, type dictionaries through `type`'s own
slots, and the weak references CPython lists. What cannot be read in a bounded number of steps is
answered "may run code".
"""

from __future__ import annotations

import gc
import re
import types
import weakref
from typing import Any, Dict, List, Optional, Set

from .threads import library_file
from .static_reads import loaded_module, class_dict, class_module, instance_dict, is_static_type, mro

# Objects looked at per question (the elements of containers and object arrays included).
_MAX_VISITS = 2000

_ATOMS = (int, float, complex, str, bytes, bool, type(None), range, slice, types.ModuleType,
          types.FunctionType, types.BuiltinFunctionType, type(Ellipsis))
_CONTAINERS = (list, tuple, set, frozenset)
_WEAKREF_FILE = weakref.__file__


def _is_one_of(t: type, kinds: tuple) -> bool:
    for k in kinds:
        if t is k:
            return True
    return False


def _class_finalizes(t: type) -> bool:
    """Its class (or a class it inherits from) defines `__del__` in Python, or is a C type whose
    `__del__` may call methods a subclass replaced (`io.IOBase.__del__` calls `close`)."""
    classes = mro(t)
    if not classes:
        return True
    heap = not is_static_type(t)
    for klass in classes:
        if "__del__" in class_dict(klass) and (heap or not is_static_type(klass)):
            return True
    return False


def _callback_harmless(ref: Any) -> bool:
    """A plain weak reference with no callback, or the standard library's own bookkeeping callback
    (a WeakValueDictionary drops its entry)."""
    t = type(ref)
    if t is not weakref.ref and t is not weakref.KeyedRef:
        return False
    cb = weakref.ref.__dict__["__callback__"].__get__(ref)
    if cb is None:
        return True
    return type(cb) is types.FunctionType and cb.__code__.co_filename == _WEAKREF_FILE


def _weak_callbacks(obj: Any) -> bool:
    try:
        refs = weakref.getweakrefs(obj)
    except Exception:
        return True
    return not all(_callback_harmless(r) for r in refs)


def may_run_code_when_freed(obj: Any) -> bool:
    """True unless `obj`, and everything it holds that a bounded look can reach, is known to be
    freed without running any code of the notebook's."""
    todo: List[Any] = [obj]
    seen = set()
    visits = 0
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        visits += 1
        if visits > _MAX_VISITS:
            return True
        t = type(o)
        if _is_one_of(t, _ATOMS):
            if t is types.FunctionType and _weak_callbacks(o):
                return True
            continue
        if t is type:  # a class outlives its name (its methods refer back to it): freed later, if ever
            continue
        if _is_one_of(t, _CONTAINERS):
            todo.extend(o)
            continue
        if t is dict:
            for k, v in list(o.items()):
                todo.append(k)
                todo.append(v)
            continue
        if _class_finalizes(t) or _weak_callbacks(o):
            return True
        if not is_static_type(t) and class_module(t) == "__main__":
            if not _instance_known(o, t, todo):
                return True
        elif not _library_value_known(o, t, todo):
            return True
    return False


def _instance_known(o: Any, t: type, todo: List[Any]) -> bool:
    """An instance of a notebook's class with no `__del__`: what its `__dict__` holds is queued;
    slots are not read."""
    for klass in mro(t):
        if class_dict(klass).get("__slots__"):
            return False
    d = instance_dict(o, None)
    if d is None:
        return True
    if type(d) is not dict:
        return False
    todo.extend(d.values())
    return True


def _library_value_known(o: Any, t: type, todo: List[Any]) -> bool:
    """NumPy arrays and pandas frames, series and indexes of exactly the library's class: what they
    hold is queued (the elements of object arrays, object labels, `attrs`, a series' name);
    anything else is not known."""
    np = loaded_module("numpy")
    if np is not None and t is np.ndarray:
        return _array_known(o, todo)
    pd = loaded_module("pandas")
    if pd is None:
        return False
    d = instance_dict(o, {})
    if (t is not pd.Index and t is not pd.MultiIndex and (class_module(t) + ".").startswith("pandas.")
            and pd.Index in mro(t)):
        # RangeIndex, DatetimeIndex, ...: numbers and dates, and a name
        todo.append(d.get("_name"))
        return _plain_dtype(o.dtype, pd, np)
    if not (t is pd.DataFrame or t is pd.Series or t is pd.Index):
        return False
    if t is pd.Index:
        values = d.get("_data")
        todo.append(d.get("_name"))
        if _plain_dtype(o.dtype, pd, np):
            return True
        return np is not None and type(values) is np.ndarray and _array_known(values, todo)
    mgr = d.get("_mgr")
    attrs = d.get("_attrs")
    if attrs is not None:
        todo.append(attrs)
    if t is pd.Series:
        todo.append(d.get("_name"))
    if mgr is None:
        return False
    for axis in mgr.axes:
        todo.append(axis)
    if all(_plain_dtype(dtype, pd, np) for dtype in mgr.get_dtypes()):
        return True
    # pandas 2 keeps text in object columns: their values are looked at as an object array's are
    for values in mgr.arrays:
        if type(values) is not np.ndarray:
            if not _plain_dtype(values.dtype, pd, np):
                return False
        elif not _array_known(values, todo):
            return False
    return True


def _plain_dtype(dtype: Any, pd: Any, np: Any) -> bool:
    """A column of this dtype holds numbers, dates or strings only."""
    if np is not None and issubclass(type(dtype), np.dtype):
        return not dtype.hasobject
    return type(dtype) is pd.StringDtype


def _array_known(a: Any, todo: List[Any]) -> bool:
    if not a.dtype.hasobject:
        return True
    if a.size > _MAX_VISITS:
        return False
    todo.extend(a.ravel(order="K").tolist() if a.ndim else [a.item()])
    return True


# What IPython rebinds before a cell's first line: its input history names (`store_inputs` pushes
# `_i`, `_ii`, `_iii` and `_i<N>`), and after a shell escape, `_exit_code`.
_REBOUND_BY_THE_SHELL = re.compile(r"_i{1,3}|_i\d+|_exit_code")


def shell_rebinding_frees_code(namespace: Dict[str, Any]) -> bool:
    """A value IPython drops when it runs the cell may run code as it is freed (`_iii = Noisy()`).
    `namespace` is a plain dict with plain text keys (the caller checked)."""
    for name, value in list(namespace.items()):
        if type(value) is not str and _REBOUND_BY_THE_SHELL.fullmatch(name) and may_run_code_when_freed(value):
            return True
    return False


__all__ = ["may_run_code_when_freed", "shell_rebinding_frees_code"]


# The notebook's classes that run code when their instances are freed, found over every class
# alive: a cycle of such instances that is already garbage is collected, and its finalizers run,
# at whatever allocation of the cell's starts a collection.
_TYPE_DICT = type.__dict__["__dict__"].__get__
_SUBCLASSES = type.__dict__["__subclasses__"]
_MAX_CLASSES = 200_000


def notebook_finalizer_exists() -> bool:
    """A class whose own code is the notebook's finalizes its instances (its `__del__`, or a C
    finalizer calling a method it overrides), or `weakref.finalize` holds a callback of the
    notebook's; True too when the classes cannot all be looked at."""
    registry = weakref.finalize.__dict__.get("_registry")
    info_type = weakref.finalize.__dict__.get("_Info")
    slot = class_dict(info_type).get("func") if type(info_type) is type else None
    if type(registry) is not dict or type(slot) is not types.MemberDescriptorType:
        return True
    for info in list(registry.values()):
        if type(info) is not info_type:
            return True
        func = slot.__get__(info)
        if type(func) is types.MethodType:
            func = func.__func__
        if not (type(func) is types.FunctionType and library_file(func.__code__.co_filename)) and \
                type(func) is not types.BuiltinFunctionType:
            return True
    finalizing = _notebook_finalizing_classes()
    if finalizing is None:
        return True
    if not finalizing:
        return False
    # (a class alone runs nothing: only its objects do, and any of them may already be garbage. An
    # object of a class statement's class refers to its class, which finds them in one pass in C;
    # one the collector does not track holds no reference, so is never in a cycle.)
    return any(type(o) in finalizing for o in gc.get_referrers(*finalizing))


def _notebook_finalizing_classes() -> Optional[Set[type]]:
    """Every class alive whose own code is the notebook's and that finalizes its objects; None
    when there are too many classes to look at."""
    found: Set[type] = set()
    seen = set()
    todo = [object]
    while todo:
        cls = todo.pop()
        try:
            subclasses = _SUBCLASSES(cls)
        except TypeError:  # (`type` itself wants an argument)
            subclasses = _SUBCLASSES(cls, cls) if cls is type else []
        for sub in subclasses:
            if id(sub) in seen:
                continue
            seen.add(id(sub))
            if len(seen) > _MAX_CLASSES:
                return None
            todo.append(sub)
            for value in _TYPE_DICT(sub).values():
                if type(value) is types.FunctionType and not library_file(value.__code__.co_filename):
                    if _class_finalizes(sub):
                        found.add(sub)
                    break
    return found
