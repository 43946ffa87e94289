"""Whether NumPy's namespaces still hold NumPy's own functions, each under its own name.

A scikit-learn probe runs scikit-learn's code, which calls `np.isfinite`, `np.asarray`, ... by
module attribute, and NumPy's C methods call back into `numpy._core._methods` (`ndarray.any()` is
`_methods._any`): a notebook that put its own function there (`np.asarray = f`) would have it run
during the check, and the probe's answer would no longer be what the cell meets. So a probe runs
only while every function those modules hold is NumPy's code (provenance.own, or the very code
NumPy's file compiles to when its defaults are not plain enough to compare) under the name it was
made with, or an alias NumPy itself keeps (`np.abs is np.absolute`).

A namespace found clean is remembered by the identity of everything it held: a later check compares
identities only (reading a dict's values runs nothing), and any change makes it judged afresh.
"""

from __future__ import annotations

import builtins
import datetime
import dis
import functools
import operator
import os
import sys
import types
from typing import Any, Dict, List, Optional, Tuple

from .library_code import library_module, module_code, module_of_globals, same_code
from .provenance import _COMPILED_FUNCTIONS, _file_in, _named, _true_name, compiled_code, compiled_in_place, is_subclass, own
from .static_reads import (loaded_module, checked, class_dict, class_module, class_name, is_static_type, lookup_static,
                           made_by_namedtuple, mro, instance_dict, plain_class)

# The namespaces scikit-learn reaches through NumPy's functions and the array methods written in
# Python (sum, mean, any, all, ...), and the helpers those call by module global.
# (NumPy 1.x keeps them under numpy.core; NumPy 2's numpy.core.* are stubs holding little.)
_CORE_MODULES = ("_methods", "fromnumeric", "numeric")
NUMPY_MODULES = ("numpy",) + tuple(f"numpy.{core}.{m}" for core in ("_core", "core") for m in _CORE_MODULES) + (
    "numpy._core._dtype",)  # (every `dtype.name` goes through it)
# Helpers of modules that also hold aliases and classes of other names: only these are judged.
# (`np.unique` reaches the set helpers, NumPy 1.x keeps them in `arraysetops`, and it asks `np.ma`.)
_UNIQUE_HELPERS = ("unique", "_unique1d", "_unpack_tuple", "_unique_hash", "_array_converter", "normalize_axis_index")
_NUMPY_HELPERS = (("numpy.lib._arraysetops_impl", _UNIQUE_HELPERS), ("numpy.lib.arraysetops", _UNIQUE_HELPERS),
                  ("numpy.ma.core", ("getmask", "getmaskarray", "getdata", "is_masked")), ("numpy.ma", ("is_masked",)))

# The names NumPy itself keeps for another function (the array-API spellings, its own helpers), as
# the name that function was made with; for a method of a ufunc (`umr_any = logical_or.reduce`),
# the ufunc's name and the method's. Every other name must hold the function made under it, so a
# function put in another's place (`np.isfinite = np.isnan`) is seen even when both are NumPy's.
_UFUNC_ALIASES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
                  "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh", "bitwise_invert": "invert",
                  "bitwise_not": "invert", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift",
                  "conj": "conjugate", "mod": "remainder", "pow": "power", "true_divide": "divide"}
_CORE_ALIASES: Dict[str, Dict[str, Any]] = {
    "_methods": {"os_fspath": "fspath", "umr_maximum": ("maximum", "reduce"), "umr_minimum": ("minimum", "reduce"),
                 "umr_sum": ("add", "reduce"), "umr_prod": ("multiply", "reduce"),
                 "umr_any": ("logical_or", "reduce"), "umr_all": ("logical_and", "reduce"),
                 "umr_bitwise_count": "bitwise_count"},
    "fromnumeric": {"_dt_": "sctype2char", "_sum_": "sum"},
    "numeric": {**_UFUNC_ALIASES, "_ones_with_like": "ones", "_full_with_like": "full",
                "_fromfunction_with_like": "fromfunction", "_identity_with_like": "identity"},
}
_ALIASES: Dict[str, Dict[str, Any]] = {
    "numpy": {**_UFUNC_ALIASES, "concat": "concatenate", "permute_dims": "transpose",
              "show_config": "show",  # (NumPy 2.0 imports `show` under that name)
              "row_stack": "vstack", "mat": "asmatrix", "add_newdoc_ufunc": "_add_newdoc_ufunc"},  # (NumPy 1.x)
    **{f"numpy.{core}.{m}": _CORE_ALIASES[m] for core in ("_core", "core") for m in _CORE_MODULES},
}

# module name -> (module, its dict's keys and values when last found clean)
_CLEAN: Dict[str, Tuple[Any, Tuple[Any, ...]]] = {}
_DATA = (str, bytes, int, float, complex, bool, type(None), type(Ellipsis), tuple, list, dict, set, frozenset,
         type(datetime.datetime_CAPI))  # (a capsule: C pointers for other extensions, nothing to call)


