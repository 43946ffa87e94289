"""Calls whose arguments the function's parameters cannot take: a certain TypeError.

For a plain Python function (exactly `types.FunctionType`), Python matches the arguments to the
parameters of the function object being called before any of its code runs: too many positional
arguments, an unknown keyword, a value given twice, a positional-only parameter passed by keyword,
a required parameter left out. That matching depends only on the function's current code object
(`co_argcount`, `co_posonlyargcount`, `co_kwonlyargcount`, the `*args` / `**kwargs` flags) and its
defaults, all read from C slots, so the checker runs no code to decide it. What the function wraps
does not matter: a decorator's `*args, **kwargs` wrapper is what is called, and it takes anything.

One wrapper is read through: scikit-learn's `validate_params`, around nearly every public function
of it. Its first act, whichever way its configuration goes, is to match the arguments to the wrapped
function's own signature (`inspect.Signature.bind`, or calling the function): a mismatch is a
TypeError before any validation. Taken only when the wrapper, the function it holds, the
configuration it reads and `inspect`'s Signature classes are the libraries' own, and the wrapped
function has no `*args`, `**kwargs` or positional-only parameters (where `bind` and the interpreter
could disagree).
"""

from __future__ import annotations

import _thread
import sys
import types
from typing import Any, Dict, List, Optional

from ..library_code import enclosing_code, library_module
from ..provenance import class_dict, class_module, instance_dict, is_subclass, mro, own, own_type, plain_class
from ..static_reads import checked, loaded_module

from ..outcome import CertainCrash, Crash
from ..abstract_values import Value

_CO_VARARGS = 0x04
_THREAD_LOCAL = _thread._local  # (what `threading.local()` makes)
_CO_VARKEYWORDS = 0x08


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def binding_error(fn: Any, n_positional: int, keywords: List[str], bound_self: bool = False) -> Optional[str]:
    """Why calling `fn` with these arguments raises TypeError, or None when they bind (or `fn` is not
    a plain function). `bound_self`: a bound method, whose instance is the first positional."""
    if type(fn) is not types.FunctionType:
        return None
    fn = validated_function(fn) or fn
    if not plain_function_fields(fn):
        return None
    code = fn.__code__
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    name = code.co_name
    argcount, posonly, kwonly = code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount
    names = code.co_varnames
    positional = names[:argcount]
    keyword_only = names[argcount:argcount + kwonly]
    has_varargs = bool(code.co_flags & _CO_VARARGS)
    has_varkw = bool(code.co_flags & _CO_VARKEYWORDS)
    given = n_positional + (1 if bound_self else 0)
    shown = (lambda n: n - 1) if bound_self else (lambda n: n)
    if given > argcount and not has_varargs:
        required = argcount - len(defaults)
        takes = (f"from {shown(required)} to {shown(argcount)} positional arguments" if defaults
                 else _plural(shown(argcount), "positional argument"))
        return f"{name}() takes {takes} but {shown(given)} {'was' if shown(given) == 1 else 'were'} given"
    filled = set(positional[:min(given, argcount)])
    for kw in keywords:
        if kw in positional[:posonly]:
            if has_varkw:
                continue  # goes into **kwargs
            return f"{name}() got some positional-only arguments passed as keyword arguments: '{kw}'"
        if kw in positional or kw in keyword_only:
            if kw in filled:
                return f"{name}() got multiple values for argument '{kw}'"
            filled.add(kw)
        elif not has_varkw:
            return f"{name}() got an unexpected keyword argument '{kw}'"
    first_default = argcount - len(defaults)
    missing = [p for i, p in enumerate(positional) if p not in filled and i < first_default]
    if missing:
        listed = " and ".join(f"'{m}'" for m in missing) if len(missing) <= 2 else ", ".join(f"'{m}'" for m in missing)
        return f"{name}() missing {_plural(len(missing), 'required positional argument')}: {listed}"
    missing_kw = [k for k in keyword_only if k not in filled and k not in kwdefaults]
    if missing_kw:
        listed = " and ".join(f"'{m}'" for m in missing_kw)
        return f"{name}() missing {_plural(len(missing_kw), 'required keyword-only argument')}: {listed}"
    return None


