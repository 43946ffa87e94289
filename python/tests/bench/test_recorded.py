"""The recorded runtime information: read without evaluating anything, converted to our schema."""

from __future__ import annotations

import glob
import json
import math
import os

import jsonschema
import pytest

from crane_llm.bench.junobench.recorded import summary_of, to_runtime_info, type_name
from crane_llm.paper_runinfo import RecordedFactsError, parse_facts
from crane_llm.prompt.runinfo_text import runtime_info_text

DEV = "/work/shared/junobench/dev"
SCHEMA = os.path.join(os.path.dirname(__file__), "..", "..", "crane_llm", "schema", "runtime-info.json")


def prompt_file(facts_text, target="x"):
    return "# Executed Cells:\n## Cell 1:\nx = 1\n\n# Current relevent runtime information:\n%s\n# Target Cell:\n%s" % (facts_text, target)


def test_plain_literals_are_read_with_literal_eval():
    facts = parse_facts(prompt_file("{'x': {'type': \"<class 'int'>\", 'value': 3, 'shape': (2, 3), 'r': (-1.5, nan)}}"))
    assert facts["x"]["value"] == 3 and facts["x"]["shape"] == (2, 3)
    assert facts["x"]["r"][0] == -1.5 and math.isnan(facts["x"]["r"][1])


def test_reprs_that_are_not_literals_are_kept_as_data_never_evaluated(tmp_path):
    marker = tmp_path / "evaluated"
    text = (
        "{'enc': {'classes_dtype': dtype('<U32'), 'type': \"<class 'x'>\"},\n"
        " 'm': {'unique_values': [<Precision name=precision>, <function f at 0x7f>]},\n"
        " 'dl': {'shapes': defaultdict(<class 'set'>, {'input': {torch.Size([3, 64, 64])}})},\n"
        " 'evil': {'v': __import__('pathlib').Path(%r).touch()}}" % str(marker)
    )
    facts = parse_facts(prompt_file(text))
    assert facts["enc"]["classes_dtype"] == {"__call__": "dtype", "args": ["<U32"], "kwargs": {}}
    assert facts["m"]["unique_values"] == ["<Precision name=precision>", "<function f at 0x7f>"]
    shapes = facts["dl"]["shapes"]
    assert shapes["__call__"] == "defaultdict" and shapes["args"][0] == "<class 'set'>"
    assert facts["evil"]["v"]["__call__"] == "__import__('pathlib').Path(%r).touch" % str(marker)
    assert not marker.exists()


def test_a_file_without_facts_is_an_error():
    with pytest.raises(RecordedFactsError):
        parse_facts("# Executed Cells:\n# Target Cell:\nx")
    with pytest.raises(RecordedFactsError):
        parse_facts(prompt_file("[1, 2]"))


def test_type_names():
    assert type_name("<class 'pandas.core.series.Series'>") == "pandas.core.series.Series"
    assert type_name("<class 'int'>") == "int"
    assert type_name("numpy.ndarray") == "numpy.ndarray"


def test_conversions_keep_what_the_facts_say():
    frame = summary_of({"type": "pandas.core.frame.DataFrame", "shape": (303, 2), "has_nan": False,
                        "per_column": {"age": {"num_unique": 41, "type": "continuous", "value_range": (29, 77)},
                                       "flag": {"num_unique": 11, "type": "categorical", "example_values": ["SF", "S0"]}}})
    assert frame == {"kind": "dataframe", "shape": [303, 2], "hasNaN": False, "columns": [
        {"name": "age", "dtype": "unknown", "distinct": 41, "min": 29, "max": 77},
        {"name": "flag", "dtype": "unknown", "distinct": 11, "values": ["SF", "S0"]}]}
    array = summary_of({"type": "numpy.ndarray", "shape": (768,), "dtype": "int32", "has_nan": False, "value_range": (0, 2),
                        "value_info": {"num_unique": 3, "unique_values": [0, 1, 2], "value_type": "categorical numeric"}})
    assert array == {"kind": "ndarray", "shape": [768], "dtype": "int32", "hasNaN": False, "min": 0, "max": 2,
                     "values": {"valueKind": "categorical", "distinct": 3, "values": [0, 1, 2]}}
    est = summary_of({"type": "<class 'sklearn.tree.DecisionTreeClassifier'>", "is_fitted": True, "module": "sklearn.tree",
                      "fitted_attributes": {"n_features_in_": 13, "n_outputs_": 1}})
    assert est == {"kind": "sklearn-estimator", "fitted": True, "nFeaturesIn": 13, "nOutputs": 1}
    # A Series recorded with its values only: our schema needs dtype and length, so it says what is known.
    series = summary_of({"type": "<class 'pandas.core.series.Series'>", "value_info": {"unique_values": [0, 1], "value_type": "binary"}})
    assert series == {"kind": "unavailable", "reason": "the recorded facts give only its values: binary 0, 1"}
    assert summary_of({"type": "<class 'str'>", "value": "data"}) == {"kind": "str", "value": "data", "length": 4}
    assert summary_of({"type": "<class 'module'>"}) == {"kind": "module"}


def test_recorded_attributes_join_their_variable():
    facts = {
        "train_dataset": {"type": "<class 'keras.DirectoryIterator'>"},
        "__method__train_dataset_labels": {"type": "numpy.ndarray", "shape": (560,), "dtype": "int32", "has_nan": False,
                                           "value_range": (0, 6)},
        "__method__np_unique": {"type": "<class 'numpy._ArrayFunctionDispatcher'>"},
        "np": {"type": "<class 'module'>"},
    }
    info = to_runtime_info(facts, "np.unique(train_dataset.labels)")
    by_name = {v["name"]: v for v in info["variables"]}
    assert by_name["train_dataset"]["attributes"] == ["labels"]
    assert by_name["np"]["attributes"] == ["unique"]
    assert by_name["train_dataset.labels"]["summary"]["shape"] == [560]
    assert "np.unique" not in by_name  # a function attribute adds nothing beyond its name


@pytest.mark.skipif(not os.path.isdir(DEV), reason="the JunoBench dev half is not on this machine")
def test_every_dev_file_converts_to_valid_runtime_info_and_renders():
    schema = json.load(open(SCHEMA))
    validator = jsonschema.validators.validator_for(schema)(schema)
    files = sorted(glob.glob(os.path.join(DEV, "*", "crane_llm_executed_code_runinfo", "*.txt")))
    assert len(files) >= 100
    for path in files:
        info = to_runtime_info(parse_facts(open(path, encoding="utf-8").read()))
        validator.validate(info)
        assert isinstance(runtime_info_text(info), str)
