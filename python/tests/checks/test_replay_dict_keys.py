"""A recorded dict whose keys the recording lists (a Keras history, a dict of numbers, a scikit-learn
bunch): a missing key is a KeyError in the replay, each pair run for real, and no claim survives
executed cells that may make an object equal to a text, print as another, or a class print as
`dict`. The hostile histories run for real to show the target runs clean; the gate is then read in
this process from facts as the recording would show them."""

from __future__ import annotations

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from harness import assert_clean_and_unclaimed, assert_replay_pair, replayed
from crane_llm.checks import run_checks_on_facts

SETUP = ("history = {'loss': [0.9, 0.5], 'accuracy': [0.6, 0.8]}\nconfig = {'lr': 0.01, 'epochs': 3}\n"
         "bunch = {'data': [[1, 2]], 'target': [0], 'feature_names': ['a', 'b']}")

PAIRS = [
    ("print(history['val_loss'][-1])", "print(history['loss'][-1])"),
    ("rate = config['learning_rate']", "rate = config['lr']"),
    ("names = bunch['target_names']", "names = bunch['feature_names']"),
    ("acc = history['acc']", "acc = history.get('acc')"),
]

# Executed cells after which `v = history['val_loss']` runs clean.
LYING_KEY = ("class K:\n    def __hash__(self):\n        return hash('val_loss')\n"
             "    def __eq__(self, other):\n        return other == 'val_loss'\n"
             "    def __repr__(self):\n        return repr('val_acc')\nhistory = {K(): [0.5, 0.4]}")
MISSING = "    def __missing__(self, key):\n        return 0\n"
HOSTILE = [
    SETUP + B + LYING_KEY,
    SETUP + B + "class D(dict):\n" + MISSING + "D.__module__ = 'builtins'\nD.__qualname__ = 'dict'\n"
    "history = D(loss=[0.5])",
    SETUP + B + "class D(dict):\n    __module__ = 'builtins'\n    __qualname__ = 'dict'\n" + MISSING +
    "history = D(loss=[0.5])",
    SETUP + B + "__name__ = 'builtins'\nclass dict(dict):\n" + MISSING + "history = dict(loss=[0.5])",
]


def _cases():
    cases = [{"setup": SETUP, "cell": cell} for pair in PAIRS for cell in pair]
    cases += [{"setup": s, "cell": "v = history['val_loss']"} for s in HOSTILE]
    return replayed(cases)


@pytest.fixture(scope="module")
def results():
    return run_batch(_cases())


def test_a_listed_key_missing_is_a_keyerror_and_the_twins_get_no_claim(results):
    for i in range(len(PAIRS)):
        assert_replay_pair(results[2 * i], results[2 * i + 1], "KeyError")


def test_hostile_histories_run_clean_and_get_no_replay_claim(results):
    for setup, r in zip(HOSTILE, results[2 * len(PAIRS):]):
        assert_clean_and_unclaimed(r, setup)


def _facts(keys=("val_acc",), detected="training_history_dict", type_name="<class 'dict'>"):
    field = "keys" if detected == "sklearn_dataset_dict" else "metrics"
    return {"history": {"type": type_name, "length": len(keys), "detected": detected, field: list(keys)}}


@pytest.mark.parametrize("setup", HOSTILE)
def test_the_gate_alone_refuses_each_hostile_history(setup):
    # the recording would show these keys: K() prints as 'val_acc', and D as a plain dict
    cell = "v = history['val_loss']"
    assert run_checks_on_facts(cell, _facts(), executed=setup.split(B)).crash is None
    assert run_checks_on_facts(cell, _facts(), executed=[SETUP]).crash is not None  # the plain twin


def test_keys_the_recording_does_not_list_in_full_are_not_judged():
    cell = "v = history['val_loss']"
    assert run_checks_on_facts(cell, _facts(type_name="<class 'collections.OrderedDict'>"), executed=[SETUP]).crash is None
    short = _facts(("loss",))
    short["history"]["length"] = 2  # a key the list leaves out
    assert run_checks_on_facts(cell, short, executed=[SETUP]).crash is None
    no_list = {"history": {"type": "<class 'dict'>", "length": 1}}
    assert run_checks_on_facts(cell, no_list, executed=[SETUP]).crash is None
    assert run_checks_on_facts(cell, _facts(detected="something_else"), executed=[SETUP]).crash is None
    assert run_checks_on_facts(cell, _facts()).crash is None  # nothing says what the executed cells did
    assert run_checks_on_facts(cell, _facts(detected="sklearn_dataset_dict"), executed=[SETUP]).crash is not None