def numpy_untouched() -> bool:
    """NumPy is loaded and none of NUMPY_MODULES (those loaded) holds a function of anyone else's
    or one of NumPy's under another function's name."""
    if type(loaded_module("numpy")) is not types.ModuleType:
        return False
    for name in NUMPY_MODULES:
        mod = loaded_module(name)
        if mod is None:
            continue
        if type(mod) is not types.ModuleType or not _clean(name, mod):
            return False
    for name in NUMPY_HELPER_MODULES:
        mod = loaded_module(name)
        if mod is not None and (type(mod) is not types.ModuleType or not _clean_by(name, mod, _libraries_own)):
            return False
    for name, keys in _NUMPY_HELPERS:
        mod = loaded_module(name)
        if mod is None:
            continue
        d = checked(mod.__dict__) if type(mod) is types.ModuleType else None
        if d is None or not all(key not in d or _numpy_value(key, key, d[key]) for key in keys):
            return False
    return True


def _clean(name: str, mod: types.ModuleType) -> bool:
    aliases = _ALIASES.get(name, {})
    return _clean_by(name, mod, lambda _mod, key, value: _numpy_value(key, aliases.get(key, key), value))


def _numpy_value(key: str, alias: Any, value: Any) -> bool:
    """`value`, held at `key` in one of NumPy's module dicts, is not code of anyone else's and is
    the function made under that name or under the name NumPy keeps it as (or no function)."""
    t = type(value)
    if t is types.FunctionType:
        return _numpy_function(value) and (_named(value, key) or (
            type(alias) is str and _named(value, alias)))
    if t is types.BuiltinFunctionType:
        return _bound_as(value, alias) if type(alias) is tuple else _true_name(value) in (key, alias)
    if is_static_type(t) and class_module(t).split(".", 1)[0] == "numpy":
        own_name = _made_name(value, t)
        return own_name is None or own_name in (key, alias)
    if t is types.ModuleType or any(t is c for c in _DATA) or (key.startswith("__") and key.endswith("__")):
        return True  # not what a call by name runs (a module's own functions are judged in it)
    if t is functools.partial:
        return _numpy_function(value.func)  # (NumPy's `array_function_dispatch`)
    if is_static_type(t) and t is not type:
        return False  # another C callable (a method of something else's, a wrapper around anything)
    cls = value if issubclass(t, type) else t
    # (a class's metaclass runs too: `type` and `ABCMeta` are the interpreter's, others are judged)
    return _library_made(cls) and (plain_class(cls) or _library_made(type(cls)))


def _numpy_function(fn: Any) -> bool:
    return type(fn) is types.FunctionType and (own(fn, "numpy") or _same_file_code(fn))


_STDLIB = os.path.dirname(os.path.realpath(os.__file__)) + os.sep


def _library_made(cls: Any, packages: Tuple[str, ...] = ("numpy",)) -> bool:
    """Every class in `cls`'s MRO is written in C or compiled from the files of `packages` or the
    standard library (a class a notebook made has its methods compiled from the notebook's cells,
    whatever module name it claims): NumPy's sentinels, enums, `errstate`, `finfo`,
    `contextlib.nullcontext`."""
    for klass in mro(cls):
        if is_static_type(klass):
            continue
        for v in class_dict(klass).values():
            for fn in _functions_of(v):
                if type(fn) is _LRU_WRAPPER:  # (`functools.lru_cache` around a method: the method)
                    fn = instance_dict(fn, {}).get("__wrapped__")
                if type(fn) is not types.FunctionType:
                    if class_name(type(fn)) in _COMPILED_FUNCTIONS:
                        continue  # (Cython's functions: compiled, which a notebook cannot write)
                    if is_static_type(type(fn)) and class_module(type(fn)) == "operator":
                        continue  # (`property(attrgetter('_drv'))` in pathlib: C, holding names only)
                    return False
                name = fn.__code__.co_filename
                if not (any(_file_in(name, p) for p in packages) or _standard_library_code(fn) or
                        _written_by_stdlib_for(fn, packages)):
                    return False
    return True


def _written_by_stdlib_for(fn: types.FunctionType, packages: Tuple[str, ...]) -> bool:
    """A method `dataclasses` or `namedtuple` compiled from "<string>" for a library's class: its
    globals are a library module's own dict, or the namespace namedtuple builds (`Tags.__init__`)."""
    if fn.__code__.co_filename != "<string>":
        return False
    g = fn.__globals__
    name = g.get("__name__") if type(g) is dict else None
    if type(name) is not str:
        return False
    if name.startswith("namedtuple_"):
        return made_by_namedtuple(g)
    mod = loaded_module(name)
    file = checked(mod.__dict__).get("__file__") if type(mod) is types.ModuleType else None
    return mod is not None and checked(mod.__dict__) is g and any(_file_in(file, p) for p in packages)


