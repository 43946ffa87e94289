"""The live adapter: answers the checker's questions from the kernel's real objects.

Exact and cheap, and never intrusive: attributes are looked up with `inspect.getattr_static`, types
are compared exactly (a subclass may override anything, so it gets "unknown"), iterators are never
consumed, nothing is assigned, and no user-defined code runs. Library metadata (a DataFrame's
columns, an array's shape) is read only on the exact pandas / NumPy / scikit-learn classes, whose
behaviour is known, and only through properties that are pure and O(columns).
"""

from __future__ import annotations

import builtins as _BUILTINS_MODULE
import importlib.machinery
import os
import sys
import types
from inspect import getattr_static
from typing import Any, Dict, List, Optional

from .static_reads import TRAPPED_BUILTINS, checked
from .provenance import (audit, class_dict, class_module, class_name, instance_dict, is_subclass, lookup_static, mro, own,
                         own_module_function, plain_class)
from .class_facts import (_MISSING, _module, _plain_getattribute, _plain_value, attrs_plain,
                          ndarray_type, own_column_arrays, pandas_index_types, pandas_types, pristine_pandas,
                          safe_class_property)
from .torch_facts import live_tensor_facts
from .probe_state import class_data
from .dtypes import dtype_category
from . import non_integers
from .abstract_values import NOTHING, ArrayFacts, EstimatorFacts, FrameFacts, Value

_SIMPLE_CONST = (int, float, complex, str, bytes, bool, type(None))
# What the interpreter or the shell puts in `sys` as cells run: the last traceback shown, the prompts.
_SYS_SET_BY_THE_SHELL = frozenset(("last_type", "last_value", "last_traceback", "last_exc", "ps1", "ps2"))
_BUILTINS_OF_THE_SHELL = frozenset(("display", "__IPYTHON__"))
_BUILTIN_KINDS = {
    type(None): "none", bool: "bool", int: "int", float: "float", complex: "complex", str: "str",
    bytes: "bytes", list: "list", tuple: "tuple", dict: "dict", set: "set", frozenset: "frozenset",
    range: "range",
}


def plain_label(x: Any) -> bool:
    """A column / index label whose hashing and comparing run no user code."""
    t = type(x)
    return t is str or t is int or t is float or t is bool


def bools_among_numbers(labels: Any) -> bool:
    """Labels where True and 1 (or False and 0.0) both occur: pandas takes them for one key, so
    `df[[1]]` selects both columns, and set-based reasoning about such labels goes wrong."""
    kinds = {type(x) for x in labels}
    return bool in kinds and (int in kinds or float in kinds)


def is_plain_data(obj: Any, depth: int = 0) -> bool:
    """Constants, and lists / tuples / dicts of them, small enough to hold: data the checker made."""
    if is_simple_constant(obj):
        return True
    if depth > 4:
        return False
    t = type(obj)
    if (t is list or t is tuple) and len(obj) <= 10000:
        return all(is_plain_data(x, depth + 1) for x in obj)
    if t is dict and len(obj) <= 10000:
        return all(is_simple_constant(k) and is_plain_data(v, depth + 1) for k, v in obj.items())
    return False


def is_simple_constant(obj: Any) -> bool:
    """Builtin constants (and tuples / frozensets of them): hashing, comparing, printing them runs
    no user code. Exact types only, compared by identity (a metaclass could answer `==`)."""
    t = type(obj)
    if t is int or t is str or t is float or t is bool or obj is None or t is bytes or t is complex:
        return True
    if t is tuple or t is frozenset:
        return len(obj) <= 10000 and all(is_simple_constant(x) for x in obj)
    return False


def numpy_missing(module: Any, attr: str) -> Optional[bool]:
    """Whether NumPy's module `__getattr__` raises AttributeError for `attr`.

    It raises for the attributes NumPy removed (its tables `__former_attrs__`,
    `__expired_attributes__`: np.float, np.NaN, ...) and for any name it does not handle itself;
    the names it handles (lazy submodules, future scalars) appear as strings in its code.
    """
    future = checked(module.__dict__).get("__future_scalars__")
    if type(future) in (set, frozenset, list, tuple, dict) and attr in future:
        # NumPy warns about these (FutureWarning) before it raises: a filter may make that raise.
        from .rules.library_state import library_calls_plain

        if not library_calls_plain():
            return None
    fn = checked(module.__dict__).get("__getattr__")
    if type(fn) is not types.FunctionType or not own(fn, "numpy"):
        return None  # (Python calls whatever the module holds: the tables below are NumPy's reading)
    for table in ("__former_attrs__", "__expired_attributes__"):
        names = checked(module.__dict__).get(table)
        if type(names) is dict and attr in names:
            return True
    code = fn.__code__
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
        names = checked(module.__dict__).get(table)
        if isinstance(names, (set, frozenset, list, tuple, dict)):
            handled.update(n for n in names if isinstance(n, str))
    if attr in handled or f"{module.__name__}.{attr}" in sys.modules:
        return None
    return True


