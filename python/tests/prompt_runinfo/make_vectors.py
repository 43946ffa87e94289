"""Regenerate the runtime-information golden vectors in libs/prompt/fixtures/runinfo/.

    /work/venv/bin/python python/tests/prompt_runinfo/make_vectors.py        # every vector
    /work/venv/bin/python python/tests/prompt_runinfo/make_vectors.py cut    # the hand-written vectors only

Each vector is {"input": <RuntimeInfo JSON>, "text": <prompt text>}: the input comes from the real
collector over real objects (plus one hand-written vector for number and string formatting), the
text from the Python renderer. Review the diff of the texts before committing: vitest and pytest
then hold both renderers to these bytes.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2]))
OUT = HERE.parents[3] / "libs" / "prompt" / "fixtures" / "runinfo"

from crane_llm.prompt.runinfo_text import runtime_info_text  # noqa: E402
from crane_llm.runinfo import collect  # noqa: E402


def builtins_namespace():
    import math

    def helper(x):
        return x

    class Config:
        pass

    return (
        "print(epochs, lr, name, verbose, result, sizes.index, shape, tags, seen, params, metrics, history, empty,"
        " helper, Config, math.sqrt, cfg)",
        {
            "epochs": 10, "lr": 0.001, "name": 'He said "hi"\n\tand left', "verbose": False, "result": None,
            "sizes": [3, 1, 2, 3, 3], "shape": (28, 28), "tags": ["a", "b", "a", "a"], "seen": {1, 2, 3},
            "params": {"C": 1.0, "max_iter": 100},
            "metrics": {"model": "resnet", "layers": [64, 128, 256, 512, 1024, 2048, 4096, 8192], "rate": 0.5, "ok": True,
                        "path": "/data/" + "x" * 60, "extra": 1},
            "history": {"loss": [0.9, 0.5, 0.31], "accuracy": [0.6, 0.8, 0.9]}, "empty": {},
            "helper": helper, "Config": Config, "math": math, "cfg": Config(),
        },
    )


def numpy_namespace():
    import numpy as np

    grid = np.arange(12, dtype=np.float64).reshape(3, 4)
    grid[1, 2] = np.nan
    return (
        "X = grid @ weights.T\nprint(labels.sum(), classes, signal.mean(), empty, words, flags, small)",
        {
            "grid": grid, "weights": np.ones((2, 4), dtype=np.float32), "labels": np.array([0, 1, 1, 0, 1]),
            "classes": np.array([2, 7, 7, 3, 2, 9]), "signal": np.linspace(-1.5, 2.25, 101), "empty": np.array([]),
            "words": np.array(["cat", "dog"]), "flags": np.array([True, True]),
            "small": np.array([1e-7, 3.5e-6, 2.5e20]),
        },
    )


def pandas_namespace():
    import numpy as np
    import pandas as pd

    df = pd.DataFrame({
        "PassengerId": [1, 2, 3, 4, 5, 6],
        "Survived": [0, 1, 1, 1, 0, 0],
        "Age": [22.0, 38.0, np.nan, 35.0, 35.0, np.nan],
        "Name": ["Braund, Mr. Owen Harris", "Cumings, Mrs. John Bradley", "Heikkinen, Miss. Laina",
                 "Futrelle, Mrs. Jacques Heath", "Allen, Mr. William Henry", "Moran, Mr. James"],
        "Sex": ["male", "female", "female", "female", "male", "male"],
        "Embarked": pd.Categorical(["S", "C", "S", "S", "S", "Q"]),
        "Boarded": pd.to_datetime(["1912-04-10"] * 5 + ["1912-04-11"]),
        "VIP": [False, False, True, False, False, False],
    })
    wide = pd.DataFrame({f"pixel{i}": [0, 255, 128] for i in range(24)})
    return (
        "df = df.dropna(subset=['Age'])\ny = df.Survived\nprint(wide.shape, sex.value_counts(), fare.describe(), ids)",
        {"df": df, "wide": wide, "sex": df["Sex"], "fare": pd.Series([7.25, 71.2833, np.nan, 53.1], name="Fare"),
         "ids": pd.Series(range(1000))},
    )


def big_namespace():
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(3)
    n = 300_000
    frame = pd.DataFrame({"value": rng.standard_normal(n), "bucket": rng.integers(0, 40, n),
                          "code": rng.choice(["alpha", "beta", "gamma"], n).astype(object)})
    return "frame.describe()\nprint(values.max(), measurements)", {
        "frame": frame, "values": np.round(rng.random(n) * 3), "measurements": [float(i % 4) for i in range(300_000)],
    }


def torch_namespace():
    import torch
    from torch.utils.data import DataLoader, Dataset, IterableDataset, Subset, TensorDataset

    class PairDataset(Dataset):
        def __init__(self):
            self.root = "/data/pairs"
            self.transform = None

        def __len__(self):
            return 7

        def __getitem__(self, i):
            return torch.zeros(3, 8, 8), torch.zeros(3, 8, 8), float(i)

    class Stream(IterableDataset):
        def __iter__(self):
            yield torch.zeros(1)

    data = TensorDataset(torch.zeros(50, 4), torch.zeros(50, dtype=torch.long))
    return (
        "for xb, yb in train_loader:\n    out = model_input + xb\nval = subset\npairs = pair_loader\ns = stream_loader\nw.grad",
        {
            "train_loader": DataLoader(data, batch_size=16, shuffle=True),
            "model_input": torch.tensor([[1.0, float("nan")], [0.5, 2.0]]),
            "subset": Subset(data, [0, 1, 2]),
            "pair_loader": DataLoader(PairDataset(), batch_size=4, drop_last=True),
            "stream_loader": DataLoader(Stream(), batch_size=2),
            "w": torch.ones(5, requires_grad=True),
        },
    )


def tf_sklearn_namespace(tmp: Path):
    import numpy as np
    import tensorflow as tf
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import LabelEncoder

    for c in ("cats", "dogs", "birds"):
        os.makedirs(tmp / c, exist_ok=True)
        for i in range(4):
            (tmp / c / f"{i}.jpg").write_bytes(b"\xff\xd8\xff")
    flow = tf.keras.preprocessing.image.ImageDataGenerator().flow_from_directory(
        str(tmp), target_size=(64, 64), batch_size=8)
    X = np.random.default_rng(0).random((30, 3))
    y = (X[:, 0] > 0.5).astype(int)
    return (
        "model.fit(train_ds, validation_data=flow)\nclf.predict(X_test)\nencoder.transform(labels)\ndata.target\nunfit.predict(X_test)",
        {
            "model": tf.keras.Sequential(), "train_ds": tf.data.Dataset.from_tensor_slices((np.zeros((10, 5), np.float32), np.zeros(10, np.int64))).batch(2),
            "flow": flow, "clf": LogisticRegression().fit(X, y), "X_test": X[:5], "encoder": LabelEncoder().fit(["a", "b", "c"]),
            "labels": ["a", "c"], "data": load_iris(), "unfit": LogisticRegression(),
        },
    )


FORMATTING = {
    "variables": [
        {"name": "tiny", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 1e-07}},
        {"name": "huge", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 1e21}},
        {"name": "whole", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 100.0}},
        {"name": "edge", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 1e16}},
        {"name": "below", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 9999999999999998.0}},
        {"name": "neg0", "type": "float", "attributes": [], "summary": {"kind": "float", "value": -0.0}},
        {"name": "denormal", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 5e-324}},
        {"name": "maxf", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 1.7976931348623157e308}},
        {"name": "tenth", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 0.1}},
        {"name": "small", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 0.00001234}},
        {"name": "smaller", "type": "float", "attributes": [], "summary": {"kind": "float", "value": -0.000001234}},
        {"name": "mid", "type": "float", "attributes": [], "summary": {"kind": "float", "value": 123456789.125}},
        {"name": "nan", "type": "float", "attributes": [], "summary": {"kind": "float", "value": "nan"}},
        {"name": "bigint", "type": "int", "attributes": [], "summary": {"kind": "int", "value": "123456789012345678901234567890"}},
        {"name": "text", "type": "str", "attributes": ["upper"], "summary": {
            "kind": "str", "value": "quote \" backslash \\ tab \t nl \n cr \r bell \u0007 del \u007f \u00e9 \u4e2d \U0001F600", "length": 33}},
        {"name": "arr", "type": "numpy.ndarray", "attributes": [], "summary": {
            "kind": "ndarray", "shape": [3], "dtype": "float64", "hasNaN": None, "min": "-inf", "max": 2.5e-5,
            "values": {"valueKind": "binary", "values": [True, None]}}},
        {"name": "d", "type": "pandas.DataFrame", "attributes": [], "summary": {
            "kind": "dataframe", "shape": [1000000, 3], "hasNaN": False, "hasNaNApprox": True, "columns": [
                {"name": "when", "dtype": "datetime64[ns]", "distinct": None, "values": []},
                {"name": "x \"q\"", "dtype": "float32", "distinct": 12345, "distinctApprox": True, "min": -1e-300, "max": 3.4028234663852886e38},
                {"name": "late", "dtype": "int64", "distinct": 7, "distinctApprox": True, "min": 0, "max": 6, "rangeApprox": True}]}},
        {"name": "lst", "type": "list", "attributes": [], "summary": {
            "kind": "sequence", "type": "list", "length": 20000000,
            "values": {"valueKind": "continuous", "min": 0.5, "max": 1e100, "rangeApprox": True}}},
        {"name": "est", "type": "sklearn.cluster._kmeans.KMeans", "attributes": ["fit"], "summary": {
            "kind": "sklearn-estimator", "fitted": True, "nFeaturesIn": None, "nOutputs": 8}},
        {"name": "gone", "type": "mylib.Thing", "attributes": [], "summary": {"kind": "unavailable", "reason": "took longer than 2 s"}},
    ]
}


def _cuts() -> dict:
    """Everything the renderer must cut with a visible note: long text of every kind, lists
    longer than it shows, a string the kernel already cut (its length says how long it was)."""
    long_name = "col_" + "n" * 300
    def var(name, type_, summary, attributes=()):
        return {"name": name, "type": type_, "attributes": list(attributes), "summary": summary}
    return {"variables": [
        var("blob", "str", {"kind": "str", "value": "ab" * 500, "length": 50_000_000}),
        var("page", "str", {"kind": "str", "value": "\U0001F600" + "x" * 10_500, "length": 10_501}),
        var("short", "str", {"kind": "str", "value": "fits", "length": 4}),
        var("big", "int", {"kind": "int", "value": "9" * 400}),
        var("cfg", "dict", {"kind": "dict", "length": 30, "entries": [
            {"key": "'" + "k" * 250 + "'", "value": "'" + "v" * 260 + "'"}, {"key": "'a'", "value": "1"}]}),
        var("weights", "dict", {"kind": "dict-numbers", "length": 45, "keys": ["w%d" % i for i in range(45)]}),
        var("hist", "dict", {"kind": "dict-history", "length": 25, "epochs": 3, "metrics": ["m%d" % i for i in range(25)]}),
        var("frame", "pandas.DataFrame", {"kind": "dataframe", "shape": [10, 400], "hasNaN": False, "columns": [
            {"name": long_name, "dtype": "object", "distinct": 3, "values": ["x" * 20, "b"]},
            {"name": "n", "dtype": "category(" + "c" * 300 + ")", "distinct": 2, "min": 0, "max": 1}]}),
        var("arr", "numpy.ndarray", {"kind": "ndarray", "shape": list(range(1, 26)), "dtype": "float64", "hasNaN": False,
                                      "min": "<" + "T" * 240 + ">", "max": 1}),
        var("loader", "torch.utils.data.DataLoader", {
            "kind": "dataloader", "examples": 100, "batchSize": 4, "batches": 25, "datasetType": "my." + "D" * 300,
            "fields": [{"name": "f%d" % i, "type": "int"} for i in range(25)],
            "sampleShapes": ["(Tensor[%d] float32, int)" % i for i in range(10)], "batchShape": "[" * 230 + "]"}),
        var("spec", "tensorflow.data.Dataset", {"kind": "tf-dataset", "elementSpec": "TensorSpec(" + "s" * 400 + ")"}),
        var("odd", "user." + "Q" * 300, {"kind": "unavailable", "reason": "ValueError: " + "r" * 300},
            attributes=["a%d" % i for i in range(25)]),
    ]}


def _bidi_text() -> dict:
    """Names and text holding bidirectional controls (U+202E reverses what follows it), C1 controls
    (U+009B starts a terminal sequence) and line separators: every one is escaped like a control
    character, so the quoted text reads as it is."""
    def var(name, type_, summary):
        return {"name": name, "type": type_, "attributes": [], "summary": summary}
    marks = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\x80\x85\x9b\x9f\xa0\u2028\u2029"
    value = "price\u202e1 << ok" + marks
    return {"variables": [
        var("label", "str", {"kind": "str", "value": value, "length": len(value)}),
        var("frame", "pandas.DataFrame", {"kind": "dataframe", "shape": [2, 2], "hasNaN": False, "columns": [
            {"name": "total\u202edeliver", "dtype": "object", "distinct": 2, "values": ["\u2067x\u2069", "b"]},
            {"name": "\u200fn", "dtype": "int64", "distinct": 2, "min": 0, "max": 1}]}),
    ]}


def main(only: str = "") -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if only == "cut":  # the hand-written vectors alone: no real objects, nothing else rewritten
        _write({"cut-long-text-and-giant-containers": _cuts(), "bidi-controls": _bidi_text()})
        return
    with tempfile.TemporaryDirectory() as tmp:
        vectors = {
            "builtins": builtins_namespace(),
            "numpy": numpy_namespace(),
            "pandas": pandas_namespace(),
            "sampled-big-data": big_namespace(),
            "torch": torch_namespace(),
            "tensorflow-keras-sklearn": tf_sklearn_namespace(Path(tmp)),
        }
        infos = {name: collect(src, ns) for name, (src, ns) in vectors.items()}
    infos["formatting"] = FORMATTING
    infos["empty"] = {"variables": []}
    infos["cut-long-text-and-giant-containers"] = _cuts()
    infos["bidi-controls"] = _bidi_text()
    _write(infos)


def _write(infos: dict) -> None:
    for name, info in infos.items():
        text = runtime_info_text(info)
        path = OUT / f"{name}.json"
        path.write_text(json.dumps({"input": info, "text": text}, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
        print(f"--- {path.name}\n{text}\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