def _standard_library_code(fn: types.FunctionType) -> bool:
    """`fn` is compiled from a file of the standard library, or from one of its frozen modules with
    that module's own globals (`<frozen _collections_abc>`: a notebook can name its code so, but not
    give it the module's dict without changing the module)."""
    name = fn.__code__.co_filename
    if type(name) is not str:
        return False
    if name.startswith("<frozen ") and name.endswith(">"):
        mod = loaded_module(name[len("<frozen "):-1])
        return type(mod) is types.ModuleType and fn.__globals__ is mod.__dict__
    return os.path.realpath(name).startswith(_STDLIB)


def _functions_of(v: Any) -> tuple:
    """The functions a class attribute runs when used (none for data)."""
    t = type(v)
    if t is types.FunctionType:
        return (v,)
    if t is staticmethod or t is classmethod:
        # (`classmethod(GenericAlias)`, `staticmethod(np.concatenate)`: C, or a class judged where used)
        fn = v.__func__
        return (fn,) if type(fn) is types.FunctionType or not is_static_type(type(fn)) else ()
    if t is property:
        return tuple(f for f in (v.fget, v.fset, v.fdel) if f is not None)
    if t is functools.cached_property:
        inst = instance_dict(v)
        return (inst.get("func"),) if type(inst) is dict else (None,)
    return ()


def _bound_as(method: Any, made: Tuple[str, str]) -> bool:
    """`method` is the C method `made[1]` of NumPy's ufunc made as `made[0]`."""
    try:
        owner = _SELF.__get__(method)
    except Exception:
        return False
    t = type(owner)
    return is_static_type(t) and class_module(t) == "numpy" and _made_name(owner, t) == made[0] and \
        _true_name(method) == made[1]


_SELF = types.BuiltinFunctionType.__dict__["__self__"]


def _same_file_code(fn: types.FunctionType) -> bool:
    """`fn`'s code is what NumPy's file compiles to, with defaults too rich for `own` to compare
    (`genfromtxt`'s `deletechars=''.join(...)`): still NumPy's code, which is what matters here."""
    if not _file_in(fn.__code__.co_filename, "numpy"):
        return False
    mod = library_module(fn)
    return mod is not None and same_code(fn, mod) is not None


def _made_name(value: Any, t: type) -> Optional[str]:
    """The name a ufunc was made with, or the function a dispatcher dispatches to was compiled
    with; None for other objects of NumPy's C types (dtypes, scalars)."""
    impl = lookup_static(t, "_implementation", None)
    if impl is not None:
        try:
            inner = getattr(value, "_implementation")  # a C getter on a C type
        except Exception:
            return ""
        if type(inner) is types.FunctionType and not _numpy_function(inner):
            return ""
        return _true_name(inner)
    slot = lookup_static(t, "__name__", None)
    if type(slot) is types.GetSetDescriptorType:
        try:
            made = slot.__get__(value)
        except Exception:
            return ""
        return made if type(made) is str else ""
    return None


# pandas' modules whose globals its DataFrame and Series methods call by name on the paths the rules
# model (`__getitem__` calls `com.apply_if_callable` and `is_hashable`, `drop` calls
# `com.maybe_make_list`, ...): a function put there runs inside the modelled method, whatever the
# classes hold.
PANDAS_MODULES = ("pandas.core.common", "pandas.core.frame", "pandas.core.generic", "pandas.core.series",
                  "pandas.core.base", "pandas.core.indexes.base", "pandas.core.indexes.range",
                  "pandas.core.indexes.multi", "pandas.core.indexing", "pandas.core.dtypes.inference",
                  "pandas.core.dtypes.common", "pandas.core.dtypes.missing", "pandas.core.dtypes.cast",
                  "pandas.core.internals.managers", "pandas.core.internals.blocks", "pandas.core.algorithms",
                  "pandas.core.construction", "pandas.core.missing", "pandas.core.ops.common",
                  # the helpers the summaries reach by module global (reductions of nullable columns,
                  # `take` for categoricals, quantiles)
                  "pandas.core.array_algos.masked_reductions", "pandas.core.array_algos.take",
                  "pandas.core.array_algos.quantile", "pandas.core.array_algos.putmask",
                  "pandas.core.array_algos.transforms")
_PACKAGES = ("pandas", "numpy")
_C_MODULES = _PACKAGES + ("builtins", "types", "typing", "_thread")
_LRU_WRAPPER = type(functools.lru_cache()(lambda: None))
_HOLDERS = (types.MethodType, staticmethod, classmethod, property, types.MethodWrapperType)


