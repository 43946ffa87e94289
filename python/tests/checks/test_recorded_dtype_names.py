"""The replay reads a recorded dtype name as NumPy's only when it is exactly one of NumPy's numeric
dtypes: pandas' nullable, Sparse and Arrow dtypes hold numbers too, but scikit-learn and NumPy treat
them otherwise (a TypeError for sparse data, pd.NA in a float conversion)."""

import numpy as np
import pandas as pd
import pytest

from crane_llm.checks.dtypes import recorded_dtypes_among, recorded_numpy_kind


@pytest.mark.parametrize("name", ["bool", "int8", "int64", "uint16", "float16", "float32", "float64", "complex128"])
def test_numpy_names_read_as_their_kind(name):
    dtype = np.dtype(name)
    assert recorded_numpy_kind(name) == (dtype.kind, dtype.itemsize * 8)


@pytest.mark.parametrize("frame", [
    pd.DataFrame({"a": pd.array([1, 2], dtype="Int64")}),
    pd.DataFrame({"a": pd.array([True, False], dtype="boolean")}),
    pd.DataFrame({"a": pd.arrays.SparseArray([0, 1])}),
    pd.DataFrame({"a": pd.Categorical([1, 2])}),
    pd.DataFrame({"a": pd.to_datetime(["2020-01-01", "2021-01-01"])}),
])
def test_pandas_own_dtype_names_are_not_numpy_numbers(frame):
    # (the names as pandas prints them, which is what a recording holds)
    name = str(frame["a"].dtype)
    assert recorded_numpy_kind(name) is None
    assert not recorded_dtypes_among([name], "biufc")


def test_kinds_and_float_width_limit():
    assert recorded_dtypes_among(["int64", "bool"], "biu")
    assert not recorded_dtypes_among(["int64", "float64"], "biu")
    assert recorded_dtypes_among(["float64", "uint8"], "biuf")
    assert not recorded_dtypes_among(["float128"], "biuf")
    assert not recorded_dtypes_among([None], "biuf")
