"""Reading `value.attr`: AttributeError when the attribute certainly does not exist.

The answer comes from the value (`has_attr`): None has a fixed set of attributes; classes and
instances without a custom `__getattr__` have exactly what `getattr_static` finds; NumPy lists the
attributes it removed; a pandas DataFrame hands out only its columns as extra attributes. Reading an
attribute that exists yields what the checker can know of it without running a property getter.
"""

from __future__ import annotations

import builtins as _BUILTINS_MODULE
import types
from dataclasses import dataclass

from ..static_reads import TRAPPED_BUILTINS, checked, loaded_module
from ..class_facts import _MISSING, ndarray_type, own_column_arrays, pandas_types, pristine_pandas
from ..bare_imports import bound_in_kernel
from ..live_adapter import LiveValue, _is_data_descriptor
from ..outcome import CertainCrash, Crash, Stop
from ..provenance import class_dict, class_module, instance_dict, is_static_type, lookup_static, mro, plain_class
from . import accessors, estimators, frames, tensors
from ..removed_api import FRAME_ATTRIBUTES_OF_PAST_PANDAS, removed_note
from ..replay import ReplayValue
from ..suggest import closest, correct, hint_for
from ..abstract_values import NOTHING, ArrayFacts, BoundMethod, FactValue, Facts, Opaque, Value

_PLAIN_PROPS = {"columns", "index", "shape", "dtypes", "dtype", "ndim", "size", "name", "empty", "axes",
                "itemsize", "nbytes"}


def read(interp, base: Value, attr: str, node) -> Value:
    accessors.check(base, attr, node)
    has = base.has_attr(attr)
    owner = _owner(base)
    if has is False:
        c = base.concrete()
        what = "None" if c is None and c is not NOTHING else f"{owner}"
        if c is None and base.name:
            note = getattr(base, "note", None)
            what = f"`{base.name}` is None{f' ({note})' if note else ''}, and None"
        removed = ""
        if base.kind() == "module":
            removed = " (the installed version does not provide it)"
        elif base.kind() in ("frame", "series", "ndarray", "estimator") and not isinstance(base, ReplayValue):
            removed = " in the installed version"  # (a recorded frame lacks it in every pandas)
        gone = removed_note(base, attr)
        if gone is not None:
            # A removed API is not a typo: say so, and offer no near name.
            raise Crash(CertainCrash("AttributeError", node.lineno, node.col_offset,
                                     f"{what} has no attribute `{attr}`: {gone}.", "missing-attribute",
                                     [base.name] if base.name else []))
        near = closest(attr, _attribute_names(base))
        crash = CertainCrash("AttributeError", node.lineno, node.col_offset,
                             f"{what} has no attribute `{attr}`{removed}.{hint_for(near)}",
                             "missing-attribute", [base.name] if base.name else [])
        correct(crash, "." + attr, None if near is None else "." + near)
        raise Crash(crash)
    if has is None or (has and base.kind() == "estimator"):
        estimators.unfitted_attribute(base, attr, node)
    if has is None and column_attribute(base, attr):
        return frames.getitem(interp, base, LiveValue(attr), node)
    if has is None:
        raise Stop(node.lineno, f"reading `.{attr}` on {owner}, which may run code the checker cannot see")
    if base.kind() == "tensor":
        return tensors.read_attr(interp, base, attr, node)
    if isinstance(base, LiveValue):
        return _read_live(interp, base, attr, node)
    kind = base.kind()
    frame = base.frame()
    if frame is not None:
        if attr == "columns" and frame.columns is not None and frame.ordered:
            return FactValue("index", items=[LiveValue(c) for c in frame.columns])
        if attr == "shape" and frame.columns is not None and frame.nrows is not None:
            return LiveValue((frame.nrows, len(frame.columns)))
        if attr == "values":
            ncols = len(frame.columns) if frame.columns is not None else None
            return FactValue("ndarray", array=ArrayFacts(shape=(frame.nrows, ncols)
                                                         if frame.nrows is not None and ncols is not None else None))
        if attr in ("loc", "iloc"):
            return Indexer(base, attr)
    if kind == "series" and attr == "iloc":
        return Indexer(base, attr)
    if kind == "series" and attr in ("shape", "values"):
        n = base.series_length()
        if attr == "shape":
            return LiveValue((n,)) if n is not None else Opaque("tuple")
        return FactValue("ndarray", array=ArrayFacts(shape=(n,) if n is not None else None))
    arr = base.array()
    if arr is not None and attr == "shape" and arr.shape is not None and None not in arr.shape:
        return LiveValue(tuple(arr.shape))
    if arr is not None and attr == "T" and kind == "ndarray" and arr.shape is not None:
        # (NumPy's own transpose: the axes reversed, whatever subclass the recording saw)
        return FactValue("ndarray", array=ArrayFacts(shape=tuple(reversed(arr.shape)), kind=arr.kind))
    if kind in ("frame", "series", "ndarray", "estimator", "list", "dict", "str", "ipython", "groupby",
                "confusion-display"):
        return BoundMethod(base, attr)
    raise Stop(node.lineno, f"reading `.{attr}` on {owner}")


