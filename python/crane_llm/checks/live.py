"""The live adapter: answers the checker's questions from the kernel's real objects.

Exact and cheap, and never intrusive: attributes are looked up with `inspect.getattr_static`, types
are compared exactly (a subclass may override anything, so it gets "unknown"), iterators are never
consumed, nothing is assigned, and no user-defined code runs. Library metadata (a DataFrame's
columns, an array's shape) is read only on the exact pandas / NumPy / scikit-learn classes, whose
behaviour is known, and only through properties that are pure and O(columns).
"""

from __future__ import annotations

import sys
import types
from inspect import getattr_static
from typing import Any, List, Optional

from .values import ArrayFacts, EstimatorFacts, FrameFacts, Value

_MISSING = object()
_SIMPLE_CONST = (int, float, complex, str, bytes, bool, type(None))
_BUILTIN_KINDS = {
    type(None): "none", bool: "bool", int: "int", float: "float", complex: "complex", str: "str",
    bytes: "bytes", list: "list", tuple: "tuple", dict: "dict", set: "set", frozenset: "frozenset",
    range: "range",
}
# Data descriptors of these types always succeed when read on their own class's instances.
_PLAIN_DESCRIPTORS = (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                      types.WrapperDescriptorType, types.ClassMethodDescriptorType, staticmethod,
                      classmethod, type)


def _module(name: str) -> Any:
    """A library module only if the kernel already imported it: the checker never imports one."""
    return sys.modules.get(name)


def pandas_types():
    pd = _module("pandas")
    if pd is None:
        return None, None, None
    return getattr_static(pd, "DataFrame", None), getattr_static(pd, "Series", None), pd


def ndarray_type():
    np = _module("numpy")
    return getattr_static(np, "ndarray", None) if np is not None else None


def is_plain_data(obj: Any, depth: int = 0) -> bool:
    """Constants, and lists / tuples / dicts of them, small enough to hold: data the checker made."""
    if is_simple_constant(obj):
        return True
    if depth > 4:
        return False
    if type(obj) in (list, tuple) and len(obj) <= 10000:
        return all(is_plain_data(x, depth + 1) for x in obj)
    if type(obj) is dict and len(obj) <= 10000:
        return all(is_simple_constant(k) and is_plain_data(v, depth + 1) for k, v in obj.items())
    return False


def is_simple_constant(obj: Any) -> bool:
    if type(obj) in _SIMPLE_CONST:
        return True
    if type(obj) in (tuple, frozenset):
        return len(obj) <= 10000 and all(is_simple_constant(x) for x in obj)
    return False


def _plain_getattribute(cls: type) -> bool:
    """True when attribute lookup on instances of `cls` is the standard one (no hidden code)."""
    meta_ok = True
    try:
        ga = getattr_static(cls, "__getattribute__")
    except AttributeError:
        return False
    return meta_ok and ga in (object.__getattribute__, types.ModuleType.__getattribute__)


def class_has_attr(cls: type, attr: str) -> Optional[bool]:
    """Whether instances of `cls` (read on the class only, instance dict unknown) have `attr`."""
    try:
        found = getattr_static(cls, attr)
    except AttributeError:
        found = _MISSING
    if found is not _MISSING:
        return True if isinstance(found, _PLAIN_DESCRIPTORS) or not hasattr(type(found), "__get__") else None
    if not _plain_getattribute(cls):
        return None
    try:
        getattr_static(cls, "__getattr__")
        return None
    except AttributeError:
        pass
    # Instances of classes with a __dict__ may carry the attribute themselves.
    if cls.__dictoffset__ != 0 or "__dict__" in dir(cls):
        return None
    return False


def numpy_missing(module: Any, attr: str) -> Optional[bool]:
    """Whether NumPy's module `__getattr__` raises AttributeError for `attr`.

    It raises for the attributes NumPy removed (its tables `__former_attrs__`,
    `__expired_attributes__`: np.float, np.NaN, ...) and for any name it does not handle itself;
    the names it handles (lazy submodules, future scalars) appear as strings in its code.
    """
    for table in ("__former_attrs__", "__expired_attributes__"):
        names = module.__dict__.get(table)
        if isinstance(names, dict) and attr in names:
            return True
    fn = module.__dict__.get("__getattr__")
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    handled = set()
    stack = [code]
    while stack:
        c = stack.pop()
        for const in c.co_consts:
            if isinstance(const, str):
                handled.add(const)
            elif hasattr(const, "co_consts"):
                stack.append(const)
    for table in ("__future_scalars__", "__numpy_submodules__"):
        names = module.__dict__.get(table)
        if isinstance(names, (set, frozenset, list, tuple, dict)):
            handled.update(n for n in names if isinstance(n, str))
    if attr in handled or f"{module.__name__}.{attr}" in sys.modules:
        return None
    return True


