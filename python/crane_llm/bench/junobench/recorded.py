"""The paper's recorded runtime information (read by crane_llm.paper_runinfo), turned into our
RuntimeInfo JSON.

The conversion keeps what the facts say and invents nothing: a field our schema requires but the
facts do not give makes the summary `unavailable`, with what is known in its reason.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any, Dict, List, Optional, Tuple

from ...paper_runinfo import METHOD_PREFIX

_CLASS_REPR = re.compile(r"^<class '([^']+)'>$")


def type_name(recorded: Any) -> str:
    """"<class 'pandas.core.series.Series'>" -> "pandas.core.series.Series"; builtins unqualified."""
    text = str(recorded or "object")
    m = _CLASS_REPR.match(text)
    name = m.group(1) if m else text
    return name[len("builtins."):] if name.startswith("builtins.") else name


def _int(x: Any) -> Optional[int]:
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return None


def _shape(x: Any) -> Optional[List[int]]:
    if isinstance(x, dict) and x.get("__call__", "").endswith("Size") and x.get("args"):
        x = x["args"][0]
    if isinstance(x, (list, tuple)) and all(_int(d) is not None and _int(d) >= 0 for d in x):
        return [_int(d) for d in x]
    return None


def _stat(x: Any) -> Any:
    if isinstance(x, bool):
        return x
    if isinstance(x, (int, float)):
        if isinstance(x, float) and math.isnan(x):
            return "nan"
        if isinstance(x, float) and math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if x is None:
        return None
    return str(x)


def _scalar(x: Any) -> Any:
    if x is None or isinstance(x, (bool, int, str)):
        return x[:20] if isinstance(x, str) else x
    if isinstance(x, float):
        return x if math.isfinite(x) else _stat(x)
    return str(x)[:20]


def _range(v: Dict[str, Any]) -> Tuple[Any, Any]:
    r = v.get("value_range")
    if isinstance(r, (list, tuple)) and len(r) == 2:
        return _stat(r[0]), _stat(r[1])
    return None, None


def value_summary(info: Any, fallback_range: Tuple[Any, Any] = (None, None)) -> Optional[Dict[str, Any]]:
    """The paper's value_info -> our ValueSummary (binary / categorical / continuous)."""
    if not isinstance(info, dict):
        return None
    kind = str(info.get("value_type") or info.get("type") or "")
    uniques = info.get("unique_values")
    distinct = _int(info.get("num_unique"))
    if kind == "binary":
        if isinstance(uniques, (list, tuple)) and len(uniques) == 2:
            return {"valueKind": "binary", "values": [_scalar(u) for u in uniques]}
        lo, hi = _range(info) if info.get("value_range") else fallback_range
        if lo is not None and hi is not None and lo != hi:
            return {"valueKind": "binary", "values": [_scalar(lo), _scalar(hi)]}
        return None
    if kind.startswith("categorical"):
        if distinct is None and isinstance(uniques, (list, tuple)):
            distinct = len(uniques)
        if distinct is None:
            return None
        out: Dict[str, Any] = {"valueKind": "categorical", "distinct": distinct}
        if isinstance(uniques, (list, tuple)) and len(uniques) <= 5 and len(uniques) == distinct:
            out["values"] = [_scalar(u) for u in uniques]
        return out
    if kind == "continuous":
        lo, hi = _range(info) if info.get("value_range") else fallback_range
        return {"valueKind": "continuous", "min": lo, "max": hi}
    return None


def _column(name: Any, c: Dict[str, Any], dtype: Optional[str]) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": str(name)[:50], "dtype": str(c.get("dtype") or dtype or "unknown"),
                           "distinct": _int(c.get("num_unique"))}
    examples = c.get("example_values") if c.get("example_values") is not None else c.get("unique_values")
    if c.get("value_range") is not None:
        lo, hi = _range(c)
        out["min"], out["max"] = lo, hi
    elif isinstance(examples, (list, tuple)):
        out["values"] = [_scalar(x) for x in list(examples)[:5]]
    return out


def _unavailable(what: str) -> Dict[str, Any]:
    return {"kind": "unavailable", "reason": "the recorded facts give only " + what}


