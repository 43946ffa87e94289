"""Pairs for the Keras crash shapes real notebooks hit: a metric key the fit did not record in
`history.history` (KeyError) and training/prediction methods the installed Keras removed
(`predict_classes`, `predict_proba`, `fit_generator`, ...: AttributeError). No Keras-specific rule
exists: the history is a plain dict read by the dict-key rule, and a removed method is found
missing by the attribute rule because provenance vouches that the class is Keras' own and
unpatched. Same form as cases.py; the harness runs every cell for real. The NO_CLAIM cells crash,
but through code the checker must not vouch for (a `__getattr__` of the user's, a dict subclass)."""

from __future__ import annotations

import importlib.util
from typing import List

from cases import Pair

# One compiled Sequential, one fit without validation (keys: loss, accuracy) and one with it
# (adds val_loss, val_accuracy). Keras 3 names the metric 'accuracy', never the old 'acc'.
KERAS = ("import numpy as np\nimport keras\n"
         "model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation='softmax')])\n"
         "model.compile(optimizer='sgd', loss='sparse_categorical_crossentropy', metrics=['accuracy'])\n"
         "X = np.ones((8, 3))\ny = np.zeros(8)\n"
         "history = model.fit(X, y, epochs=1, verbose=0)\n"
         "history_val = model.fit(X, y, epochs=1, validation_split=0.25, verbose=0)\n"
         "inputs = keras.Input((3,))\nfunctional = keras.Model(inputs, keras.layers.Dense(1)(inputs))")

HISTORY_KEY: List[Pair] = [
    Pair("keras", KERAS, "print(history.history['val_accuracy'])", "print(history.history['accuracy'])", "KeyError"),
    Pair("keras", KERAS, "acc = history.history['val_accuracy'][-1]", "acc = history.history['accuracy'][-1]",
         "KeyError"),
    Pair("keras", KERAS, "h = history.history\nprint(h['val_loss'])", "h = history.history\nprint(h['loss'])",
         "KeyError"),
    Pair("keras", KERAS, "best = max(history.history['acc'])", "best = max(history.history['accuracy'])", "KeyError"),
    Pair("keras", KERAS, "gap = history_val.history['val_acc'][-1] - 1",
         "gap = history_val.history['val_accuracy'][-1] - 1", "KeyError"),
    Pair("keras", KERAS, "curves = {k: history.history[k] for k in ['loss']}\nprint(history.history['val_loss'])",
         "curves = {k: history.history[k] for k in ['loss']}\nprint(history_val.history['val_loss'])", "KeyError"),
]

REMOVED_METHOD: List[Pair] = [
    Pair("keras", KERAS, "pred = model.predict_classes(X)", "pred = np.argmax(model.predict(X, verbose=0), axis=1)",
         "AttributeError"),
    Pair("keras", KERAS, "proba = model.predict_proba(X)", "proba = model.predict(X, verbose=0)", "AttributeError"),
    Pair("keras", KERAS, "model.fit_generator(X, epochs=1)", "model.fit(X, y, epochs=1, verbose=0)",
         "AttributeError"),
    Pair("keras", KERAS, "out = model.predict_generator(X)", "out = model.predict(X, verbose=0)", "AttributeError"),
    Pair("keras", KERAS, "score = model.evaluate_generator(X)", "score = model.evaluate(X, y, verbose=0)",
         "AttributeError"),
    Pair("keras", KERAS, "pred = functional.predict_classes(X)", "pred = functional.predict(X, verbose=0)",
         "AttributeError"),
]

HAS_KERAS = importlib.util.find_spec("keras") is not None

PAIRS = HISTORY_KEY + REMOVED_METHOD if HAS_KERAS else []

NO_CLAIM = [] if not HAS_KERAS else [
    # The user's subclass answers unknown attributes itself: whatever it does is its code, not Keras'.
    ("pred = sub.predict_classes(X)", KERAS + "\nclass Sub(keras.Sequential):\n"
     "    def __getattr__(self, name):\n        raise AttributeError(name)\n"
     "sub = Sub([keras.Input((3,)), keras.layers.Dense(2)])"),
    # The history dict swapped for a subclass whose lookup is the user's (it raises ValueError, not KeyError).
    ("print(history.history['val_accuracy'])", KERAS + "\nclass Lookup(dict):\n"
     "    def __getitem__(self, key):\n        raise ValueError(key)\n"
     "history.history = Lookup(history.history)"),
    # The same subclass swap, read through an alias.
    ("h = history.history\nprint(h['val_loss'])", KERAS + "\nclass Lookup(dict):\n"
     "    def __missing__(self, key):\n        raise IndexError(key)\n"
     "history.history = Lookup(history.history)"),
]
