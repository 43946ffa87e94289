"""Collecting never changes a variable, never runs user code, never moves an RNG, never imports."""

import copy
import json
import pickle
import random
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays, scalar_dtypes

from .helpers import validate
from crane_llm.runinfo import collect

torch = pytest.importorskip("torch")


# -- hostile objects ------------------------------------------------------------------------------

class Tripwire:
    """Records every special method or attribute access that reaches user code once armed.

    Library subclasses (DataFrame, Tensor...) must be constructible, so until `armed` is set the
    hostile members behave as the base class's own.
    """

    calls = []
    armed = False


def _base_member(base, name):
    for klass in base.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


def _hostile_class(base, behaviour):
    def trip(name, is_property=False):
        def member(self, *args, **kwargs):
            if not Tripwire.armed:
                original = _base_member(base, name)
                if original is None:
                    raise AttributeError(args[0] if args else name)
                if is_property:
                    return original.__get__(self, type(self))
                return original(self, *args, **kwargs)
            Tripwire.calls.append((base.__name__, name))
            if behaviour == "raise":
                raise RuntimeError("user code ran: " + name)
            if behaviour == "sleep":
                time.sleep(0.5)
            return 0 if name in ("__len__", "__hash__") else "x"
        return member

    names = ("__len__", "__repr__", "__str__", "__getattr__", "__iter__", "__getitem__", "__eq__", "__hash__",
             "__format__", "__bool__", "__contains__", "__sklearn_is_fitted__")
    namespace = {name: trip(name) for name in names}
    for prop in ("shape", "dtype", "element_spec", "columns", "dtypes", "values", "__dict__"):
        namespace[prop] = property(trip(prop, is_property=True))
    namespace["__module__"] = __name__
    return type("Hostile" + base.__name__.title() + behaviour.title(), (base,), namespace)


def _hostile_objects(behaviour):
    out = {}
    for base in (object, list, dict, tuple, set, str, int, Exception):
        cls = _hostile_class(base, behaviour)
        if base is dict:
            out["h_dict"] = cls(a=1, b=[1, 2])
        elif base in (list, tuple, set):
            out["h_" + base.__name__] = cls([1, 2, 3])
        elif base is str:
            out["h_str"] = cls("text")
        elif base is int:
            out["h_int"] = cls(5)
        else:
            out["h_" + base.__name__.lower()] = cls()
    out["h_frame"] = _hostile_class(pd.DataFrame, behaviour)({"a": [1, 2]})
    out["h_array"] = np.array([1, 2]).view(_hostile_class(np.ndarray, behaviour))
    out["h_tensor"] = torch.zeros(2).as_subclass(_hostile_class(torch.Tensor, behaviour))
    out["h_series"] = _hostile_class(pd.Series, behaviour)([1, 2])
    out["h_inlist"] = [_hostile_class(object, behaviour)(), 1]  # a list holding a hostile element
    out["h_indict"] = {"k": _hostile_class(object, behaviour)()}
    out["h_incol"] = pd.DataFrame({"c": [_hostile_class(object, behaviour)(), 1]})
    from sklearn.base import BaseEstimator

    out["h_estimator"] = _hostile_class(BaseEstimator, behaviour)()
    return out


@pytest.mark.parametrize("behaviour", ["raise", "sleep", "record"])
def test_hostile_objects_are_never_called(behaviour):
    ns = _hostile_objects(behaviour)
    # The once-a-process reads (pandas' class audit, NumPy's namespaces) are made first, so that the
    # time below is the hostile objects' alone: one hook that slept would cost 0.5 s of it.
    collect("frame\narray", {"frame": pd.DataFrame({"a": [1]}), "array": np.zeros(2)})
    Tripwire.calls.clear()
    Tripwire.armed = True
    try:
        started = time.perf_counter()
        info = collect("\n".join(ns), ns)
    finally:
        Tripwire.armed = False
    validate(info)
    assert Tripwire.calls == []
    assert time.perf_counter() - started < 1.0  # nothing slept
    by_name = {v["name"]: v for v in info["variables"]}
    assert set(by_name) == set(ns)
    assert all(v["summary"]["kind"] != "unavailable" for v in by_name.values()), by_name
    assert by_name["h_list"]["summary"] == {"kind": "sequence", "type": "list", "length": 3}
    assert by_name["h_dict"]["summary"]["length"] == 2
    assert by_name["h_frame"]["summary"] == {"kind": "object"}  # a user subclass: type only
    assert by_name["h_incol"]["summary"]["columns"][0]["distinct"] is None


