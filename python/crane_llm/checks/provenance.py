"""Whether an object is what it claims to be: the real builtin, the library's own function, a class
nobody patched, a class whose attribute lookups run no user code.

A rule models a library behaviour only when the code the cell would reach is the library's own.
A function is the library's own when its code was compiled from a file inside the library's
installed package (a user's lambda, or a `functools.wraps` wrapper, carries the user's file); a
class is unpatched when every function, property and method its library classes hold is the
library's own. Everything here reads type dictionaries directly: no attribute lookup a user's
class or metaclass could intercept.
"""

from __future__ import annotations

import abc
import contextlib
import builtins as _builtins
import functools
import inspect
import os
import sys
import threading
import types
from typing import Any, Dict, Optional, Tuple

from .library_code import class_body_stores, enclosing_code, genuine
from .static_reads import (class_dict, class_module, class_name, class_qualname, instance_dict, is_static_type,
                           lookup_static, mro, plain_class)

_IO = sys.modules.get("_io")
_BUILTIN_SELF = types.BuiltinFunctionType.__dict__["__self__"]
_BUILTIN_NAME = types.BuiltinFunctionType.__dict__["__name__"]
_ABC_DATA = type(abc.ABC.__dict__.get("_abc_impl"))
_C_CALLABLES = (types.BuiltinFunctionType, types.MethodDescriptorType, types.WrapperDescriptorType,
                types.GetSetDescriptorType, types.MemberDescriptorType, types.ClassMethodDescriptorType,
                types.MethodWrapperType)
_COMPILED_FUNCTIONS = ("cython_function_or_method", "fused_cython_function")
_CONTEXTMANAGER_CODE = contextlib.contextmanager(lambda: iter(())).__code__
_RLOCK = type(threading.RLock())
_DATA = (str, int, float, bool, complex, bytes, type(None), tuple, frozenset, dict, set, list)


def is_subclass(cls: Any, base: type) -> bool:
    """`base` is in `cls`'s MRO as the type's slot holds it, compared by identity (`in` would call a
    metaclass's `__eq__`). A metaclass's custom `mro()` shapes that slot, which is why a class
    passing this is still audited (`plain_class`, `Audit.pristine`) before anything is modelled."""
    for klass in mro(cls):
        if klass is base:
            return True
    return False


def real_builtin_name(obj: Any) -> str:
    """The builtin `obj` genuinely is ('len', 'int', ...), or '' for anything else, whatever name it
    is stored under or calls itself."""
    t = type(obj)
    if t is types.BuiltinFunctionType:
        try:
            owner = _BUILTIN_SELF.__get__(obj)
            if owner is _builtins or owner is _IO:  # (`open` is io's)
                return _BUILTIN_NAME.__get__(obj)
        except Exception:
            return ""
        return ""
    if (t is type or t is abc.ABCMeta) and is_static_type(obj) and class_module(obj) == "builtins":
        name = class_name(obj)
        return name if _builtins.__dict__.get(name) is obj or name in _ORIGINAL_BUILTIN_TYPES else ""
    return ""


# Builtin types by identity, from before any notebook could replace a builtin name.
_ORIGINAL_BUILTIN_TYPES = {class_name(v): v for v in _builtins.__dict__.values()
                           if type(v) is type and is_static_type(v) and class_module(v) == "builtins"}


# The builtins as they were when the checker was imported (at kernel start), and whether each was
# genuine then (a builtin replaced before the import makes every check stop).
_SNAPSHOT = dict(_builtins.__dict__)
_SNAPSHOT_GENUINE = all(real_builtin_name(v) == k for k, v in _SNAPSHOT.items()
                        if type(v) is types.BuiltinFunctionType or (type(v) is type and is_static_type(v)
                                                                    and k in _ORIGINAL_BUILTIN_TYPES))


def builtins_untouched() -> bool:
    """No builtin was replaced or removed since the checker was imported. Library code the
    checker consults (pandas, scikit-learn, IPython's transformer) calls builtins by name: with a
    replaced one, it would run the notebook's code."""
    if not _SNAPSHOT_GENUINE:
        return False
    current = _builtins.__dict__
    for k, v in _SNAPSHOT.items():
        if k in _VOLATILE_BUILTINS:
            continue
        now = current.get(k, _ABSENT)
        if now is not v and not (k == "input" and _kernel_input(now)):
            return False
    return True


def _kernel_input(value: Any) -> bool:
    """The real `input`, or ipykernel's, which it puts in builtins while it serves a request that
    allows stdin (a new bound method each time) and takes out again for one that does not (a
    silent check): either way it only reads a line, and the checker never models `input`."""
    if real_builtin_name(value) == "input":
        return True
    if type(value) is not types.MethodType:
        return False
    func = value.__func__
    return type(func) is types.FunctionType and type(func.__module__) is str and func.__module__.startswith("ipykernel.")


_ABSENT = object()
# IPython sets these while it runs a cell (the display hook's `_`, its builtin trap's helpers).
_VOLATILE_BUILTINS = {"_", "__", "___", "exit", "quit", "get_ipython", "display", "__IPYTHON__", "dreload",
                      "copyright", "credits", "license", "help", "__debug__", "__doc__", "__spec__", "__loader__",
                      "__package__", "__name__"}


# ---- library provenance ------------------------------------------------------------------------

_ROOTS: Dict[str, Optional[str]] = {}
_FILE_OWNER: Dict[Tuple[str, str], bool] = {}


def _root(package: str) -> Optional[str]:
    """The installed directory of a loaded top-level package (never imports one)."""
    if package not in _ROOTS:
        mod = sys.modules.get(package)
        path = mod.__dict__.get("__file__") if type(mod) is types.ModuleType else None
        _ROOTS[package] = os.path.dirname(os.path.realpath(path)) + os.sep if type(path) is str else None
    return _ROOTS[package]


def _file_in(filename: Any, package: str) -> bool:
    if type(filename) is not str:
        return False
    key = (filename, package)
    found = _FILE_OWNER.get(key)
    if found is None:
        root = _root(package)
        found = root is not None and os.path.realpath(filename).startswith(root)
        _FILE_OWNER[key] = found
    return found


# How far the audit follows values held by classes (an instance a class holds, its class's methods,
# their decorators' closures): matplotlib 3.9's Axes holds a Grouper whose deprecated method is a
# wrapper, five steps down. Deeper than this, the answer is "not known to be the library's own".
_MAX_DEPTH = 7


def own(value: Any, package: str, depth: int = 0) -> bool:
    """Whether `value`, found in a class or module of `package`, is that library's own code."""
    if depth > _MAX_DEPTH:
        return False
    t = type(value)
    if t is types.FunctionType:
        if _file_in(value.__code__.co_filename, package):
            return genuine(value) and _closure_own(value, package, depth)
        # `@contextlib.contextmanager` on a library method: the standard library's wrapper around it,
        # which calls what its closure cell holds (not `__wrapped__`, which anyone may reassign).
        return (value.__code__ is _CONTEXTMANAGER_CODE and value.__globals__ is contextlib.__dict__
                and value.__defaults__ is None and value.__kwdefaults__ is None
                and _closure_own(value, package, depth))
    if t is _RLOCK:
        return True  # a lock a class holds (matplotlib's Figure): its methods are C
    if t is staticmethod or t is classmethod:
        return own(value.__func__, package, depth + 1)
    if t is property:
        return all(f is None or own(f, package, depth + 1) for f in (value.fget, value.fset, value.fdel))
    if t is functools.cached_property:
        func = _INSTANCE_DICT.__get__(value).get("func") if _plain_cached_property() else None
        return func is not None and own(func, package, depth + 1)
    if _is(t, _DATA) or _is(t, _C_CALLABLES) or class_name(t) in _COMPILED_FUNCTIONS:
        return True  # data, or compiled code (which a notebook cannot write)
    if class_name(t) == "CachedProperty" and class_module(t) == "pandas._libs.properties":
        # pandas' cache_readonly: compiled, but it calls the Python function it wraps.
        fget = lookup_static(t, "fget")
        if type(fget) is not types.MemberDescriptorType and type(fget) is not types.GetSetDescriptorType:
            return False
        return own(fget.__get__(value), package, depth + 1)
    if t is types.ModuleType or t is _ABC_DATA:
        return True
    if t is type or t is abc.ABCMeta:
        return True  # a class as an attribute: what it does is judged where it is used
    return own_type(t, package, depth + 1)


def _is(t: Any, types_: Tuple[type, ...]) -> bool:
    """`t` is one of `types_` by identity (`in` would call a metaclass's `__eq__`)."""
    for k in types_:
        if t is k:
            return True
    return False


_INSTANCE_DICT = functools.cached_property.__dict__["__dict__"]


def _plain_cached_property() -> bool:
    """functools.cached_property's own class as the standard library defines it (its instance
    dictionary read directly, so that a property put on the class cannot intercept `.func`)."""
    return own_type(functools.cached_property, "functools")


def _closure_own(fn: types.FunctionType, package: str, depth: int) -> bool:
    """What a library function's closure cells hold now is the library's own (a cell's contents
    can be replaced from outside: `fn.__closure__[0].cell_contents = ...`)."""
    cells = fn.__closure__
    if cells is None:
        return True
    for cell in cells:
        try:
            v = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if v is fn:
            continue  # a wrapper that refers to itself (torch's binary operators)
        if not own(v, package, depth + 1) and not _standard_library_value(v):
            return False
    return True


# Standard-library values decorators keep in their closures that hold no code of anyone's
# (a function, a `functools.partial`, a bound method would: those are judged by `own`).
_INERT_STDLIB_VALUES = {("inspect", "Signature"), ("inspect", "Parameter"), ("operator", "attrgetter"),
                        ("operator", "itemgetter")}


def _standard_library_value(v: Any) -> bool:
    """An instance of an unpatched standard-library class that holds data only (matplotlib keeps an
    `inspect.Signature` and an `operator.attrgetter` in its wrappers' closures)."""
    t = type(v)
    if not plain_class(t):
        return False
    mod = class_module(t)
    return (mod, class_name(t)) in _INERT_STDLIB_VALUES and own_type(t, mod)


