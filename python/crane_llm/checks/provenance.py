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
import operator
import os
import threading
import types
from typing import Any, Dict, List, Optional, Tuple

from .audit_witness import Witness, witness_of
from .library_code import class_body_data, class_body_stores, class_generated_names, enclosing_code, genuine, plain_data, reference_code
from .static_reads import (loaded_module, checked, new_epoch, plain_keys, class_dict, class_module, class_name, class_qualname, instance_dict, is_static_type,
                           lookup_static, mro, plain_class)

_IO = loaded_module("_io")
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


# While a check runs on the interpreter's own builtins (kernel/own_builtins.py), the builtins as the
# notebook left them: its cells will run with those, so the checker judges by them.
NOTEBOOK_BUILTINS: List[Dict[str, Any]] = []


def notebook_builtins() -> Dict[str, Any]:
    """The builtins module's dictionary as the notebook's cells see it."""
    return NOTEBOOK_BUILTINS[-1] if NOTEBOOK_BUILTINS else _builtins.__dict__


def genuine_builtin(name: str, value: Any) -> bool:
    """`value` is what the interpreter itself keeps under the builtin `name` (a function or type, or
    one of its constants)."""
    return real_builtin_name(value) == name or value is None or type(value) is bool or value is Ellipsis \
        or value is NotImplemented


def genuine_builtins() -> Dict[str, Any]:
    """The builtins that were the interpreter's own when the checker was imported (the volatile
    ones IPython and ipykernel set and take out themselves left out): what a check runs on."""
    return {k: v for k, v in _SNAPSHOT.items()
            if k not in _VOLATILE_BUILTINS and k != "input" and genuine_builtin(k, v)}


def builtins_untouched() -> bool:
    """No builtin was replaced or removed since the checker was imported. Library code the
    checker consults (pandas, scikit-learn, IPython's transformer) calls builtins by name: with a
    replaced one, the cell's own calls into it would run the notebook's code."""
    if not _SNAPSHOT_GENUINE:
        return False
    current = notebook_builtins()
    if not plain_keys(current):
        return False  # looking a name up in it could call a key's `__eq__`
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
        mod = loaded_module(package)
        path = checked(mod.__dict__).get("__file__") if type(mod) is types.ModuleType else None
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


def _defining_class(cls: Any, fn: types.FunctionType, package: str) -> bool:
    """`cls` is a class of `package` that holds `fn` itself under its name."""
    # (a class whatever its metaclass, traitlets' too: only its own dictionary is read)
    return any(k is type for k in mro(type(cls))) and class_module(cls).split(".", 1)[0] == package and \
        class_dict(cls).get(fn.__name__) is fn


def _closure_own(fn: types.FunctionType, package: str, depth: int) -> bool:
    """What a library function's closure cells hold now is the library's own (a cell's contents
    can be replaced from outside: `fn.__closure__[0].cell_contents = ...`)."""
    cells = fn.__closure__
    if cells is None:
        return True
    freevars = fn.__code__.co_freevars
    for i, cell in enumerate(cells):
        try:
            v = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if v is fn:
            continue  # a wrapper that refers to itself (torch's binary operators)
        if i < len(freevars) and freevars[i] == "__class__" and _defining_class(v, fn, package):
            continue  # the class a method using `super()` is defined in
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


