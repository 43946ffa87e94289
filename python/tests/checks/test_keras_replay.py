"""A Keras 3 model known only by its recorded type: the names no Keras 3 model has (`load`, the
removed `predict_classes` & co.) are claimed missing in the replay, as on the live model.

Each case runs for real (exec_runner): the setup is the kernel's executed cells (CELL_BREAK starts
the next one), the replay judges the target from facts recorded from the same values (the type
alone, as JunoBench records a model) plus those cells, the live checker judges it on the live
objects, then the target really runs. A claim must match what it raised; a twin runs clean with no
claim; cells whose executed history may have given the model the name get no claim whatever they do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import importlib.util

import pytest

from crane_llm.checks import run_checks_on_facts
from crane_llm.checks.keras_models import NEVER
from crane_llm.checks.recorded_kernel import read_executed
from exec_runner import CELL_BREAK, run_batch

pytestmark = pytest.mark.skipif(importlib.util.find_spec("keras") is None, reason="Keras is not installed")

# As tensorflow_3 builds it: imports in one cell, the model in another, a fit, a save.
SEQUENTIAL = ("import numpy as np\nfrom tensorflow.keras.models import Sequential\n"
              "from tensorflow.keras.layers import Dense\nfrom tensorflow.keras import Input" + CELL_BREAK
              + "model = Sequential()\nmodel.add(Input(shape=(3,)))\nmodel.add(Dense(4, activation='relu'))\n"
              "model.add(Dense(1, activation='sigmoid'))\n"
              "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])" + CELL_BREAK
              + "X = np.ones((8, 3))\ny = np.zeros(8)\nhistory = model.fit(X, y, epochs=1, verbose=0)")
FUNCTIONAL = ("import numpy as np\nimport keras" + CELL_BREAK
              + "inputs = keras.Input((3,))\nhidden = keras.layers.Dense(4, name='hidden')(inputs)\n"
              "model = keras.Model(inputs, keras.layers.Dense(2, activation='softmax')(hidden))\n"
              "model.compile(optimizer='sgd', loss='sparse_categorical_crossentropy')" + CELL_BREAK
              + "X = np.ones((8, 3))\ny = np.zeros(8)")

# (executed cells, crash target, safe twin)
PAIRS = [
    (SEQUENTIAL, 'model.load ("train.h5")', "w = model.get_weights()"),
    (SEQUENTIAL, "pred = model.predict_classes(X)", "pred = (model.predict(X, verbose=0) > 0.5).astype('int32')"),
    (SEQUENTIAL, "proba = model.predict_proba(X)", "proba = model.predict(X, verbose=0)"),
    (SEQUENTIAL, "model.fit_generator(X, y, epochs=1)", "h = model.fit(X, y, epochs=1, verbose=0)"),
    (FUNCTIONAL, "model = model.load('m.keras')", "n = model.count_params()"),
    (FUNCTIONAL, "p = model.predict_generator(X)", "p = model.predict(X, verbose=0)"),
    (FUNCTIONAL, "s = model.evaluate_generator(X)", "s = model.evaluate(X, y, verbose=0)"),
    (FUNCTIONAL, "batch = X[:4]\nclasses = model.predict_classes(batch)", "batch = X[:4]\nclasses = model.predict(batch, verbose=0)"),
]

# Executed cells that may have given the model the name: each target crashes, but not (or not
# certainly) with AttributeError, and neither checker may claim it.
NO_PROOF = [
    (SEQUENTIAL + CELL_BREAK + "model.load = None", 'model.load("train.h5")'),  # TypeError: None is not callable
    (SEQUENTIAL + CELL_BREAK + "def give(m):\n    m.predict_classes = 5\ngive(model)", "model.predict_classes(X)"),
    (SEQUENTIAL + CELL_BREAK + "other = model\nother.load = 'x'", "model.load('m.h5')"),
    (SEQUENTIAL + CELL_BREAK + "setattr(model, 'predict_proba', 0)", "model.predict_proba(X)"),
    (SEQUENTIAL + CELL_BREAK + "object.__setattr__(model, 'load', None)", "model.load('m.h5')"),
    (SEQUENTIAL + CELL_BREAK + "name = 'lo' + 'ad'\nput = model.__setattr__\nput(name, None)", "model.load('m.h5')"),
    # The user's own subclass: whatever its `load` does is its code (recorded as `__main__.Mine`).
    (SEQUENTIAL + CELL_BREAK + "class Mine(Sequential):\n    def load(self, path):\n        raise ValueError(path)\n"
     "model = Mine([Input((3,)), Dense(1)])", "model.load('m.h5')"),
    # A class of the notebook's own, defined under a module name Keras' model has: it is recorded
    # as `keras.src.models.sequential.Sequential`, and its `load` (a class attribute) is `int`.
    (SEQUENTIAL + CELL_BREAK + "__name__ = 'keras.src.models.sequential'\nclass Sequential:\n"
     "    load = staticmethod(int)\nmodel = Sequential()", "model.load('m.h5')"),
    # The same, renamed after its definition.
    (SEQUENTIAL + CELL_BREAK + "class Mine:\n    load = staticmethod(int)\n"
     "Mine.__module__ = 'keras.src.models.sequential'\nMine.__qualname__ = 'Sequential'\nmodel = Mine()",
     "model.load('m.h5')"),
]


def _case(setup: str, cell: str):
    return {"setup": setup, "cell": cell, "replay": True, "replay_executed": True}


@pytest.fixture(scope="module")
def results():
    cases = [_case(s, crash) for s, crash, _ in PAIRS] + [_case(s, safe) for s, _, safe in PAIRS]
    cases += [_case(s, cell) for s, cell in NO_PROOF]
    out = run_batch(cases)
    n = len(PAIRS)
    return out[:n], out[n:2 * n], out[2 * n:]


def test_a_name_no_keras3_model_has_is_claimed_from_the_recorded_type(results):
    for pair, r in zip(PAIRS, results[0]):
        assert r["setup_error"] is None and r["checker_error"] is None, (pair, r)
        assert r["raised"] is not None and r["raised"]["exception"] == "AttributeError", (pair, r)
        for claim in (r["replay_claim"], r["claim"]):
            assert claim is not None, (pair, r["replay_stop"], r["stop"])
            assert claim["exception"] == "AttributeError" and claim["line"] == r["raised"]["line"], (pair, claim)
            assert claim["rule"] == "missing-attribute"
        assert "Did you mean" not in r["replay_claim"]["message"]


def test_the_twin_runs_clean_without_claim(results):
    for pair, r in zip(PAIRS, results[1]):
        assert r["setup_error"] is None and r["checker_error"] is None, (pair, r)
        assert r["raised"] is None, (pair, r)
        assert r["replay_claim"] is None and r["claim"] is None, (pair, r)


def test_a_model_that_may_have_gained_the_name_gets_no_claim(results):
    for case, r in zip(NO_PROOF, results[2]):
        assert r["setup_error"] is None and r["checker_error"] is None, (case, r)
        assert r["raised"] is not None, (case, r)
        assert r["replay_claim"] is None and r["claim"] is None, (case, r)


SEQ_FACTS = {"model": {"type": "<class 'keras.src.models.sequential.Sequential'>"}}
CELLS = ["from tensorflow.keras.models import Sequential", "model = Sequential()"]


def test_the_load_claim_says_what_loads_a_saved_model():
    claim = run_checks_on_facts('model.load("train.h5")', SEQ_FACTS, executed=CELLS).crash
    assert claim is not None and "keras.models.load_model(path)" in claim.message


@pytest.mark.parametrize("executed", [
    None,  # no executed cells: what they did to the model is unknown
    CELLS + ["model.load = print"],
    CELLS + ["del model.load"],
    CELLS + ["exec('model.load = print')"],
    CELLS + ["model.__dict__['load'] = print"],
    CELLS + ["vars(model).update(load=print)"],
    CELLS + ["class Fake:\n    __class__ = Sequential\nmodel = Fake()"],  # a class passing for a Keras model
    CELLS + ["Fake = type('Fake', (), {'__class__': Sequential})"],
    CELLS + ["get_ipython().run_line_magic('time', 'model.load = print')"],
    CELLS + ["import my_helpers"],  # a module of the user's own may do anything on import
    CELLS + ["Sequential.load = lambda self, p: None"],  # a patched library stops the whole replay
    CELLS + ["object.__setattr__(model, 'load', print)"],
    CELLS + ["n = 'lo' + 'ad'\nput = model.__setattr__\nput(n, print)"],
    CELLS + ["model.__setstate__({'load': print})"],
    CELLS + ["import gc\ngc.get_referents(model)[0]['lo' + 'ad'] = print"],  # the instance dict
    CELLS + ["f = getattr(model, '__setattr__')"],
    CELLS + ["name = 'load'"],  # a string that may name the attribute somewhere
    CELLS + ["import joblib\nmodel = joblib.load('m.pkl')"],  # a crafted pickle sets any attribute
])
def test_executed_cells_that_may_have_set_the_name_leave_it_unknown(executed):
    outcome = run_checks_on_facts('model.load("train.h5")', SEQ_FACTS, executed=executed)
    assert outcome.crash is None and outcome.stopped_at is not None


@pytest.mark.parametrize("cell", ['model.load = print\nmodel.load("x")', 'setattr(model, "load", print)\nmodel.load("x")',
                                  'm = model\nm.load = print\nmodel.load("x")'])
def test_the_target_giving_the_name_itself_is_not_claimed(cell):
    assert run_checks_on_facts(cell, SEQ_FACTS, executed=CELLS).crash is None


@pytest.mark.parametrize("type_name", ["keras.src.engine.sequential.Sequential",  # Keras 2.13-2.15
                                       "keras.engine.sequential.Sequential", "tf_keras.src.engine.sequential.Sequential",
                                       "__main__.Sequential", "keras.src.layers.core.dense.Dense"])
def test_only_keras3_model_types_are_read(type_name):
    facts = {"model": {"type": f"<class '{type_name}'>"}}
    assert run_checks_on_facts('model.load("x")', facts, executed=CELLS).crash is None


@pytest.mark.parametrize("attr", ["load_weights", "save", "fit", "predict", "nope", "_private"])
def test_other_names_stay_unknown(attr):
    # The installed Keras is not the recording one: only NEVER is answered.
    assert run_checks_on_facts(f"model.{attr}", SEQ_FACTS, executed=CELLS).crash is None


def test_a_user_class_with_dunder_methods_does_not_hide_the_claim():
    cells = CELLS + ["class Data:\n    def __init__(self, n):\n        self.n = n\n    def __len__(self):\n"
                     "        return self.n\n    def __getitem__(self, i):\n        return i\n"
                     "if __name__ == '__main__':\n    d = Data(3)"]
    assert run_checks_on_facts('model.load("x")', SEQ_FACTS, executed=cells).crash is not None


def test_colab_tensorflow_version_magic_binds_nothing():
    kernel = read_executed(["try:\n    %tensorflow_version 2.x\nexcept Exception:\n    pass\nimport tensorflow as tf"])
    assert kernel.dynamic is None and kernel.written is not None and "load" not in kernel.written


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch is not installed")
def test_every_name_is_missing_under_the_torch_backend_too():
    # torch's nn.Module.__getattr__ answers submodules by attribute name: layers named like the
    # names still leave them missing. Checked in a fresh process, the backend being fixed at import.
    code = ("import keras\nassert keras.backend.backend() == 'torch'\n"
            "m = keras.Sequential([keras.Input((3,))] + [keras.layers.Dense(1, name=n) for n in NAMES])\n"
            "i = keras.Input((3,))\nf = keras.Model(i, keras.layers.Dense(1, name='load')(i))\n"
            "for o in (m, f):\n    for n in NAMES:\n        try:\n            getattr(o, n)\n"
            "        except AttributeError:\n            continue\n        raise SystemExit(n)\n")
    env = dict(os.environ, KERAS_BACKEND="torch", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, "-c", f"NAMES = {sorted(NEVER)!r}\n" + code], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout
