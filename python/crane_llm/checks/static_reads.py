"""Reading a class without running anything of it: its MRO, dictionary, name and module straight
from the type's C slots (no attribute lookup a user's class or metaclass could intercept)."""

from __future__ import annotations

import abc
import itertools
import operator
import types
from contextlib import contextmanager
from typing import Any, Dict, Optional, Tuple

from ..loaded_modules import ipython_module, loaded_module  # noqa: F401  (re-exported: the checks' one door)
from .outcome import Stop

_HEAPTYPE = 1 << 9
_IMMUTABLE = 1 << 8
_MRO = type.__dict__["__mro__"]
_TYPE_DICT = type.__dict__["__dict__"]
_TYPE_NAME = type.__dict__["__name__"]
_TYPE_MODULE = type.__dict__["__module__"]
_TYPE_QUALNAME = type.__dict__["__qualname__"]
_TYPE_FLAGS = type.__dict__["__flags__"]


def plain_class(cls: Any) -> bool:
    """A class whose own attribute lookups (`cls.x`, hashing, comparing it) run no user code: its
    metaclass is `type` or `abc.ABCMeta` exactly."""
    t = type(cls)
    return t is type or t is abc.ABCMeta


def mro(cls: Any) -> Tuple[type, ...]:
    try:
        found = _MRO.__get__(cls)
    except Exception:
        return ()
    return found if type(found) is tuple else ()  # (a C type never readied, f2py's `fortran`, has none)


class HostileKeys(Stop):
    """A dictionary the checker would read holds a key that is not an exact `str`: looking anything
    up in it may call that key's `__eq__` (`C.__dict__` built by `type('C', (), {K('x'): 1})`,
    `obj.__dict__[K('x')] = 1`, `np.__dict__[K('dot')] = ...`), and Python's own lookups would."""

    def __init__(self):
        super().__init__(None, "a namespace, module, class or object dictionary holds a key that is not a plain "
                               "string, and looking anything up in it could run its code")


def plain_keys(d: Any) -> bool:
    """Every key of the dict (or mappingproxy) `d` is an exact `str`: iterating keys and asking their
    type runs nothing of theirs (all in C)."""
    try:
        return all(map(operator.is_, map(type, d), itertools.repeat(str)))
    except Exception:
        return False


# One check's memo of dictionaries found plain, by the identity of their owner (held here, so the
# identity cannot be reused): no user code runs during a check, so none of them changes in it.
_SEEN: Dict[int, Tuple[Any, bool]] = {}


EPOCH = [0]  # counts the checks started, for answers other modules keep for one check


def new_epoch() -> None:
    """A check starts: every dictionary is looked at afresh."""
    _SEEN.clear()
    _FOUND.clear()
    EPOCH[0] += 1


def _plain_once(owner: Any, d: Any) -> bool:
    hit = _SEEN.get(id(owner))
    if hit is not None and hit[0] is owner:
        return hit[1]
    ok = plain_keys(d)
    _SEEN[id(owner)] = (owner, ok)
    return ok


def keys_plain(d: Any) -> bool:
    """Every key of the dict `d` is an exact `str`, judged once an epoch (a check or a gather: no
    code of the notebook's runs within one, so its keys cannot change)."""
    return _plain_once(d, d)


def checked(d: Any) -> Any:
    """`d`, once every key of it is known to be an exact `str`; else HostileKeys is raised (a Stop)."""
    if not _plain_once(d, d):
        raise HostileKeys()
    return d


# Where each package keeps its version string as plain module data (matplotlib's `__version__` is
# computed on first access by a module `__getattr__`; its `_version` module holds the string).
_VERSION_AT = {"sklearn": ("sklearn", "__version__"), "matplotlib": ("matplotlib._version", "version"),
               "pandas": ("pandas", "__version__"), "numpy": ("numpy", "__version__")}


def library_version(package: str) -> Optional[Tuple[int, int]]:
    """(major, minor) of a loaded package, read as module data; None when that is not plain."""
    modname, attr = _VERSION_AT[package]
    mod = loaded_module(modname)
    text = checked(mod.__dict__).get(attr) if mod is not None else None
    if type(text) is not str:
        return None
    parts = text.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1])


def made_by_namedtuple(globals_: Any) -> bool:
    """`globals_` is the namespace `collections.namedtuple` compiles its `__new__` in: no builtins,
    nothing but its own names."""
    return type(globals_) is dict and type(globals_.get("__name__")) is str and \
        globals_["__name__"].startswith("namedtuple_") and globals_.get("__builtins__") == {} and \
        set(globals_) <= {"__name__", "__builtins__", "_tuple_new"}