def _defined_as(klass: Any, key: str, value: Any, package: str, depth: int = 0) -> bool:
    """A function in a library class's dictionary sits under the name its code was defined with, in
    that class's body, or is an alias the same body made (`__radd__ = __add__`), or is a
    decorator's wrapper around such a function: never another method or another class's method
    moved there (`pd.DataFrame.drop = pd.DataFrame.head`, `pd.DataFrame.drop = pd.DataFrame.rename`,
    a method whose code was given another `co_qualname`). Where a def stood is read from the library
    file's code tree, never from the live code object or function."""
    if type(value) is staticmethod or type(value) is classmethod:
        value = value.__func__
    if type(value) is not types.FunctionType:
        return package not in _NAMES_HELD or compiled_in_place(klass, key, value)
    if depth > _MAX_DEPTH:
        return False
    code = value.__code__
    ref = reference_code(value)
    if ref is None:
        # Not the library's code: the standard library's contextmanager wrapper (`own` accepted
        # nothing else); what sits here is what it wraps.
        return code is _CONTEXTMANAGER_CODE and _wraps_defined_as(klass, key, value, package, depth)
    where = enclosing_code(value)
    if where is None:
        return False
    if where.co_flags & inspect.CO_OPTIMIZED:
        # Made inside a library function at import: a decorator's wrapper, judged by the method it
        # wraps; or a generated method with nothing wrapped (matplotlib's `set` lambda), which must
        # carry this very name (or be a lambda, which no one can pick by name).
        # A factory given what to make (pandas' `make_invalid_op("__add__")`) keeps it in a cell.
        made_by = _factory_made(klass, key, value, ref, where) if package == "matplotlib" else None
        if made_by is not None:
            return made_by
        if _function_cells(value):
            return _wraps_defined_as(klass, key, value, package, depth)
        if ref.co_name == key or ref.co_name == "<lambda>" or _holds_name(value, key):
            return True
        # matplotlib generates methods that call another by name (`get_fc` calling `get_facecolor`,
        # its axis wrappers): one sits here only if the class's source makes it under this name.
        return package == "matplotlib" and _generated_here(klass, key, value, ref, where)
    own_qualname = class_qualname(klass)
    simple = own_qualname.rsplit(".", 1)[-1]
    ref_qualname = getattr(ref, "co_qualname", None)
    if _mangled(ref.co_name, simple) == key and where.co_name == simple \
            and (ref_qualname is None or ref_qualname == own_qualname + "." + ref.co_name):
        return True  # its own def in this class's body
    # Taken in by the class body (`rename = Index.set_names`, `table = mtable.table`): the body, as
    # the library's file compiles it, assigns that name from a name of that function.
    return class_body_stores(list(class_dict(klass).values()), own_qualname, key, ref.co_name) is True


_ATTRGETTER_REDUCE = operator.attrgetter.__reduce__
# The libraries whose classes' builtins and compiled functions are held to their names (surveyed:
# pandas', scikit-learn's, matplotlib's and PyTorch's classes hold none under another, but for the
# aliases below).
_NAMES_HELD = ("pandas", "sklearn", "matplotlib", "torch")
# A builtin function the libraries' classes hold under another name: Python's `enum` keeps `__new__` so.
_BUILTIN_ALIASES = {("_new_member_", "__new__"), ("__torch_dispatch__", "_disabled_torch_dispatch_impl"),
                    ("__torch_function__", "_disabled_torch_function_impl")}  # (and torch its opt-outs)


_C_DESCRIPTORS = (types.MethodDescriptorType, types.WrapperDescriptorType, types.ClassMethodDescriptorType,
                  types.GetSetDescriptorType, types.MemberDescriptorType)
# C methods the libraries' classes hold under another name, or take over from a base on purpose: an
# enum's `_value_repr_` (int's `__repr__`), torch's operator aliases, pandas' `weekofyear`, SciPy's
# result object, which is a dict read by attribute.
_DESCRIPTOR_ALIASES = {("_value_repr_", "__repr__"), ("__itruediv__", "__idiv__"), ("__pos__", "positive"),
                       ("__neg__", "neg"), ("__abs__", "abs"), ("__setattr__", "__setitem__"), ("__delattr__", "__delitem__"),
                       ("weekofyear", "week"), ("daysinmonth", "days_in_month"), ("days_in_month", "daysinmonth"),
                       ("dayofweek", "day_of_week"), ("day_of_week", "dayofweek"), ("dayofyear", "day_of_year"),
                       ("day_of_year", "dayofyear")}


def _descriptor_in_place(klass: Any, key: str, value: Any) -> bool:
    """A C method, slot wrapper or field descriptor in a class's dictionary is the class's own, or a
    base's under its own name (or a known alias): `pd.DataFrame.__getitem__ = object.__eq__` made
    `df['zz']` run clean, `= dict.get` raise TypeError. `object`'s own are never taken over on
    purpose (`pd.DataFrame.__eq__ = object.__eq__` would compare by identity)."""
    getters = checked(type(value).__dict__)
    name_of, owner_of = getters.get("__name__"), getters.get("__objclass__")
    try:
        name, owner = name_of.__get__(value), owner_of.__get__(value)
    except Exception:
        return False
    if owner is klass:
        return True
    if owner is object or type(name) is not str or not is_subclass(klass, owner):
        return False
    return name == key or (key, name) in _DESCRIPTOR_ALIASES


