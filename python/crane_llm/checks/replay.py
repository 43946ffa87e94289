"""The replay adapter: answers the checker's questions from recorded facts instead of live objects.

Facts are one dict per variable in the form of the paper's runtime information (the files
`crane_llm_executed_code_runinfo/*.txt` of JunoBench): `type`, `shape`, `dtype`, `per_column`,
`is_fitted`, `fitted_attributes`, `length`, `value`, ... Anything a dict does not say is unknown.
The recording came from another environment, so the installed library classes are consulted only
to confirm that a method exists, never to say that one is missing.
"""

from __future__ import annotations

import re
import types
from typing import Any, Dict, FrozenSet, Optional, Tuple

from .static_reads import checked, loaded_module, lookup_static
from ..paper_runinfo import MARKER, METHOD_PREFIX, RecordedFactsError, parse_facts, split_prompt_file
from .class_facts import pristine_pandas, safe_class_property
from .dtypes import recorded_numpy_kind
from .keras_models import KERAS3_MODELS, RecordedKerasModel
from .recorded_tensors import recorded_tensor
from .torch_facts import tensor_class
from .recorded_attributes import missing_in_every_numpy, missing_in_every_pandas
from .live_adapter import LiveValue
from .provenance import audit
from .abstract_values import ArrayFacts, EstimatorFacts, FactValue, FrameFacts, Opaque, Value



class ReplayValue(FactValue):
    """A recorded value: attribute answers from the installed class count only when positive, and
    not for a name the executed cells may have set on an object (`df.drop = ...` shadows the
    method; `df.columns = ...` does not: pandas' property takes it), nor for any name when they may
    have set one out of sight (`set_attrs` None)."""

    def __init__(self, kind, set_attrs: Optional[FrozenSet[str]] = frozenset(), **facts):
        super().__init__(kind, **facts)
        self.set_attrs = set_attrs
        # (a frame's column Index is of a dtype pandas looks names up in: see RecordedKernel)
        self.plain_column_index = True
        # (a frame read from CSV and untouched since: its facts as recorded; see RecordedKernel)
        self.read_from_csv = None
        # (no library of the recorded kernel added attributes to DataFrame: recorded_attributes.py)
        self.frame_attributes_as_shipped = False
        # (no executed cell could have named a class of its own after a library's: the recorded
        # type is the library's class)
        self.type_as_named = False
        # (no executed cell could have renamed a dict subclass `dict`: RecordedKernel.keys_as_recorded)
        self.dict_as_recorded = False

    def has_attr(self, attr):
        fixed = _FIXED_BUILTINS.get(self.facts.type_name)
        if fixed is not None and not (attr.startswith("__") and attr.endswith("__")) and \
                (fixed is not dict or self.dict_as_recorded):
            # (no instance dictionary, no attribute added in years of Python: the recording kernel's
            # list has what this one's has)
            return lookup_static(fixed, attr, None) is not None
        if missing_in_every_numpy(self, attr):
            return False  # (an ndarray has no instance dictionary: nothing the cells set shadows it)
        if self.set_attrs is None:
            return None
        if attr in self.set_attrs and not (self.facts.cls is not None and safe_class_property(self.facts.cls, attr)):
            return None  # (a write to `df.columns` goes through pandas' property: it shadows nothing)
        answer = super().has_attr(attr)
        if answer:
            return True
        return False if missing_in_every_pandas(self, attr) else None


# Recorded values of these exact builtin types: their attributes (dunders aside) have been the same
# in every Python 3 a recording may come from, and an instance can be given none. (The recording
# checks a list's and a tuple's exact class; a dict is recorded by the name its class prints.)
_FIXED_BUILTINS = {"list": list, "tuple": tuple, "dict": dict}


def _type_name(raw: Any) -> str:
    text = str(raw or "")
    m = re.match(r"<class '([^']+)'>", text)
    return m.group(1) if m else text


def _loaded_class(dotted: str) -> Any:
    module, _, name = dotted.rpartition(".")
    mod = loaded_module(module)
    if mod is None:
        # pandas' recorded paths (pandas.core.frame) are loaded whenever pandas is.
        return None
    return checked(mod.__dict__).get(name)


class _Patched(Exception):
    """The library class a recorded value belongs to is patched in this very process."""


def _unpatched(cls: Any, package: str) -> Any:
    """`cls`, the installed class of a recorded value, if nothing in it was replaced here (when the
    replay runs in the kernel that patched it, the facts would describe the library as shipped)."""
    if cls is None:
        return None
    if not (pristine_pandas(cls) if package == "pandas" else audit().pristine(cls, package)):
        raise _Patched
    return cls


