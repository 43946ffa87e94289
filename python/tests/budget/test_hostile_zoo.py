"""The hostile-object zoo: no user code runs while a check reads these objects (the count stays 0),
and no check exceeds its time budget even when every hook would sleep 10 s.

Each object sits where the runtime information and the checks meet user data: as a variable, a
DataFrame column label, index label or value, a Series name, a dict key or value, a list element,
an estimator parameter, a class, a subclass of every builtin container, a library class whose
method was replaced. The DataLoader exception (its dataset runs, within its limit) is proven in
test_gather_budget.py.
"""

import json
import sys
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


class _Counted:
    """Counts what pandas' attrs propagation, `copy` and hashing would call."""

    def __deepcopy__(self, memo):
        if ARMED[0]:
            CALLS.append("__deepcopy__")
        return self

    def __copy__(self):
        if ARMED[0]:
            CALLS.append("__copy__")
        return self


def _library_paths_namespace():
    frame = pd.DataFrame({"a": [1.0, 2.0], "t": ["x", "y"]})
    frame.attrs["note"] = _Counted()
    series = pd.Series(pd.arrays.SparseArray([0, 1, 0]))
    series.attrs["note"] = _Counted()
    plain = pd.DataFrame({"a": [1.0, 2.0]})
    plain.attrs["source"] = {"file": "data.csv", "rows": [1, 2]}  # plain data: summarised as usual
    return {"frame": frame, "series": series, "plain": plain, "sparse": pd.Series(pd.arrays.SparseArray([0, 1, 0]))}


def test_frame_attrs_are_not_copied():
    """pandas deep-copies `attrs` into every frame it derives (a column, a sample): a frame whose
    attrs hold a notebook's objects is not read; one with plain attrs still is."""
    namespace = _library_paths_namespace()
    reply, _ = _check("frame\nseries\nplain\n", namespace)
    assert CALLS == [], "\n".join(sorted(set(WHERE)))
    kinds = {v["name"]: v["summary"]["kind"] for v in reply["runtimeInfo"]["variables"]}
    assert kinds == {"frame": "unavailable", "series": "unavailable", "plain": "dataframe"}


def test_a_notebook_abc_hook_stops_library_reads():
    """`isinstance(x, Mapping)` inside pandas calls the `__subclasshook__` of every Mapping subclass
    a notebook defined: with one defined, no library code is run on the variables, and the checks
    claim nothing (the twin without the hook summarises and claims)."""
    import collections.abc

    namespace = _library_paths_namespace()
    del namespace["frame"], namespace["series"]
    source = "sparse\nplain['zz']\n"
    reply, _ = _check(source, namespace)
    assert reply["checks"]["crash"]["exception"] == "KeyError"
    twin, _ = _check("sparse\n", namespace)
    assert {v["summary"]["kind"] for v in twin["runtimeInfo"]["variables"]} == {"series"}

    class NotebookMapping(collections.abc.Mapping):
        __getitem__ = __len__ = __iter__ = None

        @classmethod
        def __subclasshook__(cls, other):
            if ARMED[0]:
                CALLS.append("__subclasshook__")
            return NotImplemented

    try:
        reply, _ = _check(source, namespace)
        assert CALLS == [], "\n".join(sorted(set(WHERE)))
        assert reply["checks"]["crash"] is None
        assert "__subclasshook__" in reply["checks"]["stoppedAt"]["reason"]
        summary = _check("sparse\n", namespace)[0]["runtimeInfo"]["variables"][0]["summary"]
        assert summary["kind"] == "unavailable" and "__subclasshook__" in summary["reason"]
    finally:
        # The class stays a Mapping subclass as long as anything refers to it: without its own
        # hook it is harmless to the tests that follow.
        del NotebookMapping.__subclasshook__


