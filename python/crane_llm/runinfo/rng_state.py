"""The random-number states a dataset's transforms may draw from (`random`, NumPy's global
RandomState, torch's default generators), saved before its samples are read and put back after,
through the generators' own C methods: the module functions (`random.getstate`,
`np.random.get_state`, `torch.get_rng_state`) are a notebook's to rebind."""

from __future__ import annotations

import types
from contextlib import contextmanager
from typing import Any, Callable, Iterator, List, Optional, Tuple

from ..checks.provenance import is_subclass, own_call
from ..checks.static_reads import class_dict, instance_dict, is_static_type, loaded_module
from .safe import member

RNG_NOT_OWN = ("the random-number generators of `random`, NumPy or torch are not the libraries' own "
               "(their states could not be saved and put back without running other code)")

class NotOwn(Exception):
    """Something the samples' reading would call is not the library's own: nothing is read."""


def _c_method(cls: Any, name: str) -> Any:
    """`cls`'s own C method `name` (a method descriptor made with that name: a notebook can move
    another one there, never write one)."""
    fn = class_dict(cls).get(name) if cls is not None else None
    if type(fn) is not types.MethodDescriptorType or _C_NAME.__get__(fn) != name:
        raise NotOwn(RNG_NOT_OWN)
    return fn


_C_NAME = types.MethodDescriptorType.__dict__["__name__"]  # (set from the C definition, read-only)


def _python_rng() -> Optional[Tuple[Callable[[], Any], Callable[[Any], None]]]:
    """`random`'s module functions draw from `random._inst`: its C generator's state (through
    `_random.Random`'s own methods, not the `random.getstate` a notebook may rebind) and the
    `gauss_next` its Python class keeps in the instance."""
    mod, c_mod = loaded_module("random"), loaded_module("_random")
    if mod is None:
        return None
    inst, c_random = member(mod, "_inst"), member(c_mod, "Random")
    if c_random is None or not is_subclass(type(inst), c_random):
        raise NotOwn(RNG_NOT_OWN)
    get, put = _c_method(c_random, "getstate"), _c_method(c_random, "setstate")
    fields = instance_dict(inst, {})

    def save() -> Any:
        return get(inst), fields.get("gauss_next", _MISSING)

    def restore(state: Any) -> None:
        put(inst, state[0])
        if state[1] is not _MISSING:
            fields["gauss_next"] = state[1]

    return save, restore


_MISSING = object()


def _numpy_rng() -> Optional[Tuple[Callable[[], Any], Callable[[Any], None]]]:
    """NumPy's global RandomState (what `np.random.rand` draws from), through its compiled class's
    own methods; None when `numpy.random` was never loaded (then nothing has a state to keep)."""
    mtrand = loaded_module("numpy.random.mtrand")
    if mtrand is None:
        return None
    rand, state_class = member(mtrand, "_rand"), member(mtrand, "RandomState")
    if state_class is None or type(rand) is not state_class or not is_static_type(state_class):
        raise NotOwn(RNG_NOT_OWN)
    # (an attribute of a compiled class's instance: its C getter; the bit generator it draws from
    # must be compiled too, a Python subclass's `state` property would run)
    try:
        bit_generator = rand._bit_generator
    except AttributeError:
        raise NotOwn(RNG_NOT_OWN) from None
    if not is_static_type(type(bit_generator)):
        raise NotOwn(RNG_NOT_OWN)
    # A static class's dictionary cannot be written: what it holds is what NumPy compiled into it.
    get, put = class_dict(state_class).get("get_state"), class_dict(state_class).get("set_state")
    if get is None or put is None:
        raise NotOwn(RNG_NOT_OWN)
    # (`legacy` given: a default is the one thing of a compiled function a notebook could rewrite)
    return (lambda: get(rand, legacy=True)), (lambda state: put(rand, state))


def _torch_rng(torch: Any) -> Optional[Tuple[Callable[[], Any], Callable[[Any], None]]]:
    """torch's default CPU generator, through its C class's methods (`torch.get_rng_state` is a
    Python function a notebook may rebind); CUDA's, when initialised, through torch.cuda's own
    functions."""
    c = member(torch, "_C")
    gen, gen_class = member(c, "default_generator"), member(c, "Generator")
    if gen_class is None or type(gen) is not gen_class or not is_static_type(gen_class):
        raise NotOwn(RNG_NOT_OWN)
    get, put = _c_method(gen_class, "get_state"), _c_method(gen_class, "set_state")
    cuda = _cuda_rng()
    if cuda is None:
        return (lambda: get(gen)), (lambda state: put(gen, state))
    cuda_get, cuda_put = cuda
    return (lambda: (get(gen), cuda_get())), (lambda state: (put(gen, state[0]), cuda_put(state[1])))


def _cuda_rng() -> Optional[Tuple[Callable[[], Any], Callable[[Any], None]]]:
    if loaded_module("torch.cuda") is None:
        return None
    initialised = own_call("torch.cuda", "is_initialized", "torch")
    if initialised is None:
        raise NotOwn(RNG_NOT_OWN)
    if initialised() is not True:
        return None
    get, put = own_call("torch.cuda", "get_rng_state_all", "torch"), own_call("torch.cuda", "set_rng_state_all", "torch")
    if get is None or put is None:
        raise NotOwn(RNG_NOT_OWN)
    return get, put


def rng_keepers(torch: Any) -> List[Tuple[Callable[[], Any], Callable[[Any], None]]]:
    """(save, restore) for each loaded RNG; NotOwn when one cannot be kept by its library's own code."""
    found = [_python_rng(), _numpy_rng(), _torch_rng(torch) if torch is not None else None]
    return [k for k in found if k is not None]


@contextmanager
def rng_preserved(keepers: List[Tuple[Callable[[], Any], Callable[[Any], None]]]) -> Iterator[None]:
    """Save the RNG states `keepers` reach, and put them back whatever the block does."""
    states = [save() for save, _ in keepers]
    try:
        yield
    finally:
        for (_, restore), state in zip(keepers, states):
            restore(state)
