"""The table of loaded modules as a notebook may leave it: `sys.modules` rebound (to a copy holding
another `math`, or to a mapping of its own), or an entry replaced by an object that counts every
attribute read (`numpy`, `pandas`, IPython's modules, `warnings`...). `import` reads the
interpreter's own table in C, so the checks must not judge a cell by another one, and neither the
checks nor the runtime information may run the replaced entries' code. Each next to its twin with
the table untouched, whose crash stays claimed and whose summary stays."""

from __future__ import annotations

import sys
import types

import numpy as np
import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell
from sklearn.linear_model import LinearRegression

from crane_llm.checks import run_checks
from crane_llm.runinfo import collect

CALLS: list = []


class Counting:
    """What a notebook may put in `sys.modules`: every attribute read (`__dict__` too) counts."""

    @property
    def __dict__(self):
        CALLS.append("__dict__")
        return {}

    def __getattr__(self, name):
        CALLS.append(name)
        raise AttributeError(name)


@pytest.fixture()
def namespace():
    shell = InteractiveShell.instance()
    ns = shell.user_ns
    ns.update(df=pd.DataFrame({"a": [1, 2]}), X=np.ones((3, 2)), lr=LinearRegression(), lst=[1, 2])
    yield ns
    for name in ("df", "X", "lr", "lst"):
        ns.pop(name, None)


def _claim(cell, ns):
    outcome = run_checks(cell, ns)
    return (outcome.crash.exception, outcome.crash.line) if outcome.crash else None


CELLS = [("df['zz']", ("KeyError", 1)), ("X.sum(axis=3)", ("AxisError", 1)), ("lr.predict(X)", ("NotFittedError", 1)),
         ("x = len(lst)\nlst[x]", ("IndexError", 2)), ("n = len(df)\nundefined_q", ("NameError", 2))]
ENTRIES = ["numpy", "pandas", "sklearn", "sklearn.base", "IPython.core.getipython", "IPython.core.interactiveshell",
           "IPython.core.inputtransformer2", "IPython.core.prefilter", "warnings", "matplotlib.pyplot"]


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_replaced_entry_runs_nothing(namespace, entry):
    saved = sys.modules.get(entry)
    CALLS.clear()
    sys.modules[entry] = Counting()
    try:
        for cell, _ in CELLS:
            run_checks(cell, namespace)
            collect(cell, namespace)
    finally:
        if saved is None:
            sys.modules.pop(entry, None)
        else:
            sys.modules[entry] = saved
    assert CALLS == []
    # The twin: with the table as it was, the crashes are claimed and the values summarised.
    for cell, claim in CELLS:
        assert _claim(cell, namespace) == claim
    kinds = {v["name"]: v["summary"]["kind"] for v in collect("df\nX\nlr", namespace)["variables"]}
    assert kinds == {"df": "dataframe", "X": "ndarray", "lr": "sklearn-estimator"}


def test_a_rebound_module_table_is_not_read(namespace):
    real = sys.modules
    fake = dict(real)
    fake["math"] = types.ModuleType("math")  # `import math` still gives the real one
    cell = "import math\nmath.sqrt(4)\nundefined_q"
    sys.modules = fake
    try:
        outcome = run_checks(cell, namespace)
        info = collect("df", namespace)
    finally:
        sys.modules = real
    assert outcome.crash is None and "sys.modules" in outcome.stopped_at.reason
    assert info["variables"][0]["summary"]["kind"] == "unavailable"
    assert _claim(cell, namespace) == ("NameError", 3)
    assert _claim("import math\nmath.nope", namespace) == ("AttributeError", 2)
    assert collect("df", namespace)["variables"][0]["summary"]["kind"] == "dataframe"


def test_a_module_table_of_the_notebooks_own_runs_nothing(namespace):
    real = sys.modules

    class Table(dict):
        def get(self, *args):
            CALLS.append("get")
            return dict.get(self, *args)

        def __getitem__(self, key):
            CALLS.append("getitem")
            return dict.__getitem__(self, key)

        def __contains__(self, key):
            CALLS.append("contains")
            return dict.__contains__(self, key)

    CALLS.clear()
    sys.modules = Table(real)
    try:
        run_checks("df['zz']", namespace)
        collect("df['zz']", namespace)
    finally:
        sys.modules = real
    assert CALLS == []