def test_the_users_alarm_and_handler_survive():
    import signal

    def mine(signum, frame):
        pass

    old = signal.signal(signal.SIGALRM, mine)
    signal.setitimer(signal.ITIMER_REAL, 50.0)
    try:
        collect("a", {"a": 1})
        assert signal.getsignal(signal.SIGALRM) is mine
        remaining = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 45 < remaining <= 50
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_generators_and_iterators_are_not_consumed():
    gen = (i for i in range(3))
    it = iter([1, 2, 3])
    info = collect("gen, it", {"gen": gen, "it": it})
    assert [v["summary"]["kind"] for v in info["variables"]] == ["object", "object"]
    assert list(gen) == [0, 1, 2] and list(it) == [1, 2, 3]


# -- libraries are never imported --------------------------------------------------------------------

def test_collect_imports_no_library_the_user_has_not_imported():
    script = (
        "import sys, json\n"
        f"sys.path.insert(0, {str(__import__('pathlib').Path(__file__).resolve().parents[2])!r})\n"
        "from crane_llm.runinfo import collect\n"
        "before = set(sys.modules)\n"
        "class Thing: pass\n"
        "ns = {'a': [1, 2.5, 'x'], 'b': {'k': [1.0, 2.0]}, 'c': Thing(), 'd': 'text', 'e': (1,), 'f': len}\n"
        "info = collect('a, b, c, d, e, f', ns)\n"
        "heavy = {'numpy', 'pandas', 'torch', 'tensorflow', 'keras', 'sklearn'}\n"
        "print(json.dumps(sorted(m for m in set(sys.modules) - before if m.split('.')[0] in heavy)))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


# -- property: nothing changes ------------------------------------------------------------------------

def _rng_states():
    return (random.getstate(), pickle.dumps(np.random.get_state()), torch.get_rng_state().clone())


def _snapshot(value):
    if isinstance(value, np.ndarray):
        return ("nd", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, pd.DataFrame):
        return ("df", pickle.dumps(value), value.to_numpy().tobytes() if value.dtypes.map(lambda d: d.kind in "iufb").all() else None)
    if isinstance(value, pd.Series):
        return ("s", pickle.dumps(value))
    if isinstance(value, torch.Tensor):
        return ("t", value.detach().numpy().tobytes(), value.requires_grad, value.grad)
    return ("py", pickle.dumps(copy.deepcopy(value)))


scalars = st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=30), st.booleans(), st.none())
flat_lists = st.lists(st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.sampled_from(["a", "b"])), max_size=50)
values = st.one_of(
    scalars,
    flat_lists,
    st.dictionaries(st.text(max_size=5), st.one_of(scalars, st.lists(st.floats(allow_nan=False), min_size=1, max_size=4)), max_size=8),
    st.tuples(scalars, scalars),
    arrays(scalar_dtypes(), array_shapes(max_dims=3, max_side=6)),
    arrays(np.float64, st.integers(0, 40), elements=st.floats(allow_nan=True, allow_infinity=True)),
    st.builds(lambda xs: pd.Series(xs), flat_lists),
    st.builds(lambda a, b: pd.DataFrame({"a": a[: len(b)], "b": b[: len(a)]}),
              st.lists(st.floats(allow_nan=True), max_size=20), st.lists(st.sampled_from(["x", "y", None]), max_size=20)),
    st.builds(lambda xs, grad: torch.tensor(xs, dtype=torch.float32, requires_grad=grad),
              st.lists(st.one_of(st.floats(-1e6, 1e6), st.just(float("nan"))), max_size=10), st.booleans()),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), values, min_size=1))
def test_collecting_changes_nothing(namespace):
    random.seed(7), np.random.seed(7), torch.manual_seed(7)
    before = {k: _snapshot(v) for k, v in namespace.items()}
    rng_before = _rng_states()
    info = validate(collect("\n".join(namespace), namespace))
    assert {k: _snapshot(v) for k, v in namespace.items()} == before
    after = _rng_states()
    assert after[0] == rng_before[0] and after[1] == rng_before[1] and torch.equal(after[2], rng_before[2])
    assert [v["name"] for v in info["variables"]] == list(namespace)


def test_dataloader_collection_changes_nothing_and_restores_rngs():
    from torch.utils.data import DataLoader, Dataset

    class Augmenting(Dataset):
        def __init__(self):
            self.data = torch.arange(40, dtype=torch.float32).reshape(20, 2)

        def __len__(self):
            return 20

        def __getitem__(self, i):
            return self.data[i] + torch.randn(2) + float(np.random.rand()) + random.random()

    loader = DataLoader(Augmenting(), batch_size=4, shuffle=True)
    before = loader.dataset.data.clone()
    rng_before = _rng_states()
    collect("loader", {"loader": loader})
    after = _rng_states()
    assert after[0] == rng_before[0] and after[1] == rng_before[1] and torch.equal(after[2], rng_before[2])
    assert torch.equal(loader.dataset.data, before)
    first_batch = next(iter(loader))  # the loader itself is untouched and still iterates from the start
    assert first_batch.shape == (4, 2)
