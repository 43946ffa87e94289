"""What the checker may know of PyTorch objects without running user code.

A tensor is read only when it is exactly `torch.Tensor`, the class and its metaclass are torch's own
(every function, property and method its Python class holds comes from torch's files; its C base and
metaclass cannot be patched), and no `__torch_function__` or dispatch mode is active (a mode runs
user code on every operation, `torch.set_default_device` among them). A module object (`nn.Linear`,
`nn.Conv2d`) is read only when its class is torch's own, it has no hooks of its own or global ones,
no `forward` of its own, and its weight is an exact, unpatched tensor or Parameter.
"""

from __future__ import annotations

import collections
import types
from dataclasses import dataclass
from typing import Any, Optional, Tuple

from .library_code import genuine
from .static_reads import checked, class_module, loaded_module
from .provenance import audit, class_dict, instance_dict, is_static_type, mro, own, own_module_function

_FLOATS = ("float16", "bfloat16", "float32", "float64")


@dataclass(frozen=True)
class TensorFacts:
    """A tensor's shape, dtype name ('float32', 'int64', 'bool', ...) and device type ('cpu', ...)."""

    shape: Optional[Tuple[int, ...]] = None
    dtype: Optional[str] = None
    device: Optional[str] = None
    contiguous: Optional[bool] = None
    # made under `torch.inference_mode()`: a layer with weights that need gradients refuses it
    inference: Optional[bool] = None

    def __post_init__(self) -> None:
        if self.shape is not None:
            object.__setattr__(self, "shape", tuple(self.shape))

    @property
    def on_cpu(self) -> bool:
        return self.device == "cpu"

    @property
    def floating(self) -> bool:
        return self.dtype in _FLOATS


def torch_module() -> Any:
    mod = loaded_module("torch")
    return mod if type(mod) is types.ModuleType else None


def _tensor_class_own(cls: Any) -> bool:
    """torch.Tensor's own audit: its metaclass is torch's C one, its Python class holds only torch's code."""
    meta = type(cls)
    if not is_static_type(meta) or not own_type_loose(cls):
        return False
    return True


def own_type_loose(cls: Any) -> bool:
    """`own_type` for a torch class whose metaclass is a C type of torch (no Python code in it)."""
    memo = audit().classes
    hit = memo.get(("torch-loose", id(cls)))
    if hit is not None and hit[0] is cls:
        return hit[1]
    ok = True
    for klass in mro(cls):
        if klass is object or is_static_type(klass):
            continue
        mod = getattr(klass, "__module__", "")  # a class's __module__ is a plain dict entry or a C slot
        if type(mod) is not str or mod.split(".", 1)[0] != "torch":
            ok = False
            break
        if not all(own(v, "torch") for v in class_dict(klass).values()):
            ok = False
            break
    memo[("torch-loose", id(cls))] = (cls, ok)
    return ok


def no_modes(torch: Any) -> bool:
    """No `__torch_function__` mode or dispatch mode is active (they run Python code on every op)."""
    c = checked(torch.__dict__).get("_C")
    if type(c) is not types.ModuleType:
        return False
    try:
        fn_stack = checked(c.__dict__).get("_len_torch_function_stack")
        dispatch_stack = checked(c.__dict__).get("_len_torch_dispatch_stack")
        if type(fn_stack) is not types.BuiltinFunctionType or type(dispatch_stack) is not types.BuiltinFunctionType:
            return False
        if not (fn_stack() == 0 and dispatch_stack() == 0):
            return False
        # Saved-tensor hooks (`torch.autograd.graph.saved_tensors_hooks`) run when autograd saves an
        # input, before a kernel compares shapes.
        autograd = checked(c.__dict__).get("_autograd")
        top = checked(autograd.__dict__).get("_top_saved_tensors_default_hooks") \
            if type(autograd) is types.ModuleType else None
        return type(top) is types.BuiltinFunctionType and top(False) is None
    except Exception:
        return False


