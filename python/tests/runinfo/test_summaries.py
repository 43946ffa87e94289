"""One test per row of the README's table ("What the runtime information contains") and per variant, on real objects of each library."""

import math

import numpy as np
import pandas as pd

from .helpers import summary_of, validate
from crane_llm.runinfo import collect


# -- int, float, str, bool ------------------------------------------------------------------------

def test_scalars_carry_their_value():
    assert summary_of(3) == {"kind": "int", "value": "3"}
    assert summary_of(-(10**30)) == {"kind": "int", "value": "-" + "1" + "0" * 30}
    assert summary_of(2.5) == {"kind": "float", "value": 2.5}
    assert summary_of(float("nan")) == {"kind": "float", "value": "nan"}
    assert summary_of(float("-inf")) == {"kind": "float", "value": "-inf"}
    assert summary_of(True) == {"kind": "bool", "value": True}
    assert summary_of(None) == {"kind": "none"}


def test_string_is_kept_whole():
    text = "line one\n" + "x" * 5000
    assert summary_of(text) == {"kind": "str", "value": text, "length": 5009}


def test_numpy_scalars_are_values_too():
    assert summary_of(np.float32(1.5)) == {"kind": "float", "value": 1.5}
    assert summary_of(np.int64(7)) == {"kind": "int", "value": "7"}
    assert summary_of(np.bool_(False)) == {"kind": "bool", "value": False}


# -- list, tuple, set -------------------------------------------------------------------------------

def test_sequences_report_length_and_only_flat_lists_get_values():
    assert summary_of((1, 2, 3)) == {"kind": "sequence", "type": "tuple", "length": 3}
    assert summary_of({1, 2}) == {"kind": "sequence", "type": "set", "length": 2}
    assert summary_of(frozenset()) == {"kind": "sequence", "type": "frozenset", "length": 0}
    assert summary_of([]) == {"kind": "sequence", "type": "list", "length": 0}
    assert summary_of([[1], [2]]) == {"kind": "sequence", "type": "list", "length": 2}  # not flat


def test_flat_list_binary_categorical_continuous():
    assert summary_of([0, 1, 1, 0])["values"] == {"valueKind": "binary", "values": [0, 1]}
    assert summary_of(["b", "a", "b", "c"])["values"] == {"valueKind": "categorical", "distinct": 3, "values": ["a", "b", "c"]}
    many = summary_of([str(i) for i in range(40)])["values"]
    assert many == {"valueKind": "categorical", "distinct": 40}
    cont = summary_of([0.5 * i for i in range(100)] + [float("nan"), None])["values"]
    assert cont == {"valueKind": "continuous", "min": 0.0, "max": 49.5}


def test_long_flat_list_is_sampled_and_says_so():
    items = list(range(1_000_000))
    values = summary_of(items)["values"]
    assert values == {"valueKind": "continuous", "min": 0, "max": 999_999}  # min/max stay exact
    labels = summary_of([i % 7 for i in range(300_000)])["values"]
    assert labels["distinct"] == 7 and labels["distinctApprox"] is True


# -- dict ---------------------------------------------------------------------------------------------

def test_dict_first_five_entries_cut_to_fifty_characters():
    d = {"a": 1, "b": "x" * 80, "c": [1, 2], "d": np.zeros((2, 3)), "e": None, "f": 6}
    s = summary_of(d)
    assert s["kind"] == "dict" and s["length"] == 6
    assert [e["key"] for e in s["entries"]] == ["'a'", "'b'", "'c'", "'d'", "'e'"]
    assert s["entries"][1]["value"] == ("'" + "x" * 48)[:49] + "\u2026"
    assert len(s["entries"][1]["value"]) == 50
    assert s["entries"][3]["value"] == "ndarray shape (2, 3)"
    assert summary_of({}) == {"kind": "dict", "length": 0, "entries": []}


def test_dict_of_numbers_lists_its_keys():
    assert summary_of({"acc": 0.9, "f1": np.float64(0.8), "n": 3}) == {"kind": "dict-numbers", "length": 3, "keys": ["acc", "f1", "n"]}