def compiled_in_place(klass: Any, key: str, value: Any) -> bool:
    """A compiled function or a builtin in a library class's dictionary is the one the class's own
    source made for that name: a compiled function compiled under it, or in the file the class's
    other compiled methods come from (NaTType's are made by a factory there), a builtin under it.
    Anything else was moved there (`pd.Index.get_loc = len`, `ObjectEngine.get_loc = lib.is_scalar`:
    `df['zz']` then raised no KeyError). Names are read from C slots and the code's own descriptor."""
    t = type(value)
    if t is types.BuiltinFunctionType:
        return _true_name(value) == key or (key, _true_name(value)) in _BUILTIN_ALIASES
    if _is(t, _C_DESCRIPTORS):
        return _descriptor_in_place(klass, key, value)
    if class_name(t) not in _COMPILED_FUNCTIONS:
        return True  # (data: judged by `own`)
    code = compiled_code(value)
    if code is None:
        return False
    if key in code.co_name:
        return True
    homes = set()
    for name, other in class_dict(klass).items():
        other_code = compiled_code(other) if class_name(type(other)) in _COMPILED_FUNCTIONS else None
        if type(name) is str and other_code is not None and name in other_code.co_name:
            homes.add(other_code.co_filename)
    source = code.co_filename.replace("\\", "/").rsplit(".", 1)[0].replace("/", ".")
    return code.co_filename in homes or source == class_module(klass)


def compiled_code(fn: Any) -> Optional[types.CodeType]:
    """A compiled function's code, read through its type's own descriptor (which refuses any other
    object and cannot be written)."""
    t = type(fn)
    descriptor = lookup_static(t, "__code__", None)
    if type(descriptor) is not types.GetSetDescriptorType:
        return None
    try:
        code = descriptor.__get__(fn, t)
    except Exception:
        return None
    return code if type(code) is types.CodeType else None


def _generated_names(klass: Any) -> Any:
    return class_generated_names(list(class_dict(klass).values()), class_qualname(klass))


def _factory_made(klass: Any, key: str, fn: types.FunctionType, ref: types.CodeType, where: types.CodeType) -> Any:
    """None when the class's body does not assign `key` from a factory of strings; else whether
    `fn` is what that factory made for it: `get_view_interval, set_view_interval =
    _make_getset_interval("view", "viewLim", "intervalx")` (the def at the target's place among the
    factory's defs, its strings among the call's, a sibling it calls, the setter's getter, made by
    the same call)."""
    made = _generated_names(klass)
    made_by = made[2].get(key) if made is not None else None
    if made_by is None:
        return None
    factory, place, strings = made_by
    held = _cell_values(fn)
    defs = [c for c in where.co_consts if type(c) is types.CodeType]
    texts = [v for v in held if type(v) is str]
    siblings = [v for v in held if type(v) is not str]
    return where.co_name == factory and all(v in strings for v in texts) and \
        (place is None or (place < len(defs) and (defs[place] is ref or defs[place] == ref))) and \
        all(type(f) is types.FunctionType and any(f.__code__ == d for d in defs) and
            [c for c in _cell_values(f) if type(c) is str] == texts for f in siblings)


def _generated_here(klass: Any, key: str, fn: types.FunctionType, ref: types.CodeType, where: types.CodeType) -> bool:
    """A matplotlib method generated to call another by name (the name in its one closure cell: a
    string for an alias, an attrgetter for an axis wrapper) calls the one the class's source names
    for `key` (moved to another key, `set_c` in `Text.set_text`, it would call `set_color`)."""
    held = _cell_values(fn)
    made = _generated_names(klass)
    if made is None or len(held) != 1:
        return False
    aliases, wrappers, _ = made
    v = held[0]
    if type(v) is str:
        target = aliases.get(key)
        return target is not None and target == v
    if type(v) is operator.attrgetter:
        try:
            reduced = _ATTRGETTER_REDUCE(v)  # (attrgetter, ('xaxis.get_ticklocs',)), made in C
        except Exception:
            return False
        target = wrappers.get(key)
        return target is not None and type(reduced) is tuple and len(reduced) == 2 and type(reduced[1]) is tuple \
            and len(reduced[1]) == 1 and type(reduced[1][0]) is str and reduced[1][0] == target
    return False


def _cell_values(fn: types.FunctionType) -> list:
    out = []
    for cell in fn.__closure__ or ():
        try:
            out.append(cell.cell_contents)
        except ValueError:
            out.append(None)
    return out


def _mangled(name: str, class_name: str) -> str:
    """`name` as a class body stores it (`def __clear` in `_AxesBase` is `_AxesBase__clear`)."""
    if name.startswith("__") and not name.endswith("__") and class_name.strip("_"):
        return "_" + class_name.lstrip("_") + name
    return name


