"""Numbers too wide to hash, compare or sort in bounded time.

Two equal ints, Fractions or Decimals in distinct objects are compared digit by digit, and their
hashes are easy to make collide: a hash table or a sort of such numbers can take as long as their
digits times their count, inside one C call no alarm can cut. Past a float's range a number is
"wide", and the checks and the runtime information leave a collection that holds one unread.
"""

from __future__ import annotations

import array
import sys
from typing import Any, Iterable

from .static_reads import class_module

WIDE_NUMBER_BITS = 1024  # a float's range


def wide_number(x: Any) -> bool:
    """An int, a Fraction or a Decimal (of the standard library's own classes) past WIDE_NUMBER_BITS."""
    t = type(x)
    if t is int:
        return x.bit_length() > WIDE_NUMBER_BITS
    module = class_module(t)
    if module == "fractions":
        return x.numerator.bit_length() > WIDE_NUMBER_BITS or x.denominator.bit_length() > WIDE_NUMBER_BITS
    if module in ("decimal", "_pydecimal"):
        return sys.getsizeof(x) > WIDE_NUMBER_BITS // 8 + 100  # (its digits are its size: no tuple of them built)
    return False


def any_wide_number(items: Iterable[Any]) -> bool:
    """A wide number among `items`. For plain ints and floats, one C pass converting them to doubles
    (which overflows exactly past a float's range); otherwise each item."""
    items = list(items)
    if set(map(type, items)) <= {int, float}:
        try:
            array.array("d", items)
        except OverflowError:
            return True
        return False
    return any(map(wide_number, items))