def test_history_like_dict_gives_metrics_and_epochs():
    h = {"loss": [1.0, 0.5, 0.2], "val_loss": [1.1, 0.6, 0.4]}
    assert summary_of(h) == {"kind": "dict-history", "length": 2, "metrics": ["loss", "val_loss"], "epochs": 3}


def test_sklearn_bunch_gives_keys_and_shapes():
    from sklearn.datasets import load_iris

    s = summary_of(load_iris())
    assert s["kind"] == "dict-dataset" and "data" in s["keys"] and "target" in s["keys"]
    assert s["dataShape"] == [150, 4] and s["targetShape"] == [150]


# -- numpy ----------------------------------------------------------------------------------------

def test_ndarray_without_and_with_nan():
    a = np.arange(12, dtype=float).reshape(3, 4)
    assert summary_of(a) == {"kind": "ndarray", "shape": [3, 4], "dtype": "float64", "hasNaN": False, "min": 0.0, "max": 11.0}
    a[1, 1] = np.nan
    s = summary_of(a)
    assert s["hasNaN"] is True and s["min"] == 0.0 and s["max"] == 11.0


def test_ndarray_one_dimensional_value_summary():
    assert summary_of(np.array([0, 1, 1]))["values"] == {"valueKind": "binary", "values": [0, 1]}
    assert summary_of(np.array([3, 1, 2, 3]))["values"] == {"valueKind": "categorical", "distinct": 3, "values": [1, 2, 3]}
    assert summary_of(np.linspace(0, 1, 50))["values"] == {"valueKind": "continuous", "min": 0.0, "max": 1.0}
    assert summary_of(np.array([True, False]))["values"] == {"valueKind": "binary", "values": [False, True]}


def test_ndarray_empty_and_strings():
    assert summary_of(np.array([])) == {"kind": "ndarray", "shape": [0], "dtype": "float64", "hasNaN": False, "min": None, "max": None}
    s = summary_of(np.array(["a", "b"]))
    assert s["dtype"] == "<U1" and s["hasNaN"] is None and "values" not in s


def test_big_int_array_is_exact_by_counting():
    s = summary_of(np.arange(1_000_000) % 3)
    assert s["values"] == {"valueKind": "categorical", "distinct": 3, "values": [0, 1, 2]}


def test_big_float_array_distinct_is_sampled_and_flagged():
    s = summary_of(np.round(np.random.default_rng(1).random(1_000_000) * 8))
    assert s["values"]["valueKind"] == "categorical" and s["values"]["distinctApprox"] is True
    assert s["values"]["distinct"] == 9


# -- pandas ---------------------------------------------------------------------------------------

def test_series_dtype_length_nan():
    s = summary_of(pd.Series([1.0, None, 3.0], name="price"))
    assert {k: s[k] for k in ("kind", "dtype", "length", "hasNaN", "name")} == {
        "kind": "series", "dtype": "float64", "length": 3, "hasNaN": True, "name": "price"}
    assert s["values"] == {"valueKind": "categorical", "distinct": 2, "values": [1.0, 3.0]} or s["values"]["valueKind"] == "binary"
    clean = summary_of(pd.Series(["a", "b", "a"]))
    assert clean["hasNaN"] is False and clean["values"] == {"valueKind": "binary", "values": ["a", "b"]}


def test_series_value_kinds():
    assert summary_of(pd.Series(range(100)))["values"]["valueKind"] == "continuous"
    assert summary_of(pd.Series(list("abcabc")))["values"] == {"valueKind": "categorical", "distinct": 3, "values": ["a", "b", "c"]}
    assert summary_of(pd.Series([], dtype=float)) == {"kind": "series", "dtype": "float64", "length": 0, "hasNaN": False}