# Modules the frame reads reach too, whose dicts hold functions under other names (decorated ones,
# `nanmin = _nanminmax("min")`) and classes: judged only for holding the libraries' own code.
PANDAS_HELPER_MODULES = ("pandas.core.nanops", "pandas.core.indexers.utils", "pandas.core.sorting",
                         "pandas.core.arrays.masked", "pandas.core.arrays._mixins", "pandas.core.arrays.categorical",
                         "pandas.core.arrays.string_", "pandas.core.arrays.base", "pandas.core.arrays.datetimelike",
                         "pandas.core.arrays.interval", "pandas.core.arrays.sparse.array",
                         "pandas.core.arrays.datetimes", "pandas.core.arrays.timedeltas",
                         "pandas.compat.numpy.function", "pandas.util._validators",
                         # (joins and frames built from arrays: `_validate_operand`, the shape check)
                         "pandas.core.reshape.merge", "pandas.core.internals.construction")
NUMPY_HELPER_MODULES = ("numpy._core.numerictypes", "numpy._core.multiarray", "numpy._core._ufunc_config")


def pandas_untouched() -> bool:
    """None of PANDAS_MODULES (those loaded) holds a function of anyone else's, or one of a
    library's under a name its module's file does not give it; none of PANDAS_HELPER_MODULES
    holds anyone else's; none of PANDAS_COMPILED_MODULES holds anything but pandas' compiled
    functions under their own names."""
    for names, judge in ((PANDAS_MODULES, _pandas_value), (PANDAS_HELPER_MODULES, _libraries_own)):
        for name in names:
            mod = loaded_module(name)
            if mod is None:
                continue
            if type(mod) is not types.ModuleType or not _clean_by(name, mod, judge):
                return False
    return pandas_compiled_untouched()


def _real_module(value: types.ModuleType, packages: Tuple[str, ...] = _PACKAGES) -> bool:
    """A module a pandas module holds (`com`, `lib`, `np`) is the one loaded under its own name
    from pandas', NumPy's or the standard library's files (or built in): not a stand-in a notebook
    made (`ix.com = types.ModuleType(...)`). The functions of those that rules reach are judged in
    their own right (PANDAS_MODULES)."""
    d = checked(value.__dict__)
    name = d.get("__name__")
    if type(name) is not str or loaded_module(name) is not value:
        return False
    file = d.get("__file__")
    if file is None:
        # (built in, or a namespace package, which holds its submodules only)
        return name in sys.builtin_module_names or ("__path__" in d and all(
            type(v) is types.ModuleType or (k.startswith("__") and k.endswith("__")) for k, v in d.items()))
    return type(file) is str and (any(_file_in(file, p) for p in packages) or os.path.realpath(file).startswith(_STDLIB))


def _libraries_own(mod: types.ModuleType, key: Any, value: Any) -> bool:
    """Like `_pandas_value`, without the names: a function only has to be the libraries' own code
    (its defaults may be objects the library made, `dtype=np.dtype(np.float64)`, which the file's
    text alone cannot confirm); a C object, anything but a holder of someone's function."""
    t = type(value)
    if type(key) is not str:
        return False
    if t is types.FunctionType:
        return _library_function(value) or _own_code_library_defaults(value)
    if t is types.BuiltinFunctionType:
        return True
    if is_static_type(t) and t is not type:
        return not any(t is k for k in _HOLDERS)
    if issubclass(t, type) and plain_class(value) and class_module(value).split(".", 1)[0] in _STDLIB_CLASS_HOMES:
        return True  # (`from pathlib import Path` in a pandas module)
    return _pandas_value(mod, key, value)


# Standard-library modules whose classes pandas' modules import by name.
_STDLIB_CLASS_HOMES = frozenset({"pathlib", "typing", "collections", "enum", "abc", "numbers", "decimal", "datetime",
                                 "functools", "io", "os", "re", "warnings", "contextlib", "dataclasses", "csv",
                                 "textwrap", "operator", "itertools"})


def _own_code_library_defaults(fn: types.FunctionType, depth: int = 0) -> bool:
    mod = library_module(fn)
    if depth > 2 or mod is None or fn.__closure__ is not None or same_code(fn, mod) is None:
        return False
    kwdefaults = fn.__kwdefaults__
    if type(fn.__defaults__) not in (tuple, type(None)) or type(kwdefaults) not in (dict, type(None)):
        return False
    given = tuple(fn.__defaults__ or ()) + tuple((kwdefaults or {}).values())
    return all(_plain_default(d, depth) for d in given)


def _plain_default(value: Any, depth: int) -> bool:
    """A default a library function may hold without running anyone's code: a value of a library's
    own static type, a builtin that holds nothing, or another such function."""
    t = type(value)
    if t is types.FunctionType:
        return _own_code_library_defaults(value, depth + 1)
    if not is_static_type(t):
        return False
    return _library_made(t, _PACKAGES) or (class_module(t) == "builtins" and t not in _HOLDERS)


