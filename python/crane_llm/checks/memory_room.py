"""How many bytes a line the checker passes over may allocate and still certainly succeed.

A line that makes a big array is passed over only when making it cannot fail; how big that may be
depends on the process: an address-space or data limit (`resource.setrlimit`, a cluster's
`ulimit -v`), a container's memory limit (cgroup), and what the machine has free. The room is the
least of those, read once a check from the interpreter's own C functions and the kernel's files
(the functions taken when crane_llm is imported, so a notebook's replacements are never called).
Where nothing can be read, the rules' own fixed bounds stand alone.
"""

from __future__ import annotations

import _io  # noqa: F401  (the C module whose `open` is taken)
import sys
import types
from typing import Any, Callable, Optional

from .static_reads import check_number


def _own(module_name: str, name: str, homes: tuple) -> Optional[Callable[..., Any]]:
    """The C function `module_name.name`, if it is the module's own (bound to a module named one of
    `homes`: `_io` calls itself `io`)."""
    module = sys.modules.get(module_name)
    fn = module.__dict__.get(name) if type(module) is types.ModuleType else None
    owner = getattr(fn, "__self__", None) if type(fn) is types.BuiltinFunctionType else None
    if type(owner) is not types.ModuleType or owner.__dict__.get("__name__") not in homes:
        return None
    return fn


try:
    import resource  # noqa: F401  (POSIX only)
except ImportError:
    pass
_GETRLIMIT = _own("resource", "getrlimit", ("resource",))
_OPEN = _own("_io", "open", ("_io", "io"))
_LIMITS = tuple(getattr(sys.modules.get("resource"), n, None) for n in ("RLIMIT_AS", "RLIMIT_DATA"))
_INFINITY = getattr(sys.modules.get("resource"), "RLIM_INFINITY", -1)
_PAGE = 4096

_cached: list = [None, 0]  # [bytes or None, the check that read them]


def _read(path: str) -> Optional[str]:
    if _OPEN is None:
        return None
    try:
        with _OPEN(path, "rb") as f:
            return f.read(8192).decode("ascii", "replace")
    except (OSError, ValueError):
        return None


def _number(text: Optional[str]) -> Optional[int]:
    try:
        return int(text.split()[0]) if text else None
    except (ValueError, IndexError):
        return None


def _meminfo(field: str, text: Optional[str]) -> Optional[int]:
    for line in (text or "").splitlines():
        if line.startswith(field + ":"):
            kb = _number(line[len(field) + 1:])
            return kb * 1024 if kb is not None else None
    return None


def _measure() -> Optional[int]:
    rooms = []
    statm = (_read("/proc/self/statm") or "").split()
    size = int(statm[0]) * _PAGE if statm and statm[0].isdigit() else None
    data = int(statm[5]) * _PAGE if len(statm) > 5 and statm[5].isdigit() else None
    if _GETRLIMIT is not None:
        for limit, used in zip(_LIMITS, (size, data)):
            if type(limit) is not int:
                continue
            try:
                soft = _GETRLIMIT(limit)[0]
            except (ValueError, OSError):
                continue
            if soft != _INFINITY and soft >= 0:
                rooms.append(soft - (used if used is not None else soft))
    meminfo = _read("/proc/meminfo")
    free = _meminfo("MemAvailable", meminfo)
    if free is not None:
        rooms.append(free + (_meminfo("SwapFree", meminfo) or 0))
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        limit, usage = _number(_read(limit_file)), _number(_read(usage_file))
        if limit is not None and usage is not None:
            rooms.append(limit - usage)
    return max(min(rooms), 0) if rooms else None


def room() -> Optional[int]:
    """Bytes the process may still allocate, or None when nothing says (read once a check)."""
    check = check_number()
    if check == 0 or _cached[1] != check:
        _cached[0], _cached[1] = _measure(), check
    return _cached[0]


def fits(n_bytes: int) -> bool:
    """Allocating `n_bytes` (with a temporary as big again) cannot fail for want of memory."""
    left = room()
    return left is None or 2 * n_bytes <= left
