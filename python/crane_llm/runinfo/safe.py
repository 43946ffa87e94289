"""Reading objects without running their code.

Everything here looks at an object through its exact type and its instance dictionary, so a user
class's `__len__`, `__repr__`, `__getattr__` or properties are never triggered, and a library that
the user has not imported is never imported by us. A class's name, module, MRO and dictionary,
and an instance's `__dict__`, are read by the checker's own readers (checks/provenance.py): one
way, for the checks and the runtime information alike.
"""

from __future__ import annotations

import abc
import math
import types
from typing import Any, Optional, Tuple

from ..checks.library_code import genuine
from ..checks.provenance import class_dict, class_module, mro
from ..checks.static_reads import checked, held_by_its_module, loaded_module, plain_keys

_LIBRARY_METACLASS_HOMES = ("numpy", "pandas", "torch", "tensorflow", "keras", "sklearn", "enum", "typing", "abc")


def one_of(t: Any, types: Tuple[Any, ...]) -> bool:
    """`t in types` by identity only: `in` would call a metaclass's `__eq__`."""
    for candidate in types:
        if t is candidate:
            return True
    return False


def plain_type(t: type) -> bool:
    """A class whose comparisons, hashing and attribute lookups are `type`'s own: its metaclass is
    `type`, `abc.ABCMeta`, or a library's (torch's tensor metaclass, enum's...). A user metaclass
    can hook all of those, so values of such a class are not looked into at all."""
    meta = type(t)
    if meta is type or meta is abc.ABCMeta:
        return True
    return type(meta) is type and _library_metaclass(meta)


# What a metaclass could hook on its classes: comparing, hashing, attribute lookup, `isinstance`.
_META_HOOKS = ("__eq__", "__ne__", "__hash__", "__getattribute__", "__getattr__", "__instancecheck__",
               "__subclasscheck__", "__repr__", "__str__", "__len__", "__iter__", "__contains__", "__bool__")


def _library_metaclass(meta: type) -> bool:
    """A library's own metaclass: the very class its module holds under its name (a `__module__`
    string is anyone's to write), whose hooks are C slots or the library's own code."""
    if class_module(meta).split(".")[0] not in _LIBRARY_METACLASS_HOMES or not held_by_its_module(meta):
        return False
    for klass in mro(meta):
        if klass is type or klass is object or klass is abc.ABCMeta:  # (trusted as such above)
            continue
        d = class_dict(klass)
        for hook in _META_HOOKS:
            fn = d.get(hook)
            if fn is not None and not (type(fn) in (types.WrapperDescriptorType, types.BuiltinFunctionType,
                                                    types.MethodDescriptorType)
                                       or (type(fn) is types.FunctionType and genuine(fn))):
                return False
    return True


def pandas_missing_types() -> Tuple[type, ...]:
    """The types of pandas' missing values, `pd.NaT` and `pd.NA`, as pandas holds them (none when
    pandas is not loaded)."""
    pd = loaded("pandas")
    return tuple(type(v) for v in (member(pd, "NaT"), member(pd, "NA")) if v is not None)


def member(module: Any, name: str) -> Any:
    """`module.name` as the module's own dictionary holds it: None when it is missing or `module`
    is not a plain module (never a `getattr`, which runs a module-level `__getattr__` for a missing
    name: a notebook's, after `del pd.Timestamp`)."""
    if type(module) is not types.ModuleType:
        return None
    return checked(module.__dict__).get(name)


def loaded(module_name: str) -> Any:
    """The module if the user's process has already imported it, else None (never imports it); only
    a plain module, whose attributes come from its dictionary (checks/static_reads.py)."""
    return loaded_module(module_name)


def type_name(obj: Any) -> str:
    """`module.Qualname` of the object's exact type, read through `type`'s own descriptors.

    The module is the shortest public one that exports the class (`pandas.DataFrame`, not
    `pandas.core.frame.DataFrame`), so the name a user writes, and the same name whatever the
    library version, reaches the prompt.
    """
    cls = type(obj)
    module = plain_text(type.__dict__["__module__"].__get__(cls))
    qual = plain_text(type.__dict__["__qualname__"].__get__(cls)) or "?"
    if module is None or module == "builtins":
        return cut(qual, NAME_MAX)
    return cut(_public_module(module, qual, cls) + "." + qual, NAME_MAX)


NAME_MAX = 200  # type names, column labels, keys: what the prompt shows of free text