def object_has_attr(obj: Any, attr: str) -> Optional[bool]:
    """Whether reading `obj.attr` succeeds (True), raises AttributeError (False), or unknown."""
    cls = type(obj)
    try:
        found = getattr_static(obj, attr)
    except AttributeError:
        found = _MISSING
    except Exception:
        return None
    if found is not _MISSING:
        if cls is types.ModuleType:
            return True
        inst_dict = _instance_dict(obj)
        if inst_dict is not None and attr in inst_dict and not _is_data_descriptor_on(cls, attr):
            return True
        if isinstance(found, _PLAIN_DESCRIPTORS) or not hasattr(type(found), "__get__"):
            return True
        if isinstance(found, (types.GetSetDescriptorType, types.MemberDescriptorType)) and cls in _BUILTIN_KINDS:
            return True
        if _safe_property(obj, attr):
            return True
        return None
    if cls is types.ModuleType:
        if "__getattr__" in obj.__dict__:
            np = _module("numpy")
            if np is not None and obj is np and numpy_missing(obj, attr):
                return False
            return None
        return False
    if isinstance(obj, type):
        # A class: the metaclass decides how its attributes are found.
        if type(obj) is not type and not _plain_metaclass(type(obj)):
            return None
        return False
    if cls in _BUILTIN_KINDS:
        return False  # builtin types have a fixed set of attributes and no __getattr__
    if not _plain_getattribute(cls):
        return None
    try:
        custom = getattr_static(cls, "__getattr__")
    except AttributeError:
        return False
    frame_cls, series_cls, pd = pandas_types()
    if cls is frame_cls and custom is getattr_static(frame_cls, "__getattr__", None):
        # NDFrame.__getattr__ hands out columns as attributes (only identifier-like labels).
        if attr.startswith("_"):
            return False
        try:
            return False if attr not in obj.columns else None
        except Exception:
            return None
    return None


def _plain_metaclass(meta: type) -> bool:
    try:
        getattr_static(meta, "__getattr__")
        return False
    except AttributeError:
        pass
    return getattr_static(meta, "__getattribute__", None) is type.__getattribute__


def _instance_dict(obj: Any) -> Optional[dict]:
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:
        return None
    return d if type(d) is dict else None


def _is_data_descriptor_on(cls: type, attr: str) -> bool:
    for klass in cls.__mro__:
        if attr in klass.__dict__:
            d = klass.__dict__[attr]
            return hasattr(type(d), "__set__") or hasattr(type(d), "__delete__")
    return False


# Properties of the exact pandas / NumPy classes that are pure and never raise.
_FRAME_PROPS = {"columns", "index", "shape", "dtypes", "values", "empty", "size", "ndim", "T", "loc",
                "iloc", "at", "iat", "axes"}
_SERIES_PROPS = {"index", "shape", "values", "dtype", "name", "empty", "size", "ndim", "T", "loc", "iloc",
                 "at", "iat", "axes"}
_ARRAY_PROPS = {"shape", "ndim", "size", "dtype", "T", "itemsize", "nbytes"}


def _safe_property(obj: Any, attr: str) -> bool:
    return safe_class_property(type(obj), attr)


def safe_class_property(cls: type, attr: str) -> bool:
    """Properties of the exact pandas / NumPy classes that are pure and never raise."""
    frame_cls, series_cls, _ = pandas_types()
    if frame_cls is not None and cls is frame_cls:
        return attr in _FRAME_PROPS
    if series_cls is not None and cls is series_cls:
        return attr in _SERIES_PROPS
    arr = ndarray_type()
    if arr is not None and cls is arr:
        return attr in _ARRAY_PROPS
    return False


def is_estimator_class(cls: Any) -> bool:
    skb = _module("sklearn.base")
    if skb is None or not isinstance(cls, type):
        return False
    base = getattr_static(skb, "BaseEstimator", None)
    mod = getattr(cls, "__module__", "") or ""
    try:
        return base is not None and issubclass(cls, base) and mod.startswith("sklearn.")
    except Exception:
        return False


def _sklearn_fitted(obj: Any) -> Optional[bool]:
    """scikit-learn's own verdict (check_is_fitted: fitted attributes, and estimators whose tags say
    they need no fit), on its own classes only, so no user code runs."""
    validation = _module("sklearn.utils.validation")
    exceptions = _module("sklearn.exceptions")
    if validation is None or exceptions is None:
        return None
    check = validation.__dict__.get("check_is_fitted")
    not_fitted = exceptions.__dict__.get("NotFittedError")
    if check is None or not_fitted is None:
        return None
    try:
        check(obj)
        return True
    except not_fitted:
        return False
    except Exception:
        return None


