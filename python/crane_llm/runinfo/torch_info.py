"""PyTorch tensors, DataLoaders and Subsets.

A DataLoader's row in the README's table ("What the runtime information contains") needs real samples, so this is the one place that calls
into a dataset (`__len__`, `__getitem__`) and the loader's collate function. It reads the first
samples by index (never through the sampler or an iterator, so nothing is consumed), runs under
the hard time limit, and puts the `random`, NumPy and torch RNG states back afterwards, since
dataset transforms commonly draw random numbers.

Nothing else of anyone's runs. Torch's members are read from its modules' dictionaries (a module's
`__getattr__` would run for a missing name); a tensor is read only when torch's tensor classes are
its own (torch_facts: what the checker requires), and then through `TensorBase`'s C descriptors (a
static type nobody can patch; a tensor's own `__dict__` could shadow a method); the RNG states are
saved and put back through the generators' C methods, not the module functions a notebook may
rebind; torch's default collate runs only while its module is torch's own code; and a Subset's
indices, a loader's flags, a sample's structure are read only from exact builtin types.
"""

from __future__ import annotations

import types
from typing import Any, Dict, List, Optional

from ..checks.provenance import is_subclass, own_call
from ..checks.static_reads import (checked, class_dict, class_module, class_name, instance_dict, is_static_type,
                                   loaded_module, lookup_static)
from ..checks.torch_facts import _parameter_meta_own, own_type_loose, tensor_class
from ..deadline import after_foreign_code
from .rng_state import NotOwn, rng_keepers, rng_preserved
from .safe import NAME_MAX, cut, loaded, member, one_of, plain_type, type_name

SAMPLES_SHOWN = 10
FIELDS_SHOWN = 20
# Past this many elements NaN is looked for in an evenly strided view of about NAN_SAMPLE of them:
# one C reduction cannot be interrupted by the hard stop (`torch.zeros(1).expand(4_000_000_000)`
# holds no memory, yet its `min()` takes 40 s).
NAN_SCAN_MAX = 10 ** 7
NAN_SAMPLE = 10 ** 6

TENSOR_NOT_OWN = ("torch's tensor classes were changed in this kernel, or a torch function mode is active "
                  "(their code would run as the tensor is read)")
COLLATE_NOT_OWN = "torch's collate functions were changed in this kernel (the changed code would run)"
METACLASS = "its dataset's class has a metaclass of the notebook's (any look at it could run its code)"
INDICES = "its indices are not a plain list, tuple, range or integer array of ints"


def _data(name: str) -> Any:
    return member(loaded_module("torch.utils.data"), name)


def tensor_types(torch: Any) -> tuple:
    """torch.Tensor and torch.nn.Parameter, the very classes torch's modules hold, when their
    metaclasses are torch's (comparing a value's type with them then runs nothing of anyone's)."""
    tensor = member(torch, "Tensor")
    meta = type(tensor)
    if tensor is None or meta is type or not is_static_type(meta) or not is_subclass(meta, type):
        return ()  # (torch.Tensor's metaclass is torch's C one)
    param = member(loaded_module("torch.nn.parameter"), "Parameter")
    if param is not None and is_subclass(type(param), type) and plain_type(param) and is_subclass(param, tensor):
        return (tensor, param)
    return (tensor,)


# -- tensors --------------------------------------------------------------------------------------

def _own_parameter(cls: Any) -> bool:
    """`cls` is torch.nn.Parameter, with torch's own metaclass and methods (torch_facts' test)."""
    param = member(loaded_module("torch.nn.parameter"), "Parameter")
    return param is not None and cls is param and _parameter_meta_own(param) and own_type_loose(param)