def summary_of(v: Dict[str, Any]) -> Dict[str, Any]:
    """One recorded variable -> our VariableSummary."""
    t = type_name(v.get("type"))
    short = t.rsplit(".", 1)[-1]
    shape = _shape(v.get("shape"))
    has_nan = v.get("has_nan") if isinstance(v.get("has_nan"), bool) else None
    lo, hi = _range(v)
    if t in ("int", "float", "bool", "str", "NoneType"):
        value = v.get("value")
        if t == "NoneType":
            return {"kind": "none"}
        if "value" not in v:
            return {"kind": "object"}
        if t == "int" and _int(value) is not None:
            return {"kind": "int", "value": str(_int(value))}
        if t == "float" and isinstance(value, (int, float)):
            return {"kind": "float", "value": _stat(float(value))}
        if t == "bool" and isinstance(value, bool):
            return {"kind": "bool", "value": value}
        if t == "str" and isinstance(value, str):
            return {"kind": "str", "value": value, "length": len(value)}
        return {"kind": "object"}
    if t in ("list", "tuple", "set", "frozenset"):
        length = _int(v.get("length"))
        if length is None:
            return {"kind": "object"}
        out: Dict[str, Any] = {"kind": "sequence", "type": t, "length": length}
        values = value_summary(v.get("value_info"))
        if values is not None:
            out["values"] = values
        return out
    if t == "dict":
        preview = v.get("preview") if isinstance(v.get("preview"), list) else []
        length = _int(v.get("length"))
        entries = [{"key": str(e.get("key"))[:50], "value": str(e.get("value_repr", ""))[:50]}
                   for e in preview[:5] if isinstance(e, dict)]
        if length is None:
            return {"kind": "object"}
        return {"kind": "dict", "length": length, "entries": entries}
    if t.endswith("ndarray"):
        if shape is None or not v.get("dtype"):
            return _unavailable("its type")
        out = {"kind": "ndarray", "shape": shape, "dtype": str(v["dtype"]), "hasNaN": has_nan, "min": lo, "max": hi}
        values = value_summary(v.get("value_info"), (lo, hi))
        if values is not None and len(shape) == 1:
            out["values"] = values
        return out
    if short == "Series":
        length = shape[0] if shape else _int(v.get("length"))
        values = value_summary(v.get("value_info"), (lo, hi))
        if length is None or not v.get("dtype"):
            described = "its values: %s" % _describe_values(values) if values else "its type"
            return _unavailable(described)
        out = {"kind": "series", "dtype": str(v["dtype"]), "length": length, "hasNaN": has_nan}
        if values is not None:
            out["values"] = values
        return out
    if short == "DataFrame":
        if shape is None or len(shape) != 2:
            return _unavailable("its type")
        per = v.get("per_column") if isinstance(v.get("per_column"), dict) else {}
        dtypes = v.get("dtypes")
        single = str(dtypes[0]) if isinstance(dtypes, (list, tuple)) and len(dtypes) == 1 else None
        columns = [_column(name, c if isinstance(c, dict) else {}, single) for name, c in list(per.items())[:20]]
        if has_nan is None:
            return _unavailable_frame(shape, columns)
        return {"kind": "dataframe", "shape": shape, "hasNaN": has_nan, "columns": columns}
    if short == "Tensor" and t.startswith("torch"):
        if shape is None or not v.get("dtype") or not isinstance(v.get("requires_grad"), bool):
            return _unavailable("its type")
        return {"kind": "tensor", "shape": shape, "dtype": str(v["dtype"]), "device": str(v.get("device") or "unknown"),
                "requiresGrad": v["requires_grad"], "hasNaN": has_nan}
    if "element_spec" in v:
        return {"kind": "tf-dataset", "elementSpec": str(v["element_spec"])}
    if short == "DataLoader":
        return _dataloader(v)
    if "is_fitted" in v and isinstance(v.get("is_fitted"), bool):
        fitted_attrs = v.get("fitted_attributes") if isinstance(v.get("fitted_attributes"), dict) else {}
        out = {"kind": "sklearn-estimator", "fitted": v["is_fitted"]}
        if v["is_fitted"]:
            out["nFeaturesIn"] = _int(fitted_attrs.get("n_features_in_"))
            out["nOutputs"] = _int(fitted_attrs.get("n_outputs_"))
            if v.get("n_classes") is not None:
                out["nClasses"] = _int(v.get("n_classes"))
        return out
    if t in ("module",) or "module" == short:
        return {"kind": "module"}
    if short in ("function", "method", "builtin_function_or_method", "_ArrayFunctionDispatcher", "ufunc"):
        return {"kind": "function"}
    if short in ("type", "ABCMeta") or short.endswith("Meta") or short.endswith("Metaclass"):
        return {"kind": "class"}
    return {"kind": "object"}