def _clean_by(name: str, mod: types.ModuleType, judge, classes: bool = False) -> bool:
    """Every (key, value) of the module's dict passes `judge(mod, key, value)`; remembered by the
    identity of everything the dict held (`classes`: and everything its classes' own dicts held,
    for compiled classes, which no audit of their own watches)."""
    d = checked(mod.__dict__)
    snapshot = tuple(d.keys()) + tuple(d.values())
    if classes:
        held = [class_dict(v) for v in d.values() if is_subclass(type(v), type)]
        snapshot += tuple(x for cd in held for x in (*cd.keys(), *cd.values()))
    hit = _CLEAN.get(name)
    if hit is not None and hit[0] is mod and len(hit[1]) == len(snapshot) and \
            all(map(operator.is_, hit[1], snapshot)):
        return True
    for key, value in d.items():
        if not judge(mod, key, value):
            _CLEAN.pop(name, None)
            return False
    _CLEAN[name] = (mod, snapshot)
    return True


# The modules whose globals a scikit-learn probe's code reads: scikit-learn's own and SciPy's sparse
# ones (`sp.issparse`).
# (scikit-learn 1.9 reads frames through narwhals by name: feature names, sample counts, check_array)
_SKLEARN_ROOTS = ("sklearn", "scipy.sparse", "narwhals")
_SKLEARN_MODULE_PREFIXES = tuple(root + "." for root in _SKLEARN_ROOTS)
# pandas' namespaces scikit-learn's check_array and narwhals look names up in at every call, on any
# input (`isinstance(X, pd.DataFrame)`, `pd.SparseDtype`, `pandas.api.types.is_bool_dtype`).
_SKLEARN_READS_PANDAS = ("pandas", "pandas.api.types")
_SKLEARN_GENERATION: List[Any] = [0, None]  # [generation, the snapshot it was taken of]


def sklearn_generation() -> Optional[int]:
    """A number that changes whenever a loaded module of scikit-learn's (or SciPy's sparse
    package) holds another object under any name: a remembered probe answer keyed by it is asked
    afresh after a notebook patched (or restored) a function the probe's code calls by name.
    None when the modules cannot be read plainly."""
    modules = checked(loaded_module("sys").__dict__).get("modules")
    if type(modules) is not dict:
        return None
    snapshot = []
    for name, mod in list(modules.items()):
        if type(name) is not str:
            return None
        if name in _SKLEARN_ROOTS or name.startswith(_SKLEARN_MODULE_PREFIXES) or name in _SKLEARN_READS_PANDAS:
            if type(mod) is not types.ModuleType:
                return None
            d = checked(mod.__dict__)
            snapshot += (name, mod, *d.keys(), *d.values())
    last = _SKLEARN_GENERATION[1]
    if last is None or len(last) != len(snapshot) or not all(map(operator.is_, last, snapshot)):
        _SKLEARN_GENERATION[0] += 1
        _SKLEARN_GENERATION[1] = snapshot
    return _SKLEARN_GENERATION[0]


# What scikit-learn's modules may hold: the code of these packages or of the standard library.
SKLEARN_PACKAGES = ("sklearn", "scipy", "numpy", "pandas", "joblib", "threadpoolctl", "rich", "narwhals")  # (rich: its progress bars)
_SKLEARN_VERDICT: List[Any] = [None, False]  # [the generation judged, its verdict]


def sklearn_untouched() -> bool:
    """No loaded module of scikit-learn's (or SciPy's sparse package) holds code of anyone else's:
    the rules that read a scikit-learn function's behaviour from its facts, without running it
    (the lengths X and y must share, the feature count a fitted estimator expects, an empty split),
    hold only while the helpers it calls by name are the libraries' own
    (`sklearn.utils.validation.check_consistent_length = lambda *a: None` changes all three).
    Judged again only when a module holds something else (sklearn_generation)."""
    generation = sklearn_generation()
    if generation is None:
        return False
    if _SKLEARN_VERDICT[0] != generation:
        modules = checked(loaded_module("sys").__dict__).get("modules")
        # (only an exact dict is iterated: a subclass's `items` would be the notebook's code)
        judged = [(name, mod) for name, mod in list(modules.items()) if type(name) is str and (
            name in _SKLEARN_ROOTS or name.startswith(_SKLEARN_MODULE_PREFIXES))] \
            if type(modules) is dict else None
        verdict = judged is not None and all(
            type(mod) is types.ModuleType and _clean_by(name, mod, _sklearn_value) for name, mod in judged) \
            and _no_function_in_anothers_place([(n, m) for n, m in judged if not n.startswith("narwhals")]) \
            and all(type(mod) is types.ModuleType and _clean_by(name, mod, _libraries_own)
                    for name, mod in _loaded(_SKLEARN_READS_PANDAS))
        _SKLEARN_VERDICT[:] = [generation, verdict]
    return _SKLEARN_VERDICT[1]


