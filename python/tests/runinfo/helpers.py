"""Shared by the runinfo tests: collect one value and validate it against the exported schema."""

import json
from pathlib import Path

import jsonschema

from crane_llm.runinfo import collect

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "crane_llm" / "schema" / "runtime-info.json"
_VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))


def validate(info):
    """Raise if `info` does not match the zod RuntimeInfo schema; also require strict JSON."""
    json.dumps(info, allow_nan=False)
    _VALIDATOR.validate(info)
    return info


def summary_of(value, source="v"):
    info = validate(collect(source, {"v": value}))
    assert [v["name"] for v in info["variables"]] == ["v"]
    return info["variables"][0]["summary"]
