"""The Python renderer against the shared golden vectors (vitest runs the same files on the TS twin)."""

import json
import math
import struct
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crane_llm.prompt.runinfo_text import format_number, quote, runtime_info_text

ROOT = Path(__file__).resolve().parents[3]
VECTORS = sorted((ROOT / "libs" / "prompt" / "fixtures" / "runinfo").glob("*.json"))
SCHEMA = json.loads((ROOT / "python" / "crane_llm" / "schema" / "runtime-info.json").read_text())


def test_there_are_vectors_for_every_library():
    names = {p.stem for p in VECTORS}
    assert {"builtins", "numpy", "pandas", "torch", "tensorflow-keras-sklearn", "sampled-big-data", "formatting", "empty"} <= names


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_golden_vector(path):
    vector = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(vector["input"], SCHEMA)
    assert runtime_info_text(vector["input"]) == vector["text"]


def _declared_kinds(node, found):
    """Every `kind` the exported schema allows (const or enum), wherever it appears."""
    if isinstance(node, dict):
        kind = node.get("properties", {}).get("kind")
        if isinstance(kind, dict):
            found.update([kind["const"]] if "const" in kind else kind.get("enum", []))
        for value in node.values():
            _declared_kinds(value, found)
    elif isinstance(node, list):
        for value in node:
            _declared_kinds(value, found)
    return found


def test_every_summary_kind_is_covered_by_some_vector():
    used = set()
    for path in VECTORS:
        for v in json.loads(path.read_text(encoding="utf-8"))["input"]["variables"]:
            used.add(v["summary"]["kind"])
    declared = _declared_kinds(SCHEMA, set())
    assert len(declared) == 24
    assert declared == used


@settings(max_examples=500)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_format_round_trips(x):
    text = format_number(x)
    assert float(text) == x and math.copysign(1, float(text)) == math.copysign(1, x)
    assert "e" in text or abs(x) < 1e16


@settings(max_examples=200)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_number_format_is_shortest_for_any_bit_pattern(bits):
    x = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if math.isnan(x) or math.isinf(x):
        return
    assert float(format_number(x)) == x


def test_quote_escapes_only_what_it_must():
    assert quote('a"b\\c\n\u0001\u00e9') == '"a\\"b\\\\c\\n\\u0001\u00e9"'


def test_quote_escapes_lone_surrogates_and_keeps_pairs():
    shown = quote("abc\ud800def\U0001f600")
    assert shown == '"abc\\ud800def\U0001f600"'
    shown.encode("utf-8")  # a prompt holding it can be sent


def test_numbers_past_a_float_are_infinite_as_the_front_end_reads_them():
    assert format_number(10 ** 400) == "inf" and format_number(-(10 ** 400)) == "-inf"
    assert format_number(10 ** 20) == "1e+20"


def test_quote_escapes_bidirectional_controls():
    assert quote("a\u202eb\u2066c\u2069\u200e\u200f\u061c") == '"a\\u202eb\\u2066c\\u2069\\u200e\\u200f\\u061c"'
    assert quote("\u05e9\u05dc\u05d5\u05dd \u202f") == '"\u05e9\u05dc\u05d5\u05dd \u202f"'  # RTL letters and a narrow space stay


def test_quote_escapes_c1_controls_and_line_separators():
    # U+009B opens a terminal control sequence as ESC [ does; U+2028 ends a line in many viewers
    assert quote("a\x85b\x9b2Jc\x7f\u2028d\u2029") == '"a\\u0085b\\u009b2Jc\\u007f\\u2028d\\u2029"'
    assert quote("\xa0\xe9\u0100") == '"\xa0\xe9\u0100"'  # a no-break space and letters past C1 stay
