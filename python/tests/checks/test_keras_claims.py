"""Keras claims (removed methods, a history's missing metric key) only where the objects are Keras'
own and unpatched, and only on live objects: recorded facts of a Keras object answer nothing, so
the replay stays unknown. The proven pairs are in cases_keras.py (run by test_pairs)."""

from __future__ import annotations

import numpy as np
import pytest

from crane_llm.checks import run_checks, run_checks_on_facts

keras = pytest.importorskip("keras")


@pytest.fixture(scope="module")
def fitted():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="softmax")])
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    X, y = np.ones((4, 3)), np.zeros(4)
    return {"np": np, "keras": keras, "model": model, "X": X, "history": model.fit(X, y, epochs=1, verbose=0)}


@pytest.mark.parametrize("name,patch", [
    ("predict_classes", lambda self, x: "patched"),
    # A class-level __getattr__ answers every missing name: nothing is missing any more.
    ("__getattr__", lambda self, name: (lambda *args: "patched")),
])
def test_a_patched_keras_class_is_not_claimed_missing(fitted, name, patch):
    cell = "p = model.predict_classes(X)"
    assert run_checks(cell, fitted).crash is not None  # the unpatched class: certain
    assert name not in vars(keras.Sequential)
    setattr(keras.Sequential, name, patch)
    try:
        assert run_checks(cell, fitted).crash is None
        assert fitted["model"].predict_classes(fitted["X"]) == "patched"  # the real call runs clean
    finally:
        delattr(keras.Sequential, name)


def test_a_method_set_on_the_instance_is_not_claimed_missing(fitted):
    ns = dict(fitted)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.predict_proba = lambda x: "own"
    ns["model"] = model
    assert run_checks("p = model.predict_proba(X)", ns).crash is None
    assert model.predict_proba(ns["X"]) == "own"


def test_a_key_added_to_the_history_is_not_claimed_missing(fitted):
    ns = dict(fitted)
    assert run_checks("v = history.history['val_accuracy']", ns).crash.exception == "KeyError"
    history = keras.callbacks.History()
    history.history = dict(fitted["history"].history, val_accuracy=[0.5])
    ns["history"] = history
    assert run_checks("v = history.history['val_accuracy']", ns).crash is None


@pytest.mark.parametrize("cell", ["history.history['val_accuracy']", "model.predict_classes(X)",
                                  "model.predict_proba(X)", "model.fit_generator(X)"])
def test_recorded_keras_objects_leave_the_replay_unknown(cell, fitted):
    # Only the type name is recorded: the kernel's Keras version (and any patch) is not, so no claim.
    facts = {"history": {"type": "<class 'keras.src.callbacks.history.History'>"},
             "model": {"type": "<class 'keras.src.models.sequential.Sequential'>"},
             "X": {"type": "<class 'numpy.ndarray'>", "shape": (4, 3)}}
    outcome = run_checks_on_facts(cell, facts)
    assert outcome.crash is None and outcome.stopped_at is not None


@pytest.mark.parametrize("attr,says", [("predict_classes", "np.argmax(model.predict(x), axis=-1)"),
                                       ("predict_proba", "model.predict(x)"), ("fit_generator", "model.fit")])
def test_a_removed_method_is_said_removed_with_no_near_name(fitted, attr, says):
    claim = run_checks(f"p = model.{attr}(X)", fitted).crash
    assert claim is not None and claim.exception == "AttributeError"
    assert "removed it" in claim.message and says in claim.message and "Did you mean" not in claim.message
    assert "predict_step" not in claim.message
    with pytest.raises(AttributeError):
        getattr(fitted["model"], attr)  # what the real read raises
