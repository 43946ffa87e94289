"""The standard-library code a check runs itself (ast's visitors, contextlib's context managers,
`warnings.catch_warnings`, re, enum, json, inspect, pathlib, ...), as it was when crane_llm was
imported.

A notebook that replaces a function or method there (`ast.NodeVisitor.visit = ...`,
`contextlib._GeneratorContextManager.__enter__ = ...`), or sets a name in one of those modules that
shadows a builtin they call, would have its code run by every check. `changed()` names the first
such change; then no check runs and no runtime information is read (the reply says why). Only the
modules' and their classes' own dictionaries are read, after their keys are found to be plain text.
"""

from __future__ import annotations

import __future__  # noqa: F401  (loaded here so that they are watched from the start: IPython runs them
import bdb  # noqa: F401  around every cell)
import builtins
import codeop  # noqa: F401
import hashlib  # noqa: F401  (the same: IPython names each cell by its hash)
import sys
import types
from typing import Any, Dict, List, Optional, Tuple

from .checks.dict_snapshots import AllOf, Snapshot
from .checks.library_code import genuine
from .checks.static_reads import plain_keys
from .checks.threads import library_file

# Every standard-library module CRANE-LLM's kernel side imports, and the ones those call by name.
_MODULES = ("ast", "contextlib", "warnings", "re", "re._compiler", "re._parser", "re._casefix", "enum", "functools",
            "inspect", "json", "json.decoder", "json.scanner", "json.encoder", "os", "posixpath", "genericpath",
            "pathlib", "types", "collections", "collections.abc", "dataclasses", "typing", "tokenize", "token", "io",
            "keyword", "copy", "operator", "abc", "_abc", "weakref", "linecache", "codecs", "string", "stat",
            "fnmatch", "threading", "marshal", "sysconfig", "dis", "opcode", "math", "importlib", "importlib.util",
            "importlib.machinery", "importlib._bootstrap", "importlib._bootstrap_external", "itertools", "datetime",
            "decimal", "numbers", "platform", "shlex", "tempfile", "ipaddress", "urllib.parse", "errno", "textwrap",
            "traceback", "reprlib", "heapq", "bisect", "struct", "_collections_abc",
            # (and what IPython runs around every cell: it names a cell by its hash, compiles it with
            # codeop's Compile, which reads the `__future__` features, and catches `bdb.BdbQuit`)
            "hashlib", "bdb", "codeop", "__future__")
# Tables IPython writes every cell into (linecache's) or that a check reads (re's compiled patterns):
# one replaced by a dict subclass runs the notebook's `__setitem__` or `__getitem__`.
_TABLES = (("linecache", "cache"), ("re", "_cache"), ("re", "_cache2"), ("sys", "path_importer_cache"))
# (`time`, `signal`, `gc` and `sys`: a check calls the functions interpreter_functions.py took at import,
# whatever the notebook rebinds there later)

# Hooks the standard library means to be replaced, and replaces itself: `catch_warnings(record=True)`
# (pytest runs every test inside one) puts a list's `append` in `_showwarnmsg_impl`; IPython and
# others replace `showwarning`. (Inside the checks' own `catch_warnings(record=True)` none is called.)
_MEANT_TO_BE_REPLACED = {"warnings": {"showwarning", "_showwarnmsg_impl", "formatwarning", "_formatwarnmsg_impl"}}

_CALLABLE_TYPES = (types.FunctionType, type, staticmethod, classmethod, property, types.BuiltinFunctionType)


def _fields(value: Any) -> Tuple[Any, ...]:
    """What a function runs and with what: replaced in place (`f.__code__ = ...`), it is another."""
    if type(value) is types.FunctionType:
        return (value.__code__, value.__defaults__, value.__kwdefaults__, value.__closure__)
    if type(value) in (staticmethod, classmethod):
        return (value.__func__,) + _fields(value.__func__)
    if type(value) is property:
        return (value.fget, value.fset, value.fdel)
    return ()


def _take() -> List[Tuple[str, Any, Dict[str, Tuple[Any, Tuple[Any, ...]]], frozenset, bool, Snapshot]]:
    """(label, dictionary, {key: (value, fields)} for its code, its keys, whether it is a module's,
    its snapshot) for each module and each class a module defines."""
    taken = []
    for name in _MODULES:
        module = sys.modules.get(name)
        if type(module) is not types.ModuleType or not plain_keys(module.__dict__):
            continue
        spaces = [(name, module.__dict__, True)]
        for key, value in list(module.__dict__.items()):
            if type(value) is type and value.__dict__.get("__module__") == name:
                spaces.append((f"{name}.{key}", value.__dict__, False))
        replaceable = _MEANT_TO_BE_REPLACED.get(name, set())
        for label, space, is_module in spaces:
            code = {k: (v, _fields(v)) for k, v in list(space.items())
                    if isinstance(v, _CALLABLE_TYPES) and not (is_module and k in replaceable)}
            taken.append((label, space, code, frozenset(space) | (replaceable if is_module else set()), is_module,
                          Snapshot(space)))
    return taken