def class_dict(cls: Any) -> Dict[str, Any]:
    try:
        d = _TYPE_DICT.__get__(cls)
    except Exception:
        return {}
    if not _plain_once(cls, d):
        raise HostileKeys()
    return d


def class_name(cls: Any) -> str:
    try:
        return _TYPE_NAME.__get__(cls)
    except Exception:
        return "?"


def class_qualname(cls: Any) -> str:
    try:
        return _TYPE_QUALNAME.__get__(cls)
    except Exception:
        return "?"


def class_module(cls: Any) -> str:
    try:
        m = _TYPE_MODULE.__get__(cls)
    except Exception:
        return ""
    return m if type(m) is str else ""


def held_by_its_module(cls: Any) -> bool:
    """`cls` is what the loaded module its `__module__` names holds under its name: the library's
    own class, not a subclass that names itself so (`__module__` is anyone's to write)."""
    mod = loaded_module(class_module(cls))
    return mod is not None and plain_keys(mod.__dict__) and mod.__dict__.get(class_name(cls)) is cls


def is_static_type(cls: Any) -> bool:
    """A type defined in C (not created by a class statement): nobody can assign to its attributes."""
    try:
        return not (_TYPE_FLAGS.__get__(cls) & _HEAPTYPE)
    except Exception:
        return False


def is_sealed_type(cls: Any) -> bool:
    """A compiled class no one can patch: static, or flagged immutable (Py_TPFLAGS_IMMUTABLETYPE)."""
    try:
        return is_static_type(cls) or bool(_TYPE_FLAGS.__get__(cls) & _IMMUTABLE)
    except Exception:
        return False


def lookup_static(cls: Any, attr: str, default: Any = None) -> Any:
    """`attr` as the class's MRO holds it (no descriptor run, no metaclass consulted)."""
    remember = _IN_CHECK[0] and type(attr) is str
    if remember:
        hit = _FOUND.get((id(cls), attr))
        if hit is not None and hit[0] is cls:
            return default if hit[1] is _NOT_FOUND else hit[1]
    found = _NOT_FOUND
    for klass in mro(cls):
        d = class_dict(klass)
        if attr in d:
            found = d[attr]
            break
    if remember:
        _FOUND[(id(cls), attr)] = (cls, found)
    return default if found is _NOT_FOUND else found


# Class lookups remembered while the checker reads a cell, and only then (no user code runs during
# a check, so no class changes in it; the runtime information and anything else start afresh).
_FOUND: Dict[Tuple[int, Any], Tuple[Any, Any]] = {}
_NOT_FOUND = object()
_IN_CHECK = [False]
_CHECKS = [0]


def check_number() -> int:
    """Which check is running (a new number for each), or 0 outside any."""
    return _CHECKS[0] if _IN_CHECK[0] else 0


@contextmanager
def one_check():
    """The extent of one check: class lookups are remembered within it, forgotten at its ends."""
    _FOUND.clear()
    _IN_CHECK[0] = True
    _CHECKS[0] += 1
    try:
        yield
    finally:
        _IN_CHECK[0] = False
        _FOUND.clear()


def instance_dict(obj: Any, default: Any = None) -> Any:
    """The instance's own `__dict__`, read through CPython's standard slot only (a class may define
    `__dict__` as a property, which would run its code); `default` when it has none."""
    slot = lookup_static(type(obj), "__dict__")
    if type(slot) is not types.GetSetDescriptorType:
        return default
    try:
        d = slot.__get__(obj)
    except Exception:
        return default
    return checked(d) if type(d) is dict else default


__all__ = ["loaded_module", "ipython_module", "one_check", "HostileKeys", "checked", "keys_plain", "new_epoch", "plain_keys", "plain_class", "mro", "class_dict", "class_name", "class_module", "class_qualname", "is_static_type", "lookup_static", "instance_dict", "TRAPPED_BUILTINS"]


# IPython's builtin trap (`BuiltinTrap.auto_builtins`) changes these builtins only while a cell runs:
# it puts the shell's `get_ipython` in and takes `exit` and `quit` out (the namespace's own names
# stand for them). What the builtins hold for them when the check reads them is not what the cell
# finds, so a read that falls through to the builtins, or of the builtins module's attribute, is never
# judged.
TRAPPED_BUILTINS = frozenset({"get_ipython", "exit", "quit"})
