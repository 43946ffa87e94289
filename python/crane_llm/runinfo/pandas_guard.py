"""Whether a DataFrame or Series may be read at all: the one question the variable's own summary
and the containers that hold frames (a dict, a scikit-learn Bunch) ask alike."""

from __future__ import annotations

from typing import Any, Optional

from ..checks.class_facts import attrs_plain, own_column_arrays, pristine_pandas

ATTRS_NOT_PLAIN = "its `attrs` hold objects that pandas would copy (running their code) as it is read"
PANDAS_PATCHED = "pandas' own classes were changed in this kernel (the changed code would run as it is read)"
ARRAYS_NOT_OWN = "a column is held in an array type that is not pandas' own (its code would run as it is read)"


def unreadable_pandas(value: Any, cls: Any) -> Optional[str]:
    """Why a DataFrame or Series is not read at all, or None. pandas deep-copies `attrs` into every
    frame or series it derives (a column, a sample); the frame or series class and the classes every
    read goes through (Index, the block managers, the indexers) must be pandas' own code, as the
    checker requires before any frame rule (a notebook's `pd.Series.to_numpy = ...` would run in
    the summary); and its columns and labels must sit in NumPy's or pandas' own arrays."""
    if not attrs_plain(value):
        return ATTRS_NOT_PLAIN
    if not _holds(pristine_pandas, cls):
        return PANDAS_PATCHED
    if not _holds(own_column_arrays, value):
        return ARRAYS_NOT_OWN
    return None


def _holds(test: Any, arg: Any) -> bool:
    try:
        return test(arg)
    except Exception:  # (a namespace with keys that are not plain strings: not read)
        return False