def _frame_state_plain(df: Any) -> bool:
    """What a frame carries into every frame derived from it lets pandas act as the rules model:
    `attrs` of plain data (pandas deep-copies them, running the objects' code) and duplicate labels
    allowed (`df.flags.allows_duplicate_labels = False` makes renames raise DuplicateLabelError
    and refuses `inplace=True`)."""
    d = instance_dict(df)
    if d is None or not attrs_plain(df):
        return False
    flags = d.get("_flags")
    flags_cls = checked(_module("pandas.core.flags").__dict__).get("Flags") if _module("pandas.core.flags") else None
    if flags_cls is None or type(flags) is not flags_cls:
        return False
    own_flags = instance_dict(flags)
    return own_flags is not None and own_flags.get("_allows_duplicate_labels") is True


def _submodule_file(module_dict: Dict[str, Any], attr: str) -> bool:
    """The package whose dict this is has a submodule `attr` on disk (a file or a folder in its
    `__path__`), or may have: importing it binds the attribute. Read from the file system only (an
    import finder of the notebook's would run its code)."""
    paths = module_dict.get("__path__")
    if paths is None:
        return False
    if type(paths) is not list or not all(type(p) is str for p in paths):
        return True  # (a namespace package's path, or anything else: not read)
    suffixes = importlib.machinery.all_suffixes()
    return any(os.path.isdir(os.path.join(p, attr)) or any(os.path.isfile(os.path.join(p, attr + s)) for s in suffixes)
               for p in paths)


def object_has_attr(obj: Any, attr: str) -> Optional[bool]:
    """Whether reading `obj.attr` succeeds (True), raises AttributeError (False), or unknown."""
    cls = type(obj)
    if not plain_class(cls):
        return None
    if cls is not types.ModuleType and not issubclass(cls, type) and cls not in _BUILTIN_TYPES \
            and not _plain_getattribute(cls):
        return None
    if cls is types.ModuleType:
        if obj is _BUILTINS_MODULE and (attr in TRAPPED_BUILTINS or attr in _BUILTINS_OF_THE_SHELL):
            return None  # (IPython's builtin trap changes these while the cell runs; a replay's process has none)
        if obj is sys and attr in _SYS_SET_BY_THE_SHELL:
            return None  # (set when a cell's error is shown: the recorded kernel's may hold them)
        d = checked(obj.__dict__)
        if d.get("__name__") == "__main__":
            return None  # (the notebook's namespace in a kernel; in a replay, the replaying script)
        if attr in d or lookup_static(types.ModuleType, attr, _MISSING) is not _MISSING:
            return True  # (`json.__dict__`, `np.__sizeof__`: every module has its type's attributes)
        if "__getattr__" in d:
            np = _module("numpy")
            if np is not None and obj is np and numpy_missing(obj, attr):
                return False
            return None
        if _submodule_file(d, attr):
            return None  # (any library call may import it first: `print(df)` loads pandas.io.formats.string)
        return False
    if issubclass(cls, type):
        # A class: the metaclass decides how its attributes are found.
        if not plain_class(obj):
            return None
        found = lookup_static(obj, attr, _MISSING)
        meta_found = lookup_static(cls, attr, _MISSING)
        if found is not _MISSING:
            return True if _plain_value(found) else None
        if meta_found is not _MISSING:
            return True if _plain_value(meta_found) else None
        return False
    found = lookup_static(cls, attr, _MISSING)
    inst_dict = instance_dict(obj)
    if inst_dict is not None and attr in inst_dict and (found is _MISSING or not _is_data_descriptor(found)):
        return True
    if found is not _MISSING:
        if _plain_value(found):
            return True
        if issubclass(type(found), (types.GetSetDescriptorType, types.MemberDescriptorType)) \
                and cls in _BUILTIN_TYPES:
            return True
        if _safe_property(obj, attr):
            return True
        return None
    if cls in _BUILTIN_TYPES:
        return False  # builtin types have a fixed set of attributes and no __getattr__
    custom = lookup_static(cls, "__getattr__", _MISSING)
    if custom is _MISSING:
        return False if inst_dict is not None or lookup_static(cls, "__dict__", _MISSING) is _MISSING else None
    frame_cls, series_cls, pd = pandas_types()
    if cls is frame_cls and pristine_pandas(cls):
        # NDFrame.__getattr__ hands out columns as attributes (`df._a` too, for a column '_a').
        f = LiveValue(obj).frame()
        if f is None or not f.flat:
            return None
        return False if f.has_column(attr) is False else None
    return None