def _function_cells(fn: types.FunctionType) -> list:
    out = []
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if v is not fn and (type(v) is types.FunctionType or type(v) is staticmethod or type(v) is classmethod):
            out.append(v)
    return out


def _holds_name(fn: types.FunctionType, key: str) -> bool:
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if type(v) is str and v == key:
            return True
        # pandas 2's `_coerce_method(float)` makes `__float__`: the factory was given `float`
        name = real_builtin_name(v)
        if name and key == "__" + name + "__":
            return True
    return False


def _wraps_defined_as(klass: Any, key: str, wrapper: types.FunctionType, package: str, depth: int) -> bool:
    """Some function a wrapper's closure holds is defined as `key` in `klass` or a class it inherits
    from (a decorator may also keep helpers of its own there; the wrapped method is the one that
    decides; matplotlib's `__init_subclass__` wraps the inherited `Artist.draw` into each subclass)."""
    cells = _function_cells(wrapper)
    return any(_defined_as(k, key, v, package, depth + 1) for k in mro(klass) for v in cells
               if k is not object and not is_static_type(k))


# Class data pandas' own code reads on the paths the rules model: `_metadata` (what `__finalize__`
# copies from operand to result: naming `_mgr` there makes an operation return another frame's
# data), the names `__getattr__`/`__setattr__` treat as internal or as accessors, the axis tables
# `drop(axis=...)` resolves through, what `Index.equals`/`_shallow_copy` carry over. Each must hold
# what the class body assigns (a list appended to, a dict rewritten in place, a new value set).
_PANDAS_CLASS_DATA = ("_metadata", "_internal_names", "_internal_names_set", "_accessors", "_AXIS_ORDERS",
                      "_AXIS_TO_AXIS_NUMBER", "_AXIS_LEN", "_info_axis_number", "_info_axis_name",
                      "_comparables", "_attributes", "_names", "_hidden_attrs", "_typ", "_subtyp")


def _class_data_own(klass: Any) -> bool:
    d = class_dict(klass)
    watched = [k for k in _PANDAS_CLASS_DATA if k in d]
    if not watched:
        return True
    expected = class_body_data(list(d.values()), class_qualname(klass), _PANDAS_CLASS_DATA)
    if expected is None:
        return False
    for k in watched:
        live, want = d[k], expected.get(k, _ABSENT)
        if want is _ABSENT or type(live) is not type(want) or not plain_data(live) or live != want:
            return False
    return True


def own_type(cls: Any, package: str, depth: int = 0) -> bool:
    """A class of `package` (or C) whose every function, property and method is the library's own."""
    if not plain_class(cls):
        return False
    for klass in mro(cls):
        if klass is object or is_static_type(klass):
            continue
        mod = class_module(klass)
        top = mod.split(".", 1)[0]
        if top != package and top not in TRUSTED_BASES:
            return False
        pkg = top if top != package else package
        if pkg == "pandas" and not _class_data_own(klass):
            return False
        for k, v in class_dict(klass).items():
            if type(k) is not str or not own(v, pkg, depth + 1) or not _defined_as(klass, k, v, pkg):
                return False
    return True


# Standard-library modules library classes inherit from (their own functions live there). (`_io`'s
# classes are C but, from Python 3.13, heap types: ipykernel's streams inherit `_io._TextIOBase`.)
TRUSTED_BASES = {"abc", "typing", "collections", "_collections_abc", "enum", "numbers", "functools", "contextlib",
                  "io", "_io"}


class Audit:
    """One check's memo of class audits (a class may be patched between two checks, never during one)."""

    def __init__(self):
        self.classes: Dict[int, Tuple[Any, bool]] = {}
        # id(live object) -> (object, facts): what a live object shows cannot change during a check.
        self.facts: Dict[Tuple[str, int], Tuple[Any, Any]] = {}
        # id(class) -> (class, verdict of class_facts.pristine_pandas) during this check
        self.pandas: Dict[int, Tuple[Any, bool]] = {}
        # library_namespace.pandas_untouched during this check, once asked
        self.pandas_namespace: Optional[bool] = None

    def pristine(self, cls: Any, package: str) -> bool:
        hit = self.classes.get(id(cls))
        if hit is not None and hit[0] is cls:
            return hit[1]
        ok = _audited(cls, package)
        self.classes[id(cls)] = (cls, ok)
        return ok