def validated_function(fn: types.FunctionType) -> Optional[types.FunctionType]:
    """The function scikit-learn's `validate_params` wrapper `fn` holds, when everything it runs
    before matching the arguments is the libraries' own and that matching is the interpreter's."""
    if sys.version_info >= (3, 14):
        return None  # (`inspect.signature` may evaluate deferred annotations there)
    code = fn.__code__
    if type(code) is not types.CodeType or code.co_name != "wrapper" or "func" not in code.co_freevars:
        return None
    mod = library_module(fn)
    if mod is None or mod.__dict__.get("__name__") != "sklearn.utils._param_validation":
        return None
    outer = enclosing_code(fn)
    if outer is None or outer.co_name != "decorator" or not own(fn, "sklearn"):
        return None
    cells = fn.__closure__ or ()
    try:
        inner = cells[code.co_freevars.index("func")].cell_contents
    except (IndexError, ValueError):
        return None
    if type(inner) is not types.FunctionType or not own(inner, "sklearn"):
        return None
    inner_code = inner.__code__
    if type(inner_code) is not types.CodeType or inner_code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS) \
            or inner_code.co_posonlyargcount:
        return None
    extra = instance_dict(inner)
    if not plain_function_fields(inner) or type(extra) is not dict or "__signature__" in extra \
            or "__wrapped__" in extra:
        return None  # (`inspect.signature` would read those instead of the code)
    return inner if _validation_path_own(fn.__globals__) else None


def plain_function_fields(fn: types.FunctionType) -> bool:
    """The fields `inspect.signature` and Python's own binding read are of their exact types: a
    tuple or dict subclass in `__defaults__`, `__kwdefaults__` or `__annotations__` (which the
    setters accept) would run the notebook's `__len__`, `get` or `keys` when read."""
    none = type(None)
    kwdefaults = fn.__kwdefaults__
    # (a key of a str subclass is compared with its own `__eq__` by every lookup of a parameter's default)
    return type(fn.__defaults__) in (tuple, none) and type(kwdefaults) in (dict, none) \
        and (kwdefaults is None or all(type(k) is str for k in kwdefaults)) and type(fn.__annotations__) is dict


def _validation_path_own(g: Dict[str, Any]) -> bool:
    """What the wrapper calls before `bind`: scikit-learn's `get_config` (and the configuration it
    copies) and `inspect.signature`, with `inspect`'s Signature classes unpatched."""
    inspect_mod = loaded_module("inspect")
    config = loaded_module("sklearn._config")
    if type(inspect_mod) is not types.ModuleType or type(config) is not types.ModuleType:
        return False
    ins, cfg = checked(inspect_mod.__dict__), checked(config.__dict__)
    signature = g.get("signature")
    if signature is not ins.get("signature") or type(signature) is not types.FunctionType:
        return False
    if not (own(signature, "inspect") and own_type(ins.get("Signature"), "inspect")
            and _parameter_own(ins.get("Parameter"), ins.get("_ParameterKind"))
            and own_type(ins.get("BoundArguments"), "inspect")):
        return False
    get_config = g.get("get_config")
    if get_config is not cfg.get("get_config") or type(get_config) is not types.FunctionType:
        return False
    settings = cfg.get("_global_config")
    return (own(get_config, "sklearn") and own(cfg.get("_get_threadlocal_config"), "sklearn")
            and type(settings) is dict and type(settings.get("skip_parameter_validation")) is bool
            and _thread_settings_plain(cfg.get("_threadlocal")))


def _thread_settings_plain(local: Any) -> bool:
    """`get_config()` copies this thread's settings (`set_config` writes them; the global ones seed
    them on first use): they must be an exact dict holding an exact bool, which the wrapper tests
    with `if` (an array there is its ValueError; seventh red team, 7 Dec)."""
    if type(local) is not _THREAD_LOCAL:
        return False
    try:
        # (this thread's, through the C type's own lookup: the cell runs in this thread too)
        mine = _THREAD_LOCAL.__getattribute__(local, "__dict__")
    except Exception:
        return False
    if type(mine) is not dict or not all(type(k) is str for k in mine):
        return False
    if "global_config" not in mine:
        return True
    settings = mine["global_config"]
    return type(settings) is dict and type(settings.get("skip_parameter_validation")) is bool


def _parameter_own(parameter: Any, kind: Any) -> bool:
    """`inspect.Parameter`'s own methods and properties are the standard library's; its class
    attributes that are members of its kind enum (POSITIONAL_ONLY, ...) are data."""
    if not plain_class(parameter) or not is_subclass(type(kind), type) or class_module(kind) != "inspect":
        return False  # (the kind enum has a metaclass: compared by identity only)
    for klass in mro(parameter):
        if klass is object:
            continue
        if class_module(klass) != "inspect":
            return False
        for key, value in class_dict(klass).items():
            if type(key) is not str or (type(value) is not kind and not own(value, "inspect")):
                return False
    return True


def check(fn: Any, args: List[Value], kwargs: Dict[str, Value], node, label: str, bound_self: bool = False) -> None:
    """Raise the certain TypeError when the arguments cannot bind to `fn`'s parameters."""
    why = binding_error(fn, len(args), list(kwargs), bound_self)
    if why is not None:
        names = [v.name for v in list(args) + list(kwargs.values()) if v.name]
        raise Crash(CertainCrash("TypeError", node.lineno, node.col_offset,
                                 f"`{label}` cannot take these arguments: {why}.", "call-arguments", names))