def tensor_has_attr(obj: Any, attr: str) -> Optional[bool]:
    """An exact, unpatched torch.Tensor has no `__getattr__`: what its class and its own `__dict__`
    do not hold does not exist. Methods exist; properties may run torch code that raises: unknown."""
    found = lookup_static(type(obj), attr, _MISSING)
    inst = instance_dict(obj)
    if found is _MISSING:
        if inst is None:
            return None
        return True if attr in inst else False
    if attr == "shape" or (attr == "T" and len(obj.shape) == 2):
        return True  # C getters of the exact class (`.T` warns or raises only off two dimensions)
    if type(found) in (types.FunctionType, types.MethodDescriptorType, types.BuiltinFunctionType):
        return True
    return None


def _is_data_descriptor(d: Any) -> bool:
    t = type(d)
    if not plain_class(t):
        return True
    return lookup_static(t, "__set__", _MISSING) is not _MISSING or \
        lookup_static(t, "__delete__", _MISSING) is not _MISSING


def _safe_property(obj: Any, attr: str) -> bool:
    return safe_class_property(type(obj), attr)


def is_estimator_class(cls: Any) -> bool:
    """One of scikit-learn's own estimator classes, with nothing in it replaced."""
    skb = _module("sklearn.base")
    if type(skb) is not types.ModuleType or not plain_class(cls) or not issubclass(type(cls), type):
        return False
    base = checked(skb.__dict__).get("BaseEstimator")
    if base is None or not is_subclass(cls, base) or not class_module(cls).startswith("sklearn."):
        return False
    return audit().pristine(cls, "sklearn")


def _sklearn_fitted(obj: Any) -> Optional[bool]:
    """scikit-learn's own verdict (check_is_fitted: fitted attributes, and estimators whose tags say
    they need no fit), on its own classes only, so no user code runs."""
    validation = _module("sklearn.utils.validation")
    exceptions = _module("sklearn.exceptions")
    if type(validation) is not types.ModuleType or type(exceptions) is not types.ModuleType:
        return None
    check = checked(validation.__dict__).get("check_is_fitted")
    not_fitted = checked(exceptions.__dict__).get("NotFittedError")
    if check is None or not_fitted is None or not own_module_function(validation.__name__, "check_is_fitted",
                                                                      check, "sklearn"):
        return None
    if not plain_class(not_fitted) or not class_module(not_fitted).startswith("sklearn."):
        return None
    inst = instance_dict(obj)
    if inst is None or not all(type(k) is str for k in inst):
        return None  # check_is_fitted reads the attribute names
    if not all(_inert_parameter(v) for k, v in inst.items() if not k.endswith("_")):
        return None  # its tags compare parameters (`self.kernel == "precomputed"`)
    try:
        check(obj)
        return True
    except not_fitted:
        return False
    except Exception:
        return None


def _inert_parameter(value: Any, depth: int = 0) -> bool:
    """A parameter value that comparing, hashing or `isinstance` runs no code of: plain data, a
    function, a class of a plain metaclass, one of NumPy's random generators and ufuncs, or a
    scikit-learn estimator of its own class whose parameters are all such (a forest's base tree)."""
    t = type(value)
    if is_plain_data(value) or t in (types.FunctionType, types.BuiltinFunctionType, types.MethodType) or \
            (issubclass(t, type) and plain_class(value)):
        return True
    if depth < 3 and is_estimator_class(t):
        inst = instance_dict(value)
        return inst is not None and all(type(k) is str and (k.endswith("_") or _inert_parameter(v, depth + 1))
                                        for k, v in inst.items())
    np = _module("numpy")
    if np is None:
        return False
    inert = [checked(np.__dict__).get("ufunc")]
    random = checked(np.__dict__).get("random")
    if type(random) is types.ModuleType:
        inert += [checked(random.__dict__).get(n) for n in ("RandomState", "Generator")]
    return any(t is c for c in inert if c is not None)


