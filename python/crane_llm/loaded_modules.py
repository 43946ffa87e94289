"""The modules the kernel has loaded, read as the interpreter's own table holds them: a leaf module
(it imports nothing of CRANE-LLM), so the cell reader (kernel/source.py) and the checks share it."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any


def loaded_module(name: str) -> Any:
    """The module the kernel loaded as `name`, when it is a plain module; else None (the checker never
    imports one). A plain module's attributes are read from its dictionary (its `__getattr__` only for
    a missing name), while an entry a notebook replaced by an object of its own, or by a module
    subclass with properties, could run its code on any attribute read (`__dict__` included)."""
    table = sys.modules
    if type(table) is not dict:  # (a mapping of the notebook's: its `get` would run)
        return None
    found = dict.get(table, name)
    return found if type(found) is types.ModuleType else None


def ipython_module(name: str) -> Any:
    """IPython's module `name`. In a kernel it is loaded already, and is taken from the loaded
    modules only when it is a plain module (an import from an entry a notebook replaced would run
    that object's code: its `__spec__`, `__path__`, attributes); where it is not loaded yet (recorded
    facts) it is imported. ImportError when neither gives it."""
    table = sys.modules
    if type(table) is not dict or dict.__contains__(table, name):
        found = loaded_module(name)
        if found is None:
            raise ImportError(f"{name} is not a plain module")
        return found
    return importlib.import_module(name)
