"""Records live values as the paper's runtime information (the JunoBench runinfo format), so the
replay adapter can be checked against real execution exactly like the live one."""

from __future__ import annotations

from typing import Any, Dict


def record(value: Any) -> Dict[str, Any]:
    import sys

    cls = type(value)
    name = f"{cls.__module__}.{cls.__qualname__}"
    pd = sys.modules.get("pandas")
    np = sys.modules.get("numpy")
    if pd is not None and cls is pd.DataFrame:
        return {"type": "pandas.core.frame.DataFrame", "shape": tuple(value.shape),
                "per_column": {c: _column(value, c) for c in list(value.columns)[:20]}}
    if pd is not None and cls is pd.Series:
        return {"type": "<class 'pandas.core.series.Series'>"}
    if np is not None and cls is np.ndarray:
        return {"type": "numpy.ndarray", "shape": tuple(value.shape), "dtype": str(value.dtype)}
    if cls in (int, float, str, bool):
        return {"type": f"<class '{cls.__name__}'>", "value": value}
    if value is None:
        return {"type": "<class 'NoneType'>"}
    if cls in (list, tuple, dict):
        return {"type": f"<class '{cls.__name__}'>", "length": len(value)}
    if cls.__module__.startswith("sklearn."):
        from sklearn.exceptions import NotFittedError
        from sklearn.utils.validation import check_is_fitted

        try:
            check_is_fitted(value)
            fitted = True
        except NotFittedError:
            fitted = False
        except Exception:
            fitted = None
        n = getattr(value, "n_features_in_", None) if fitted else None
        return {"type": f"<class '{name}'>", "class_name": cls.__name__, "module": cls.__module__,
                "is_fitted": fitted, "fitted_attributes": {"n_features_in_": n}}
    return {"type": f"<class '{name}'>"}


def _column(frame: Any, label: Any) -> Dict[str, Any]:
    """A text column as the paper records it: up to 5 of its values, each cut at 20 characters
    (a frame pandas cannot read so, a case's hostile one, gets its column recorded as unknown)."""
    import pandas as pd

    plain = all(getattr(f, "__module__", None) in ("pandas.core.frame", "pandas.core.series", "pandas.core.base")
                for f in (pd.DataFrame.__getitem__, pd.Series.dropna, pd.Series.unique))
    if not plain:
        return {"type": "unknown"}  # (not running a case's patched pandas methods while recording)
    try:
        col = frame[label]
        if type(col) is not pd.Series or pd.api.types.is_numeric_dtype(col):
            return {"type": "unknown"}
        values = col.dropna().unique()
    except Exception:
        return {"type": "unknown"}
    shown = [v[:20] + "..." if isinstance(v, str) and len(v) > 20 else v for v in list(values)[:5]]
    return {"type": "categorical", "num_unique": len(values), "dtype": str(col.dtype),
            ("unique_values" if len(values) <= 5 else "example_values"): shown}


def record_namespace(ns: Dict[str, Any]) -> Dict[str, Any]:
    return {k: record(v) for k, v in ns.items() if not k.startswith("_") and k not in ("In", "Out", "exit", "quit")}
