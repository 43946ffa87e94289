"""The code IPython, the kernel and traitlets run around a cell, as the libraries ship it.

Between the check and the cell's first line, IPython runs a great deal of its own code: the input
transformers, the event triggers, the logger, the builtin and display traps, the history's
bookkeeping, the execution records (`ExecutionInfo`, `ExecutionResult`), the sync runner, and
traitlets' descriptors at every attribute it reads. A notebook that replaced any of it
(`EventManager.trigger = ...`, `MagicAssign.find = ...`, `DisplayHook.exec_result = property(...)`,
`interactiveshell._pseudo_sync_runner = ...`) decides what the cell does. So every function,
descriptor and class in those packages' loaded modules, and every other callable their module
dictionaries hold, must run library code only: code from a library's file, with what its closure
holds library code too (a cell's contents can be replaced from outside), or an instance of a class
whose every function is such code. Judged entry by entry once, then compared at C speed
(dict_snapshots) until something changes or another module of theirs loads.

dataclasses and namedtuple write their classes' methods from text (`<string>`): those are
accepted under the names they write, in classes they made. A notebook that compiled its own
function from text and put it there under such a name is not told apart (a known limit).
"""

from __future__ import annotations

import sys
import types
from typing import Any, List, Optional, Tuple

from .dict_snapshots import AllOf
from .static_reads import class_dict, class_module, is_static_type, mro, plain_keys
from .threads import library_file

_PACKAGES = ("IPython", "ipykernel", "traitlets")
# What dataclasses and namedtuple generate from text.
_GENERATED = frozenset({"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__",
                        "__le__", "__gt__", "__ge__", "__getstate__", "__setstate__", "__new__", "_make", "_replace",
                        "_asdict", "__getnewargs__", "__match_args__", "__replace__"})

_state: List[Any] = [None, ()]  # [AllOf of the judged dictionaries, the module names judged]


def _watched() -> Tuple[str, ...]:
    return tuple(sorted(name for name, module in list(sys.modules.items())
                        if type(name) is str and name.split(".", 1)[0] in _PACKAGES
                        and type(module) is types.ModuleType))


def _generated(cls: type, key: str, value: Any) -> bool:
    """A method dataclasses or namedtuple wrote from text for a class of `cls`'s bases, under a name
    they write (and found here under that name, or another: enum takes a data type's `__repr__`)."""
    for klass in mro(cls):
        d = class_dict(klass)
        if "__dataclass_fields__" in d or "_fields" in d:
            for name in _GENERATED:
                if d.get(name) is value and (klass is not cls or key == name):
                    return _made_from_text(value, name)
    return False


def _made_from_text(value: Any, name: str) -> bool:
    fn = value.__func__ if type(value) in (staticmethod, classmethod) else value
    if type(fn) is not types.FunctionType:
        return False
    if fn.__code__.co_filename == "<string>":
        return True
    # (the standard library's wrapper around one: dataclasses' guard against recursive reprs)
    held = [cell.cell_contents for cell in fn.__closure__ or () if _filled(cell)]
    return _library_code(fn) and all(type(h) is types.FunctionType and h.__code__.co_filename == "<string>" and
                                     h.__name__ == name for h in held if callable(h))


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _library_code(fn: types.FunctionType) -> bool:
    """Code from a library's file, or from a frozen standard module (`<frozen abc>`: those modules
    are the standard library's, which stdlib_untouched watches)."""
    filename = fn.__code__.co_filename
    return library_file(filename) or (type(filename) is str and filename.startswith("<frozen "))


def _library_callable(value: Any, depth: int = 0) -> bool:
    """Calling or reading `value` runs library code only: a library's function (and what its closure
    holds: a cell's contents can be replaced from outside), descriptor, bound method, class, or an
    instance of a library's class; builtins and plain data too."""
    if depth > 4:
        return False
    t = type(value)
    if t is staticmethod or t is classmethod:
        return _library_callable(value.__func__, depth + 1)
    if t is property:
        return all(f is None or _library_callable(f, depth + 1) for f in (value.fget, value.fset, value.fdel))
    if t is types.FunctionType:
        if not _library_code(value):
            return False
        for cell in value.__closure__ or ():
            try:
                held = cell.cell_contents
            except ValueError:  # (an empty cell)
                continue
            if held is not value and callable(held) and not isinstance(held, type) and \
                    not _library_callable(held, depth + 1):
                return False
        return True
    if t is types.MethodType:
        return _library_callable(value.__func__, depth + 1) and _library_callable(value.__self__, depth + 1)
    if isinstance(value, type):
        return _library_class(value)
    if t in (types.BuiltinFunctionType, types.ModuleType) or is_static_type(t) or not callable(value):
        return True
    return _library_class(t)


def _library_class(cls: type) -> bool:
    """Every function the class and its bases define comes from a library's file (its `__module__`
    proves nothing: a notebook's class may claim any). Remembered per class until the next judging."""
    hit = _CLASSES.get(id(cls))
    if hit is not None and hit[0] is cls:
        return hit[1]
    _CLASSES[id(cls)] = (cls, True)  # (a class whose methods refer back to it)
    ok = all(_library_callable(value) or _generated(klass, key, value)
             for klass in mro(cls) if not is_static_type(klass)
             for key, value in list(class_dict(klass).items()) if type(key) is str)
    _CLASSES[id(cls)] = (cls, ok)
    return ok


_CLASSES: dict = {}


def _judge(names: Tuple[str, ...]) -> Tuple[Optional[str], Tuple[Any, ...]]:
    """The first value of the modules `names` (or of a class one defines) that is not library code,
    else the dictionaries judged."""
    _CLASSES.clear()
    spaces: List[Any] = []
    for name in names:
        module = sys.modules.get(name)
        if type(module) is not types.ModuleType:
            continue
        space = module.__dict__
        if not plain_keys(space):
            return name, ()
        spaces.append(space)
        for key, value in list(space.items()):
            if isinstance(value, type) and class_module(value) == name:
                for attr, held in list(class_dict(value).items()):
                    if type(attr) is not str or not (_library_callable(held) or _generated(value, attr, held)):
                        return f"{name}.{key}.{attr}", ()
                spaces.append(class_dict(value))
            elif not _library_callable(value):
                return f"{name}.{key}", ()
    return None, tuple(spaces)


def changed() -> Optional[str]:
    """The first function or class of IPython, ipykernel or traitlets that is not the library's own
    code, or None."""
    names = _watched()
    judged, seen = _state
    if judged is not None and seen == names and judged.holds():
        return None
    found, spaces = _judge(names)
    if found:
        _state[0] = None
        return found
    _state[0], _state[1] = AllOf(spaces), names
    return None


__all__ = ["changed"]
