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
        out = {"type": "pandas.core.frame.DataFrame", "shape": tuple(value.shape)}
        if value.shape[1] <= 20:
            out["per_column"] = {c: _column(value, c) for c in list(value.columns)}
        else:  # (a wide frame: the paper's recorder lists the dtypes it holds, not its columns)
            out["dtypes"] = sorted({str(t) for t in value.dtypes})
        if _plain_pandas():
            try:
                out["has_nan"] = bool(value.isnull().values.any())
            except Exception:
                pass
        return out
    if pd is not None and cls is pd.Series:
        out = {"type": "<class 'pandas.core.series.Series'>"}
        info = _series_values(value)
        if info is not None:
            out["value_info"] = info
        return out
    if np is not None and cls is np.ndarray:
        out = {"type": "numpy.ndarray", "shape": tuple(value.shape), "dtype": str(value.dtype)}
        out.update(_array_values(value))
        return out
    torch = sys.modules.get("torch")
    if torch is not None and cls.__name__ == "Tensor" and "torch" in cls.__module__:
        # (as the paper's recorder writes one: `str(type)`, the shape as a tuple, the dtype and
        # device as text, taken from the exact class's C getters)
        try:
            return {"type": str(cls), "shape": tuple(value.shape), "dtype": str(value.dtype),
                    "device": str(value.device), "requires_grad": value.requires_grad}
        except Exception:  # (under a mode of the notebook's own, reading a tensor runs its code)
            return {"type": str(cls)}
    if cls in (int, float, str, bool):
        return {"type": f"<class '{cls.__name__}'>", "value": value}
    if value is None:
        return {"type": "<class 'NoneType'>"}
    if isinstance(value, dict):
        return _dict(value)
    if cls in (list, tuple):
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


def _dict(d: dict) -> Dict[str, Any]:
    """As the paper's recorder shows a dict (any dict: its type says which): every key of one it
    recognises (a Keras history, a scikit-learn bunch, a dict of numbers), the length of any other."""
    out = {"type": str(type(d)), "length": len(d)}
    values = list(d.values())
    if values and all(type(v) is list and all(isinstance(x, (int, float)) for x in v) for v in values) \
            and len({len(v) for v in values}) == 1:
        return dict(out, detected="training_history_dict", metrics=list(d), n_epochs=len(values[0]))
    if "data" in d and "target" in d:
        return dict(out, detected="sklearn_dataset_dict", keys=list(d))
    if all(isinstance(v, (int, float)) for v in values):
        return dict(out, detected="scalar_metrics_dict", metrics=list(d))
    return out


def _plain_pandas() -> bool:
    """pandas' own methods are in place (a case's patched ones are not run while recording)."""
    import pandas as pd

    return all(getattr(f, "__module__", None) in ("pandas.core.frame", "pandas.core.series", "pandas.core.base")
               for f in (pd.DataFrame.__getitem__, pd.Series.dropna, pd.Series.unique))


def _scalar(x: Any) -> Any:
    """A NumPy scalar as the recording's printed text reads back: a plain Python number."""
    return x.item() if hasattr(type(x), "item") else x


def _series_values(s: Any) -> Any:
    """A Series' values as the paper summarises them: NaN dropped, numbers as 'binary', 'categorical
    numeric' (a few integers) or 'continuous' with their range, anything else by its distinct values."""
    import pandas as pd

    if not _plain_pandas():
        return None
    try:
        data = s.dropna()
        if data.empty:
            return {"value_type": "empty or all NaN"}
        unique = data.unique()
        n = len(unique)
        if pd.api.types.is_numeric_dtype(data):
            if n == 2 and set(unique.tolist()) <= {0, 1}:
                return {"value_type": "binary", "unique_values": sorted(unique.tolist())}
            if n <= 10 and pd.api.types.is_integer_dtype(data):
                info = {"value_type": "categorical numeric(no more than 10 unique values)", "num_unique": n}
                if n <= 5:
                    info["unique_values"] = sorted(unique.tolist())
                return info
            return {"value_type": "continuous", "value_range": (_scalar(data.min()), _scalar(data.max()))}
        info = {"value_type": "categorical or object", "num_unique": n}
        if n <= 5:
            info["unique_values"] = list(unique.tolist())
        return info
    except Exception:
        return None


def _array_values(a: Any) -> Dict[str, Any]:
    """An array's NaN flag and, for numbers, its least and greatest value (NaN aside), as the paper
    records them."""
    import numpy as np

    out: Dict[str, Any] = {}
    if type(np.isnan) is not np.ufunc or getattr(np.nanmin, "__module__", None) != "numpy":
        return out  # (not running a case's replaced NumPy functions while recording)
    try:
        out["has_nan"] = bool(np.isnan(a).any())
    except TypeError:
        pass
    if np.issubdtype(a.dtype, np.number) and a.size > 0:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (an all-NaN array)
            out["value_range"] = (_scalar(np.nanmin(a)), _scalar(np.nanmax(a)))
    return out


def _column(frame: Any, label: Any) -> Dict[str, Any]:
    """A column as the paper records it: numbers by kind ('binary', 'categorical_numeric' for a few
    integers, 'continuous') with their range; text by up to 5 of its values, each cut at 20
    characters (a frame pandas cannot read so, a case's hostile one, gets its column recorded as
    unknown)."""
    import pandas as pd

    if not _plain_pandas():
        return {"type": "unknown"}  # (not running a case's patched pandas methods while recording)
    try:
        col = frame[label]
        if type(col) is not pd.Series:
            return {"type": "unknown"}
        data = col.dropna()
        values = data.unique()
        if pd.api.types.is_numeric_dtype(data):
            n = len(values)
            kind = "binary" if n == 2 and set(values.tolist()) <= {0, 1} else \
                "categorical_numeric" if n <= 10 and pd.api.types.is_integer_dtype(data) else "continuous"
            return {"type": kind, "num_unique": n, "dtype": str(col.dtype),
                    "value_range": (_scalar(data.min()), _scalar(data.max())) if n else (None, None)}
    except Exception:
        return {"type": "unknown"}
    shown = [v[:20] + "..." if isinstance(v, str) and len(v) > 20 else v for v in list(values)[:5]]
    return {"type": "categorical", "num_unique": len(values), "dtype": str(col.dtype),
            ("unique_values" if len(values) <= 5 else "example_values"): shown}


def record_namespace(ns: Dict[str, Any]) -> Dict[str, Any]:
    return {k: record(v) for k, v in ns.items() if not k.startswith("_") and k not in ("In", "Out", "exit", "quit")}