def _same(a: Tuple[Any, ...], b: Tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _libraries(value: Any) -> bool:
    """A function a library put there itself (torch replaces `inspect.getfile` when imported): code
    from an installed package's file, as that file defines it."""
    return type(value) is types.FunctionType and library_file(value.__code__.co_filename) and genuine(value)


def _changed_in(label: str, space: Any, code: Dict[str, Tuple[Any, Tuple[Any, ...]]], keys: frozenset,
                is_module: bool) -> Optional[str]:
    if len(space) != len(keys) and not plain_keys(space):
        return label  # (a key of the notebook's hashing: any lookup could run its `__eq__`)
    get = space.get
    for key, (value, fields) in code.items():
        now = get(key)
        if now is value and _unchanged(now, fields):
            continue
        if not _libraries(now):
            return f"{label}.{key}"
    if len(space) != len(keys):
        for key in space.keys() - keys:
            # (a new module global named like a builtin shadows it for the module's own functions; a
            # method set on a class may shadow one it inherits)
            added = space[key]
            if (not is_module or key in builtins.__dict__) and isinstance(added, _CALLABLE_TYPES) \
                    and not _libraries(added):
                return f"{label}.{key}"
    return None


def _unchanged(fn: Any, fields: Tuple[Any, ...]) -> bool:
    """The same function still runs the same code with the same defaults (read without a tuple)."""
    if type(fn) is types.FunctionType:
        return (fn.__code__ is fields[0] and fn.__defaults__ is fields[1] and fn.__kwdefaults__ is fields[2]
                and fn.__closure__ is fields[3])
    return _same(_fields(fn), fields)


_TAKEN = _take()


_ALL = [AllOf(tuple(entry[1] for entry in _TAKEN))]


def tables_replaced() -> Optional[str]:
    """The first of those tables replaced by an object of another type (asked first: any `re`
    function of a check reads `re._cache`)."""
    for module_name, module, name in _TABLES_PRESENT:
        space = module.__dict__
        if not plain_keys(space) or type(space.get(name)) is not dict:
            return f"{module_name}.{name}"
    return None


_TABLES_PRESENT = tuple((module_name, sys.modules[module_name], name) for module_name, name in _TABLES
                        if type(sys.modules.get(module_name)) is types.ModuleType
                        and type(sys.modules[module_name].__dict__.get(name)) is dict)


# The `__future__` features codeop reads at every compile (their flags): the very list, the very
# objects, each holding the same values.
_FEATURES = (codeop.__dict__.get("_features"), tuple(codeop.__dict__.get("_features") or ()),
             tuple(Snapshot(f.__dict__) for f in codeop.__dict__.get("_features") or ()))


def _features_changed() -> Optional[str]:
    """(asked once `__future__`'s classes are known unchanged: a feature's `__dict__` is then its own)"""
    listed, items, snapshots = _FEATURES
    now = codeop.__dict__.get("_features")
    if now is not listed:
        return "codeop._features"
    if listed is None:
        return None
    if len(now) != len(items) or any(a is not b or not s.holds(a.__dict__) for a, b, s in zip(now, items, snapshots)):
        return "codeop._features"
    return None


# The watched modules as `sys.modules` held them: one swapped there for another object is what the
# shell's and the libraries' imports find.
_WATCHED = tuple((name, sys.modules[name]) for name in _MODULES if type(sys.modules.get(name)) is types.ModuleType)


def _module_swapped() -> Optional[str]:
    modules = sys.__dict__.get("modules")
    if type(modules) is not dict or not plain_keys(modules):
        return "sys.modules"
    get = modules.get
    return next((name for name, module in _WATCHED if get(name) is not module), None)


def changed() -> Optional[str]:
    """The first standard-library function, class or table changed since crane_llm was imported, or None."""
    return tables_replaced() or _module_swapped() or _code_changed() or _features_changed()


def _code_changed() -> Optional[str]:
    if _ALL[0].holds():
        return None
    for i, (label, space, code, keys, is_module, fast) in enumerate(_TAKEN):
        if fast.holds(space):
            continue
        found = _changed_in(label, space, code, keys, is_module)
        if found:
            return found
        # (changed only by a library's own code: what the next check compares with at C speed)
        _TAKEN[i] = (label, space, code, keys, is_module, Snapshot(space))
    _ALL[0] = AllOf(tuple(entry[1] for entry in _TAKEN))
    return None


def reason(found: str) -> str:
    return (f"the standard library's `{found}` was changed after CRANE-LLM was loaded: a check would run the new "
            "code, so the built-in checks and the runtime information stand aside")


__all__ = ["changed", "reason"]