def estimator_facts(obj: Any) -> Optional[EstimatorFacts]:
    """Fitted or not, as sklearn's check_is_fitted decides it, for sklearn's own non-meta estimators."""
    cls = type(obj)
    if not is_estimator_class(cls):
        return None
    inst = instance_dict(obj)
    if inst is None or not own_instance_state(cls, inst) or class_data(cls) is None:
        return None
    fitted: Optional[bool]
    try:
        getattr_static(cls, "__sklearn_is_fitted__")
        fitted = None  # meta-estimators decide through their steps, which may be user code
    except AttributeError:
        fitted = _sklearn_fitted(obj)
    meta = any(_wraps_estimator(v) for v in inst.values())
    if meta:
        # Wrapped estimators may be user code, which decides how fitting and predicting behave. Only
        # scikit-learn's own ones (a forest's base tree) leave check_is_fitted's verdict standing.
        own_only = not any(wraps_foreign(v) for v in inst.values())
        return EstimatorFacts(cls=cls, fitted=fitted if own_only else None, n_features=None, meta=True)
    n = inst.get("n_features_in_")
    return EstimatorFacts(cls=cls, fitted=fitted, n_features=n if type(n) is int else None, meta=False)


# Instance attributes scikit-learn looks up by name on the estimator itself, not on its class.
_INSTANCE_HOOKS = ("_metadata_request", "_sklearn_output_config")


def own_instance_state(cls: Any, inst: Dict[str, Any]) -> bool:
    """An estimator's own attributes shadow nothing its class defines: an instance's
    `_parameter_constraints`, `_validate_params`, `_decision_function` or `__sklearn_is_fitted__`
    would be what scikit-learn's code reads or calls for it, while a fresh probe of the class (and
    the checker's reading of the class) sees the class's."""
    for k in inst:
        if type(k) is not str or (k.startswith("__") and k.endswith("__")) or k in _INSTANCE_HOOKS or \
                lookup_static(cls, k, _MISSING) is not _MISSING:
            return False
    return True


def _wraps_estimator(v: Any) -> bool:
    t = type(v)
    if t is list or t is tuple or t is dict:
        items = list(v.values()) if t is dict else list(v)
        return any(_wraps_estimator(x) for x in items[:1000])
    if not plain_class(t):
        return True
    return any("fit" in class_dict(klass) or "get_params" in class_dict(klass) for klass in mro(t))


def wraps_foreign(v: Any, depth: int = 0) -> bool:
    """`v` holds an estimator that is not scikit-learn's own, unpatched, with only such ones inside."""
    t = type(v)
    if t is list or t is tuple or t is dict:
        items = list(v.values()) if t is dict else list(v)
        return len(items) > 1000 or any(wraps_foreign(x, depth + 1) for x in items)
    if not _wraps_estimator(v):
        return False
    if depth > 3 or not is_estimator_class(t):
        return True
    inst = instance_dict(v)
    return inst is None or any(wraps_foreign(x, depth + 1) for x in inst.values())


def _plain_row_labels(index: Any) -> bool:
    """Row labels whose membership test runs no user code: a RangeIndex, a numeric Index, or an
    object Index of at most 100,000 plain labels."""
    pd = _module("pandas")
    if type(index) is checked(pd.__dict__).get("RangeIndex"):
        return True
    try:
        dtype = index.dtype
        np_dtype = checked(_module("numpy").__dict__).get("dtype")
        # (NumPy's own dtypes only: a nullable Int64 / Float64 index matches NaN to its <NA>, and
        # its dtype caches what it is asked in its own `__dict__`)
        if isinstance(np_dtype, type) and isinstance(dtype, np_dtype):
            kind = dtype.kind
        elif type(dtype) is checked(pd.__dict__).get("StringDtype"):
            kind = "O"  # (text labels, read one by one below)
        else:
            return False  # (iterating a nullable or other extension index runs pandas code that caches)
    except Exception:
        return False
    if type(kind) is str and kind in "iuf":
        # (a label is cast to a narrow Index's dtype: `drop(257)` drops label 1 of a uint8 index)
        return kind != "u" and index.dtype.itemsize == 8
    return len(index) <= 100000 and all(plain_label(x) for x in index) and not bools_among_numbers(index)


_BUILTIN_TYPES = frozenset(_BUILTIN_KINDS)