def _dtype_kind(dtype: Any) -> Optional[str]:
    np = loaded_module("numpy")
    if np is None or not isinstance(dtype, str):
        return None
    try:
        return np.dtype(dtype).kind
    except Exception:
        return None


def fact_value(name: str, facts: Any, written: Optional[FrozenSet[str]] = None,
               set_attrs: Optional[FrozenSet[str]] = frozenset(), tensors: bool = False,
               dict_keys: bool = False) -> Value:
    """One variable's recorded facts as a Value. `written`: the attribute names the executed cells
    may have set on objects (None: unknown), which decides what a Keras model may have gained;
    `set_attrs` the same where executed cells are given (without them, the facts alone speak);
    `tensors`: the executed cells left torch as shipped (RecordedKernel.tensors_as_recorded);
    `dict_keys`: a dict's recorded keys are its keys (RecordedKernel.keys_as_recorded)."""
    try:
        if tensors and isinstance(facts, dict) and _type_name(facts.get("type")) == "torch.Tensor":
            tensor = recorded_tensor(facts)
            if tensor is None:
                return Opaque()
            return ReplayValue("tensor", set_attrs=set_attrs, type_name="torch.Tensor", tensor=tensor,
                               cls=tensor_class()).named(name)
        value = _fact_value(name, facts, written, set_attrs)
        if dict_keys and value.kind() == "dict":
            value = ReplayValue("dict", type_name="dict", length=value.length(), keys=_recorded_keys(facts)).named(name)
        return value
    except _Patched:
        return Opaque()


# pandas 3 gives its classes the top module for theirs: a kernel running it records `pandas.DataFrame`.
_PANDAS3_NAMES = {"pandas.DataFrame": "pandas.core.frame.DataFrame", "pandas.Series": "pandas.core.series.Series"}


def _fact_value(name: str, facts: Any, written: Optional[FrozenSet[str]],
                set_attrs: Optional[FrozenSet[str]]) -> Value:
    if not isinstance(facts, dict):
        return Opaque()
    t = _type_name(facts.get("type"))
    t = _PANDAS3_NAMES.get(t, t)
    if t in KERAS3_MODELS:
        return RecordedKerasModel(t, written).named(name)
    if t in ("int", "float", "str", "bool") and "value" in facts:
        v = facts["value"]
        if type(v).__name__ == t:
            return LiveValue(v, name)
    if t == "NoneType":
        return LiveValue(None, name)
    if t == "pandas.core.frame.DataFrame":
        shape = _shape(facts.get("shape"))
        per_column = facts.get("per_column")
        columns = None
        if shape and isinstance(per_column, dict) and len(per_column) == shape[1]:
            columns = list(per_column.keys())
        # The labels are exact strings (text the recording only showed, such as a Timestamp's
        # repr, is read as `paper_runinfo.Shown`), in an order the recording did not keep (it
        # prints its dicts sorted).
        dtypes = facts.get("dtypes")
        if type(dtypes) is not list and columns is not None:  # (or each listed column's own, when all say it)
            dtypes = [per_column[c].get("dtype") if isinstance(per_column[c], dict) else None for c in columns]
        frame = FrameFacts(columns=columns, nrows=shape[0] if shape else None, index_names=None,
                           ncols=shape[1] if shape and len(shape) == 2 else None, no_missing=facts.get("has_nan") is False,
                           dtype_names=frozenset(dtypes) if type(dtypes) is list and dtypes and
                           all(type(d) is str for d in dtypes) else None,
                           flat=columns is not None and all(type(c) is str for c in columns),
                           integer_spans=_integer_spans(facts, per_column) if columns is not None else None,
                           ordered=False, seen_text=_seen_text(per_column) if columns is not None else {},
                           column_dtypes=[_column_dtype(per_column[c]) for c in columns] if columns is not None else None)
        return ReplayValue("frame", type_name=t, frame=frame, cls=_unpatched(_loaded_class(t), "pandas"),
                           set_attrs=set_attrs).named(name)
    if t == "pandas.core.series.Series":
        dtype = _series_dtype(facts.get("value_info"))
        return ReplayValue("series", type_name=t, cls=_unpatched(_loaded_class(t), "pandas"), set_attrs=set_attrs,
                           series_dtype=dtype, non_integer=_recorded_non_integer(facts.get("value_info"))
                           if dtype == "numeric" else None).named(name)
    if t == "numpy.ndarray":
        shape = _shape(facts.get("shape"))
        kind = _dtype_kind(facts.get("dtype"))
        return ReplayValue("ndarray", type_name=t, array=ArrayFacts(shape=shape, kind=kind),
                           cls=_loaded_class(t), set_attrs=set_attrs,
                           non_integer=_recorded_non_integer(facts) if kind == "f" else None).named(name)
    if t in ("list", "tuple") and type(facts.get("length")) is int:
        return ReplayValue(t, type_name=t, length=facts["length"]).named(name)
    if t == "dict" and type(facts.get("length")) is int:
        return ReplayValue("dict", type_name=t, length=facts["length"]).named(name)
    if "is_fitted" in facts and str(facts.get("module", "")).startswith("sklearn."):
        fitted_attrs = facts.get("fitted_attributes") or {}
        n = fitted_attrs.get("n_features_in_") if isinstance(fitted_attrs, dict) else None
        cls = _unpatched(_loaded_class(t), "sklearn")
        plain = _plain_estimator_class(cls)
        est = EstimatorFacts(cls=cls, class_name=facts.get("class_name"), fitted=facts.get("is_fitted")
                             if type(facts.get("is_fitted")) is bool and plain else None,
                             n_features=n if type(n) is int and plain else None, meta=False if plain else None)
        return ReplayValue("estimator", type_name=t, estimator=est, cls=cls, set_attrs=set_attrs).named(name)
    return Opaque()