def plain_text(value: Any) -> Optional[str]:
    """An exact `str` copy of a str (or str subclass, whose methods are never called), else None."""
    if type(value) is str:
        return value
    if not plain_type(type(value)) or not any(k is str for k in mro(type(value))):
        return None
    return str.__str__(value)


_MODULE_PARTS_MAX = 16  # deeper than any library's package tree; a notebook can write any `__module__`


def _public_module(module: str, qual: str, cls: type) -> str:
    parts = module.split(".", _MODULE_PARTS_MAX)
    if len(parts) > _MODULE_PARTS_MAX:
        return module
    for end in range(1, len(parts)):
        prefix = ".".join(parts[:end])
        module_dict = getattr(loaded(prefix), "__dict__", None)
        # A plain module's own namespace dict, with plain keys only: reading it runs no code.
        if module_dict is not None and plain_keys(module_dict) and module_dict.get(qual) is cls:
            return prefix
    return module


def is_library_type(cls: type, *prefixes: str) -> bool:
    """True when `cls` is defined by one of the given packages (e.g. 'sklearn'), not by the user."""
    module = class_module(cls)
    return bool(module) and any(module == p or module.startswith(p + ".") for p in prefixes)


def number(value: Any) -> Any:
    """A plain-JSON number: ints stay ints, finite floats stay floats, NaN/inf become strings."""
    if type(value) is bool:
        return value
    if type(value) is int:
        # (past a float's range an int is as infinite to JSON's readers as to the prompt, and its
        # digits could run to megabytes)
        return value if value.bit_length() <= 1024 else ("inf" if value > 0 else "-inf")
    try:
        f = float(value)
    except Exception:
        return str(value)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


_BUILTIN_SCALARS = (int, float, str, bool, type(None), complex, bytes)

# Ints no wider than this always have a decimal text, whatever digit limit the notebook set (640 is
# the least `sys.set_int_max_str_digits` takes), and it is quick to make.
_INT_TEXT_BITS = 2000


def int_text(value: int) -> str:
    """The decimal text of an int, or how many digits it has when it is too long to write out (a
    million digits take seconds, and may be past the interpreter's limit)."""
    bits = value.bit_length()
    if bits <= _INT_TEXT_BITS:
        return int.__repr__(value)
    return f"<int of about {int(bits * 0.30103) + 1} digits>"


def short_text(value: Any, limit: int) -> str:
    """A repr of `value` at most `limit` characters, built only from builtin types' own code.

    Containers of builtins are rendered element by element and stop as soon as the limit is
    reached; any other object shows as `<TypeName>` so its `__repr__` never runs.
    """
    parts: list = []
    budget = [limit + 1]

    def emit(text: str) -> bool:
        parts.append(text)
        budget[0] -= len(text)
        return budget[0] > 0

    def walk(v: Any, depth: int) -> bool:
        t = type(v)
        if one_of(t, _BUILTIN_SCALARS):
            if t is int:
                return emit(int_text(v))
            if t is str and len(v) > limit + 2:
                return emit(repr(v[: limit + 2]))
            if t is bytes and len(v) > limit + 2:
                return emit(repr(v[: limit + 2]))
            return emit(repr(v))
        if one_of(t, (list, tuple, set, frozenset)) and depth < 3:
            open_, close = {list: "[]", tuple: "()", set: "{}", frozenset: "{}"}[t]
            if not emit(open_):
                return False
            items = v if one_of(t, (list, tuple)) else sorted_safely(v)
            for i, item in enumerate(items):
                if i and not emit(", "):
                    return False
                if not walk(item, depth + 1):
                    return False
            if t is tuple and len(v) == 1:
                emit(",")
            return emit(close)
        if t is dict and depth < 3:
            if not emit("{"):
                return False
            for i, (k, item) in enumerate(dict.items(v)):
                if i and not emit(", "):
                    return False
                if not walk(k, depth + 1) or not emit(": ") or not walk(item, depth + 1):
                    return False
            return emit("}")
        return emit("<" + type_name(v) + ">")

    walk(value, 0)
    return cut("".join(parts), limit)


def sorted_safely(items: Any) -> list:
    out = []
    for i, item in enumerate(items):
        if i > 64:
            break
        out.append(item)
    try:
        if all(one_of(type(x), (int, float, str)) for x in out):
            return sorted(out, key=lambda x: (type(x).__name__, x))
    except Exception:
        pass
    return out


def cut(text: str, limit: int) -> str:
    """`text` shortened to `limit` characters, the last one an ellipsis when something was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "\u2026"