def tensor_class() -> Any:
    """torch.Tensor when torch is loaded, unpatched, and no mode is active; else None."""
    torch = torch_module()
    if torch is None:
        return None
    cls = checked(torch.__dict__).get("Tensor")
    if type(cls) is type or cls is None:
        return None
    memo = audit().facts
    hit = memo.get("torch-tensor-class")
    if hit is not None and hit[0] is cls:
        return cls if hit[1] else None
    ok = _tensor_class_own(cls) and no_modes(torch) and not _kernels_replaced()
    memo["torch-tensor-class"] = (cls, ok)
    return cls if ok else None


# Dispatch keys under which torch registers Python kernels of aten operators itself: none of them
# runs for a dense CPU tensor.
_OWN_KERNEL_KEYS = {"Meta", "CUDA", "MPS"}


def _kernels_replaced() -> bool:
    """A notebook's `torch.library.Library('aten', 'IMPL').impl('add.Tensor', fn, 'CPU')` replaces
    what the operator does (torch.library keeps every such registration in `_impls`)."""
    lib = loaded_module("torch.library")
    if lib is None:
        return False
    impls = checked(lib.__dict__).get("_impls") if type(lib) is types.ModuleType else None
    if type(impls) is not set:
        return True
    return any(type(k) is not str or (k.startswith("aten/") and k.rsplit("/", 1)[-1] not in _OWN_KERNEL_KEYS)
               for k in impls)


def live_tensor_facts(obj: Any) -> Optional[TensorFacts]:
    cls = tensor_class()
    if cls is None or type(obj) is not cls:
        return None
    inst = instance_dict(obj)
    if inst is None or len(inst):
        return None  # (its own `view`, `reshape`, `t`, ... would win over the class's methods)
    return _facts(obj)


def _facts(obj: Any) -> Optional[TensorFacts]:
    # Exact torch tensors answer these from C getters (no __torch_function__ on the exact class).
    try:
        # Only dense tensors: a sparse COO / CSR, nested, quantized or MKL-DNN tensor has a shape too,
        # but most operations the rules model refuse it (`sp + a`: "add(sparse, dense) is not
        # supported", `sp.reshape(6)`, `torch.cat([sp, a])` raise RuntimeError whatever the shapes).
        torch = torch_module()
        if torch is None or obj.layout is not checked(torch.__dict__).get("strided") or obj.is_nested or \
                obj.is_quantized or obj.is_mkldnn:
            return None
        shape = tuple(int(d) for d in obj.shape)
        dtype = str(obj.dtype)
        device = obj.device.type
        contiguous = bool(obj.is_contiguous())
        inference = bool(obj.is_inference())
    except Exception:
        return None
    return TensorFacts(shape=shape, dtype=dtype[6:] if dtype.startswith("torch.") else None,
                       device=device if type(device) is str else None, contiguous=contiguous, inference=inference)


def parameter_facts(obj: Any) -> Optional[TensorFacts]:
    """A weight: an exact torch.Tensor or an exact, unpatched torch.nn.Parameter."""
    torch = torch_module()
    if torch is None or tensor_class() is None:
        return None
    nn = loaded_module("torch.nn.parameter")
    param = checked(nn.__dict__).get("Parameter") if type(nn) is types.ModuleType else None
    if type(obj) is checked(torch.__dict__).get("Tensor"):
        return _facts(obj)
    if param is not None and type(obj) is param and is_static_type(type(type(obj))) is False \
            and _parameter_meta_own(param) and own_type_loose(param):
        return _facts(obj)
    return None


def _parameter_meta_own(param: Any) -> bool:
    meta = type(param)
    return all(is_static_type(k) or (getattr(k, "__module__", "").startswith("torch") and
                                     all(own(v, "torch") for v in class_dict(k).values()))
               for k in mro(meta) if k is not object)


_HOOK_TABLES = ("_global_backward_hooks", "_global_backward_pre_hooks", "_global_forward_hooks",
                "_global_forward_hooks_always_called", "_global_forward_hooks_with_kwargs",
                "_global_forward_pre_hooks")