# (id(class), package) -> (class, witness of what its passed audit read): a later check re-reads
# those slots by identity instead of auditing again; any slot changed and the audit is made again.
_PASSED: Dict[Tuple[int, str], Tuple[Any, Witness]] = {}


def _audited(cls: Any, package: str) -> bool:
    key = (id(cls), package)
    hit = _PASSED.get(key)
    if hit is not None and hit[0] is cls and hit[1].holds():
        return True
    _PASSED.pop(key, None)
    w = witness_of(cls) if plain_class(cls) else None  # taken before the audit: nothing runs between
    ok = own_type(cls, package)
    if ok and w is not None:
        _PASSED[key] = (cls, w)
    return ok


_current = [Audit()]


def audit() -> Audit:
    return _current[0]


def classes_pristine(pairs: Any, package: str) -> bool:
    """Every class named by `pairs` ((module name, class name), ...) is loaded and unpatched."""
    for modname, cname in pairs:
        mod = loaded_module(modname)
        cls = checked(mod.__dict__).get(cname) if mod is not None else None
        if cls is None or not audit().pristine(cls, package):
            return False
    return True


def new_audit() -> None:
    """Start a check: classes are audited afresh."""
    new_epoch()
    _current[0] = Audit()


def own_module_function(module_name: str, name: str, fn: Any, package: str) -> bool:
    """`fn` is what `module_name.name` holds and is the library's own code (for NumPy's C-level
    dispatchers: their Python implementation is)."""
    mod = loaded_module(module_name)
    if type(mod) is not types.ModuleType or checked(mod.__dict__).get(name) is not fn:
        return False
    t = type(fn)
    if t is types.FunctionType:
        return _named(fn, name) and own(fn, package)
    if t is types.BuiltinFunctionType:
        return _true_name(fn) == name
    if is_static_type(t) and class_module(t).split(".", 1)[0] == package:
        impl = lookup_static(t, "_implementation", None)
        if impl is not None:
            try:
                inner = getattr(fn, "_implementation")  # a C getter on a C type
            except Exception:
                return False
            # A dispatcher's `__name__` is writable (`np.vdot.__name__ = 'dot'; np.dot = np.vdot`):
            # the function it dispatches to says which one it is.
            if _true_name(inner) != name:
                return False
            return type(inner) is not types.FunctionType or own(inner, package)
        name_slot = lookup_static(t, "__name__", None)
        if type(name_slot) is types.GetSetDescriptorType:
            # A ufunc's name is fixed when it is made (`np.isnan = np.isfinite` holds another ufunc,
            # `np.frompyfunc(f, 1, 1)` one named after f): the name it carries says which it is.
            try:
                own_name = name_slot.__get__(fn)
            except Exception:
                return False
            return type(own_name) is str and own_name == name
        return True
    return False


def own_call(module_name: str, name: str, package: str) -> Any:
    """What `module_name.name` holds, when that module is loaded and the value is the library's own
    function (own_module_function); None otherwise. Whether the module being absent is fine is the
    caller's to say."""
    mod = loaded_module(module_name)
    if type(mod) is not types.ModuleType:
        return None
    fn = checked(mod.__dict__).get(name)
    return fn if fn is not None and own_module_function(module_name, name, fn, package) else None


def _named(fn: types.FunctionType, name: str, depth: int = 0) -> bool:
    """`fn` was compiled as `name`, or is a decorator's wrapper around such a function (pyplot's
    `scatter` is a `wrapper` whose closure holds the `def scatter`)."""
    if _true_name(fn) == name:
        return True
    return depth < _MAX_DEPTH and any(type(v) is types.FunctionType and _named(v, name, depth + 1)
                                      for v in _function_cells(fn))


def _true_name(fn: Any) -> str:
    """The name a function was compiled or built with, which no assignment can change (`__name__`
    can be: `pd.merge.__name__ = 'concat'; pd.concat = pd.merge`); '' for anything else."""
    t = type(fn)
    if t is types.FunctionType:
        code = fn.__code__
        return code.co_name if type(code) is types.CodeType else ""
    if t is types.BuiltinFunctionType:
        try:
            return _BUILTIN_NAME.__get__(fn)
        except Exception:
            return ""
    return ""


__all__ = ["plain_class", "mro", "class_dict", "class_name", "class_module", "is_static_type", "lookup_static",
           "is_subclass", "real_builtin_name", "own", "own_type", "Audit", "audit", "new_audit",
           "own_module_function", "own_call", "classes_pristine", "instance_dict"]