def tensor_base(torch: Any, t: Any) -> Any:
    """TensorBase's dictionary when `t` is exactly a torch.Tensor or Parameter whose Python classes
    hold only torch's code, with no torch-function or dispatch mode active (torch_facts.tensor_class);
    else None."""
    cls = tensor_class()
    if cls is None or (type(t) is not cls and not _own_parameter(type(t))):
        return None
    base = member(member(torch, "_C"), "TensorBase")
    if base is None or not is_static_type(base) or not is_subclass(cls, base):
        return None
    return class_dict(base)


def _get(base: Any, name: str, t: Any) -> Any:
    """A C getter of TensorBase (`shape`, `dtype`, `is_sparse`) on `t`."""
    slot = base.get(name)
    if type(slot) is not types.GetSetDescriptorType:
        raise TypeError("TensorBase." + name + " is not a C getter")
    return slot.__get__(t)


def _call(base: Any, name: str, t: Any, *args: Any) -> Any:
    """A C method of TensorBase (`numel`, `min`, `__getitem__`) on `t`."""
    fn = base.get(name)
    if type(fn) is not types.MethodDescriptorType and type(fn) is not types.WrapperDescriptorType:
        raise TypeError("TensorBase." + name + " is not a C method")
    return fn(t, *args)


def _shape(base: Any, t: Any) -> List[int]:
    return [d for d in _get(base, "shape", t) if type(d) is int]  # (torch.Size: a C tuple of ints)


def _dtype(base: Any, t: Any) -> str:
    dtype = _get(base, "dtype", t)
    text = str(dtype) if is_static_type(type(dtype)) else "?"  # (torch.dtype: a C type)
    return text[6:] if text.startswith("torch.") else text


def tensor_summary(torch: Any, t: Any) -> Dict[str, Any]:
    base = tensor_base(torch, t)
    if base is None:
        return {"kind": "unavailable", "reason": TENSOR_NOT_OWN}
    device = _get(base, "device", t)
    grad = _get(base, "requires_grad", t)
    return {
        "kind": "tensor",
        "shape": _shape(base, t),
        "dtype": _dtype(base, t),
        "device": str(device) if is_static_type(type(device)) else "?",
        "requiresGrad": grad if type(grad) is bool else False,
        "hasNaN": _tensor_has_nan(base, t),
    }


def _tensor_has_nan(base: Any, t: Any) -> Optional[bool]:
    if not (_call(base, "is_floating_point", t) is True or _call(base, "is_complex", t) is True):
        return False
    n = _call(base, "numel", t)
    if type(n) is not int:
        return None
    if n == 0:
        return False
    if _call(base, "is_complex", t) is True or any(_get(base, flag, t) is not False for flag in _NOT_DENSE):
        return None
    # A detached view records no autograd graph (no `torch.no_grad`, a Python class, is needed).
    view = _call(base, "detach", t)
    if n <= NAN_SCAN_MAX:
        return _min_is_nan(base, view)
    # Too many to scan in one uninterruptible call: a NaN in the sample is one in the tensor; none
    # there says nothing (unknown).
    return True if _min_is_nan(base, _strided_sample(base, view)) else None


_NOT_DENSE = ("is_sparse", "is_meta", "is_nested", "is_quantized", "is_mkldnn")


def _min_is_nan(base: Any, t: Any) -> Optional[bool]:
    """NaN propagates through `min`: one reduction, no mask the size of the tensor."""
    try:
        found = _call(base, "item", _call(base, "isnan", _call(base, "min", t)))
    except (RuntimeError, NotImplementedError):  # a dtype with no `min` (float8): unknown
        return None
    return found if type(found) is bool else None