_INSTANCE_HOOKS = ("_backward_pre_hooks", "_backward_hooks", "_forward_hooks", "_forward_hooks_with_kwargs",
                   "_forward_hooks_always_called", "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs")


def plain_module_class(class_name: str) -> Any:
    """torch.nn.<class_name> when it is torch's own, unpatched, and no global module hook is set."""
    mod = loaded_module("torch.nn")
    base_mod = loaded_module("torch.nn.modules.module")
    if type(mod) is not types.ModuleType or type(base_mod) is not types.ModuleType or tensor_class() is None:
        return None
    cls = checked(mod.__dict__).get(class_name)
    if cls is None or not audit().pristine(cls, "torch"):
        return None
    for table in _HOOK_TABLES:
        hooks = checked(base_mod.__dict__).get(table)
        if type(hooks) not in (dict, collections.OrderedDict) or len(hooks):
            return None
    return cls


def plain_module(obj: Any, class_name: str) -> Optional[dict]:
    """The instance dict of `obj` when it is exactly torch.nn.<class_name> (see plain_module_class)
    without hooks or a forward, weight or __call__ of its own; else None."""
    cls = plain_module_class(class_name)
    if cls is None or type(obj) is not cls:
        return None
    try:
        inst = object.__getattribute__(obj, "__dict__")
    except Exception:
        return None
    if type(inst) is not dict or "forward" in inst or "weight" in inst or "__call__" in inst:
        return None
    # What the class (or nn.Module) defines, the call path looks up and the instance's own value
    # would win: `_compiled_call_impl`, `_call_impl`, `_slow_forward`, `_conv_forward`, ...
    if any(type(k) is not str or any(k in checked(c.__dict__) for c in cls.__mro__) for k in inst):
        return None
    for name in _INSTANCE_HOOKS:
        hooks = inst.get(name)
        if hooks is not None and (type(hooks) not in (dict, collections.OrderedDict) or len(hooks)):
            return None
    return inst


def module_weight(obj: Any, class_name: str) -> Optional[Tuple[dict, TensorFacts]]:
    """(the module's instance dict, its weight's facts) when `obj` is exactly torch.nn.<class_name>,
    torch's own, without hooks or a forward of its own; else None."""
    inst = plain_module(obj, class_name)
    if inst is None:
        return None
    params = inst.get("_parameters")
    if type(params) is not dict:
        return None
    weight = params.get("weight")
    facts = parameter_facts(weight) if weight is not None else None
    if facts is None or facts.shape is None:
        return None
    return inst, facts


# What the modelled layers and losses call by name at run time, module by module: `Linear.forward`
# calls `F.linear`, `F.mse_loss` calls `torch.broadcast_tensors` and `torch._C._nn.mse_loss`, ...
_CALLED = {"torch.nn.functional": ("linear", "conv2d", "pad", "cross_entropy", "mse_loss", "l1_loss",
                                   "handle_torch_function"),
           "torch.functional": ("broadcast_tensors", "handle_torch_function"),
           "torch": ("broadcast_tensors",),
           "torch._C": ("_has_torch_function", "_has_torch_function_unary", "_has_torch_function_variadic",
                        "_get_tracing_state"),
           "torch._C._nn": ("linear", "cross_entropy_loss", "mse_loss", "l1_loss", "pad"),
           "torch.nn._reduction": ("get_enum", "legacy_get_string", "legacy_get_enum")}
# Names a module holds for another module's function: (module, name) -> (home module, its name there).
_ALIASED = {("torch.nn.functional", f"has_torch_function{s}"): ("torch._C", f"_has_torch_function{s}")
            for s in ("", "_unary", "_variadic")}