def _loaded(names: Tuple[str, ...]) -> List[Tuple[str, Any]]:
    return [(name, module) for name in names if (module := loaded_module(name)) is not None]


def _no_function_in_anothers_place(judged: List[Tuple[str, types.ModuleType]]) -> bool:
    """No module holds, under a name that some module holds a function of that very name under,
    another function (`validation.check_consistent_length = validation.column_or_1d`: both the
    libraries' own code, doing something else). Aliases the libraries make themselves hold under
    names no function of theirs has (`parse_version = parse`), except in the vendored array-API
    package, whose `get_namespace` is sklearn's own helper's name too."""
    under_own_name: Dict[str, List[Any]] = {}
    elsewhere: List[Tuple[str, Any]] = []
    for name, mod in judged:
        for key, value in checked(mod.__dict__).items():
            if type(key) is not str:
                continue
            if type(value) is functools.partial or type(value) is _LRU_WRAPPER:
                # (a wrapper runs the function it holds: `partial(check_array, ...)` in another's
                # place is caught like the function itself; `lru_cache(signature)` keeps its name)
                inner = value.func if type(value) is functools.partial else instance_dict(value, {}).get("__wrapped__")
                if not (type(inner) is types.FunctionType and _named(inner, key)) and \
                        not name.startswith("sklearn.externals."):
                    elsewhere.append((key, value))
                continue
            if type(value) is not types.FunctionType:
                continue
            if _named(value, key):
                under_own_name.setdefault(key, []).append(value)
            elif not name.startswith("sklearn.externals."):
                elsewhere.append((key, value))
    return not any(f is not value for key, value in elsewhere for f in under_own_name.get(key, ()))


def _sklearn_value(mod: types.ModuleType, key: Any, value: Any, depth: int = 0) -> bool:
    """`value`, held at `key` in a module of scikit-learn's, is data, a C function (one of Python's
    builtins only under its own name), a module loaded under its own name, or code (a function, a
    class's methods) from SKLEARN_PACKAGES' files or the standard library's; a compiled function
    only under the name it was compiled with (or one the module's file gives it). A Python function
    of the libraries' put in another's place is `_no_function_in_anothers_place`'s to see."""
    t = type(value)
    if type(key) is not str:
        return False
    if any(t is c for c in _DATA) or (key.startswith("__") and key.endswith("__")):
        return True
    if t is types.ModuleType:
        return _real_module(value, SKLEARN_PACKAGES)
    if t is types.BuiltinFunctionType:
        # (a builtin under another name, `check_consistent_length = print`, does nothing it did)
        return _true_name(value) == key or _SELF.__get__(value) is not builtins
    if t is types.FunctionType:
        # (and made in its own module, with its globals and builtins: the same code remade around
        # another dict, `FunctionType(f.__code__, {**globals, 'ValueError': KeyError})`, is not)
        return (any(_file_in(value.__code__.co_filename, p) for p in SKLEARN_PACKAGES) or
                _standard_library_code(value)) and module_of_globals(value) is not None
    if depth < 3 and t is functools.partial:
        return _sklearn_value(mod, key, value.func, depth + 1)
    if depth < 3 and t is types.MethodType:
        # (narwhals binds a class's own classmethod at module level: `from_dicts = DataFrame.from_dicts`)
        owner, func = _METHOD_SELF.__get__(value), _METHOD_FUNC.__get__(value)
        return issubclass(type(owner), type) and _sklearn_value(mod, key, owner, depth + 1) and \
            _sklearn_value(mod, key, func, depth + 1)
    if depth < 3 and t is _LRU_WRAPPER:
        return _sklearn_value(mod, key, instance_dict(value, {}).get("__wrapped__"), depth + 1)
    if class_name(t) in _COMPILED_FUNCTIONS and not issubclass(t, type):
        return _compiled_module_value(mod, key, value)
    if issubclass(t, type):
        if plain_class(value) and class_module(value).split(".", 1)[0] in _STDLIB_CLASS_HOMES:
            return True  # (`from pathlib import Path`)
        return _library_made(value, SKLEARN_PACKAGES) and (plain_class(value) or _library_made(t, SKLEARN_PACKAGES))
    if is_static_type(t):
        if any(t is k for k in _HOLDERS):
            return False
        if class_name(t) in _COMPILED_FUNCTIONS:
            return _compiled_module_value(mod, key, value)  # (older Cython's static function types)
        if class_module(t).split(".", 1)[0] in SKLEARN_PACKAGES:
            # (NumPy's ufuncs and dispatchers: C, and a dispatcher runs the function it was made for)
            inner = instance_dict(value, {}).get("_implementation") if lookup_static(t, "_implementation", None) \
                is not None else None
            return inner is None or (depth < 3 and _sklearn_value(mod, key, inner, depth + 1))
        return lookup_static(t, "__dict__", None) is None  # (`types.SimpleNamespace(f=...)` holds anything)
    return _library_made(t, SKLEARN_PACKAGES) and (plain_class(t) or _library_made(type(t), SKLEARN_PACKAGES))


