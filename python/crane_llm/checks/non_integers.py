"""A number a value holds that is no whole number (a fraction, NaN or an infinity), found without
running user code and in bounded time: what scikit-learn's `type_of_target` calls continuous."""

from __future__ import annotations

import math
from typing import Any, Optional

from .library_namespace import numpy_untouched
from .static_reads import checked, loaded_module

# Elements read per step, and in all: past that the answer is unknown, not a scan of gigabytes.
_CHUNK = 1 << 20
_MAX_ELEMENTS = 1 << 24
_MAX_ITEMS = 100000


def in_float_array(arr: Any) -> Optional[float]:
    """The first such value of an exact NumPy array of a float dtype, 1-D or 2-D, read a block of
    rows at a time (views: nothing the size of the array is copied); None when it holds none or is
    too large to read."""
    np = loaded_module("numpy")
    # (a dtype carrying metadata may carry scikit-learn's cached "unique" labels: they, not the
    # values, would decide whether a 2-D target is a multilabel one)
    if np is None or not numpy_untouched() or arr.dtype.kind != "f" or arr.dtype.metadata is not None \
            or arr.ndim not in (1, 2) or arr.size > _MAX_ELEMENTS:
        return None
    isfinite, trunc, flatnonzero = (checked(np.__dict__).get(n) for n in ("isfinite", "trunc", "flatnonzero"))
    width = arr.shape[1] if arr.ndim == 2 else 1
    if width == 0:
        return None
    step = max(1, _CHUNK // width)
    for start in range(0, arr.shape[0], step):
        block = arr[start:start + step]
        odd = ~isfinite(block) | (block != trunc(block))
        hits = flatnonzero(odd)
        if hits.size:
            return float(block.flat[int(hits[0])])
    return None


def in_list(items: list) -> Optional[float]:
    """The first such float of a list of plain numbers (exact ints, floats and bools)."""
    if len(items) > _MAX_ITEMS:
        return None
    for x in items:
        if type(x) is float and not (math.isfinite(x) and x.is_integer()):
            return x
    return None


def described(x: float) -> str:
    """How a claim shows the value: NaN and the infinities by name, a fraction as Python prints it."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "an infinity"
    return repr(x)
