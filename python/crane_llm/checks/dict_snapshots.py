"""What a set of dictionaries (modules', classes') held when last found sound, compared in C.

A check that must know a library's code is as shipped cannot afford to judge every function of it
each time. Once judged, the dictionaries' values are kept, with their functions' code, defaults and
closures; the next check compares them by identity in one pass of `map(operator.is_, ...)`. Only
when that fails are they judged again, entry by entry.
"""

from __future__ import annotations

import itertools
import operator
import types
from typing import Any, Tuple

_FUNCTION_PARTS = tuple(operator.attrgetter(name) for name in ("__code__", "__defaults__", "__kwdefaults__",
                                                                  "__closure__"))
_VALUES = operator.methodcaller("values")  # (a class's dictionary is a mappingproxy)


class Snapshot:
    """What a dictionary (or `Chained` dictionaries) held: the same values in the same order, and
    its functions' same code, defaults and closures."""

    def __init__(self, space: Any):
        self.values = tuple(space.values())
        self.functions = tuple(v for v in self.values if type(v) is types.FunctionType)
        self.parts = tuple(tuple(map(getter, self.functions)) for getter in _FUNCTION_PARTS)

    def holds(self, space: Any) -> bool:
        return (len(space) == len(self.values) and all(map(operator.is_, space.values(), self.values))
                and all(all(map(operator.is_, map(getter, self.functions), parts))
                        for getter, parts in zip(_FUNCTION_PARTS, self.parts)))


class Chained:
    """The values of several dictionaries end to end, as `Snapshot` reads a dictionary."""

    def __init__(self, spaces: Tuple[Any, ...]):
        self.spaces = spaces

    def values(self):
        return itertools.chain.from_iterable(map(_VALUES, self.spaces))

    def __len__(self) -> int:
        return sum(map(len, self.spaces))


class AllOf:
    """Several dictionaries at once, as one `Snapshot` over their values end to end: one pass in C
    per check instead of one Python call per dictionary (there are hundreds)."""

    def __init__(self, spaces: Tuple[Any, ...]):
        self.spaces = spaces
        self.lengths = tuple(map(len, spaces))
        self.snapshot = Snapshot(Chained(spaces))

    def holds(self) -> bool:
        return tuple(map(len, self.spaces)) == self.lengths and self.snapshot.holds(Chained(self.spaces))


__all__ = ["AllOf", "Chained", "Snapshot"]
