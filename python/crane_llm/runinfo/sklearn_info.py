"""scikit-learn estimators: fitted or not, judged from the instance dict as sklearn itself does."""

from __future__ import annotations

from typing import Any, Dict, Optional

from .safe import class_defines, instance_dict, is_library_type, loaded


def is_estimator(sklearn_base: Any, obj: Any) -> bool:
    base = getattr(sklearn_base, "BaseEstimator", None)
    return base is not None and base in type(obj).__mro__


def _fitted(obj: Any, fields: dict) -> bool:
    # sklearn's own rule: a library-defined __sklearn_is_fitted__ (Pipeline, FrozenEstimator...)
    # decides; otherwise any public attribute ending in "_" set by fit.
    definer = class_defines(type(obj), "__sklearn_is_fitted__")
    if definer is not None and is_library_type(definer, "sklearn"):
        return bool(definer.__dict__["__sklearn_is_fitted__"](obj))
    return any(k.endswith("_") and not k.startswith("__") for k in fields)


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
    if type(obj).__name__ != "Pipeline" or not is_library_type(type(obj), "sklearn") or type(steps) is not list:
        return None
    found = [step[1] for step in steps if type(step) is tuple and len(step) == 2 and type(step[1]) not in (str, type(None))]
    return found or None


def _count(value: Any) -> Optional[int]:
    return int(value) if value is not None and type(value).__module__ in ("builtins", "numpy") else None


def estimator_summary(obj: Any) -> Dict[str, Any]:
    fields = instance_dict(obj)
    fitted = _fitted(obj, fields)
    out: Dict[str, Any] = {"kind": "sklearn-estimator", "fitted": fitted}
    if not fitted:
        return out
    steps = _steps(obj, fields)
    first = instance_dict(steps[0]) if steps else fields
    last = instance_dict(steps[-1]) if steps else fields
    n_in = _count(first.get("n_features_in_"))
    n_out = _outputs(loaded("numpy"), last)
    if n_in is not None:
        out["nFeaturesIn"] = n_in
    if n_out is not None:
        out["nOutputs"] = n_out
    if type(obj).__name__ == "LabelEncoder" and is_library_type(type(obj), "sklearn"):
        classes = fields.get("classes_")
        np = loaded("numpy")
        if np is not None and type(classes) is np.ndarray:
            out["nClasses"] = int(classes.shape[0])
    return out
