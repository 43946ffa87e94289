"""The runtime information as prompt text: the Python twin of libs/prompt/src/runinfo-text.ts.

Both read the same RuntimeInfo JSON and must produce the same bytes, proven by the vectors in
libs/prompt/fixtures/runinfo/. Numbers and strings are formatted by rules written out here and
there alike, never by `repr`, because JSON cannot tell 1.0 from 1 and the two languages print
exponents and escapes differently.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any, Callable, Dict, List, Optional, Tuple

INDENT = "  "
TEXT_SHOWN = 200  # free text from the kernel (names, dtypes, keys, reasons), in characters
STR_SHOWN = 10_000  # a string variable's value, in characters (a long text still in full)
ITEMS_SHOWN = 20  # items of a list (columns, keys, entries, fields, samples) before "N in all"


def clip(text: str, limit: int = TEXT_SHOWN) -> str:
    """Free text cut to `limit` characters, with a visible note saying how long it was."""
    if len(text) <= limit:
        return text
    return "%s\u2026 (%d characters in all)" % (text[:limit], len(text))


def _quote_clip(text: str, limit: int = TEXT_SHOWN) -> str:
    """Quoted text cut to `limit` characters; the note stands outside the quotes."""
    if len(text) <= limit:
        return quote(text)
    return "%s\u2026 (%d characters in all)" % (quote(text[:limit]), len(text))


def _items(values: List[Any], render: Any, sep: str = ", ") -> str:
    """At most ITEMS_SHOWN items joined, then how many there were."""
    shown = sep.join(render(v) for v in values[:ITEMS_SHOWN])
    return "%s%s\u2026 (%d in all)" % (shown, sep, len(values)) if len(values) > ITEMS_SHOWN else shown


def _line_items(values: List[Any], render: Any) -> List[str]:
    """At most ITEMS_SHOWN lines, then one saying how many were left out."""
    lines = [render(v) for v in values[:ITEMS_SHOWN]]
    if len(values) > ITEMS_SHOWN:
        lines.append("(\u2026 %d more not shown)" % (len(values) - ITEMS_SHOWN))
    return lines


def format_number(x: Any) -> str:
    """Shortest round-trip digits; positional between 1e-5 and 1e16, else `d.ddde+XX`."""
    if isinstance(x, int) and not isinstance(x, bool):
        if abs(x) < 10**16:
            return str(x)
        try:
            x = float(x)
        except OverflowError:  # past any float (the front end's JSON reads it as an infinity)
            return "inf" if x > 0 else "-inf"
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    sign, digit_tuple, exponent = Decimal(repr(x)).as_tuple()
    digits = "".join(str(d) for d in digit_tuple).rstrip("0") or "0"
    exp = len(digit_tuple) - 1 + int(exponent)
    lead = digits.lstrip("0")
    if lead != digits:  # Decimal("0.001") keeps leading zeros in its digit tuple
        exp -= len(digits) - len(lead)
        digits = lead
    sign_text = "-" if sign else ""
    if -5 <= exp < 16:
        if exp < 0:
            return sign_text + "0." + "0" * (-exp - 1) + digits
        whole = digits[: exp + 1].ljust(exp + 1, "0")
        frac = digits[exp + 1:]
        return sign_text + whole + ("." + frac if frac else "")
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return sign_text + mantissa + "e" + ("-" if exp < 0 else "+") + str(abs(exp)).rjust(2, "0")


# Bidirectional controls (LRM/RLM, ALM, the embeddings, overrides and isolates): shown raw, a
# column named "x\u202ey" would read backwards from there on, so they are escaped like controls;
# so are the line and paragraph separators, which end a line where the quote should go on, and
# lone surrogates, which no UTF-8 text can carry (a prompt holding one could not be sent).
_LAYOUT_CONTROLS = frozenset([0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
                              *range(0xD800, 0xE000)])


def quote(text: str) -> str:
    """Double-quoted with backslash escapes for quotes, backslashes, control characters (C0, DEL
    and C1), bidirectional controls and line separators only."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or 0x7F <= code <= 0x9F or code in _LAYOUT_CONTROLS:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value_text(value: Any, missing: str, as_text: Callable[[str], str]) -> str:
    """A number or a boolean as Python writes it; text through `as_text`; a missing value as `missing`."""
    if value is None:
        return missing
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, float)):
        return format_number(value)
    return as_text(value)


def _scalar(value: Any) -> str:
    """A data value (a category, an example): None is Python's None, text is quoted."""
    return _value_text(value, "None", _quote_clip)


def _stat(value: Any) -> str:
    """A statistic (a min, a max): one that could not be found is "unknown", text (a date) stands bare."""
    return _value_text(value, "unknown", clip)


def float_text(value: Any) -> str:
    if isinstance(value, str):
        return clip(value)
    text = format_number(value)
    return text + ".0" if re.fullmatch(r"-?\d+", text) else text


