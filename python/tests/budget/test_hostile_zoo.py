"""The hostile-object zoo: no user code runs while a check reads these objects (the count stays 0),
and no check exceeds its time budget even when every hook would sleep 10 s.

Each object sits where the runtime information and the checks meet user data: as a variable, a
DataFrame column label, index label or value, a Series name, a dict key or value, a list element,
an estimator parameter, a class, a subclass of every builtin container, a library class whose
method was replaced. The DataLoader exception (its dataset runs, within its limit) is proven in
test_gather_budget.py.
"""

import json
import time
from pathlib import Path

import jsonschema
import numpy as np
import pandas as pd
import pytest

from crane_llm.kernel.entry import gather

from .hostile_zoo import ARMED, CALLS, WHERE, make_class

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "crane_llm" / "schema" / "check-result.json").read_text())
BUDGET = 2.0


class _Plain:
    """What each hostile object is while the zoo is built (pandas and dicts hash and probe it)."""


def _zoo(mode):
    hostile = make_class(mode)
    made = []

    def H():
        made.append(_Plain())
        return made[-1]

    containers = {
        "h_" + base.__name__: make_class(mode, base, "Hostile" + base.__name__.title())
        for base in (list, dict, str, int, float, tuple, set, frozenset, bytes)
    }
    values = {}
    for name, cls in containers.items():
        try:
            values[name] = cls()
        except Exception:
            values[name] = None
    ns = {
        "obj": H(),
        "cls": hostile,
        "labels_frame": pd.DataFrame([[1, 2], [3, 4]], columns=pd.Index([H(), H()], dtype=object)),
        "mixed_labels": pd.DataFrame({"a": [1, 2], 3: [1.0, 2.0]}).set_axis(["a", H()], axis=1),
        "index_frame": pd.DataFrame({"a": [1, 2]}, index=pd.Index([H(), H()], dtype=object)),
        "values_frame": pd.DataFrame({"a": pd.array([H(), H()], dtype=object), "n": [1, 2]}),
        "named_series": pd.Series([1, 2], name=H()),
        "object_series": pd.Series([H(), H(), None], dtype=object),
        "keyed": {H(): H(), "x": H()},
        "numbers_keyed": {H(): 1, H(): 2.0},
        "elements": [H(), 1, "a"],
        "flat": [H()] * 3,
        "nested": [[H()], (H(),), {"k": H()}],
        "tup": (H(), H()),
        "array_of_objects": np.array([H(), H()], dtype=object),
        **values,
    }
    try:
        from sklearn.base import BaseEstimator
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import Pipeline

        est = LogisticRegression()
        est.C = H()
        est.coef_ = H()  # looks fitted: every fitted-state field is a hostile object
        est.n_features_in_ = H()
        ns["est"] = est
        ns["user_estimator"] = make_class(mode, BaseEstimator, "UserEstimator")()
        pipe = Pipeline([("a", LogisticRegression())])
        pipe.steps.append(("b", H()))
        ns["pipe"] = pipe
    except ImportError:
        pass
    try:
        ns["array_subclass"] = np.zeros(3).view(make_class(mode, np.ndarray, "HostileArray"))
    except Exception:
        pass
    try:
        import torch
        from torch.utils.data import DataLoader, Subset, TensorDataset

        data = TensorDataset(torch.zeros(4, 2), torch.arange(4))
        data.note = H()  # a field of the dataset: listed by its type name only
        ns["loader"] = DataLoader(data, batch_size=2)
        ns["subset"] = Subset(data, [0, 1])
        ns["tensor"] = torch.zeros(2, 3)
    except ImportError:
        pass
    for o in made:  # now every one of them is hostile, wherever it sits
        object.__setattr__(o, "__class__", hostile)
    return ns


def _cell(namespace):
    """Every zoo name read, then the forms the checks and the runtime information handle."""
    return ("print(" + ", ".join(namespace) + ")\n"
            "obj.attr\nlen(h_list)\nlabels_frame['a']\nkeyed['x']\nest.predict(labels_frame)\n")


def _check(source, namespace):
    started = time.monotonic()
    CALLS.clear()
    WHERE.clear()
    ARMED[0] = True
    try:
        reply = gather({"protocol": 1, "source": source, "cellId": None, "useLlm": True, "includeRuntimeInfo": True,
                        "budgetSeconds": BUDGET}, namespace)
    finally:
        ARMED[0] = False
    return reply, time.monotonic() - started


@pytest.mark.parametrize("mode", ["count", "raise", "sleep"])
def test_no_user_code_runs_and_no_check_overruns(mode):
    namespace = _zoo(mode)
    reply, seconds = _check(_cell(namespace), namespace)
    assert CALLS == [], "\n".join(sorted(set(WHERE)))
    assert seconds < BUDGET + 1
    jsonschema.Draft202012Validator(SCHEMA).validate(reply)
    summaries = {v["name"]: v["summary"] for v in (reply["runtimeInfo"] or {"variables": []})["variables"]}
    assert set(summaries) == set(namespace)
    kinds = {s["kind"] for s in summaries.values()}
    # every kind of the README's table that these objects reach is still summarised, not given up
    expected = {"object", "class", "dataframe", "series", "dict", "dict-numbers", "sequence", "ndarray", "sklearn-estimator"}
    if "loader" in namespace:
        expected |= {"dataloader", "torch-subset", "tensor"}
    assert kinds >= expected, kinds
    text = json.dumps(reply)
    assert "hostile" not in text  # no repr, str or format of a user object reached the reply


@pytest.mark.parametrize("mode", ["count", "sleep"])
def test_one_name_at_a_time(mode):
    """Each variable alone, so one hook reached early cannot hide the others."""
    namespace = _zoo(mode)
    slow = []
    for name in namespace:
        reply, seconds = _check("%s\n%s.shape\nlen(%s)\n%s[0]\n" % (name, name, name, name), namespace)
        assert CALLS == [], (name, sorted(set(WHERE)))
        if seconds >= BUDGET + 1:
            slow.append((name, seconds))
    assert slow == []