def test_dataframe_shape_nan_and_columns():
    df = pd.DataFrame({
        "age": [20, 30, 40, 30],
        "score": [0.5, np.nan, 1.5, 2.0],
        "city": ["Stockholm", "A very long city name indeed", "Oslo", "Oslo"],
        "flag": [True, False, True, True],
    })
    s = summary_of(df)
    assert s["kind"] == "dataframe" and s["shape"] == [4, 4] and s["hasNaN"] is True
    age, score, city, flag = s["columns"]
    assert age == {"name": "age", "dtype": "int64", "distinct": 3, "min": 20, "max": 40}
    assert score == {"name": "score", "dtype": "float64", "distinct": 3, "min": 0.5, "max": 2.0}
    assert city["distinct"] == 3 and city["values"] == ["Stockholm", "A very long city na\u2026", "Oslo"]
    assert all(len(v) <= 20 for v in city["values"])
    assert flag["values"] == [True, False]
    assert summary_of(df.dropna())["hasNaN"] is False


def test_dataframe_lists_first_twenty_columns_but_checks_all_for_nan():
    df = pd.DataFrame({f"c{i}": [1.0, 2.0] for i in range(25)})
    df.loc[0, "c24"] = np.nan
    s = summary_of(df)
    assert len(s["columns"]) == 20 and s["shape"] == [2, 25] and s["hasNaN"] is True


def test_dataframe_object_values_at_most_five():
    df = pd.DataFrame({"w": list("abcdefgh"), "mixed": [1, "x", 2.5, None, "y", "z", "q", "r"]})
    s = summary_of(df)
    assert s["columns"][0]["values"] == ["a", "b", "c", "d", "e"]
    assert s["columns"][1]["values"] == [1, "x", 2.5, "y", "z"]
    assert s["columns"][1]["distinct"] == 7


def test_big_dataframe_is_sampled_and_flagged():
    rng = np.random.default_rng(0)
    n = 400_000
    df = pd.DataFrame({"x": rng.standard_normal(n), "k": rng.integers(0, 5, n), "s": rng.choice(["u", "v"], n).astype(object)})
    s = summary_of(df)
    x, k, col_s = s["columns"]
    assert x["distinctApprox"] is True and x["distinct"] > 300_000
    assert k == {"name": "k", "dtype": "int64", "distinct": 5, "min": 0, "max": 4}  # exact by counting
    assert col_s["distinct"] == 2 and col_s["distinctApprox"] is True
    assert x["min"] == float(df["x"].min()) and x["max"] == float(df["x"].max())


def test_categorical_column_counts_exactly_from_codes():
    df = pd.DataFrame({"c": pd.Categorical(["lo", "hi", "lo", None], categories=["lo", "mid", "hi"])})
    col = summary_of(df)["columns"][0]
    assert col == {"name": "c", "dtype": "category", "distinct": 2, "values": ["lo", "hi"]}


def test_nullable_numeric_columns_get_min_max_and_missing_values_are_not_listed():
    df = pd.DataFrame({
        "n": pd.array([1, None, 3], dtype="Int64"),
        "b": pd.array([True, None, False], dtype="boolean"),
        "when": pd.to_datetime(["2020-01-01", None, "2021-01-01"]),
        "s": pd.array(["q", None, "r"], dtype="string"),
    })
    n, b, when, s = summary_of(df)["columns"]
    assert n == {"name": "n", "dtype": "Int64", "distinct": 2, "min": 1, "max": 3}
    assert b["values"] == [True, False] and when["distinct"] == 2 and len(when["values"]) == 2
    assert s["values"] == ["q", "r"]


def test_object_column_with_an_unknown_object_anywhere_is_not_hashed():
    class Opaque:
        def __hash__(self):
            raise AssertionError("hashed")

    col = np.array(["a"] * 150_000, dtype=object)
    col[123_457] = Opaque()
    frame = pd.DataFrame({"c": pd.Series(col, dtype=object)})
    c = summary_of(frame)["columns"][0]
    assert c["distinct"] is None and c["values"] == ["a"]


# -- scikit-learn ---------------------------------------------------------------------------------