def _shape(dims: List[int]) -> str:
    if len(dims) == 1:
        return "(%d,)" % dims[0]
    return "(" + _items(dims, str) + ")"


def _yes_no(value: Optional[bool], approx: Any = None) -> str:
    if value is None:
        return "unknown"
    if value:
        return "yes"
    return "none in a sample (not fully scanned)" if approx else "no"


def _distinct_text(count: Optional[int], approx: Any = None) -> str:
    if count is None:
        return "distinct values unknown"
    return "about %d distinct (estimated from a sample)" % count if approx else "%d distinct" % count


def _or(value: Any, fallback: str) -> str:
    return fallback if value is None else str(value)


def _value_summary(v: Dict[str, Any]) -> str:
    kind = v["valueKind"]
    if kind == "binary":
        return "binary: " + _items(v["values"], _scalar)
    if kind == "categorical":
        listed = ": " + _items(v["values"], _scalar) if "values" in v else ""
        return "categorical, " + _distinct_text(v["distinct"], v.get("distinctApprox")) + listed
    return "continuous, min %s, max %s%s" % (_stat(v["min"]), _stat(v["max"]), " (of a sample)" if v.get("rangeApprox") else "")


def _value_structure(v: Dict[str, Any]) -> str:
    """A value summary without the values: its kind and, where it has one, the distinct count."""
    if v["valueKind"] == "categorical":
        return "categorical, " + _distinct_text(v["distinct"], v.get("distinctApprox"))
    return v["valueKind"]


def _column(c: Dict[str, Any], include_values: bool = True) -> str:
    parts = [clip(c["dtype"]), _distinct_text(c["distinct"], c.get("distinctApprox"))]
    if include_values and "values" in c:
        parts.append("values " + _items(c["values"], _scalar) if c["values"] else "no values")
    elif include_values:
        parts += ["min " + _stat(c.get("min")), "max " + _stat(c.get("max")) + (" (of a sample)" if c.get("rangeApprox") else "")]
    return _quote_clip(c["name"]) + ": " + ", ".join(parts)


LEFT_OUT = "value left out"


def _frame_body(s: Dict[str, Any], include_values: bool) -> Tuple[Optional[str], List[str]]:
    listed = s["columns"][:ITEMS_SHOWN]
    lines = [_column(c, include_values) for c in listed]
    if s["shape"][1] > len(listed):
        lines.append("(first %d of %d columns shown)" % (len(listed), s["shape"][1]))
    inline = "shape %s; has NaN: %s%s" % (_shape(s["shape"]), _yes_no(s["hasNaN"], s.get("hasNaNApprox")), "; columns:" if lines else "")
    return inline, lines


def _summary_of(v: Dict[str, Any], include_values: bool) -> str:
    """A value summary, or with the values left out only its kind."""
    return _value_summary(v) if include_values else _value_structure(v)


def _array_body(s: Dict[str, Any], include_values: bool) -> Tuple[Optional[str], List[str]]:
    value_range = "; min %s; max %s" % (_stat(s["min"]), _stat(s["max"])) if include_values else ""
    inline = "shape %s; dtype %s; has NaN: %s%s" % (_shape(s["shape"]), clip(s["dtype"]), _yes_no(s["hasNaN"]), value_range)
    return inline, (["values " + _summary_of(s["values"], include_values)] if "values" in s else [])


def _series_body(s: Dict[str, Any], include_values: bool) -> Tuple[Optional[str], List[str]]:
    name = "name %s; " % _quote_clip(s["name"]) if "name" in s else ""
    inline = "%sdtype %s; length %d; has NaN: %s" % (name, clip(s["dtype"]), s["length"], _yes_no(s["hasNaN"], s.get("hasNaNApprox")))
    return inline, (["values " + _summary_of(s["values"], include_values)] if "values" in s else [])


def _structure_body(s: Dict[str, Any]) -> Optional[Tuple[Optional[str], List[str]]]:
    """The body of a summary that is all data value (a number, a string, a dict's entries), with
    the values left out; None for the kinds that write their structure either way."""
    kind = s["kind"]
    if kind in ("int", "float", "bool"):
        return LEFT_OUT, []
    if kind == "str":
        return "%d characters, text left out" % s["length"], []
    if kind == "dict":
        entries = s["entries"]
        keys = "; first %d keys: %s" % (len(entries), _items(entries, lambda e: clip(e["key"]))) if entries else ""
        return "length %d%s" % (s["length"], keys), []
    return None