class LiveValue(Value):
    """A real kernel object (or a constant the checker made itself), answered from exactly."""

    def __init__(self, obj: Any, name: Optional[str] = None):
        self.obj = obj
        self.name = name

    def kind(self):
        cls = type(self.obj)
        if not plain_class(cls):
            return "tensor" if live_tensor_facts(self.obj) is not None else "object"
        k = _BUILTIN_KINDS.get(cls)
        if k:
            return k
        frame_cls, series_cls, _ = pandas_types()
        if frame_cls is not None and cls is frame_cls:
            return "frame" if pristine_pandas(cls) else "object"
        if series_cls is not None and cls is series_cls:
            return "series" if pristine_pandas(cls) else "object"
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
        if issubclass(cls, type):
            return "class"
        return "object"

    def type_name(self):
        cls = type(self.obj)
        if not plain_class(cls):
            return "torch.Tensor" if live_tensor_facts(self.obj) is not None else "object"
        return f"{class_module(cls)}.{class_name(cls)}"

    def concrete(self):
        # An object whose class has its own metaclass may answer `type(x) == ...` or hashing of
        # its class with user code: the rules never see it as a concrete value.
        return self.obj if plain_class(type(self.obj)) else NOTHING

    def has_attr(self, attr):
        if live_tensor_facts(self.obj) is not None:
            return tensor_has_attr(self.obj, attr)
        return object_has_attr(self.obj, attr)

    def tensor(self):
        return live_tensor_facts(self.obj)

    def series_dtype(self):
        _, series_cls, _ = pandas_types()
        if series_cls is None or type(self.obj) is not series_cls or not pristine_pandas(series_cls) \
                or not own_column_arrays(self.obj):
            return None
        try:
            return dtype_category(self.obj.dtype)
        except Exception:
            return None

    def frame(self):
        memo = audit().facts
        hit = memo.get(("frame", id(self.obj)))
        if hit is not None and hit[0] is self.obj:
            return hit[1]
        facts = self._frame()
        memo[("frame", id(self.obj))] = (self.obj, facts)
        return facts

    def _frame(self):
        frame_cls, _, pd = pandas_types()
        if frame_cls is None or type(self.obj) is not frame_cls or not pristine_pandas(frame_cls):
            return None
        df = self.obj
        if not _frame_state_plain(df):
            return None
        cols, index = df.columns, df.index
        flat_types = pandas_index_types()
        if not any(type(cols) is t for t in flat_types) or not pristine_pandas(type(cols)) \
                or not pristine_pandas(type(index)):
            return None
        if not own_column_arrays(df) or len(cols) > 100000:
            return None
        labels = list(cols)
        # Labels of user classes would run their __hash__ / __eq__ / __repr__ in any lookup.
        flat = all(plain_label(c) for c in labels) and not bools_among_numbers(labels)
        try:
            names = list(index.names)
        except Exception:
            names = None
        if names is not None and not all(n is None or plain_label(n) for n in names):
            names = None
        plain_index = any(type(index) is t for t in flat_types) and _plain_row_labels(index)
        column_dtypes = None
        if flat:
            try:
                column_dtypes = [dtype_category(d) for d in df.dtypes.tolist()]
            except Exception:
                column_dtypes = None
        return FrameFacts(columns=labels, nrows=len(index), index_names=names, flat=flat, exact=True,
                          live_columns=cols if flat else None, live_index=index if plain_index else None,
                          column_dtypes=column_dtypes, numbers_plain=True)

    def series_length(self):
        _, series_cls, _ = pandas_types()
        if series_cls is not None and type(self.obj) is series_cls and pristine_pandas(series_cls):
            index = self.obj.index
            if pristine_pandas(type(index)):
                return len(index)
        return None

    def array(self):
        arr = ndarray_type()
        if arr is None or type(self.obj) is not arr:
            return None
        return ArrayFacts(shape=self.obj.shape, kind=self.obj.dtype.kind)

    def length(self):
        obj = self.obj
        if not plain_class(type(obj)):
            return None
        if type(obj) in (list, tuple, str, bytes, dict, set, frozenset):
            return len(obj)
        if type(obj) is range:
            try:
                return len(obj)
            except OverflowError:  # (range(10 ** 20) has more items than len() can say)
                return None
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
        t = type(self.obj)
        if (t is list or t is tuple) and len(self.obj) <= 100000:
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

    def non_integer(self):
        obj = self.obj
        if type(obj) is list:
            return non_integers.in_list(obj) if all(type(x) in (int, float, bool) for x in obj[:100001]) else None
        if self.array() is not None:
            return non_integers.in_float_array(obj)
        if self.series_dtype() == "numeric":
            try:
                # ('numeric' is told of NumPy's own dtypes only: its kind is a C slot)
                if obj.dtype.kind != "f":
                    return None
                values = obj.to_numpy(copy=False)  # (pandas' own method of an exact, unpatched Series)
            except Exception:
                return None
            return non_integers.in_float_array(values) if type(values) is ndarray_type() else None
        return None