def test_sklearn_unfitted_and_fitted():
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.tree import DecisionTreeRegressor

    X = np.random.default_rng(0).random((20, 4))
    y = (X[:, 0] > 0.5).astype(int)
    assert summary_of(LogisticRegression()) == {"kind": "sklearn-estimator", "fitted": False}
    assert summary_of(LogisticRegression().fit(X, y)) == {"kind": "sklearn-estimator", "fitted": True, "nFeaturesIn": 4, "nOutputs": 1}
    assert summary_of(LinearRegression().fit(X, X[:, :2]))["nOutputs"] == 2
    assert summary_of(DecisionTreeRegressor().fit(X, X[:, :3]))["nOutputs"] == 3


def test_label_encoder_adds_classes_and_pipeline_delegates():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import LabelEncoder, StandardScaler
    from sklearn.linear_model import LinearRegression

    assert summary_of(LabelEncoder()) == {"kind": "sklearn-estimator", "fitted": False}
    assert summary_of(LabelEncoder().fit(["a", "b", "c", "a"])) == {"kind": "sklearn-estimator", "fitted": True, "nClasses": 3}
    X = np.random.default_rng(0).random((10, 5))
    pipe = make_pipeline(StandardScaler(), LinearRegression())
    assert summary_of(pipe)["fitted"] is False
    assert summary_of(pipe.fit(X, X[:, 0])) == {"kind": "sklearn-estimator", "fitted": True, "nFeaturesIn": 5, "nOutputs": 1}


# -- functions, methods, classes, modules; failures --------------------------------------------------

def test_callables_classes_and_modules_are_type_only():
    def f():
        pass

    assert summary_of(f) == {"kind": "function"}
    assert summary_of(len) == {"kind": "function"}
    assert summary_of([].append) == {"kind": "function"}
    assert summary_of(np.mean) == {"kind": "function"}
    assert summary_of(np.add) == {"kind": "function"}
    assert summary_of(pd.DataFrame) == {"kind": "class"}
    assert summary_of(math) == {"kind": "module"}
    assert summary_of(object()) == {"kind": "object"}


def test_no_library_warning_reaches_the_notebook():
    import warnings

    ns = {
        "all_nan": np.full(5, np.nan), "empty_frame": pd.DataFrame(), "empty_series": pd.Series([], dtype=object),
        "mixed": pd.DataFrame({"m": [1, "a", None, 2.5]}), "ints_as_float": np.array([1, 2, np.inf]),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        info = validate(collect("\n".join(ns), ns))
    assert all(v["summary"]["kind"] != "unavailable" for v in info["variables"])
    assert info["variables"][0]["summary"]["min"] is None and info["variables"][0]["summary"]["hasNaN"] is True


def test_small_frames_are_exact_whatever_the_clock_says(monkeypatch):
    from crane_llm.runinfo import budget

    monkeypatch.setattr(budget, "SOFT_SECONDS", 0.0)  # as if the machine were swamped
    frame = pd.DataFrame({f"s{i}": [str(j % 7) for j in range(15_000)] for i in range(20)})
    frame.iloc[14_999, 19] = None
    s = summary_of(frame)
    assert "Approx" not in str(s)
    assert s["hasNaN"] is True and all(c["distinct"] == 7 for c in s["columns"][:19])


def test_a_swamped_frame_samples_even_min_and_max_and_says_so(monkeypatch):
    from crane_llm.runinfo import budget, frame_info as frames

    monkeypatch.setattr(budget, "SOFT_SECONDS", 0.0)
    monkeypatch.setattr(frames, "FRAME_EXTRA_SECONDS", 0.0)
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"x": rng.standard_normal(300_000), "k": rng.integers(0, 9, 300_000)})
    x, k = summary_of(frame)["columns"]
    assert x["rangeApprox"] is True and frame["x"].min() <= x["min"] < x["max"] <= frame["x"].max()
    assert k["rangeApprox"] is True and k["distinct"] == 9 and k["distinctApprox"] is True