_METHOD_SELF, _METHOD_FUNC = types.MethodType.__dict__["__self__"], types.MethodType.__dict__["__func__"]


# Where scikit-learn's modules' compiled functions come from (their code's file names).
_SKLEARN_COMPILED_FILES = ("sklearn/", "scipy/")


def _compiled_module_value(mod: types.ModuleType, key: str, value: Any) -> bool:
    """A compiled function in one of scikit-learn's (or SciPy's sparse) modules: compiled, which
    a notebook cannot write, but it can put one in another's place (`validation.cy_isfinite = ...`)."""
    if key.startswith("__pyx_") or (key.startswith("__") and key.endswith("__")):
        return True  # (Cython's pickling helpers and the module's dunders: nothing the code calls)
    return compiled_code_named(value, key, _SKLEARN_COMPILED_FILES, mod)


def _pandas_value(mod: types.ModuleType, key: Any, value: Any) -> bool:
    """`value`, held at `key` in one of pandas' module dicts, is the libraries' own code (pandas',
    NumPy's, the standard library's or compiled) under the name the module's file gives it."""
    if type(key) is not str:
        return False
    t = type(value)
    if t is types.ModuleType:
        return _real_module(value)
    if any(t is c for c in _DATA) or (key.startswith("__") and key.endswith("__")):
        return True
    if t is types.FunctionType:
        return _library_function(value) and (_named(value, key) or _given_name(mod, key, _true_name(value)))
    if t is types.BuiltinFunctionType:
        made = _true_name(value)
        return made == key or _given_name(mod, key, made)
    if t is functools.partial:
        return _library_function(value.func)
    if t is _LRU_WRAPPER:
        # (the function it calls is held in C; the one functools.wraps recorded stands for it)
        inner = instance_dict(value, {}).get("__wrapped__")
        return _library_function(inner) and (_named(inner, key) or _given_name(mod, key, _true_name(inner)))
    if class_name(t) in _COMPILED_FUNCTIONS and not issubclass(t, type):
        # (compiled, which a notebook cannot write, but it can put one of pandas' compiled functions
        # in another's place: `frame.is_list_like = lib.is_bool`)
        return compiled_code_named(value, key, _PANDAS_COMPILED_FILES)
    if is_static_type(t) and t is not type:
        # (C objects that run no one's code but their library's; a bound method, a static or class
        # method or a property may hold anyone's function, and so may an object with a dict of its
        # own, `types.SimpleNamespace(apply_if_callable=f)` standing in for a module)
        return not any(t is k for k in _HOLDERS) and lookup_static(t, "__dict__", None) is None and \
            class_module(t).split(".", 1)[0] in _C_MODULES
    cls = value if issubclass(t, type) else t
    return _library_made(cls, _PACKAGES) and (plain_class(cls) or _library_made(type(cls), _PACKAGES))


def _library_function(fn: Any) -> bool:
    if type(fn) is not types.FunctionType:
        return False
    filename = fn.__code__.co_filename
    if _file_in(filename, "pandas"):
        return own(fn, "pandas")
    if _file_in(filename, "numpy"):
        return _numpy_function(fn)
    return _standard_library_code(fn)


_GIVEN: Dict[str, Dict[str, set]] = {}  # module file -> {name bound at module level: the names it may hold}


def _given_name(mod: types.ModuleType, key: str, made: str) -> bool:
    """The module's file binds `key` to something made as `made` (`from m import made as key`,
    `key = m.made`, `key = made` at module level), as its compiled top-level code says; read only
    when a name differs, which few do (`pd_array`, `isnull`)."""
    file = checked(mod.__dict__).get("__file__")
    if type(file) is not str:
        return False
    table = _GIVEN.get(file)
    if table is None:
        code = module_code(mod)
        table = _GIVEN[file] = _module_bindings(code) if code is not None else {}
    return made in table.get(key, ())


def _module_bindings(code: types.CodeType) -> Dict[str, set]:
    """{name: the names it is bound from} for each top-level store whose value is an imported or
    looked-up name: the instruction before the store names what is stored."""
    out: Dict[str, set] = {}
    previous = None
    for ins in dis.get_instructions(code):
        if ins.opname in ("STORE_NAME", "STORE_GLOBAL") and previous is not None and \
                previous.opname in ("IMPORT_FROM", "LOAD_NAME", "LOAD_ATTR", "LOAD_GLOBAL") and \
                type(previous.argval) is str:
            out.setdefault(ins.argval, set()).add(previous.argval)
        previous = ins
    return out


__all__ = ["numpy_untouched", "pandas_untouched", "sklearn_generation", "sklearn_untouched", "NUMPY_MODULES",
           "PANDAS_MODULES"]