_ALIASED[("torch.functional", "has_torch_function")] = ("torch._C", "_has_torch_function")
_ALIASED[("torch.nn.modules.conv", "_pair")] = ("torch.nn.modules.utils", "_pair")
# Modules the same code reaches through a name of its module: (module, name) -> the module it must be.
_MODULE_NAMES = {("torch.nn.modules.linear", "F"): "torch.nn.functional",
                 ("torch.nn.modules.conv", "F"): "torch.nn.functional",
                 ("torch.nn.modules.loss", "F"): "torch.nn.functional",
                 ("torch.nn.functional", "torch"): "torch", ("torch.nn.functional", "_Reduction"): "torch.nn._reduction",
                 ("torch.nn.functional", "warnings"): "warnings", ("torch", "_C"): "torch._C",
                 ("torch._C", "_nn"): "torch._C._nn", ("torch.nn.modules.module", "torch"): "torch"}
# What torch's `_VF` object holds of its own: the rest it looks up in torch's C functions (an
# attribute set on it, `_VF.broadcast_tensors = f`, would win over that).
_VF_OWN = {"__name__", "__doc__", "__package__", "__loader__", "__spec__", "vf", "__file__", "__path__"}
_VF_CLASS = {"__module__", "__annotations__", "__init__", "__getattr__", "__doc__", "__qualname__",
             "__firstlineno__", "__static_attributes__"}
_MODULE_DICT = types.ModuleType.__dict__["__dict__"]


def torch_calls_untouched() -> bool:
    """Every function the modelled PyTorch code calls by name is torch's own, under its own name,
    and every module it reaches that way is the one the import system holds (`F.linear = f` or
    `torch.broadcast_tensors = f` would make a modelled call run f)."""
    for (module_name, name), held in _MODULE_NAMES.items():
        mod, target = loaded_module(module_name), loaded_module(held)
        if type(mod) is not types.ModuleType or target is None or checked(mod.__dict__).get(name) is not target:
            return False
    for module_name, names in _CALLED.items():
        mod = loaded_module(module_name)
        if type(mod) is not types.ModuleType:
            return False
        for name in names:
            fn = checked(mod.__dict__).get(name)
            if fn is not None and not own_module_function(module_name, name, fn, "torch"):
                return False
    for (module_name, name), (home_name, own_name) in _ALIASED.items():
        mod, home = loaded_module(module_name), loaded_module(home_name)
        if mod is None or home is None:
            return False
        held = checked(mod.__dict__).get(name)
        if held is None or held is not checked(home.__dict__).get(own_name):
            return False
    if not _vf_own():
        return False
    return _pair_own(checked(loaded_module("torch.nn.modules.utils").__dict__).get("_pair"))


def _vf_own() -> bool:
    """`torch.functional._VF` is torch's own VFModule, holding nothing but what it is made with."""
    functional = loaded_module("torch.functional")
    vf = checked(functional.__dict__).get("_VF") if functional is not None else None
    modules = checked(loaded_module("sys").__dict__).get("modules")
    cls = type(vf)
    if vf is None or type(modules) is not dict or modules.get("torch._VF") is not vf or \
            class_module(cls) != "torch._VF" or cls.__mro__ != (cls, types.ModuleType, object):
        return False
    methods = class_dict(cls)
    # (its module object is this instance, so `genuine` cannot find the functions' module: their
    # code's file and names are read instead)
    if not set(methods) <= _VF_CLASS or not all(
            type(methods[k]) is types.FunctionType and methods[k].__qualname__ == f"VFModule.{k}" and
            methods[k].__code__.co_filename.replace("\\", "/").endswith("/torch/_VF.py")
            for k in ("__init__", "__getattr__") if k in methods):
        return False
    own = _MODULE_DICT.__get__(vf)  # (a module's own dict, read through the module type's slot)
    return type(own) is dict and set(own) <= _VF_OWN


def _pair_own(fn: Any) -> bool:
    """torch's `_pair`: the `parse` closure `_ntuple(2)` made in torch.nn.modules.utils."""
    if type(fn) is not types.FunctionType or fn.__code__.co_name != "parse" or not genuine(fn):
        return False
    return all(type(c.cell_contents) in (int, str) for c in (fn.__closure__ or ()))