def _body(s: Dict[str, Any], include_values: bool = True) -> Tuple[Optional[str], List[str]]:
    kind = s["kind"]
    if not include_values:
        structure = _structure_body(s)
        if structure is not None:
            return structure
    if kind == "int":
        return "= " + clip(s["value"]), []
    if kind == "float":
        return "= " + float_text(s["value"]), []
    if kind == "bool":
        return "= " + ("True" if s["value"] else "False"), []
    if kind == "str":
        shown = s["value"][:STR_SHOWN]
        cut = "; the first %d shown" % len(shown) if s["length"] > len(shown) else ""
        return "= %s%s (%d characters%s)" % (quote(shown), "\u2026" if cut else "", s["length"], cut), []
    if kind == "none":
        return "= None", []
    if kind == "sequence":
        values = "; values " + _summary_of(s["values"], include_values) if "values" in s else ""
        return "length %d%s" % (s["length"], values), []
    if kind == "dict":
        entries = s["entries"]
        head = "; first %d entries:" % len(entries) if entries else ""
        return "length %d%s" % (s["length"], head), _line_items(entries, lambda e: clip(e["key"]) + ": " + clip(e["value"]))
    if kind == "dict-history":
        return "training history, %d epochs; metrics %s" % (s["epochs"], _items(s["metrics"], _quote_clip)), []
    if kind == "dict-dataset":
        return "scikit-learn dataset, keys %s; data shape %s; target shape %s" % (
            _items(s["keys"], _quote_clip),
            _shape(s["dataShape"]) if s["dataShape"] is not None else "unknown",
            _shape(s["targetShape"]) if s["targetShape"] is not None else "unknown",
        ), []
    if kind == "dict-numbers":
        return "length %d; numbers under keys %s" % (s["length"], _items(s["keys"], _quote_clip)), []
    if kind == "ndarray":
        return _array_body(s, include_values)
    if kind == "series":
        return _series_body(s, include_values)
    if kind == "dataframe":
        return _frame_body(s, include_values)
    if kind == "tensor":
        return "shape %s; dtype %s; device %s; requires_grad %s; has NaN: %s" % (
            _shape(s["shape"]), clip(s["dtype"]), clip(s["device"]), "True" if s["requiresGrad"] else "False", _yes_no(s["hasNaN"])), []
    if kind in ("dataloader", "torch-subset"):
        counts = [_or(s["examples"], "unknown") + " examples"]
        if kind == "dataloader":
            counts += [_or(s["batches"], "unknown") + " batches", "batch size " + _or(s["batchSize"], "None")]
        fields = " with fields " + _items(s["fields"], lambda f: "%s (%s)" % (clip(f["name"]), clip(f["type"]))) \
            if s["fields"] else ""
        lines = ["dataset " + clip(s["datasetType"]) + fields]
        if "samplesUnavailable" in s:
            lines.append("samples not read: " + clip(s["samplesUnavailable"]))
        shapes = s.get("sampleShapes")
        if shapes:
            if all(x == shapes[0] for x in shapes):
                lines.append("first %d samples: %s" % (len(shapes), clip(shapes[0])))
            else:
                lines += _line_items(list(enumerate(shapes)), lambda ix: "sample %d: %s" % (ix[0], clip(ix[1])))
        if "batchShape" in s:
            lines.append("a batch of them: " + clip(s["batchShape"]))
        return "; ".join(counts), lines
    if kind == "tf-dataset":
        return "element spec " + clip(s["elementSpec"]), []
    if kind == "keras-iterator":
        return "%s samples; %s classes; batch size %s; image shape %s" % (
            _or(s["samples"], "unknown"), _or(s["classes"], "unknown"), _or(s["batchSize"], "unknown"),
            _shape(s["imageShape"]) if s["imageShape"] is not None else "unknown"), []
    if kind == "sklearn-estimator":
        if not s["fitted"]:
            return "not fitted", []
        parts = ["fitted"]
        for key, label in (("nFeaturesIn", " input features"), ("nOutputs", " outputs"), ("nClasses", " classes")):
            if s.get(key) is not None:
                parts.append(str(s[key]) + label)
        return "; ".join(parts), []
    if kind in ("function", "class", "module", "object"):
        return None, []
    if kind == "unavailable":
        return "summary unavailable: " + clip(s["reason"]), []
    raise ValueError("unknown summary kind: %r" % (kind,))


def _variable(v: Dict[str, Any], include_values: bool) -> List[str]:
    uses = ", uses " + _items(v["attributes"], lambda a: "." + clip(a), " ") if v["attributes"] else ""
    inline, lines = _body(v["summary"], include_values)
    header = "%s (%s%s)%s" % (clip(v["name"]), clip(v["type"]), uses, "" if inline is None else ": " + inline)
    return [header] + [INDENT + line for line in lines]


def runtime_info_text(info: Dict[str, Any], include_values: bool = True) -> str:
    """The runtime information block of the prompt; no trailing newline.

    With `include_values` false ("Include data values" off) only structure is written: types,
    shapes, dtypes, lengths, column names, dict keys, fitted state, counts; no value ranges,
    example values, string contents or dict values.
    """
    if not info["variables"]:
        return "The target cell uses no variables from the kernel."
    return "\n".join(line for v in info["variables"] for line in _variable(v, include_values))
