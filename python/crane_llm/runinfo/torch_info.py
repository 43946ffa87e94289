"""PyTorch tensors, DataLoaders and Subsets.

A DataLoader's row in the README's table ("What the runtime information contains") needs real samples, so this is the one place that calls
into a dataset (`__len__`, `__getitem__`) and the loader's collate function. It reads the first
samples by index (never through the sampler or an iterator, so nothing is consumed), runs under
the hard time limit, and puts the `random`, NumPy and torch RNG states back afterwards, since
dataset transforms commonly draw random numbers.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List, Optional

from ..checks.provenance import instance_dict
from .safe import NAME_MAX, cut, loaded, type_name

SAMPLES_SHOWN = 10
FIELDS_SHOWN = 20


def tensor_types(torch: Any) -> tuple:
    return (torch.Tensor, torch.nn.Parameter)


def _dtype(torch_dtype: Any) -> str:
    text = str(torch_dtype)
    return text[6:] if text.startswith("torch.") else text


def tensor_summary(torch: Any, t: Any) -> Dict[str, Any]:
    out: Dict[str, Any] = {
        "kind": "tensor",
        "shape": [int(d) for d in t.shape],
        "dtype": _dtype(t.dtype),
        "device": str(t.device),
        "requiresGrad": bool(t.requires_grad),
        "hasNaN": _tensor_has_nan(torch, t),
    }
    return out


def _tensor_has_nan(torch: Any, t: Any) -> Optional[bool]:
    if not (t.is_floating_point() or t.is_complex()):
        return False
    if t.numel() == 0:
        return False
    if t.is_sparse or t.device.type == "meta" or t.is_complex():
        return None
    with torch.no_grad():  # a reduction, not a mask: NaN propagates through min
        return bool(torch.isnan(t.detach().min()).item())


@contextmanager
def rng_preserved() -> Iterator[None]:
    """Save and restore the global RNGs of `random`, NumPy and torch (the ones already imported)."""
    py_state = random.getstate()
    np = loaded("numpy")
    np_state = np.random.get_state() if np is not None else None
    torch = loaded("torch")
    torch_state = torch.get_rng_state() if torch is not None else None
    cuda_states = None
    if torch is not None and loaded("torch.cuda") is not None and torch.cuda.is_initialized():
        cuda_states = torch.cuda.get_rng_state_all()
    try:
        yield
    finally:
        random.setstate(py_state)
        if np_state is not None:
            np.random.set_state(np_state)
        if torch_state is not None:
            torch.set_rng_state(torch_state)
        if cuda_states is not None:
            torch.cuda.set_rng_state_all(cuda_states)


def structure(value: Any, depth: int = 0) -> str:
    """A sample's shape as text: `(Tensor[3, 32, 32] float32, int)`."""
    torch = loaded("torch")
    np = loaded("numpy")
    t = type(value)
    if torch is not None and t in tensor_types(torch):
        return "Tensor[" + ", ".join(str(int(d)) for d in value.shape) + "] " + _dtype(value.dtype)
    if np is not None and t is np.ndarray:
        return "ndarray[" + ", ".join(str(int(d)) for d in value.shape) + "] " + str(value.dtype)
    if t in (int, float, bool, str, bytes) or value is None:
        return t.__name__ if value is not None else "None"
    if np is not None and issubclass(t, np.generic) and t.__module__ == "numpy":
        return t.__name__
    if depth < 3 and t in (tuple, list):
        items = [structure(v, depth + 1) for v in value[:8]]
        more = ", ..." if len(value) > 8 else ""
        return ("(" if t is tuple else "[") + ", ".join(items) + more + (")" if t is tuple else "]")
    if depth < 3 and t is dict:
        items = [str(k) + ": " + structure(v, depth + 1) for k, v in list(dict.items(value))[:8]]
        return "{" + ", ".join(items) + "}"
    return type_name(value)


def _is_subset(torch: Any, obj: Any) -> bool:
    return type(obj) is torch.utils.data.Subset


def _base_dataset(torch: Any, ds: Any) -> Any:
    for _ in range(8):
        if not _is_subset(torch, ds):
            break
        ds = instance_dict(ds, {}).get("dataset")
    return ds


def _fields(torch: Any, ds: Any) -> List[Dict[str, str]]:
    base = _base_dataset(torch, ds)
    out = []
    for name, value in instance_dict(base, {}).items():
        if name.startswith("__"):
            continue
        out.append({"name": cut(name, NAME_MAX) if type(name) is str else "?", "type": type_name(value)})
        if len(out) == FIELDS_SHOWN:
            break
    return out


def _length(torch: Any, ds: Any) -> Optional[int]:
    """Examples in a map-style dataset: library types measured directly, others by their `__len__`."""
    if _is_subset(torch, ds):
        return len(instance_dict(ds, {}).get("indices"))
    if type(ds) is torch.utils.data.TensorDataset:
        tensors = instance_dict(ds, {}).get("tensors")
        return int(tensors[0].shape[0]) if tensors else 0
    length = None
    for klass in type(ds).__mro__:
        if "__len__" in klass.__dict__:
            length = klass.__dict__["__len__"]
            break
    return int(length(ds)) if length is not None else None


def _samples(torch: Any, ds: Any, n: int) -> List[Any]:
    getitem = None
    for klass in type(ds).__mro__:
        if "__getitem__" in klass.__dict__:
            getitem = klass.__dict__["__getitem__"]
            break
    if getitem is None:
        return []
    return [getitem(ds, i) for i in range(min(SAMPLES_SHOWN, n))]


def data_summary(torch: Any, obj: Any) -> Dict[str, Any]:
    """A DataLoader or a Subset (kind 'dataloader' / 'torch-subset')."""
    data = torch.utils.data
    is_loader = type(obj) is data.DataLoader
    fields = instance_dict(obj, {})
    ds = fields.get("dataset") if is_loader else obj
    out: Dict[str, Any] = {"kind": "dataloader" if is_loader else "torch-subset"}
    iterable = data.IterableDataset in type(ds).__mro__
    examples = None if iterable else _length(torch, ds)
    out["examples"] = examples
    if is_loader:
        batch_size = fields.get("batch_size")
        out["batchSize"] = batch_size if type(batch_size) is int else None
        out["batches"] = _batches(examples, batch_size, bool(fields.get("drop_last")))
    out["datasetType"] = type_name(_base_dataset(torch, ds))
    out["fields"] = _fields(torch, ds)
    if iterable:
        out["samplesUnavailable"] = "iterable dataset (reading it would consume it)"
        return out
    with rng_preserved():
        samples = _samples(torch, ds, examples or 0)
        out["sampleShapes"] = [structure(s) for s in samples]
        if samples:
            collate = fields.get("collate_fn") if is_loader else data.default_collate
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
