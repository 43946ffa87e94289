"""scikit-learn estimators: fitted or not, judged from the instance dict as sklearn itself does."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..checks.provenance import class_name, instance_dict, mro
from .safe import is_library_type, loaded, one_of


def is_estimator(sklearn_base: Any, obj: Any) -> bool:
    base = vars(sklearn_base).get("BaseEstimator")
    return base is not None and one_of(base, mro(type(obj)))


def _fitted(obj: Any, fields: dict, depth: int = 0) -> bool:
    """sklearn's rule, read from instance dicts and never by calling the estimator (its
    `__sklearn_is_fitted__` reaches whatever the steps hold): a Pipeline is fitted when its last
    step is; any other estimator when it has a public attribute ending in "_" (set by fit)."""
    steps = _steps(obj, fields)
    if steps is not None and depth < 8:
        last = steps[-1]
        return _fitted(last, instance_dict(last, {}), depth + 1)
    return any(type(k) is str and k.endswith("_") and not k.startswith("__") for k in fields)


def _outputs(np: Any, fields: dict) -> Optional[int]:
    n_outputs = fields.get("n_outputs_")
    if type(n_outputs) is int:
        return n_outputs
    coef = fields.get("coef_")
    if np is not None and type(coef) is np.ndarray:
        return 1 if coef.ndim == 1 else int(coef.shape[0])
    n_out = fields.get("_n_features_out", fields.get("n_components_"))
    if type(n_out) is int:
        return n_out
    return None


def _steps(obj: Any, fields: dict) -> Optional[list]:
    """A scikit-learn Pipeline's estimators (its feature count is the first's, outputs the last's)."""
    steps = fields.get("steps")
    if class_name(type(obj)) != "Pipeline" or not is_library_type(type(obj), "sklearn") or type(steps) is not list:
        return None
    found = [step[1] for step in steps
             if type(step) is tuple and len(step) == 2 and not one_of(type(step[1]), (str, type(None)))]
    return found or None


def _count(value: Any) -> Optional[int]:
    if type(value) is int:
        return value
    np = loaded("numpy")
    return int(value) if np is not None and one_of(type(value), (np.int64, np.int32, np.intp)) else None


def estimator_summary(obj: Any) -> Dict[str, Any]:
    fields = instance_dict(obj, {})
    fitted = _fitted(obj, fields)
    out: Dict[str, Any] = {"kind": "sklearn-estimator", "fitted": fitted}
    if not fitted:
        return out
    steps = _steps(obj, fields)
    first = instance_dict(steps[0], {}) if steps else fields
    last = instance_dict(steps[-1], {}) if steps else fields
    n_in = _count(first.get("n_features_in_"))
    n_out = _outputs(loaded("numpy"), last)
    if n_in is not None:
        out["nFeaturesIn"] = n_in
    if n_out is not None:
        out["nOutputs"] = n_out
    if class_name(type(obj)) == "LabelEncoder" and is_library_type(type(obj), "sklearn"):
        classes = fields.get("classes_")
        np = loaded("numpy")
        if np is not None and type(classes) is np.ndarray:
            out["nClasses"] = int(classes.shape[0])
    return out