def column_attribute(base: Value, attr: str) -> bool:
    """`df.attr` is the column `attr`, as pandas' own `NDFrame.__getattr__` hands it out: nothing of
    that name on the frame or its class, the name not one pandas keeps for itself, and the columns a
    flat Index of text labels of a dtype pandas looks names up in (object, text, categorical). Only
    for the kernel's own frames (a frame the cell changed in place too) and recorded ones: in a
    replay, the name also must not be one an older pandas had (`df.last` was a method), nor one an
    executed cell set, nor may any of them have set a private attribute (pandas reads `_metadata`
    and the like from the frame itself)."""
    frame = base.frame()
    if base.kind() != "frame" or frame is None or not frame.flat or frame.columns is None \
            or not all(type(c) is str for c in frame.columns) or frame.has_column(attr) is not True:
        return False
    frame_cls, _, _ = pandas_types()
    if frame_cls is None or not pristine_pandas(frame_cls) or _kept_by_pandas(frame_cls, attr) \
            or lookup_static(frame_cls, attr, _MISSING) is not _MISSING:
        return False
    if isinstance(base, ReplayValue):
        return base.plain_column_index and base.set_attrs is not None and attr not in base.set_attrs \
            and not any(name.startswith("_") for name in base.set_attrs) \
            and attr not in FRAME_ATTRIBUTES_OF_PAST_PANDAS and base.facts.cls is frame_cls
    # (a frame the cell changed in place is still the kernel's object: what it holds counts)
    obj = base.obj if isinstance(base, LiveValue) else getattr(base, "stands_for", None)
    return obj is not None and type(obj) is frame_cls and _names_looked_up(obj, attr)


# What pandas itself keeps in a frame's `__dict__`; anything else private there may be what
# `NDFrame.__getattr__` reads instead of its class's (`df._metadata = [...]`).
_FRAME_OWN_FIELDS = frozenset({"_mgr", "_attrs", "_flags", "_item_cache", "_cache", "_is_copy", "_cacher"})


def _names_looked_up(df, attr: str) -> bool:
    """The kernel's frame hands out `attr` as a column: nothing of that name, nor any private name
    pandas did not put there, in its own `__dict__`, and a column Index pandas looks names up in."""
    inst = instance_dict(df)
    if type(inst) is not dict or attr in inst or any(
            type(k) is not str or (k.startswith("_") and k not in _FRAME_OWN_FIELDS) for k in inst):
        return False
    try:
        dtype = df.columns.dtype  # (pandas' own property: the frame's classes are unpatched)
    except Exception:
        return False
    np, pd = loaded_module("numpy"), loaded_module("pandas")
    if np is None or pd is None:
        return False
    text_dtypes = tuple(t for t in (checked(pd.__dict__).get("StringDtype"), checked(pd.__dict__).get("CategoricalDtype"))
                        if type(t) is type)
    return (isinstance(dtype, np.dtype) and dtype.kind == "O") or type(dtype) in text_dtypes


def _kept_by_pandas(frame_cls: type, attr: str) -> bool:
    """Names `NDFrame.__getattr__` never looks up among the columns (its internal names, metadata
    and accessors), read from the class as plain sets and lists of text; unknown counts as kept."""
    if attr.startswith("_"):
        return True
    for name in ("_internal_names_set", "_metadata", "_accessors"):
        held = lookup_static(frame_cls, name, _MISSING)
        if type(held) not in (set, frozenset, list) or not all(type(x) is str for x in held) or attr in held:
            return True
    return False


def _attribute_names(base: Value):
    """The public attribute names a live object statically has (class dictionaries along its MRO,
    its own `__dict__`, a module's globals): what a misspelt attribute may have meant."""
    if isinstance(base, ReplayValue) and base.facts.cls is not None:
        frame = base.frame() if base.kind() == "frame" else None
        names = [c for c in (frame.columns or []) if type(c) is str and c.isidentifier()] if frame else []
        return names + [k for klass in mro(base.facts.cls) for k in class_dict(klass)
                        if type(k) is str and not k.startswith("_")]
    if not isinstance(base, LiveValue):
        return []
    obj = base.obj
    if type(obj) is types.ModuleType:
        return [k for k in obj.__dict__ if type(k) is str and not k.startswith("_")]
    names = []
    inst = instance_dict(obj)
    if type(inst) is dict:
        names.extend(inst)
    # (by the real type: isinstance would read a `__class__` the object's class defines)
    for klass in mro(obj if issubclass(type(obj), type) else type(obj)):
        names.extend(class_dict(klass))
    # Only exact strings are kept (and only then hashed): a key of another type may hash in user code.
    names = [k for k in names if type(k) is str and not k.startswith("_")]
    frame = base.frame() if base.kind() == "frame" else None
    if frame is not None and frame.columns is not None:
        # (`df.Age` for the column 'age': the columns pandas hands out as attributes come first)
        taken = set(names)
        names[:0] = [c for c in frame.columns if type(c) is str and c.isidentifier() and c not in taken]
    return names


