"""Which submodules a package binds by being imported, as any kernel that imported it has them.

The replay runs in a process of its own, whose libraries imported whatever it or they needed: that
this process holds `matplotlib.pyplot` does not mean the recorded kernel did (`import matplotlib`
alone binds no `pyplot`). A submodule is taken as bound there when an executed cell imported it,
when importing its top-level package in a fresh interpreter loads it, or when the package's own
module `__getattr__` names it (NumPy 2 imports `np.random` on first use).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import types
from functools import lru_cache
from typing import FrozenSet, Iterable

from .provenance import own
from .static_reads import checked

_PROBE = ("import importlib, json, sys\n"
          "importlib.import_module(sys.argv[1])\n"
          "print(json.dumps(sorted(m for m in sys.modules if m.startswith(sys.argv[1] + '.'))))")


@lru_cache(maxsize=None)
def loaded_by_import(top: str) -> FrozenSet[str]:
    """The submodules `import top` loads in a fresh interpreter of this Python (none when that
    fails or takes too long)."""
    with tempfile.TemporaryDirectory() as cwd:  # (not the notebook's folder: a file there could shadow it)
        try:
            proc = subprocess.run([sys.executable, "-c", _PROBE, top], cwd=cwd, capture_output=True, text=True,
                                  timeout=120, env={**os.environ, "PYTHONWARNINGS": "ignore", "TF_CPP_MIN_LOG_LEVEL": "3"})
            found = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else []
        except (OSError, subprocess.SubprocessError, ValueError, IndexError):
            found = []
    return frozenset(m for m in found if type(m) is str)


def _lazily_named(package: types.ModuleType, attr: str) -> bool:
    """The package's own module `__getattr__` has `attr` among the names its code spells."""
    d = checked(package.__dict__)
    fn = d.get("__getattr__")
    name = d.get("__name__")
    if type(fn) is not types.FunctionType or type(name) is not str or not own(fn, name.split(".")[0]):
        return False
    stack, seen = [fn.__code__], set()
    while stack:
        code = stack.pop()
        for const in code.co_consts:
            if type(const) is str and const == attr:
                return True
            if type(const) is types.CodeType:
                stack.append(const)
            elif type(const) in (tuple, frozenset):
                seen |= {c for c in const if type(c) is str}
    return attr in seen


def bound_in_kernel(package: types.ModuleType, attr: str, dotted: str, imported: Iterable[str]) -> bool:
    """The submodule `dotted` (`package.attr`) is bound in a kernel that imported `imported`."""
    imported = set(imported)
    if dotted in imported or _lazily_named(package, attr):
        return True
    top = dotted.split(".")[0]
    return top in imported and dotted in loaded_by_import(top)


__all__ = ["bound_in_kernel", "loaded_by_import"]
