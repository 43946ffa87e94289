"""A dtype in the few categories the rules speak of, read from NumPy's and pandas' own dtype objects."""

from __future__ import annotations

from typing import Any, Optional

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
