"""scikit-learn's classification metrics given a continuous target (ValueError).

`accuracy_score(y_test, y_pred)` with `y_pred` from a regressor, or a network's probabilities:
scikit-learn's `type_of_target` calls a float array holding any number that is no whole number (a
fraction, NaN or an infinity) continuous, and every classification metric starts with
`_check_targets`, which refuses that: "Classification metrics can't handle a mix of binary and
continuous targets", or "continuous is not supported" when both are. Lengths that differ, checked
just before, raise ValueError too.

Both targets must be values on which that reading raises nothing but ValueError: an exact ndarray
of numbers or text (1-D or 2-D), a pandas Series of a number or bool dtype, a list of plain numbers.
A Series of objects mixing text and NaN makes the sorting of its labels raise TypeError first, so
does a Series of another dtype. Only the metric as `sklearn.metrics` exports it, called with the two
targets alone, while scikit-learn's, NumPy's and pandas' modules hold their own code; and the
installed scikit-learn is asked once, on made-up targets, that it refuses continuous ones.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional

from ..abstract_values import Value
from ..library_namespace import numpy_untouched, sklearn_generation, sklearn_untouched
from ..library_only import remembered
from ..live_adapter import LiveValue
from ..non_integers import described
from ..outcome import CertainCrash, Crash
from ..provenance import own_call, own_module_function
from .operators import FLOAT_INTS

# The metrics whose first step on the targets is `_check_targets` (seen on scikit-learn 1.6 to 1.9).
CLASSIFICATION_METRICS = (
    "accuracy_score", "balanced_accuracy_score", "class_likelihood_ratios", "classification_report",
    "cohen_kappa_score", "confusion_matrix", "f1_score", "hamming_loss", "jaccard_score", "matthews_corrcoef",
    "multilabel_confusion_matrix", "precision_recall_fscore_support", "precision_score", "recall_score",
    "zero_one_loss",
)
_PROBED: Dict[Any, Optional[bool]] = {}
_MAX_ITEMS = 100000


def continuous_target(fn: Any, name: str, args: List[Value], kwargs: Dict[str, Value], node) -> None:
    """Raise the certain ValueError of a classification metric given a continuous target."""
    if name not in CLASSIFICATION_METRICS or not own_module_function("sklearn.metrics", name, fn, "sklearn"):
        return
    given = dict(zip(("y_true", "y_pred"), args))
    if len(args) > 2 or set(kwargs) - {"y_true", "y_pred"} or set(given) & set(kwargs):
        return
    given.update(kwargs)
    if set(given) != {"y_true", "y_pred"}:
        return
    y_true, y_pred = given["y_true"], given["y_pred"]
    if not (_read_with_value_errors(y_true) and _read_with_value_errors(y_pred)):
        return
    odd = [(role, v, v.non_integer()) for role, v in (("y_true", y_true), ("y_pred", y_pred))]
    # (a recorded 2-D array of several columns is read as multilabel when the "unique" labels its
    # dtype's metadata may cache say so: the recording does not show that metadata)
    odd = [(role, v, x) for role, v, x in odd if x is not None and (isinstance(v, LiveValue) or (_columns(v) or 1) == 1)]
    if not odd or not numpy_untouched() or not sklearn_untouched() or not _refuses_continuous(fn, y_true, y_pred, odd):
        return
    n_true, n_pred = y_true.length(), y_pred.length()
    if n_true is not None and n_pred is not None and n_true != n_pred:
        message = (f"`{name}()` needs one label per sample in both targets, but `{_label(y_true, 'y_true')}` has "
                   f"{n_true} and `{_label(y_pred, 'y_pred')}` has {n_pred}: Found input variables with "
                   f"inconsistent numbers of samples: [{n_true}, {n_pred}].")
    else:
        role, v, x = odd[-1]
        if not math.isfinite(x):
            # (a value that is not finite is refused as such, before the kinds of target are compared)
            message = (f"`{name}()` compares class labels, and `{_label(v, role)}` holds {described(x)}, which "
                       f"scikit-learn refuses in a target (Input {role} contains "
                       f"{'NaN' if x != x else 'infinity'}).")
        else:
            refusal = "continuous is not supported" if len(odd) == 2 else \
                ("Classification metrics can't handle a mix of continuous and … targets" if role == "y_true" else
                 "Classification metrics can't handle a mix of … and continuous targets")
            message = (f"`{name}()` compares class labels, and `{_label(v, role)}` holds {described(x)}, which is "
                       f"no class label: scikit-learn reads it as a continuous target and refuses it ({refusal}). "
                       f"Turn scores into labels first, e.g. `(y_pred > 0.5).astype(int)` or `y_pred.argmax(axis=1)`.")
    raise Crash(CertainCrash("ValueError", node.lineno, node.col_offset, message, "continuous-target",
                             [v.name for v in (y_true, y_pred) if v.name]))


def _label(v: Value, role: str) -> str:
    return v.name or role


def _read_with_value_errors(v: Value) -> bool:
    """`type_of_target` and the length check read `v` raising nothing but ValueError: NumPy sorts
    its values in C, and no object of the notebook's is among them."""
    kind = v.kind()
    if kind == "ndarray":
        a = v.array()
        return a is not None and a.kind is not None and a.kind in "biufU" and a.shape is not None \
            and len(a.shape) in (1, 2) and all(type(d) is int and d > 0 for d in a.shape)
    if kind == "series":
        return v.series_dtype() in ("numeric", "bool")
    if kind == "list":
        items = v.concrete()
        # (an int too wide for a float makes NumPy build an object array: kept out, to stay plain)
        return type(items) is list and len(items) <= _MAX_ITEMS and all(
            type(x) in (float, bool) or (type(x) is int and -FLOAT_INTS < x < FLOAT_INTS) for x in items)
    return False


def _refuses_continuous(fn: Any, y_true: Value, y_pred: Value, odd: list) -> bool:
    """The installed metric raises ValueError on made-up targets of those forms: the continuous one(s)
    fractions, the other whole numbers. Asked once per metric and form, under `library_only` (no
    code but the libraries' runs), and again after scikit-learn's modules changed."""
    np = own_call("numpy", "array", "numpy")
    get_config = own_call("sklearn", "get_config", "sklearn")
    generation = sklearn_generation()
    if np is None or get_config is None or generation is None:
        return False
    continuous = {role for role, _, _ in odd}
    forms = tuple((role in continuous, _columns(v)) for role, v in (("y_true", y_true), ("y_pred", y_pred)))

    def ask() -> bool:
        if get_config().get("array_api_dispatch") is not False:
            return False
        made = [_made_up(np, frac, cols) for frac, cols in forms]
        try:
            fn(*made)
        except ValueError:
            return True
        except Exception:
            return False
        return False

    return remembered(_PROBED, (fn, generation, forms), ask) is True


def _columns(v: Value) -> Optional[int]:
    a = v.array() if v.kind() == "ndarray" else None
    return a.shape[1] if a is not None and a.shape is not None and len(a.shape) == 2 else None


def _made_up(array: Any, fractions: bool, columns: Optional[int]) -> Any:
    values = [0.5, 1.5, 0.25] if fractions else [0, 1, 1]
    if columns is None:
        return array(values)
    return array([[x] * max(columns, 1) for x in values])


__all__ = ["CLASSIFICATION_METRICS", "continuous_target"]