# pandas' compiled modules, whose functions its Python code calls by attribute (`lib.is_scalar`,
# `libindex.ObjectEngine`): a notebook can rebind any of them (`pandas._libs.lib.item_from_zerodim
# = ...` made `df['zz']` select another column).
PANDAS_COMPILED_MODULES = tuple(f"pandas._libs.{m}" for m in (
    "lib", "hashtable", "index", "algos", "missing", "internals", "ops", "join", "properties", "reshape", "writers"))
_PANDAS_COMPILED_FILES = "pandas/_libs/"
_BUILTIN_OWNER = types.BuiltinFunctionType.__dict__["__self__"]


def pandas_compiled_untouched() -> bool:
    """Each loaded module of PANDAS_COMPILED_MODULES holds, under each name, pandas' compiled function
    of that name (or a class of pandas' own, a module, or data)."""
    for name in PANDAS_COMPILED_MODULES:
        mod = loaded_module(name)
        if mod is not None and (type(mod) is not types.ModuleType or
                                not _clean_by(name, mod, _compiled_pandas_value, classes=True)):
            return False
    return True


def _compiled_pandas_value(mod: types.ModuleType, key: Any, value: Any) -> bool:
    if type(key) is not str:
        return False
    if key.startswith("__pyx_") or (key.startswith("__") and key.endswith("__")):
        return True  # (Cython's own pickling helpers and the module's dunders: nothing pandas calls)
    t = type(value)
    if t is types.BuiltinFunctionType:
        try:
            owner = _BUILTIN_OWNER.__get__(value)
        except Exception:
            return False
        owner_name = checked(owner.__dict__).get("__name__") if type(owner) is types.ModuleType else None
        # (pandas' own, NumPy's, or the interpreter's built in: `from sys import getsizeof`)
        return type(owner_name) is str and (owner_name.startswith(("pandas.", "numpy")) or
                                            owner_name in sys.builtin_module_names) and _true_name(value) == key
    if class_name(t) in _COMPILED_FUNCTIONS and not issubclass(t, type):
        return compiled_code_named(value, key, _PANDAS_COMPILED_FILES)
    if issubclass(t, type) and not _methods_in_place(value):
        return False  # (`ObjectEngine.get_loc = lib.is_scalar`: compiled, in another's place)
    return _pandas_value(mod, key, value)


def _methods_in_place(cls: Any) -> bool:
    """Every compiled function or builtin in the dictionaries of pandas' classes along `cls`'s MRO
    is the one made for its name there (provenance.compiled_in_place)."""
    return all(compiled_in_place(klass, k, v) for klass in mro(cls) if class_module(klass).split(".", 1)[0] == "pandas"
               for k, v in class_dict(klass).items() if type(k) is str)


def compiled_code_named(fn: Any, name: str, files: Any, mod: Optional[types.ModuleType] = None) -> bool:
    """`fn` is a Cython function compiled from `files` (a path prefix, or a tuple of them) under
    `name`, or under the name `mod`'s file gives it as `name` (`from .fast import mean_variance as
    _mean_var`); a fused one's typed versions likewise. Its code is read through the
    compiled-function type's own C descriptor, which refuses any other object and cannot be
    written; the `__name__` and `__module__` a notebook can rewrite are not trusted."""
    code = _compiled_code(fn, files)
    if code is None:
        return False
    # (a fused function's name is mangled, `__pyx_fuse_0value_count`, its versions' are typed,
    # `mode[ndarray[int8_t,ndim=1]]`; an alias keeps its own, `_unique_label_indices_int64`)
    made = code.co_name.split("[")[0]
    if name not in code.co_name and not (mod is not None and _given_name(mod, name, made)):
        return False
    t = type(fn)
    signatures = lookup_static(t, "__signatures__", None)
    try:
        table = signatures.__get__(fn, t) if signatures is not None else None
    except Exception:
        return False
    if table is None:
        return True
    # (a dict, or in newer Cython a read-only view of the one it keeps)
    if type(table) not in (dict, types.MappingProxyType):
        return False
    for key, version in table.items():
        inner = _compiled_code(version, files)
        if type(key) is not str or inner is None or not (
                name in inner.co_name or inner.co_name.split("[")[0] == made or made in inner.co_name):
            return False
    return True


def _compiled_code(fn: Any, files: Any) -> Optional[types.CodeType]:
    """A compiled function's code when it was compiled from `files`."""
    code = compiled_code(fn) if class_name(type(fn)) in _COMPILED_FUNCTIONS else None
    if code is None:
        return None
    # (relative to the source tree, `pandas/_libs/lib.pyx`, or the build's own absolute path)
    path = code.co_filename.replace("\\", "/")
    prefixes = (files,) if type(files) is str else files
    return code if any(path.startswith(p) or "/" + p in path for p in prefixes) else None