@dataclass(eq=False)
class Indexer(Value):
    """`df.loc` / `df.iloc`: subscripting it is what the frame rules model."""

    frame_value: Value
    how: str
    facts = Facts("indexer")


def _read_live(interp, base: LiveValue, attr: str, node) -> Value:
    obj = base.obj
    cls = type(obj)
    if cls is types.ModuleType:
        if obj is _BUILTINS_MODULE and attr in TRAPPED_BUILTINS:
            raise Stop(node.lineno, f"reading `builtins.{attr}`, which IPython changes while a cell runs")
        if attr not in checked(obj.__dict__):
            raise Stop(node.lineno, f"reading `.{attr}` on a module")
        found = checked(obj.__dict__)[attr]
        if interp.recorded is not None and type(found) is types.ModuleType:
            dotted = checked(found.__dict__).get("__name__")
            if dotted == f"{checked(obj.__dict__).get('__name__')}.{attr}" and \
                    not bound_in_kernel(obj, attr, dotted, interp.recorded.modules):
                # (this process may have imported it for its own reasons; the recorded kernel, only
                # if something there did: `import matplotlib` alone binds no `matplotlib.pyplot`)
                raise Stop(node.lineno, f"reading the submodule `{dotted}`, which the recorded kernel may not have imported")
        return interp.unshadow(LiveValue(found))
    is_class = issubclass(cls, type)
    on_meta = False
    if is_class:
        # For a class, the metaclass's data descriptors come first (`A.__name__` is type's, whatever
        # the class body set), and what only the metaclass has is bound to the class (`A.register`).
        meta = lookup_static(cls, attr, _MISSING)
        if meta is not _MISSING and _is_data_descriptor(meta):
            raise Stop(node.lineno, f"reading `.{attr}`, which the class's metaclass computes")
    found = lookup_static(obj if is_class else cls, attr, _MISSING)
    if found is _MISSING and is_class:
        found, on_meta = lookup_static(cls, attr, _MISSING), True
    inst = None if is_class else instance_dict(obj)
    if inst is not None and attr in inst and (found is _MISSING or not _is_data_descriptor(found)):
        return interp.unshadow(LiveValue(inst[attr]))
    if found is _MISSING:
        raise Stop(node.lineno, f"reading `.{attr}`, which the checker cannot find")
    ft = type(found)
    if issubclass(ft, (types.FunctionType, types.MethodDescriptorType, types.BuiltinFunctionType,
                       types.WrapperDescriptorType, classmethod, staticmethod, types.ClassMethodDescriptorType)):
        if on_meta and issubclass(ft, (staticmethod, classmethod)):
            raise Stop(node.lineno, f"reading `.{attr}`, a metaclass's class or static method")
        if is_class and not on_meta:
            if issubclass(ft, (staticmethod, classmethod)):
                return BoundMethod(base, attr, found)
            return LiveValue(found)
        return BoundMethod(base, attr, found)
    if plain_class(ft) and lookup_static(ft, "__get__", _MISSING) is _MISSING:
        return interp.unshadow(LiveValue(found))
    frame_cls, series_cls, _ = pandas_types()
    # (a frame's `dtypes`, `shape`, `size` ask its arrays and axes, which may be the notebook's classes)
    plain_library = (cls is frame_cls or cls is series_cls) and pristine_pandas(cls) and own_column_arrays(obj) \
        or cls is ndarray_type()
    if attr in _PLAIN_PROPS and plain_library:
        return LiveValue(getattr(obj, attr))
    if (attr in ("loc", "iloc") and cls is frame_cls or attr == "iloc" and cls is series_cls) and plain_library:
        return Indexer(base, attr)
    if attr == "values" and cls is frame_cls and plain_library:
        f = base.frame()
        if f is not None:
            return FactValue("ndarray", array=ArrayFacts(shape=(f.nrows, len(f.columns))))
    if attr == "T" and cls is ndarray_type():
        return FactValue("ndarray", array=ArrayFacts(shape=tuple(reversed(obj.shape)), kind=obj.dtype.kind))
    if issubclass(ft, (types.GetSetDescriptorType, types.MemberDescriptorType)) and plain_class(cls) \
            and is_static_type(cls) and class_module(cls) == "builtins":
        return LiveValue(getattr(obj, attr))
    raise Stop(node.lineno, f"reading `.{attr}`, a computed attribute")


def _owner(base: Value) -> str:
    c = base.concrete()
    if c is None:
        return "None"
    if base.kind() == "module" and c is not NOTHING:
        return f"the module `{c.__name__}`"
    t = base.type_name()
    label = f"`{base.name}`" if base.name else "the value"
    if t:
        return f"{label} (a {t.rsplit('.', 1)[-1]})"
    return label