# Parameters through which an estimator wraps others (Pipeline's steps, a search's estimator, ...):
# those decide its fitted-ness and what its methods check, and the recording does not show them.
_WRAPPING_PARAMETERS = frozenset({"estimator", "estimators", "base_estimator", "steps", "transformers",
                                  "transformer", "regressor", "classifier", "transformer_list", "func"})


def _plain_estimator_class(cls: Any) -> bool:
    """An estimator class the live adapter also reads fitted-ness and feature count of: no
    `__sklearn_is_fitted__` of its own (FunctionTransformer is always fitted and never counts
    features) and no parameter through which it wraps other estimators or functions (judged from
    its `__init__`'s parameter names, as scikit-learn's `_get_param_names` does)."""
    if not isinstance(cls, type) or lookup_static(cls, "__sklearn_is_fitted__", None) is not None:
        return False
    init = lookup_static(cls, "__init__", None)
    code = getattr(init, "__code__", None) if type(init) is types.FunctionType else None
    if type(code) is not types.CodeType:
        return False
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return not any(n in _WRAPPING_PARAMETERS for n in names)


# The recorder lists every key of a dict it recognises (`summarize_dict`): a Keras history (metric
# name -> list of numbers), a scikit-learn dataset bunch, a dict of numbers.
_KEYS_LISTED = {"training_history_dict": "metrics", "scalar_metrics_dict": "metrics", "sklearn_dataset_dict": "keys"}


def _recorded_keys(facts: Dict[str, Any]) -> Optional[list]:
    """The keys of a recorded exact dict, when the recording lists them all as plain texts or integers."""
    keys = facts.get(_KEYS_LISTED.get(facts.get("detected"), ""))
    if not isinstance(keys, list) or len(keys) != facts.get("length") or \
            not all(type(k) in (str, int) for k in keys) or len(set(keys)) != len(keys):
        return None
    return keys


def literal_value(name: str, literal: Any, facts: Any) -> Optional[Value]:
    """The value of a name the executed cells bound once, to a literal list or tuple nothing changed
    (`RecordedKernel.literals`), when its recorded facts agree: that type, that length. The facts
    prove the binding ran (the name exists, and no other statement binds it); the literal says what
    the facts leave out, its items."""
    if not isinstance(facts, dict) or _type_name(facts.get("type")) != type(literal).__name__ or \
            type(facts.get("length")) is not int or facts["length"] != len(literal):
        return None
    return LiveValue(literal, name)


def _integer_spans(facts: Dict[str, Any], per_column: Dict[Any, Any]) -> Dict[Any, Tuple[int, int]]:
    """The columns recorded with an integer value range in a frame recorded with no NaN at all."""
    if facts.get("has_nan") is not False:
        return {}
    spans = {}
    for label, col in per_column.items():
        if not isinstance(col, dict):
            continue
        vr = col.get("value_range")
        dtype = col.get("dtype")
        if dtype is not None and not (type(dtype) is str and dtype.startswith(("int", "uint"))):
            continue
        if isinstance(vr, tuple) and len(vr) == 2 and all(type(x) is int for x in vr) and vr[0] <= vr[1]:
            spans[label] = (vr[0], vr[1])
    return spans


# The recording shows text values of a column (its unique values, or a sample of them) cut to
# 20 characters plus "...": a shorter one is a value some row holds, as written.
_SHOWN_WHOLE = 20
# Dtypes whose values are all text (or categories, which pandas groups by their codes).
_TEXT_DTYPES = {"category", "str", "string", "string[python]", "string[pyarrow]"}


