"""Calls whose arguments the function's parameters cannot take: a certain TypeError.

For a plain Python function (exactly `types.FunctionType`), Python matches the arguments to the
parameters of the function object being called before any of its code runs: too many positional
arguments, an unknown keyword, a value given twice, a positional-only parameter passed by keyword,
a required parameter left out. That matching depends only on the function's current code object
(`co_argcount`, `co_posonlyargcount`, `co_kwonlyargcount`, the `*args` / `**kwargs` flags) and its
defaults, all read from C slots, so the checker runs no code to decide it. What the function wraps
does not matter: a decorator's `*args, **kwargs` wrapper is what is called, and it takes anything.
"""

from __future__ import annotations

import types
from typing import Any, Dict, List, Optional

from ..outcome import CertainCrash, Crash
from ..abstract_values import Value

_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def binding_error(fn: Any, n_positional: int, keywords: List[str], bound_self: bool = False) -> Optional[str]:
    """Why calling `fn` with these arguments raises TypeError, or None when they bind (or `fn` is not
    a plain function). `bound_self`: a bound method, whose instance is the first positional."""
    if type(fn) is not types.FunctionType:
        return None
    code = fn.__code__
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    if type(defaults) is not tuple or type(kwdefaults) is not dict:
        return None
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


def check(fn: Any, args: List[Value], kwargs: Dict[str, Value], node, label: str, bound_self: bool = False) -> None:
    """Raise the certain TypeError when the arguments cannot bind to `fn`'s parameters."""
    why = binding_error(fn, len(args), list(kwargs), bound_self)
    if why is not None:
        names = [v.name for v in list(args) + list(kwargs.values()) if v.name]
        raise Crash(CertainCrash("TypeError", node.lineno, node.col_offset,
                                 f"`{label}` cannot take these arguments: {why}.", "call-arguments", names))