def test_a_trace_function_does_not_run_during_a_check():
    """A notebook's `sys.settrace` function would run with every line of the check: it is taken off
    while the check runs (and put back), and the checks claim nothing (it runs with the cell too)."""
    import sys

    def tracer(frame, event, arg):
        if ARMED[0]:
            CALLS.append(frame.f_code.co_name)
        return None

    namespace = _library_paths_namespace()
    sys.settrace(tracer)
    try:
        reply, _ = _check("plain['zz']\n", namespace)
        after = sys.gettrace()
    finally:
        sys.settrace(None)
    assert after is tracer
    assert CALLS == ["gather"]  # the call into the check itself, before it takes the function off
    assert reply["checks"]["crash"] is None and "trace" in reply["checks"]["stoppedAt"]["reason"]


@pytest.mark.skipif(not hasattr(sys, "monitoring"), reason="sys.monitoring is new in Python 3.12")
def test_monitoring_callbacks_do_not_run_during_a_check():
    """A notebook's `sys.monitoring` tool fires with every call and line of the check: its callbacks
    are unregistered while the check runs (the tool stays, its events stay set) and registered
    again after; one that registers itself again when it first fires is taken off too."""
    monitoring = sys.monitoring
    tool = 4  # a free tool id (0 debugger, 1 coverage, 2 profiler, 5 optimizer)
    events = monitoring.events
    seen = []

    def on_start(code, offset):
        if ARMED[0]:
            seen.append(code.co_name)
            monitoring.register_callback(tool, events.CALL, on_call)  # comes back, as an attacker would

    def on_call(code, offset, callable_, arg0):
        if ARMED[0]:
            seen.append(code.co_name)  # the code making the call

    namespace = _library_paths_namespace()
    monitoring.use_tool_id(tool, "notebook-tool")
    try:
        monitoring.register_callback(tool, events.PY_START, on_start)
        monitoring.register_callback(tool, events.CALL, on_call)
        monitoring.set_events(tool, events.PY_START | events.CALL)
        reply, _ = _check("plain['zz']\n", namespace)
        back = (monitoring.register_callback(tool, events.PY_START, None),
                monitoring.register_callback(tool, events.CALL, None))
        events_after = monitoring.get_events(tool)
    finally:
        monitoring.set_events(tool, 0)
        monitoring.free_tool_id(tool)
    # only around the call into the check and the helpers that take them off and put them back
    assert seen and set(seen) <= {"_check", "gather", "take_off_callbacks", "put_back_callbacks"}, seen
    assert back == (on_start, on_call) and events_after == events.PY_START | events.CALL
    assert reply["checks"]["crash"] is None and "trace" in reply["checks"]["stoppedAt"]["reason"]


def test_a_c_level_profiler_stays_on():
    """cProfile's profiler is no notebook code and cannot be put back through `sys`: it is left
    on (the checks still claim nothing under it), and the check completes."""
    import cProfile
    import sys

    def still_on():
        # (from Python 3.12 cProfile is a `sys.monitoring` tool, not a profile function)
        monitoring = getattr(sys, "monitoring", None)
        if monitoring is not None:
            return monitoring.get_tool(monitoring.PROFILER_ID) == "cProfile"
        return sys.getprofile() is profiler

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        reply, _ = _check("undefined_name\n", {})
        after = still_on()
    finally:
        profiler.disable()
    assert after
    assert reply["checks"]["crash"] is None and "trace" in reply["checks"]["stoppedAt"]["reason"]


@pytest.mark.parametrize("mode", ["count", "raise"])
def test_rebinding_or_deleting_a_zoo_name_runs_nothing(mode):
    """Whether freeing the old object may run code (`__del__`, weak-reference callbacks) is read
    without running any of it, and the reading stops there (the crash after it is not claimed)."""
    namespace = _zoo(mode)
    for name in namespace:
        for cell in ("%s = 0\nundefined_q\n" % name, "del %s\nundefined_q\n" % name):
            reply, _ = _check(cell, namespace)
            assert CALLS == [], (name, sorted(set(WHERE)))