def _seen_text(per_column: Dict[Any, Any]) -> Dict[Any, frozenset]:
    """The text values the recording shows each column holding, for the columns known to hold
    text only (missing values aside): a text dtype, or an object column whose unique values the
    recording lists in full. Grouping by any other column sorts values that may not compare."""
    seen = {}
    for label, col in per_column.items():
        if type(label) is not str or not isinstance(col, dict):
            continue
        unique, examples = col.get("unique_values"), col.get("example_values")
        shown = unique if isinstance(unique, list) else examples
        if not isinstance(shown, list) or not shown:
            continue
        whole = all(type(v) is str and len(v) <= _SHOWN_WHOLE for v in shown)
        listed_in_full = shown is unique and whole and col.get("num_unique") == len(unique)
        if col.get("dtype") in _TEXT_DTYPES or (col.get("dtype") == "object" and listed_in_full):
            texts = frozenset(v for v in shown if type(v) is str and len(v) <= _SHOWN_WHOLE)
            if texts:
                seen[label] = texts
    return seen


# The recording sorts a Series into these by pandas' `is_numeric_dtype` (NaN dropped first); the
# "categorical numeric" one reads "categorical numeric(no more than 10 unique values)".
_NUMERIC_VALUE_TYPES = ("continuous", "binary", "categorical numeric")


def _column_dtype(col: Any) -> Optional[str]:
    """A recorded column's dtype category: the recording types a column by pandas' `is_numeric_dtype`
    ('continuous', 'categorical_numeric', 'binary': numbers, or bools, whose range shows False and
    True), anything else as 'categorical' (whose dtype, when recorded, is told by name)."""
    if not isinstance(col, dict):
        return None
    kind = col.get("type")
    recorded = col.get("dtype")
    if kind in ("continuous", "categorical_numeric", "binary") and recorded is not None and \
            recorded_numpy_kind(recorded) is None:
        # (a Sparse, nullable or Arrow column is numbers to pandas, but not what NumPy converts:
        # scikit-learn refuses sparse data with TypeError before it counts features)
        return None
    if kind in ("continuous", "categorical_numeric"):
        return "numeric"
    if kind == "binary":
        span = col.get("value_range")
        return _binary_dtype(span) if isinstance(span, tuple) and len(span) == 2 else None
    if kind == "categorical":
        return {"object": "object", "category": "category"}.get(col.get("dtype"))
    return None


def _series_dtype(info: Any) -> Optional[str]:
    """'numeric' or 'bool' for a Series the recording summarised as numbers ('binary' also holds
    bools: shown as False / True), None otherwise."""
    if not isinstance(info, dict) or type(info.get("value_type")) is not str \
            or not info["value_type"].startswith(_NUMERIC_VALUE_TYPES):
        return None
    shown = info.get("unique_values")
    if info["value_type"] == "binary":
        return _binary_dtype(shown) if isinstance(shown, list) and shown else None
    return "numeric"


def _binary_dtype(shown: Any) -> Optional[str]:
    """'bool' or 'numeric' for what the recording shows of a 'binary' column or Series (its range,
    or its values): pandas' `is_numeric_dtype` takes bools too, shown as False / True."""
    if all(type(v) is bool for v in shown):
        return "bool"
    return "numeric" if all(type(v) in (int, float) for v in shown) else None


def _recorded_non_integer(facts: Any) -> Optional[float]:
    """A recorded float value that is no whole number: an end of the recorded value range (the
    recording's own min and max, printed in full), or NaN when the recording says there is one."""
    if not isinstance(facts, dict):
        return None
    span = facts.get("value_range")
    if isinstance(span, tuple) and len(span) == 2:
        for end in span:
            if type(end) is float and (end != end or end in (float("inf"), float("-inf")) or not end.is_integer()):
                return end
    if facts.get("has_nan") is True:
        return float("nan")
    return None


def _shape(raw: Any) -> Optional[Tuple[int, ...]]:
    if isinstance(raw, (tuple, list)) and all(type(d) is int for d in raw):
        return tuple(raw)
    return None


def parse_runinfo(text: str) -> Tuple[Dict[str, Any], str]:
    """The facts dict and the target cell of a JunoBench `crane_llm_executed_code_runinfo` file,
    read by the one reader of those files; facts it cannot read are no facts."""
    if MARKER not in text:
        return {}, ""
    _cells, target = split_prompt_file(text)
    try:
        facts = parse_facts(text)
    except RecordedFactsError:
        facts = {}
    return {k: v for k, v in facts.items() if isinstance(k, str) and not k.startswith(METHOD_PREFIX)}, target
