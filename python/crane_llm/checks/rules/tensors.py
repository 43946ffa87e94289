"""PyTorch: shape errors of tensor operations and of `nn.Linear` / `nn.Conv2d` calls.

Every claim needs the facts of exact, unpatched tensors on the CPU with no mode active
(`torch_facts.py`). A failure of these operations is a RuntimeError whatever the dtypes, so a shape
that cannot fit is a certain crash; going on past an operation needs more (same floating dtypes, a
known result shape), else the reading stops. Functions are modelled only when the name resolves to
torch's own function (its C builtin, or the Python function in torch's files).
"""

from __future__ import annotations

import ast
import math
import types
from typing import Any, Dict, List, Optional, Tuple

from ..memory_room import fits
from ..static_reads import loaded_module, checked, class_dict, class_name
from ..abstract_values import BoundMethod, FactValue, Value
from ..live_adapter import LiveValue
from ..outcome import CertainCrash, Crash, Stop
from ..provenance import own_module_function
from ..torch_facts import (TensorFacts, module_weight, parameter_facts, plain_module, plain_module_class, tensor_class,
                           torch_calls_untouched)
from .arrays import MAX_AXIS, MAX_ELEMENTS, broadcast  # PyTorch broadcasts by NumPy's rule; one allocation bound
from .library_state import library_state_plain

_FACTORIES = {"zeros", "ones", "randn", "rand", "empty"}
_ELEMENTWISE = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def _crash(node, message: str, variables, exc: str = "RuntimeError", rule: str = "tensor-shape") -> Crash:
    return Crash(CertainCrash(exc, node.lineno, node.col_offset, message, rule, [v for v in variables if v]))


