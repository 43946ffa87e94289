"""The hostile zoo for TensorFlow / Keras: a Keras layer and model, a `tf.Module` and a tf.data
pipeline whose Python code counts every call (hooks, `call`, `fit`, `predict`, `summary`, the
function a dataset maps over), read by the checks and by the runtime-information collection in every
cell form they handle. The count stays 0: nothing of the notebook's runs, and no dataset is
iterated (iterating one runs the function it maps)."""

from __future__ import annotations

import pytest

from crane_llm.checks import run_checks
from crane_llm.runinfo import collect

from test_hostile_zoo import CALLS, _method, _prop

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

# Hooks a Keras object's construction does not need (those would count before the test starts).
HOOKS = ["__eq__", "__ne__", "__lt__", "__hash__", "__bool__", "__len__", "__iter__", "__contains__", "__getitem__",
         "__repr__", "__str__", "__format__", "__add__", "__radd__", "__matmul__", "__rmatmul__", "__array__",
         "__index__", "__int__", "__float__", "__copy__", "__deepcopy__", "__reduce_ex__", "_repr_html_"]
METHODS = ["call", "build", "compute_output_shape", "fit", "predict", "evaluate", "summary", "get_config",
           "get_weights", "count_params", "compile", "save"]
PROPERTIES = ["shape", "dtype", "output_shape", "input_shape", "trainable_weights", "nope", "history"]


def _hostile(base):
    body = {n: _method(n) for n in HOOKS + METHODS}
    body.update({n: _prop(n) for n in PROPERTIES})
    body["__call__"] = _method("__call__")
    return type("Hostile" + base.__name__, (base,), body)


@pytest.fixture(scope="module")
def keras_ns():
    import numpy as np

    from IPython.core.interactiveshell import InteractiveShell

    layer = _hostile(keras.layers.Layer)()
    model = _hostile(keras.Model)()
    module = _hostile(tf.Module)()

    def mapped(x):
        CALLS.append("dataset.map")
        return x

    ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(mapped, [x], tf.int64))
    seq = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    shell = InteractiveShell.instance()
    saved = dict(shell.user_ns)
    shell.user_ns.update({"layer": layer, "model": model, "module": module, "ds": ds, "seq": seq, "tf": tf,
                          "keras": keras, "np": np, "X": np.ones((4, 3)), "y": np.zeros(4),
                          "t": tf.constant([[1.0, 2.0]]), "v": tf.Variable([1.0, 2.0])})
    CALLS.clear()
    yield shell.user_ns
    shell.user_ns.clear()
    shell.user_ns.update(saved)


CELLS = [
    "layer", "model", "module", "ds", "print(layer)", "print(model)", "f'{model}'", "layer(X)", "model(X)",
    "model.fit(X, y)", "model.predict(X)", "model.summary()", "model.evaluate(X, y)", "model.nope",
    "layer.shape", "layer.output_shape", "layer.build((None, 3))", "len(model)", "model[0]", "model == 1",
    "{model: 1}", "[l for l in model]", "module.nope", "module(X)", "for x in ds:\n    pass", "list(ds)",
    "ds.take(1)", "len(ds)", "next(iter(ds))", "ds.nope", "seq.predict(X[:, :2])", "seq(X)", "seq.fit(X, y)",
    "t + v", "t @ v", "t.shape", "v.assign([1.0])", "tf.reshape(t, (3,))", "np.array(t)",
    "model.fit(X, y)\nundefined_after", "print(model)\nundefined_after", "%time model.predict(X)",
]


def test_no_keras_user_code_runs_during_checks(keras_ns):
    CALLS.clear()
    for cell in CELLS:
        run_checks(cell, keras_ns)
    assert CALLS == [], sorted(set(CALLS))


def test_no_keras_user_code_runs_while_runtime_information_is_collected(keras_ns):
    CALLS.clear()
    for cell in CELLS:
        collect(cell, keras_ns)
    assert CALLS == [], sorted(set(CALLS))


def test_the_counters_are_live(keras_ns):
    # The zoo is armed: running the cells for real does call the notebook's code.
    CALLS.clear()
    repr(keras_ns["model"])
    list(keras_ns["ds"])
    assert "__repr__" in CALLS and "dataset.map" in CALLS
