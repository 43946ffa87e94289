"""What a scikit-learn probe's answer depends on besides the class's code, as a plain token.

The estimator rules ask the installed scikit-learn (a fresh instance fitted on made-up data) and
remember the answer. That answer also depends on data a notebook can rewrite between two checks:
the class data every class of the estimator holds (`_parameter_constraints`, emptied or given other
constraints, turns parameter validation off), scikit-learn's configuration
(`set_config(skip_parameter_validation=True)`, `assume_finite=True`) and what scikit-learn's
modules hold (a function the probe's code calls by name). Their token is part of every remembered
answer's key, so a changed state is asked afresh; the probe itself runs no one's code but the
libraries' (library_only).

Reading them never runs user code: a value is taken apart only when it is plain data, a real
builtin, a class (named by identity), or an instance of one of scikit-learn's own, unpatched
classes whose attributes are again such values (`Interval(Real, 0, None, closed="left")`). Anything
else in class data (a notebook's constraint object, whose `is_satisfied_by` the probe's validation
would call) gives None: no probe, no claim.
"""

from __future__ import annotations

import abc
import functools
import sys
import types
import warnings
from typing import Any, Optional

from .library_namespace import sklearn_generation
from .provenance import _ABC_DATA, audit, own, own_call, real_builtin_name
from .static_reads import checked, class_dict, class_module, instance_dict, is_static_type, mro, plain_class

_CONSTS = (int, str, float, bool, bytes, complex, type(None), type(Ellipsis))
_CODE = (types.FunctionType, staticmethod, classmethod, property, functools.cached_property,
         types.MemberDescriptorType, types.GetSetDescriptorType, types.WrapperDescriptorType,
         types.MethodDescriptorType, types.BuiltinFunctionType)
_MAX_DEPTH = 6
_MAX_ITEMS = 2000


def _value(v: Any, depth: int) -> Any:
    """A hashable picture of `v` made of constants and ids, or None when `v` is not readable
    without running someone's code."""
    t = type(v)
    for c in _CONSTS:
        if t is c:
            return ("c", v) if t is not float else ("f", repr(v))
    if depth > _MAX_DEPTH:
        return None
    if t is list or t is tuple or t is set or t is frozenset:
        if len(v) > _MAX_ITEMS:
            return None
        items = [_value(x, depth + 1) for x in v]
        if any(x is None for x in items):
            return None
        return (t.__name__, frozenset(items) if t is set or t is frozenset else tuple(items))
    if t is dict:
        if len(v) > _MAX_ITEMS:
            return None
        pairs = [(_value(k, depth + 1), _value(x, depth + 1)) for k, x in v.items()]
        if any(k is None or x is None for k, x in pairs):
            return None
        return ("dict", tuple(pairs))
    if t is types.FunctionType:
        # (a descriptor's wrapped method, `available_if`'s `fn` and `check`): scikit-learn's own only
        return ("fn", id(v)) if own(v, "sklearn") else None
    if real_builtin_name(v):
        return ("builtin", id(v))
    if t is type or t is abc.ABCMeta:
        return ("type", id(v))  # a class stands for itself (Real, Integral, np.ndarray)
    if plain_class(t) and class_module(t).split(".", 1)[0] == "sklearn" and audit().pristine(t, "sklearn"):
        inst = instance_dict(v)
        if type(inst) is not dict or not all(type(k) is str for k in inst):
            return None
        inner = _value(inst, depth + 1)
        return None if inner is None else ("obj", id(t), inner)
    return None


def class_data(cls: Any) -> Optional[tuple]:
    """The data (not the code: the class audit judges that) every class of `cls` holds."""
    out = []
    for klass in mro(cls):
        if klass is object or is_static_type(klass):
            continue
        for k, v in class_dict(klass).items():
            if type(k) is not str:
                return None
            if (k.startswith("__") and k.endswith("__")) or any(type(v) is c for c in _CODE) or \
                    type(v) is _ABC_DATA:
                continue
            sig = _value(v, 0)
            if sig is None:
                return None
            out.append((id(klass), k, sig))
    return tuple(out)


def _config() -> Optional[tuple]:
    if type(sys.modules.get("sklearn._config")) is not types.ModuleType:
        return ("none",)
    get = own_call("sklearn._config", "get_config", "sklearn")
    if get is None:
        return None
    try:
        conf = get()
    except Exception:
        return None
    return _value(conf, 0) if type(conf) is dict else None


def warning_filters() -> Optional[tuple]:
    """The warning filters as constants and ids (their categories' reprs are not asked: a
    category's metaclass could answer)."""
    filters = checked(warnings.__dict__).get("filters")
    if type(filters) is not list:
        return None
    out = []
    for f in filters:
        if type(f) is not tuple or len(f) != 5:
            return None
        action, message, category, module, lineno = f
        if type(action) is not str or type(lineno) is not int:
            return None
        pats = []
        for p in (message, module):
            if p is None:
                pats.append(None)
            elif type(p) is str:
                pats.append(("s", p))
            elif class_module(type(p)) == "re" and type(getattr(p, "pattern", None)) is str:
                pats.append(("re", p.pattern, p.flags))
            else:
                return None
        out.append((action, pats[0], id(category), pats[1], lineno))
    return tuple(out)


def probe_state(cls: Any) -> Optional[tuple]:
    """The token of everything besides `cls`'s code that a probe of it reads; None when some of it
    cannot be read safely (then nothing is probed)."""
    data = class_data(cls)
    if data is None:
        return None
    conf = _config()
    filters = warning_filters()
    generation = sklearn_generation()
    if conf is None or filters is None or generation is None:
        return None
    return (data, conf, filters, generation)


__all__ = ["class_data", "probe_state", "warning_filters"]