def _shape_text(shape: Tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


_METHODS = {"view", "reshape", "squeeze", "unsqueeze", "t"}


def tensor_value(facts: TensorFacts) -> Value:
    """A tensor the checker derived: it knows its facts, and which of its methods it models."""
    attrs = {a: True for a in _METHODS}
    attrs["shape"] = True
    return FactValue("tensor", type_name="torch.Tensor", tensor=facts, attrs=attrs)


def _known(v: Value) -> Optional[TensorFacts]:
    t = v.tensor() if v.kind() == "tensor" else None
    if t is None or t.shape is None or not t.on_cpu:
        return None
    return t


def _promoted(a: str, b: str) -> Optional[str]:
    if a == b:
        return a
    return None


def binop(interp, left: Value, right: Value, opt: type, node) -> Value:
    library_state_plain(interp, node)
    la, rb = _known(left), _known(right)
    sym = "@" if opt is ast.MatMult else _ELEMENTWISE.get(opt)
    names = [left.name, right.name]
    if la is None or rb is None or sym is None:
        raise Stop(node.lineno, "an operator on tensors the checker does not model")
    if opt is ast.MatMult:
        return _matmul(la, rb, node, names, "`@`")
    shape = broadcast(la.shape, rb.shape)
    if shape is None:
        raise _crash(node, f"`{sym}` needs shapes that broadcast: {_shape_text(la.shape)} and "
                           f"{_shape_text(rb.shape)} do not.", names)
    dtype = _promoted(la.dtype, rb.dtype)
    if dtype is None or dtype not in ("float32", "float64"):
        raise Stop(node.lineno, f"`{sym}` on tensors of dtypes the checker does not follow")
    # (an element-wise result takes its inputs' layout: contiguous only from contiguous inputs of one
    # shape; broadcast against a (N, C, 1, 1) channels-last tensor, which counts as contiguous, it is not)
    return _result(TensorFacts(shape=shape, dtype=dtype, device="cpu",
                               contiguous=True if la.contiguous and rb.contiguous and la.shape == rb.shape else None,
                               inference=_plain_tensors(la, rb)), node)


_MATMUL_DTYPES = ("float32", "float64")
_FILLED_DTYPES = {"float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool",
                  "complex64", "complex128"}


def _plain_tensors(*facts: TensorFacts) -> Optional[bool]:
    """False (no inference tensor) when every input is known not to be one, outside inference mode."""
    return False if all(f.inference is False for f in facts) and _inference_mode_off() else None


def _inference_mode_off() -> bool:
    torch = loaded_module("torch")
    fn = checked(torch.__dict__).get("is_inference_mode_enabled") if torch is not None else None
    try:
        return fn is not None and _torch_own(fn, "is_inference_mode_enabled") and fn() is False
    except Exception:
        return False


# Elements a result may have before the checker stops: allocating more may fail ("can't allocate memory").
_MAX_ELEMENTS = 10 ** 8


def _result(facts: TensorFacts, node) -> Value:
    if math.prod(facts.shape) > _MAX_ELEMENTS or not fits(16 * math.prod(facts.shape)):
        raise Stop(node.lineno, f"a tensor result of shape {_shape_text(facts.shape)}, which may not fit in memory")
    return tensor_value(facts)


def _matmul(a: TensorFacts, b: TensorFacts, node, names, what: str) -> Value:
    sa, sb = a.shape, b.shape
    if not sa or not sb:
        raise _crash(node, f"{what} needs tensors of at least one dimension.", names)
    inner_a = sa[-1]
    inner_b = sb[0] if len(sb) == 1 else sb[-2]
    if inner_a != inner_b:
        raise _crash(node, f"{what} cannot multiply shapes {_shape_text(sa)} and {_shape_text(sb)} "
                           f"({inner_a} columns against {inner_b} rows).", names)
    batch_a = sa[:-2] if len(sa) > 2 else ()
    batch_b = sb[:-2] if len(sb) > 2 else ()
    batch = broadcast(batch_a, batch_b)
    if batch is None:
        raise _crash(node, f"{what}: the batch dimensions of {_shape_text(sa)} and {_shape_text(sb)} "
                           "do not broadcast.", names)
    if a.dtype != b.dtype or a.dtype not in ("float32", "float64"):
        raise Stop(node.lineno, f"{what} on tensors of dtypes the checker does not follow")
    rows = (sa[-2],) if len(sa) >= 2 else ()
    cols = (sb[-1],) if len(sb) >= 2 else ()
    return _result(TensorFacts(shape=batch + rows + cols, dtype=a.dtype, device="cpu", inference=_plain_tensors(a, b)),
                   node)


def _torch_own(fn: Any, name: str) -> bool:
    torch = loaded_module("torch")
    return type(torch) is types.ModuleType and own_module_function("torch", name, fn, "torch") \
        and type(fn) is types.BuiltinFunctionType


def _functional_own(fn: Any, name: str) -> bool:
    return own_module_function("torch.nn.functional", name, fn, "torch")


def function(interp, obj: Any, fname: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """A call of one of torch's functions."""
    if tensor_class() is None:
        raise Stop(node.lineno, "PyTorch is patched or a mode is active")
    library_state_plain(interp, node)
    if fname in _FACTORIES and _torch_own(obj, fname):
        return _factory(fname, args, kwargs, node)
    if fname in ("matmul", "mm") and _torch_own(obj, fname) and len(args) == 2 and not kwargs:
        a, b = _known(args[0]), _known(args[1])
        if a is not None and b is not None:
            if fname == "mm" and (len(a.shape) != 2 or len(b.shape) != 2):
                raise Stop(node.lineno, "torch.mm of tensors that are not matrices")
            return _matmul(a, b, node, [args[0].name, args[1].name], f"torch.{fname}")
    if fname in ("stack", "cat") and _torch_own(obj, fname):
        return _join(fname, args, kwargs, node)
    if fname in ("cross_entropy", "mse_loss", "l1_loss") and not torch_calls_untouched():
        raise Stop(node.lineno, "PyTorch's functions are patched")
    if fname == "cross_entropy" and _functional_own(obj, fname):
        return cross_entropy(interp, args, kwargs, node, None)
    if fname in ("mse_loss", "l1_loss") and _functional_own(obj, fname) and len(args) == 2 and not kwargs:
        a, b = _known(args[0]), _known(args[1])
        if a is not None and b is not None:
            if broadcast(a.shape, b.shape) is None:
                raise _crash(node, f"F.{fname} compares input {_shape_text(a.shape)} with target "
                                   f"{_shape_text(b.shape)}, shapes that do not broadcast.",
                             [args[0].name, args[1].name], rule="tensor-loss")
    raise Stop(node.lineno, f"a call to `torch.{fname}`, whose effect the checker does not model")


def _ints(values: List[Any]) -> Optional[Tuple[int, ...]]:
    if len(values) == 1 and type(values[0]) in (tuple, list):
        values = list(values[0])
    if all(type(v) is int for v in values):
        return tuple(values)
    return None


def _factory(fname: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    shape = _ints([a.concrete() for a in args])
    torch = loaded_module("torch")
    if shape is None or not shape or any(d < 0 or d > MAX_AXIS for d in shape) or math.prod(shape) > MAX_ELEMENTS or \
            not fits(16 * math.prod(shape)):
        raise Stop(node.lineno, f"torch.{fname} of sizes the checker does not know")
    dtype = None
    for k, v in kwargs.items():
        c = v.concrete()
        if k == "dtype" and type(c) is checked(torch.__dict__).get("dtype"):
            dtype = str(c)[6:]
        else:
            raise Stop(node.lineno, f"torch.{fname} with `{k}=`")
    if dtype is None:
        get_default = checked(torch.__dict__).get("get_default_dtype")
        if not _torch_own(get_default, "get_default_dtype") and \
                not own_module_function("torch", "get_default_dtype", get_default, "torch"):
            raise Stop(node.lineno, "the default dtype")
        dtype = str(get_default())[6:]
    if fname in ("randn", "rand") and dtype not in ("float32", "float64", "float16", "bfloat16"):
        raise Stop(node.lineno, f"torch.{fname} of dtype {dtype}")
    if dtype not in _FILLED_DTYPES:
        # (int1-7, uint1-7, bits, float4 and the quantized dtypes have no fill kernel: NotImplementedError)
        raise Stop(node.lineno, f"torch.{fname} of dtype {dtype}")
    return tensor_value(TensorFacts(shape=shape, dtype=dtype, device="cpu", contiguous=True,
                                    inference=False if _inference_mode_off() else None))


def _join(fname: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    if not args or len(args) > 2:
        raise Stop(node.lineno, f"torch.{fname} with these arguments")
    dim_v = args[1] if len(args) == 2 else kwargs.get("dim")
    if set(kwargs) - {"dim"} or (len(args) == 2 and "dim" in kwargs):
        raise Stop(node.lineno, f"torch.{fname} with these arguments")
    dim = 0 if dim_v is None else dim_v.concrete()
    items = args[0].items() if args[0].kind() in ("list", "tuple") else None
    if type(dim) is not int or items is None or not items:
        raise Stop(node.lineno, f"torch.{fname} of tensors the checker does not know")
    facts = [_known(v) for v in items]
    if any(f is None for f in facts):
        raise Stop(node.lineno, f"torch.{fname} of tensors the checker does not know")
    shapes = [f.shape for f in facts]
    names = [v.name for v in items]
    if fname == "stack":
        ndim = len(shapes[0]) + 1
        if not -ndim <= dim < ndim:
            raise Stop(node.lineno, "torch.stack along a dimension out of range")
        if any(s != shapes[0] for s in shapes):
            raise _crash(node, "torch.stack needs tensors of one size: got "
                               + ", ".join(_shape_text(s) for s in shapes) + ".", names)
        d = dim % ndim
        out = shapes[0][:d] + (len(shapes),) + shapes[0][d:]
    else:
        if any(s == (0,) for s in shapes):
            raise Stop(node.lineno, "torch.cat with an empty 1-D tensor (which it skips)")
        ndim = len(shapes[0])
        if ndim == 0 or not -ndim <= dim < ndim:
            raise Stop(node.lineno, "torch.cat along a dimension out of range")
        if any(len(s) != ndim for s in shapes):
            raise _crash(node, "torch.cat needs tensors of the same number of dimensions: got "
                               + ", ".join(_shape_text(s) for s in shapes) + ".", names)
        d = dim % ndim
        if any(s[:d] + s[d + 1:] != shapes[0][:d] + shapes[0][d + 1:] for s in shapes):
            raise _crash(node, f"torch.cat needs sizes that match except in dimension {d}: got "
                               + ", ".join(_shape_text(s) for s in shapes) + ".", names)
        out = shapes[0][:d] + (sum(s[d] for s in shapes),) + shapes[0][d + 1:]
    dtypes = {f.dtype for f in facts}
    if len(dtypes) != 1 or dtypes.pop() not in ("float32", "float64"):
        raise Stop(node.lineno, f"torch.{fname} of tensors of dtypes the checker does not follow")
    return _result(TensorFacts(shape=out, dtype=facts[0].dtype, device="cpu", inference=_plain_tensors(*facts)), node)


def parameters_call(owner: Value, attr: str, args: List[Value], kwargs: Dict[str, Value]) -> Optional[Value]:
    """`layer.parameters()` on a plain torch.nn layer: nn.Module's generator function, so the call
    only makes a generator and runs none of its body."""
    if attr != "parameters" or args or kwargs or not isinstance(owner, LiveValue):
        return None
    obj = owner.obj
    inst = plain_module(obj, class_name(type(obj)))  # (read from the type's slot: no metaclass runs)
    base_mod = loaded_module("torch.nn.modules.module")
    base = checked(base_mod.__dict__).get("Module") if type(base_mod) is types.ModuleType else None
    if inst is None or "parameters" in inst or base is None:
        return None
    fn = class_dict(type(obj)).get("parameters", checked(base.__dict__).get("parameters"))
    if fn is not checked(base.__dict__).get("parameters") or type(fn) is not types.FunctionType or \
            not fn.__code__.co_flags & 0x20:  # CO_GENERATOR
        return None
    return FactValue("generator")


class FreshLoss(Value):
    """`nn.CrossEntropyLoss()` built in the cell with its defaults (the class torch's own, no hooks)."""

    def kind(self):
        return "torch-loss"


def construct(interp, cls: Any, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    if cls is plain_module_class("CrossEntropyLoss") and cls is not None and not args and not kwargs:
        return FreshLoss()
    raise Stop(node.lineno, f"creating a `{getattr(cls, '__name__', '?')}`, which the checker does not model")


def _default_cross_entropy(obj: Any) -> bool:
    """A CrossEntropyLoss instance of torch's own with no class weights and no label smoothing."""
    inst = plain_module(obj, "CrossEntropyLoss")
    if inst is None:
        return False
    buffers = inst.get("_buffers")
    # (a reduction or ignore_index of another kind fails in the binding, before the batch sizes)
    return type(buffers) is dict and buffers.get("weight", None) is None and \
        type(inst.get("label_smoothing")) is float and inst.get("label_smoothing") == 0.0 and \
        type(inst.get("ignore_index")) is int and type(inst.get("reduction")) is str and \
        inst.get("reduction") in ("mean", "sum", "none") and "size_average" not in inst and "reduce" not in inst


def cross_entropy(interp, args: List[Value], kwargs: Dict[str, Value], node, name: Optional[str]) -> Value:
    """Cross-entropy of class scores (N, C) against class indices: ValueError when the target does not
    hold N indices (PyTorch checks the batch sizes before anything looks at the values)."""
    library_state_plain(interp, node)
    if not torch_calls_untouched():
        raise Stop(node.lineno, "PyTorch's functions are patched")
    x = _known(args[0]) if len(args) == 2 and not kwargs else None
    t = _known(args[1]) if x is not None else None
    if x is not None and t is not None and len(x.shape) == 2 and len(t.shape) == 1 and t.dtype == "int64" \
            and x.dtype in ("float32", "float64") and x.shape[0] != t.shape[0]:
        raise _crash(node, f"cross-entropy of {x.shape[0]} rows of scores {_shape_text(x.shape)} against "
                           f"{t.shape[0]} target classes {_shape_text(t.shape)}: the batch sizes must match.",
                     [name, args[0].name, args[1].name], exc="ValueError", rule="tensor-loss")
    raise Stop(node.lineno, "a cross-entropy loss the checker does not model")


def module_call(interp, obj: Any, args: List[Value], kwargs: Dict[str, Value], node, name: Optional[str]) -> Value:
    """Calling `nn.Linear` / `nn.Conv2d` on a tensor: the input's feature size or channels must fit."""
    library_state_plain(interp, node)
    if not torch_calls_untouched():
        raise Stop(node.lineno, "PyTorch's functions are patched")
    cls_name = class_name(type(obj))  # (the type's slot: a metaclass of the user's runs nothing)
    if cls_name == "CrossEntropyLoss" and _default_cross_entropy(obj):
        return cross_entropy(interp, args, kwargs, node, name)
    found = module_weight(obj, cls_name) if cls_name in ("Linear", "Conv2d") else None
    if found is None or len(args) != 1 or kwargs:
        raise Stop(node.lineno, "a call of a PyTorch module the checker does not model")
    inst, weight = found
    x = _known(args[0])
    if x is None or not weight.on_cpu:
        raise Stop(node.lineno, "a PyTorch module called on a value the checker does not know")
    names = [name, args[0].name]
    if x.inference is not False or not _plain_bias(inst, weight):
        # (an inference tensor fails any layer whose weights need gradients; a bias of another
        # size, dtype or kind fails in its own way, maybe first)
        raise Stop(node.lineno, "a PyTorch layer on an inference tensor or with a bias the checker does not follow")
    if cls_name == "Linear":
        if len(weight.shape) != 2:
            raise Stop(node.lineno, "a Linear layer with an unusual weight")
        if x.dtype not in _MATMUL_DTYPES or weight.dtype not in _MATMUL_DTYPES or weight.inference is not False:
            # (bool, complex32, uint16-64 have no CPU matrix product: NotImplementedError, maybe first;
            # an inference weight cannot be saved for backward)
            raise Stop(node.lineno, "a Linear layer of a dtype or kind of weight the checker does not follow")
        if not x.shape:
            raise _crash(node, "a Linear layer needs an input of at least one dimension.", names)
        if x.shape[-1] != weight.shape[1]:
            raise _crash(node, f"this Linear layer takes {weight.shape[1]} input features; the input "
                               f"{_shape_text(x.shape)} has {x.shape[-1]}.", names)
        if x.dtype != weight.dtype:
            raise Stop(node.lineno, "a Linear layer on an input of another dtype")
        return _result(TensorFacts(shape=x.shape[:-1] + (weight.shape[0],), dtype=x.dtype, device="cpu",
                                   inference=x.inference), node)
    groups = inst.get("groups")
    if inst.get("padding_mode") != "zeros":
        # (another mode pads first, and F.pad refuses other ranks with NotImplementedError)
        raise Stop(node.lineno, "a Conv2d layer that pads other than with zeros")
    if len(weight.shape) != 4 or type(groups) is not int or groups < 1:
        raise Stop(node.lineno, "a Conv2d layer with an unusual weight")
    if not _conv_arguments(inst):
        # (F.conv2d parses them before it compares channels: a float padding is its TypeError)
        raise Stop(node.lineno, "a Conv2d layer with a stride, padding or dilation the checker does not follow")
    if len(x.shape) not in (3, 4):
        raise _crash(node, f"Conv2d takes a 3-D or 4-D input; this one is {_shape_text(x.shape)}.", names)
    channels = weight.shape[1] * groups
    if x.shape[-3] != channels:
        raise _crash(node, f"this Conv2d layer expects {channels} input channel{'s' if channels != 1 else ''}; the input "
                           f"{_shape_text(x.shape)} has {x.shape[-3]}.", names)
    raise Stop(node.lineno, "the output of a Conv2d layer, which the checker does not model")


def _int_pair(value: Any, least: int) -> bool:
    return type(value) is tuple and len(value) == 2 and all(type(i) is int and i >= least for i in value)


def _conv_arguments(inst: dict) -> bool:
    """Stride and dilation are pairs of positive ints, padding a pair of ints or 'same' / 'valid'
    unstrided, as the layer's constructor leaves them (an attribute set since may be anything)."""
    stride, padding = inst.get("stride"), inst.get("padding")
    if not (_int_pair(stride, 1) and _int_pair(inst.get("dilation"), 1)):
        return False
    return _int_pair(padding, 0) or (type(padding) is str and padding in ("same", "valid") and stride == (1, 1))


def _plain_bias(inst: dict, weight: TensorFacts) -> bool:
    """No bias, or one of the layer's own making: one value per output, the weight's dtype, dense, on the CPU."""
    params = inst.get("_parameters")
    if type(params) is not dict or "bias" not in params:
        return False
    bias = params["bias"]
    if bias is None:
        return True
    facts = parameter_facts(bias)
    return facts is not None and facts.shape == (weight.shape[0],) and facts.dtype == weight.dtype and facts.on_cpu \
        and facts.inference is False


def read_attr(interp, base: Value, attr: str, node) -> Value:
    t = _known(base)
    if attr == "shape" and t is not None:
        return LiveValue(t.shape)
    if attr == "T" and t is not None and len(t.shape) == 2:
        return tensor_value(TensorFacts(shape=t.shape[::-1], dtype=t.dtype, device="cpu", contiguous=False,
                                        inference=t.inference))
    if attr in _METHODS:
        return BoundMethod(base, attr)
    raise Stop(node.lineno, f"reading `.{attr}` on a tensor")


def method(interp, owner: Value, attr: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    library_state_plain(interp, node)
    t = _known(owner)
    if t is None or kwargs:
        raise Stop(node.lineno, f"a call to `.{attr}()` on a tensor")
    consts = [a.concrete() for a in args]
    numel = math.prod(t.shape)
    if attr in ("view", "reshape"):
        shape = _ints(consts)
        if shape is None or not shape or any(d < -1 or d > MAX_AXIS for d in shape) or shape.count(-1) > 1:
            raise Stop(node.lineno, f"`.{attr}()` with sizes the checker does not know")
        known = math.prod(d for d in shape if d != -1)
        if (-1 in shape and (known == 0 or numel % known)) or (-1 not in shape and known != numel):
            raise _crash(node, f"`.{attr}{_shape_text(shape)}` cannot hold the {numel} elements of a "
                               f"tensor of shape {_shape_text(t.shape)}.", [owner.name])
        if attr == "view" and not t.contiguous:
            raise Stop(node.lineno, "`.view()` of a tensor that may not be contiguous")
        out = tuple(numel // known if d == -1 else d for d in shape)
        # (a view of a contiguous tensor is contiguous; `reshape` may hand back a view that is not)
        return tensor_value(TensorFacts(shape=out, dtype=t.dtype, device="cpu",
                                        contiguous=True if attr == "view" or t.contiguous else None,
                                        inference=t.inference))
    if attr == "squeeze" and not args:
        return tensor_value(TensorFacts(shape=tuple(d for d in t.shape if d != 1), dtype=t.dtype, device="cpu",
                                        contiguous=t.contiguous, inference=t.inference))
    if attr == "t" and not args and len(t.shape) <= 2:
        return tensor_value(TensorFacts(shape=t.shape[::-1], dtype=t.dtype, device="cpu",
                                        contiguous=t.contiguous if len(t.shape) < 2 else False, inference=t.inference))
    raise Stop(node.lineno, f"a call to `.{attr}()` on a tensor")