def _strided_sample(base: Any, t: Any) -> Any:
    """A view of `t` that keeps every k-th index along each dimension, about NAN_SAMPLE elements in
    all (basic slicing: no copy, whatever the strides)."""
    shape = _shape(base, t)
    steps = [1] * len(shape)
    kept = list(shape)
    while _product(kept) > NAN_SAMPLE:
        i = max(range(len(kept)), key=kept.__getitem__)
        steps[i] *= 2
        kept[i] = -(-shape[i] // steps[i])
    return _call(base, "__getitem__", t, tuple(slice(None, None, s) for s in steps))


def _product(values: List[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


# -- samples ---------------------------------------------------------------------------------------

_SCALARS = (int, float, bool, str, bytes)


def structure(value: Any, depth: int = 0) -> str:
    """A sample's shape as text: `(Tensor[3, 32, 32] float32, int)`. Types are compared by identity
    only (`in` or `==` would call a metaclass's `__eq__`), and only exact containers are looked into."""
    t = type(value)
    if value is None:
        return "None"
    if one_of(t, _SCALARS):
        return class_name(t)
    torch = loaded("torch")
    if torch is not None and one_of(t, tensor_types(torch)):
        base = tensor_base(torch, value)
        if base is not None:
            return "Tensor[" + ", ".join(str(d) for d in _shape(base, value)) + "] " + _dtype(base, value)
        return type_name(value)
    if _numpy_array(value):
        return "ndarray[" + ", ".join(str(int(d)) for d in value.shape) + "] " + str(value.dtype)
    if is_static_type(t) and class_module(t) == "numpy":  # a NumPy scalar (its C type)
        return class_name(t)
    if depth < 3 and (t is tuple or t is list):
        items = [structure(v, depth + 1) for v in value[:8]]
        more = ", ..." if len(value) > 8 else ""
        return ("(" if t is tuple else "[") + ", ".join(items) + more + (")" if t is tuple else "]")
    if depth < 3 and t is dict:
        items = [_key_text(k) + ": " + structure(v, depth + 1) for k, v in list(dict.items(value))[:8]]
        return "{" + ", ".join(items) + "}"
    return type_name(value)


def _key_text(key: Any) -> str:
    """A dict key as text only when it is an exact str or int (another key's `__str__` would run)."""
    if type(key) is str:
        return cut(key, NAME_MAX)
    return str(key) if type(key) is int else "?"


def _numpy_array(value: Any) -> bool:
    """An exact ndarray (a C type with no instance dictionary: `.shape`, `.dtype` are its getters)."""
    np = loaded("numpy")
    return np is not None and type(value) is member(np, "ndarray")


def _plain_sample(value: Any, depth: int = 0) -> bool:
    """What torch's default collate may be given: scalars, readable tensors, NumPy arrays and
    scalars, in exact tuples, lists and str- or int-keyed dicts (its `isinstance` tests, dictionary lookups
    by type and `copy.copy` would run the hooks of anything else)."""
    t = type(value)
    if value is None or one_of(t, _SCALARS):
        return True
    torch = loaded("torch")
    if torch is not None and one_of(t, tensor_types(torch)):
        return tensor_base(torch, value) is not None
    if _numpy_array(value) or (is_static_type(t) and class_module(t) == "numpy"):
        return True
    if depth < 4 and (t is tuple or t is list):
        return all(_plain_sample(v, depth + 1) for v in value)
    if depth < 4 and t is dict:
        return all((type(k) is str or type(k) is int) and _plain_sample(v, depth + 1) for k, v in dict.items(value))
    return False


def _is_subset(obj: Any) -> bool:
    subset = _data("Subset")
    return subset is not None and type(obj) is subset


def _base_dataset(ds: Any) -> Any:
    for _ in range(8):
        if not _is_subset(ds):
            break
        ds = instance_dict(ds, {}).get("dataset")
    return ds


def _fields(ds: Any) -> List[Dict[str, str]]:
    base = _base_dataset(ds)
    out = []
    for name, value in instance_dict(base, {}).items():
        if name.startswith("__"):
            continue
        out.append({"name": cut(name, NAME_MAX) if type(name) is str else "?", "type": type_name(value)})
        if len(out) == FIELDS_SHOWN:
            break
    return out


def _index_count(torch: Any, indices: Any) -> Optional[int]:
    """How many indices a Subset holds: an exact list, tuple or range, a 1-D NumPy array, or a 1-D
    readable tensor (a subclass's `__len__` would run)."""
    t = type(indices)
    if t is list or t is tuple or t is range:
        return len(indices)
    if _numpy_array(indices):
        return int(indices.shape[0]) if indices.ndim == 1 else None
    base = tensor_base(torch, indices) if torch is not None and one_of(t, tensor_types(torch)) else None
    shape = _shape(base, indices) if base is not None else []
    return shape[0] if len(shape) == 1 else None


def _index_at(torch: Any, indices: Any, i: int) -> Optional[int]:
    """The `i`-th index of a Subset as an exact int, or None."""
    t = type(indices)
    if t is list or t is tuple or t is range:
        found = indices[i]
    elif _numpy_array(indices) and indices.dtype.kind in "iu":
        found = int(indices[i])  # (a NumPy integer scalar: C)
    elif torch is not None and one_of(t, tensor_types(torch)) and tensor_base(torch, indices) is not None:
        base = tensor_base(torch, indices)
        found = _call(base, "item", _call(base, "__getitem__", indices, i))
    else:
        return None
    return found if type(found) is int else None


def _length(torch: Any, ds: Any) -> Optional[int]:
    """Examples in a map-style dataset: library types measured directly, others by their `__len__`
    (the dataset protocol, like `__getitem__`), taken only as an exact non-negative int."""
    if _is_subset(ds):
        return _index_count(torch, instance_dict(ds, {}).get("indices"))
    if type(ds) is _data("TensorDataset"):
        tensors = instance_dict(ds, {}).get("tensors")
        first = tensors[0] if type(tensors) is tuple and tensors else None
        base = tensor_base(torch, first) if first is not None and one_of(type(first), tensor_types(torch)) else None
        shape = _shape(base, first) if base is not None else []
        return shape[0] if shape else None
    if not plain_type(type(ds)):
        return None
    length = lookup_static(type(ds), "__len__")
    n = length(ds) if length is not None else None
    after_foreign_code()
    return n if type(n) is int and n >= 0 else None


def _sample_plan(torch: Any, ds: Any, n: int) -> Any:
    """(the base dataset's `__getitem__`, the base dataset, the indices to read in it), or the reason
    the samples are not read. A Subset's indices are mapped here (its own `__getitem__` would index
    whatever its `indices` holds), so only the base dataset's `__getitem__` runs."""
    positions = list(range(min(SAMPLES_SHOWN, n)))
    for _ in range(8):
        if not _is_subset(ds):
            break
        fields = instance_dict(ds, {})
        indices = fields.get("indices")
        count = _index_count(torch, indices)
        if count is None:
            return INDICES
        positions = [_index_at(torch, indices, i) if 0 <= i < count else None for i in positions]
        if any(p is None for p in positions):
            return INDICES
        ds = fields.get("dataset")
    if not plain_type(type(ds)):
        return METACLASS
    getitem = lookup_static(type(ds), "__getitem__")
    return (getitem, ds, positions) if getitem is not None else None


def _collate_module() -> Any:
    """torch's collate module, once what its default collate calls is torch's own: its functions,
    the table it dispatches by type, the torch functions they call (`torch.utils.data.default_collate`
    itself is never called: a notebook may rebind it). NotOwn otherwise."""
    home = "torch.utils.data._utils.collate"
    mod = loaded_module(home)
    table = member(mod, "default_collate_fn_map")
    if type(table) is not dict or any(own_call(home, name, "torch") is None for name in _COLLATE_FUNCTIONS):
        raise NotOwn(COLLATE_NOT_OWN)
    helpers = [v for k, v in checked(mod.__dict__).items() if k.startswith("collate_")]
    for helper in dict.values(table):
        if not one_of(helper, tuple(helpers)) or own_call(home, _function_name(helper), "torch") is None:
            raise NotOwn(COLLATE_NOT_OWN)
    torch = loaded_module("torch")
    for name in ("stack", "as_tensor", "tensor"):  # (C functions of torch's: their name is their own)
        found = member(torch, name)
        if type(found) is not types.BuiltinFunctionType or found.__name__ != name:
            raise NotOwn(COLLATE_NOT_OWN)
    utils = loaded_module("torch.utils")
    if own_call("torch.utils.data", "get_worker_info", "torch") is None or member(torch, "utils") is not utils \
            or member(utils, "data") is not loaded_module("torch.utils.data"):
        raise NotOwn(COLLATE_NOT_OWN)  # (it calls `torch.utils.data.get_worker_info()` by attribute)
    if member(mod, "copy") is not loaded_module("copy") or own_call("copy", "copy", "copy") is None:
        raise NotOwn(COLLATE_NOT_OWN)  # (a dict or list sample is copied with `copy.copy`)
    return mod


_COLLATE_FUNCTIONS = ("default_collate", "default_convert", "collate")


def _function_name(fn: Any) -> str:
    code = fn.__code__ if type(fn) is types.FunctionType else None
    return code.co_name if type(code) is types.CodeType else ""


def _is_default(collate: Any) -> bool:
    mod = loaded_module("torch.utils.data._utils.collate")
    return collate is not None and (collate is member(mod, "default_collate") or collate is member(mod, "default_convert"))


# -- loaders and subsets ---------------------------------------------------------------------------

def data_summary(torch: Any, obj: Any) -> Dict[str, Any]:
    """A DataLoader or a Subset (kind 'dataloader' / 'torch-subset')."""
    is_loader = type(obj) is _data("DataLoader")
    fields = instance_dict(obj, {})
    ds = fields.get("dataset") if is_loader else obj
    out: Dict[str, Any] = {"kind": "dataloader" if is_loader else "torch-subset"}
    iterable_class = _data("IterableDataset")
    iterable = iterable_class is not None and is_subclass(type(ds), iterable_class)
    examples = None if iterable else _length(torch, ds)
    out["examples"] = examples
    if is_loader:
        batch_size = fields.get("batch_size")
        drop_last = fields.get("drop_last")
        out["batchSize"] = batch_size if type(batch_size) is int else None
        out["batches"] = _batches(examples, batch_size, drop_last) if type(drop_last) is bool else None
    out["datasetType"] = type_name(_base_dataset(ds))
    out["fields"] = _fields(ds)
    if iterable:
        out["samplesUnavailable"] = "iterable dataset (reading it would consume it)"
        return out
    plan = _sample_plan(torch, ds, examples or 0)
    if type(plan) is str:
        out["samplesUnavailable"] = plan
        return out
    try:
        collate = fields.get("collate_fn") if is_loader else None
        default = not is_loader or _is_default(collate)
        if default:  # (a loader's own default, or the one a Subset's batch is shown with)
            module = _collate_module()
            collate = collate if is_loader else member(module, "default_collate")
        keepers = rng_keepers(torch)
    except NotOwn as reason:
        out["samplesUnavailable"] = str(reason)
        return out
    if plan is None:
        return out
    getitem, base, positions = plan
    with rng_preserved(keepers):
        samples = []
        for i in positions:
            samples.append(getitem(base, i))
            after_foreign_code()
        out["sampleShapes"] = [structure(s) for s in samples]
        # (torch's default collate only on plain samples; the loader's own collate_fn takes anything)
        if samples and callable(collate) and (not default or _plain_sample(samples)):
            out["batchShape"] = structure(collate(samples))
    return out


def _batches(examples: Optional[int], batch_size: Any, drop_last: bool) -> Optional[int]:
    if examples is None:
        return None
    if batch_size is None:
        return examples
    if type(batch_size) is not int or batch_size <= 0:
        return None
    return examples // batch_size if drop_last else -(-examples // batch_size)
