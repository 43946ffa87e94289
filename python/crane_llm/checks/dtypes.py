"""A dtype in the few categories the rules speak of, read from NumPy's and pandas' own dtype objects."""

from __future__ import annotations

import re
from typing import Any, Optional, Tuple

from .static_reads import checked, instance_dict, loaded_module
from .provenance import class_module, plain_class


def dtype_category(dtype: Any) -> Optional[str]:
    """'numeric', 'bool', 'datetime', 'timedelta', 'object', 'str', 'string' or 'category' for NumPy's and
    pandas' own dtype objects (exact types; their attributes are C slots or pandas' own)."""
    np = loaded_module("numpy")
    pd = loaded_module("pandas")
    if np is None or pd is None:
        return None
    t = type(dtype)
    if not plain_class(t) and class_module(t).split(".")[0] != "numpy":
        return None
    if issubclass(t, np.dtype) and class_module(t).split(".")[0] == "numpy":
        kind = dtype.kind
        if kind == "f" and dtype.itemsize not in (4, 8) or kind == "c":
            # float16 and longdouble keys fail pandas' hash tables (NotImplementedError, KeyError),
            # complex numbers its `describe`: none of them is the number the rules model
            return None
        return {"b": "bool", "i": "numeric", "u": "numeric", "f": "numeric", "M": "datetime",
                "m": "timedelta", "O": "object"}.get(kind)
    if t is checked(pd.__dict__).get("StringDtype"):
        # Text with NaN for missing (pandas' default `str`) is 'str'; the opt-in `string` dtype's
        # pd.NA fails a float conversion with TypeError, not ValueError: 'string'.
        missing = (instance_dict(dtype) or {}).get("_na_value")
        return "str" if type(missing) is float else "string"
    if t is checked(pd.__dict__).get("CategoricalDtype"):
        return "category"
    if t is checked(pd.__dict__).get("DatetimeTZDtype"):
        return "datetime"
    return None


# A dtype as a recording names it, when the name is one of NumPy's own numeric dtypes (a 'Sparse[int64,
# 0]', 'Int64', 'int64[pyarrow]' or 'boolean' column is numbers to pandas but not what NumPy converts).
_NUMPY_NUMBER_NAME = re.compile(r"(bool)|(u?int)(8|16|32|64)|(float)(16|32|64|128)|(complex)(64|128|256)")


def recorded_numpy_kind(name: Any) -> Optional[Tuple[str, int]]:
    """(NumPy's kind letter, bits) of a recorded dtype name that is a plain NumPy numeric dtype:
    ('b', 8) for 'bool', ('u', 16) for 'uint16', ('f', 64) for 'float64'; None for any other name."""
    if type(name) is not str:
        return None
    m = _NUMPY_NUMBER_NAME.fullmatch(name)
    if m is None:
        return None
    if m.group(1):
        return "b", 8
    word = m.group(2) or m.group(4) or m.group(6)
    bits = int(m.group(3) or m.group(5) or m.group(7))
    return {"int": "i", "uint": "u", "float": "f", "complex": "c"}[word], bits


def recorded_dtypes_among(names: Any, kinds: str, max_float_bits: int = 64) -> bool:
    """Every recorded dtype name is NumPy's own, of one of `kinds` (floats up to `max_float_bits`)."""
    for name in names:
        kind = recorded_numpy_kind(name)
        if kind is None or kind[0] not in kinds or (kind[0] == "f" and kind[1] > max_float_bits):
            return False
    return True