def _defined_as(klass: Any, key: str, value: Any) -> bool:
    """A function in a library class's dictionary sits under the name its code was defined with, in
    that class's body, or is an alias the same body made (`__radd__ = __add__`): never another
    method or another class's method moved there (`pd.DataFrame.drop = pd.DataFrame.head`)."""
    if type(value) is staticmethod or type(value) is classmethod:
        value = value.__func__
    if type(value) is not types.FunctionType:
        return True
    if value.__closure__ is not None:
        return True  # a decorator's wrapper: its wrapped function is judged through the closure
    code = value.__code__
    qualname = getattr(code, "co_qualname", None)  # Python 3.11+: where the def stood
    if qualname is None:
        # Before 3.11 the code does not say where its def stood: the library file's code tree does.
        where = enclosing_code(value)
        if where is None:
            return False
        if where.co_flags & inspect.CO_OPTIMIZED:
            return True  # made inside a library function at import, as `<locals>` says on 3.11+
        if where.co_name == class_qualname(klass).rsplit(".", 1)[-1] and code.co_name == key:
            return True  # its own def in this class's body
        return class_body_stores(list(class_dict(klass).values()), class_qualname(klass), key) is True
    if qualname == class_qualname(klass) + "." + key or "<locals>" in qualname:
        return True  # its own def, or made by library code at import (matplotlib's generated `set`)
    # Taken in by the class body (`rename = Index.set_names`, `table = mtable.table`): the body, as
    # the library's file compiles it, assigns that name and defines no method of that name.
    return class_body_stores(list(class_dict(klass).values()), class_qualname(klass), key) is True


# pandas classes propagate the attributes `_metadata` names from operand to result (`__finalize__`):
# naming an internal one (`_mgr`) there makes an operation return another frame's data.
_PANDAS_METADATA = {"_name"}


def _metadata_own(klass: Any) -> bool:
    meta = class_dict(klass).get("_metadata", _ABSENT)
    if meta is _ABSENT:
        return True
    if type(meta) is not list and type(meta) is not tuple:
        return False
    return all(type(m) is str and m in _PANDAS_METADATA for m in meta)


def own_type(cls: Any, package: str, depth: int = 0) -> bool:
    """A class of `package` (or C) whose every function, property and method is the library's own."""
    if not plain_class(cls):
        return False
    for klass in mro(cls):
        if klass is object or is_static_type(klass):
            continue
        mod = class_module(klass)
        top = mod.split(".", 1)[0]
        if top != package and top not in _TRUSTED_BASES:
            return False
        pkg = top if top != package else package
        if pkg == "pandas" and not _metadata_own(klass):
            return False
        for k, v in class_dict(klass).items():
            if type(k) is not str or not own(v, pkg, depth + 1) or not _defined_as(klass, k, v):
                return False
    return True


# Standard-library modules library classes inherit from (their own functions live there).
_TRUSTED_BASES = {"abc", "typing", "collections", "_collections_abc", "enum", "numbers", "functools", "contextlib",
                  "io"}


class Audit:
    """One check's memo of class audits (a class may be patched between two checks, never during one)."""

    def __init__(self):
        self.classes: Dict[int, Tuple[Any, bool]] = {}
        # id(live object) -> (object, facts): what a live object shows cannot change during a check.
        self.facts: Dict[Tuple[str, int], Tuple[Any, Any]] = {}

    def pristine(self, cls: Any, package: str) -> bool:
        hit = self.classes.get(id(cls))
        if hit is not None and hit[0] is cls:
            return hit[1]
        ok = own_type(cls, package)
        self.classes[id(cls)] = (cls, ok)
        return ok


_current = [Audit()]


def audit() -> Audit:
    return _current[0]


def new_audit() -> None:
    """Start a check: classes are audited afresh."""
    _current[0] = Audit()


def own_module_function(module_name: str, name: str, fn: Any, package: str) -> bool:
    """`fn` is what `module_name.name` holds and is the library's own code (for NumPy's C-level
    dispatchers: their Python implementation is)."""
    mod = sys.modules.get(module_name)
    if type(mod) is not types.ModuleType or mod.__dict__.get(name) is not fn:
        return False
    t = type(fn)
    if t is types.FunctionType:
        return own(fn, package)
    if t is types.BuiltinFunctionType or (is_static_type(t) and class_module(t).split(".", 1)[0] == package):
        impl = lookup_static(t, "_implementation", None)
        if impl is not None:
            try:
                inner = getattr(fn, "_implementation")  # a C getter on a C type
            except Exception:
                return False
            return type(inner) is not types.FunctionType or own(inner, package)
        return True
    return False


__all__ = ["plain_class", "mro", "class_dict", "class_name", "class_module", "is_static_type", "lookup_static",
           "is_subclass", "real_builtin_name", "own", "own_type", "Audit", "audit", "new_audit",
           "own_module_function", "instance_dict"]
