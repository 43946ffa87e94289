"""A check runs on the interpreter's own builtins, whatever the notebook put in their place.

CRANE-LLM's code, the standard library and the libraries a check consults look builtins up by
name at every call (`len`, `isinstance`, `getattr`, `__import__`, ...): after a notebook's
`builtins.len = ...`, a single check would call the notebook's function thousands of times. So for
the time of a check the builtins the notebook replaced or removed hold again what they held when
crane_llm was imported (and only those that were the interpreter's own then), and the notebook's
are put back when the check ends, however it ends.

The cell will run with the notebook's builtins, so the checker judges it by them: the builtins as
the notebook left them stay readable as `provenance.notebook_builtins()`, and a replaced builtin
still makes the checks stand aside. Another thread of the notebook's that runs during the check
sees the interpreter's builtins for that time (as it sees no trace function of its own).
"""

from __future__ import annotations

import builtins as _builtins
from typing import Any, List, Tuple

from ..checks.provenance import NOTEBOOK_BUILTINS, genuine_builtins

_ABSENT = object()
_GENUINE = genuine_builtins()
# Until the swap is made, a builtin looked up by name could be the notebook's: what the swap itself
# calls is taken here, as module globals (found before the builtins).
_type, _str, _dict = type, str, dict


class interpreters_builtins:
    """`with interpreters_builtins():` the genuine builtins stand where the notebook changed them.
    (A plain class, not a contextlib generator: contextlib calls builtins before the swap.)"""

    def __init__(self) -> None:
        self._notebooks: List[Tuple[str, Any]] = []
        self._swapped = False

    def __enter__(self) -> None:
        current = _builtins.__dict__
        # Already inside a check (the magic's flow calls the entry's gather), or a builtins dict
        # holding a key that is not an exact str (a lookup there could call its `__eq__`): nothing
        # is touched, and the checks stand aside on it.
        if NOTEBOOK_BUILTINS:
            return
        for key in current:
            if _type(key) is not _str:
                return
        view = _dict(current)
        notebooks = self._notebooks
        for name, own in _GENUINE.items():
            now = view.get(name, _ABSENT)
            if now is not own:
                notebooks.append((name, now))
                current[name] = own
        NOTEBOOK_BUILTINS.append(view)
        self._swapped = True

    def __exit__(self, *exc: Any) -> None:
        if not self._swapped:
            return
        current = _builtins.__dict__
        for name, now in self._notebooks:
            if now is _ABSENT:
                current.pop(name, None)
            else:
                current[name] = now
        NOTEBOOK_BUILTINS.pop()


__all__ = ["interpreters_builtins"]
