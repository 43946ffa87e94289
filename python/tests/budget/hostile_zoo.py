"""Classes whose every hook counts its calls and then counts, raises or sleeps 10 s: the objects a
check must read without running any of their code."""

from __future__ import annotations

import time
from typing import Any, Dict, List

CALLS: List[str] = []
WHERE: List[str] = []  # for a failing test's message: the crane_llm line that reached each hook
ARMED = [False]  # building the zoo hashes and compares; only calls made while armed count
SLEEP_SECONDS = 10

HOOKS = (
    "__getattribute__", "__getattr__", "__setattr__", "__delattr__", "__dir__", "__repr__", "__str__",
    "__format__", "__hash__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__bool__",
    "__len__", "__iter__", "__next__", "__reversed__", "__contains__", "__getitem__", "__setitem__",
    "__delitem__", "__missing__", "__index__", "__int__", "__float__", "__complex__", "__bytes__", "__round__",
    "__sizeof__", "__reduce__", "__reduce_ex__", "__copy__", "__deepcopy__", "__array__", "__call__",
    "__enter__", "__exit__", "__instancecheck__", "__subclasscheck__", "__fspath__", "__add__", "__radd__",
    "__mul__", "__abs__", "__neg__", "__sklearn_is_fitted__", "__sklearn_tags__", "get_params",
    "__array_ufunc__", "__array_function__", "__dataframe__", "keys", "items", "values", "shape", "dtype",
)
PROPERTIES = ("__class__", "__dict__", "__module__", "__name__", "__doc__", "__array_interface__",
              "__array_priority__", "__len__", "shape", "dtype", "columns", "name", "history", "dataset", "n_features_in_",
              "__wrapped__", "__mro__", "__bases__", "element_spec", "batch_size", "collate_fn", "steps", "classes_")


def _caller() -> str:
    import traceback

    frames = [f for f in traceback.extract_stack()[:-2] if "crane_llm" in f.filename and "tests" not in f.filename]
    return "%s:%d %s" % (frames[-1].filename.split("crane_llm/")[-1], frames[-1].lineno, frames[-1].line) if frames else "?"


def _hook(name: str, mode: str, meta: bool = False):
    def hook(*args: Any, **kwargs: Any) -> Any:
        if ARMED[0]:
            CALLS.append(name)
            WHERE.append(_caller())
            if mode == "raise":
                raise RuntimeError("hostile " + name)
            if mode == "sleep":
                time.sleep(SLEEP_SECONDS)
        if name == "__getattribute__":
            return (type if meta else object).__getattribute__(*args[:2])
        if meta and name == "__call__":
            return type.__call__(*args, **kwargs)
        if meta and name in ("__instancecheck__", "__subclasscheck__"):
            return type.__dict__[name](*args)
        if name in ("__hash__", "__len__", "__index__", "__int__"):
            return 1
        if name in ("__eq__", "__bool__"):
            return True
        if name in ("__repr__", "__str__", "__format__"):
            return "hostile"
        if name == "__iter__":
            return iter(())
        raise AttributeError(name) if name == "__getattr__" else NotImplementedError(name)
    return hook


def _property(name: str, mode: str):
    def get(self: Any) -> Any:
        if ARMED[0]:
            CALLS.append("property " + name)
            WHERE.append(_caller())
            if mode == "raise":
                raise RuntimeError("hostile property " + name)
            if mode == "sleep":
                time.sleep(SLEEP_SECONDS)
            return None
        if name == "__class__":  # unarmed (building the zoo), the object behaves
            return type(self)
        if name == "__dict__":
            return {}
        raise AttributeError(name)
    return property(get)


def hostile_namespace(mode: str, bases: tuple = (object,), extra: Dict[str, Any] = None) -> Dict[str, Any]:
    body: Dict[str, Any] = {name: _hook(name, mode) for name in HOOKS}
    for name in PROPERTIES:
        body[name] = _property(name, mode)
    body.update(extra or {})
    return body


def make_meta(mode: str) -> type:
    body = {name: _hook(name, mode, meta=True) for name in ("__getattribute__", "__getattr__", "__repr__", "__str__",
                                                   "__hash__", "__eq__", "__instancecheck__",
                                                   "__subclasscheck__", "__call__", "__len__", "__iter__")}
    for name in ("__mro__", "__module__", "__name__", "__dict__", "__doc__", "__bases__"):
        body[name] = _property(name, mode)
    return type("HostileMeta", (type,), body)


def make_class(mode: str, base: type = object, name: str = "Hostile") -> type:
    """A class with every hook; its metaclass hooks class-level lookups too."""
    meta = make_meta(mode)
    if type(base) is not type:  # a library base with its own metaclass (ABCMeta...): keep it as a base of ours
        meta = type("HostileMeta", (make_meta(mode), type(base)), {})
    return meta(name, (base,), hostile_namespace(mode))
