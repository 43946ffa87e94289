"""Whether the notebook added an audit hook (`sys.addaudithook`).

Python calls every audit hook on the checker's own steps: reading a function's `__code__` (which
is how the checks prove a method is the library's own), `id()`, `compile` (reading the cell),
`open`. A hook the notebook added would run thousands of times during one check, and Python has no
way to list hooks or take one off. So CRANE-LLM adds one of its own as soon as its checks are
imported (checks/__init__.py, and the kernel session): audit hooks see every later
`sys.addaudithook` (the event fires before the new hook is added), and this one only notes it. From
then on a check reads nothing (kernel/entry.py; `run_checks` itself claims nothing): no cell
reading, no checks, no runtime information; the model still gets the cell and the executed cells.

Libraries add hooks of their own too: filelock (a dependency of Hugging Face's libraries, among
others) adds one when it loads on Python 3.12 and later. A hook added by one of the functions in
KNOWN_HOOKS, holding the hook function its module's file defines, is the library's and does not
count: its code is the library's, like any library code a check runs.

A hook added before CRANE-LLM was first imported in the kernel is not seen: that is the limit.
"""

import os
import sys
import types
from typing import Any, List

_ADDED: List[bool] = [False]
_INSTALLED: List[bool] = [False]
# (package, function that calls sys.addaudithook, the module global it adds)
KNOWN_HOOKS = (("filelock", "_register_fork_hooks", "_audit_fork_safety"),)


def _sentinel(event: str, args: Any) -> None:
    # (kept to one comparison: it runs on every audited event of the kernel's life)
    if event == "sys.addaudithook" and not _a_known_library_adds_its_own():
        _ADDED[0] = True


def _a_known_library_adds_its_own() -> bool:
    try:
        caller = sys._getframe(2)  # (0: this function, 1: the sentinel, 2: who called addaudithook)
        code = caller.f_code
        for package, function, hook in KNOWN_HOOKS:
            if code.co_name != function or not _in_package(code.co_filename, package):
                continue
            added = caller.f_globals.get(hook)
            return type(added) is types.FunctionType and added.__code__.co_filename == code.co_filename
    except Exception:
        return False
    return False


def _in_package(filename: Any, package: str) -> bool:
    mod = sys.modules.get(package)
    path = getattr(mod, "__file__", None) if type(mod) is types.ModuleType else None
    if type(filename) is not str or type(path) is not str:
        return False
    return os.path.realpath(filename).startswith(os.path.dirname(os.path.realpath(path)) + os.sep)


def install() -> None:
    """Add the sentinel once per process."""
    if not _INSTALLED[0]:
        _INSTALLED[0] = True
        sys.addaudithook(_sentinel)


def notebook_hook_added() -> bool:
    return _ADDED[0]


STANDS_ASIDE = ("an audit hook was added in this kernel (`sys.addaudithook`): Python would call it on "
                "every step of the check, so the cell is not read and neither the built-in checks nor "
                "the runtime information run")

__all__ = ["install", "notebook_hook_added", "STANDS_ASIDE"]