def _unavailable_frame(shape: List[int], columns: List[Dict[str, Any]]) -> Dict[str, Any]:
    # Our DataFrame summary must say whether it has NaN; without that fact the shape still goes in.
    return _unavailable("its shape (%s) and %d column summaries" % (", ".join(str(d) for d in shape), len(columns)))


def _describe_values(values: Dict[str, Any]) -> str:
    if values["valueKind"] == "binary":
        return "binary " + ", ".join(str(x) for x in values["values"])
    if values["valueKind"] == "categorical":
        return "categorical, %d distinct" % values["distinct"]
    return "continuous, min %s, max %s" % (values["min"], values["max"])


def _dataloader(v: Dict[str, Any]) -> Dict[str, Any]:
    dataset = v.get("dataset") if isinstance(v.get("dataset"), dict) else {}
    info = dataset.get("dataset_info") if isinstance(dataset.get("dataset_info"), dict) else {}
    fields = [{"name": str(k), "type": str(f.get("type") if isinstance(f, dict) else f)} for k, f in info.items()]
    out: Dict[str, Any] = {"kind": "dataloader", "batchSize": _int(v.get("batch_size")),
                           "batches": _int(v.get("num_batches")), "examples": _int(v.get("num_examples")),
                           "datasetType": type_name(dataset.get("type") or "Dataset"), "fields": fields}
    batch = dataset.get("batch_shapes")
    if isinstance(batch, dict):
        out["batchShape"] = ", ".join("%s: %s" % (k, _shape_text(s)) for k, s in batch.items())
    return out


def _shape_text(x: Any) -> str:
    s = _shape(x)
    if s is None:
        return str(x)
    return "(%d,)" % s[0] if len(s) == 1 else "(" + ", ".join(str(d) for d in s) + ")"


def _split_method_key(key: str, names: List[str]) -> Tuple[str, str]:
    """`__method__train_dataset_labels` -> ("train_dataset", "labels") using the known names."""
    rest = key[len(METHOD_PREFIX):]
    for name in sorted(names, key=len, reverse=True):
        if rest.startswith(name + "_") and len(rest) > len(name) + 1:
            return name, rest[len(name) + 1:]
    head, _, tail = rest.partition("_")
    return head, tail


def to_runtime_info(facts: Dict[str, Any], target_source: str = "") -> Dict[str, Any]:
    """Our RuntimeInfo JSON from the recorded dict.

    Variables keep the recorded order. A recorded attribute (`__method__df_columns`) adds its
    name to its variable's `attributes`, and, when it carries facts beyond its type, appears as a
    variable of its own named `df.columns`, as the paper's prompt showed it.
    """
    plain = [k for k in facts if isinstance(k, str) and not k.startswith(METHOD_PREFIX)]
    names = set(plain)
    try:
        names |= {n.id for n in ast.walk(ast.parse(target_source)) if isinstance(n, ast.Name)}
    except SyntaxError:
        pass
    variables: Dict[str, Dict[str, Any]] = {}
    extra: List[Dict[str, Any]] = []
    for key, v in facts.items():
        if not isinstance(v, dict) or not isinstance(key, str):
            continue
        if key.startswith(METHOD_PREFIX):
            owner, attr = _split_method_key(key, list(names))
            if owner in variables:
                if attr not in variables[owner]["attributes"]:
                    variables[owner]["attributes"].append(attr)
            summary = summary_of(v)
            if summary["kind"] not in ("function", "class", "module", "object"):
                extra.append({"name": "%s.%s" % (owner, attr), "type": type_name(v.get("type")), "attributes": [],
                              "summary": summary})
            continue
        variables[key] = {"name": key, "type": type_name(v.get("type")), "attributes": [], "summary": summary_of(v)}
    # Attributes recorded before their owner still belong to it.
    for key in facts:
        if isinstance(key, str) and key.startswith(METHOD_PREFIX):
            owner, attr = _split_method_key(key, list(names))
            if owner in variables and attr not in variables[owner]["attributes"]:
                variables[owner]["attributes"].append(attr)
    return {"variables": list(variables.values()) + extra}
