"""Running a library's code and nothing else: the guard around scikit-learn probes.

A probe fits a fresh estimator on made-up data: scikit-learn's code, which calls its own and
SciPy's, NumPy's and pandas' functions by module global. A notebook may have put its own function
in any of those places (`sklearn.base.validate_parameter_constraints = f`); reading every module
of those libraries for such patches before each probe would be slow and never complete, so the
probe runs under a trace function instead. At the first call of Python code compiled from anywhere
but those libraries, the standard library or this package, the trace function raises before that
code's first line runs: the foreign code never runs, and the probe answers nothing.

One exception, of the standard library's making: the methods `dataclasses` and `namedtuple` write
(`Tags.__init__`) are compiled from "<string>". They pass when their globals are a library
module's own dict (dataclasses) or the namespace `namedtuple` builds, and they are called as a
method of a library's class: the class (or instance) they are called on holds that very code
under that name. A notebook's `exec(text, vars(sklearn.base))` also makes "<string>" code with a
library's globals, but the function it puts in the module is called as a function, on data.
"""

from __future__ import annotations

import os
import sys
import types
from typing import Any, Callable, Dict, Tuple

from .static_reads import checked, class_dict, class_module, loaded_module, made_by_namedtuple, mro

_PACKAGES = ("sklearn", "scipy", "numpy", "pandas", "joblib", "threadpoolctl", "crane_llm")
_STDLIB = os.path.dirname(os.path.realpath(os.__file__)) + os.sep


class ForeignCode(BaseException):
    """Raised into code no library wrote, before it runs (a BaseException: a library's
    `except Exception` does not swallow it)."""


def _roots() -> Tuple[str, ...]:
    out = [_STDLIB]
    for name in _PACKAGES:
        mod = loaded_module(name)
        path = checked(mod.__dict__).get("__file__") if type(mod) is types.ModuleType else None
        if type(path) is str:
            out.append(os.path.dirname(os.path.realpath(path)) + os.sep)
    return tuple(out)


# code object id -> (the code, allowed?): the code is kept so that its id is not reused
_JUDGED: Dict[int, Tuple[types.CodeType, bool]] = {}


def _allowed(frame: types.FrameType, roots: Tuple[str, ...]) -> bool:
    code = frame.f_code
    hit = _JUDGED.get(id(code))
    if hit is not None and hit[0] is code:
        return hit[1]
    name = code.co_filename
    if name == "<string>":
        # (not remembered: it depends on the globals and the arguments)
        return _written_by_stdlib(frame.f_globals, roots) and _a_library_classes_method(frame, roots)
    ok = type(name) is str and (name.startswith("<frozen ") or os.path.realpath(name).startswith(roots))
    _JUDGED[id(code)] = (code, ok)
    return ok


def _written_by_stdlib(globals_: Any, roots: Tuple[str, ...]) -> bool:
    if type(globals_) is not dict:
        return False
    name = globals_.get("__name__")
    if type(name) is not str:
        return False
    if name.startswith("namedtuple_"):
        return made_by_namedtuple(globals_)
    mod = loaded_module(name)
    if type(mod) is not types.ModuleType or checked(mod.__dict__) is not globals_:
        return False
    path = globals_.get("__file__")
    return type(path) is str and os.path.realpath(path).startswith(roots)


def _a_library_classes_method(frame: types.FrameType, roots: Tuple[str, ...]) -> bool:
    """The code runs as a method of a class a library module defined: its first argument is that
    class (`__new__`) or an instance of it, and the class holds this very code under its name."""
    code = frame.f_code
    if code.co_argcount < 1:
        return False
    try:
        first = frame.f_locals[code.co_varnames[0]]
        owner = first if issubclass(type(first), type) else type(first)
        for cls in mro(owner):
            for name in (code.co_name, "__new__"):  # (namedtuple's `__new__` is a lambda so named)
                held = class_dict(cls).get(name)
                if type(held) is staticmethod or type(held) is classmethod:
                    held = held.__func__
                if type(held) is types.FunctionType and held.__code__ is code:
                    module = loaded_module(class_module(cls))
                    path = checked(module.__dict__).get("__file__") if type(module) is types.ModuleType else None
                    return type(path) is str and os.path.realpath(path).startswith(roots)
    except Exception:  # (HostileKeys included: a class dictionary with keys that are not plain)
        return False
    return False


_MET = object()  # foreign code was about to run


def library_only(compute: Callable[[], Any]) -> Any:
    """`compute()`, run so that no Python code but the libraries' own runs; _MET when some other
    code was about to run (it did not)."""
    roots = _roots()
    met = []

    def trace(frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call" and not _allowed(frame, roots):
            met.append(True)
            raise ForeignCode()
        return None

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        result = compute()
    except ForeignCode:
        return _MET
    finally:
        sys.settrace(before)
    return _MET if met else result


def remembered(table: Dict[Any, Any], key: Any, compute: Callable[[], Any]) -> Any:
    """`table[key]`, computed under `library_only` the first time; None, not remembered, when
    foreign code was about to run (it may be gone by the next check)."""
    if key in table:
        return table[key]
    result = library_only(compute)
    if result is _MET:
        return None
    table[key] = result
    return result