def estimator_facts(obj: Any) -> Optional[EstimatorFacts]:
    """Fitted or not, as sklearn's check_is_fitted decides it, for sklearn's own non-meta estimators."""
    cls = type(obj)
    if not is_estimator_class(cls):
        return None
    inst = _instance_dict(obj)
    if inst is None:
        return None
    fitted: Optional[bool]
    try:
        getattr_static(cls, "__sklearn_is_fitted__")
        fitted = None  # meta-estimators decide through their steps, which may be user code
    except AttributeError:
        fitted = _sklearn_fitted(obj)
    meta = any(_wraps_estimator(v) for v in inst.values())
    if meta:
        # Wrapped estimators may be user code, which decides how fitting and predicting behave.
        return EstimatorFacts(cls=cls, fitted=None, n_features=None, meta=True)
    n = inst.get("n_features_in_")
    return EstimatorFacts(cls=cls, fitted=fitted, n_features=n if type(n) is int else None, meta=False)


def _wraps_estimator(v: Any) -> bool:
    if type(v) in (list, tuple, dict):
        items = list(v.values()) if type(v) is dict else list(v)
        return any(_wraps_estimator(x) for x in items[:1000])
    return any("fit" in klass.__dict__ or "get_params" in klass.__dict__ for klass in type(v).__mro__)


class LiveValue(Value):
    """A real kernel object (or a constant the checker made itself), answered from exactly."""

    def __init__(self, obj: Any, name: Optional[str] = None):
        self.obj = obj
        self.name = name

    def kind(self):
        cls = type(self.obj)
        k = _BUILTIN_KINDS.get(cls)
        if k:
            return k
        frame_cls, series_cls, _ = pandas_types()
        if frame_cls is not None and cls is frame_cls:
            return "frame"
        if series_cls is not None and cls is series_cls:
            return "series"
        arr = ndarray_type()
        if arr is not None and cls is arr:
            return "ndarray"
        if cls is types.ModuleType:
            return "module"
        if is_estimator_class(cls):
            return "estimator"
        if cls in (types.FunctionType, types.LambdaType):
            return "function"
        if cls in (types.BuiltinFunctionType, types.BuiltinMethodType):
            return "builtin"
        if isinstance(self.obj, type):
            return "class"
        return "object"

    def type_name(self):
        cls = type(self.obj)
        return f"{cls.__module__}.{cls.__qualname__}"

    def concrete(self):
        return self.obj

    def has_attr(self, attr):
        return object_has_attr(self.obj, attr)

    def frame(self):
        frame_cls, _, pd = pandas_types()
        if frame_cls is None or type(self.obj) is not frame_cls:
            return None
        df = self.obj
        cols = df.columns
        flat = type(cols) in (getattr_static(pd, "Index", None), getattr_static(pd, "RangeIndex", None))
        try:
            names = list(df.index.names)
        except Exception:
            names = None
        index = df.index
        plain_index = type(index) in (getattr_static(pd, "Index", None), getattr_static(pd, "RangeIndex", None))
        return FrameFacts(columns=list(cols), nrows=len(index), index_names=names, flat=flat, exact=True,
                          live_columns=cols, live_index=index if plain_index else None)

    def series_length(self):
        _, series_cls, _ = pandas_types()
        if series_cls is not None and type(self.obj) is series_cls:
            return len(self.obj.index)
        return None

    def array(self):
        arr = ndarray_type()
        if arr is None or type(self.obj) is not arr:
            return None
        return ArrayFacts(shape=self.obj.shape, kind=self.obj.dtype.kind)

    def length(self):
        obj = self.obj
        if type(obj) in (list, tuple, str, bytes, dict, set, frozenset, range):
            return len(obj)
        f = self.frame()
        if f is not None:
            return f.nrows
        s = self.series_length()
        if s is not None:
            return s
        a = self.array()
        if a is not None:
            return a.shape[0] if a.shape else None
        return None

    def items(self):
        if type(self.obj) in (list, tuple) and len(self.obj) <= 100000:
            return [LiveValue(x) for x in self.obj]
        return None

    def keys(self):
        if type(self.obj) is not dict or len(self.obj) > 100000:
            return None
        ks: List[Any] = list(self.obj.keys())
        # Keys of user classes could run user __eq__ on lookup: only plain constants are compared.
        if all(is_simple_constant(k) for k in ks):
            return ks
        return None

    def estimator(self):
        return estimator_facts(self.obj)
