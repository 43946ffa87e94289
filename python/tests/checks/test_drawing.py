"""pyplot: the drawing catalogue the checker goes on past, proven by snapshots of real calls, and
the guards that make it stop (patched matplotlib, a window-opening backend); `plt.imshow` of an
impossible shape from recorded facts (replay) as from live arrays."""

from __future__ import annotations

import pickle

import pytest

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("agg")
plt = pytest.importorskip("matplotlib.pyplot")

from crane_llm.checks import run_checks, run_checks_on_facts  # noqa: E402
from crane_llm.checks.rules.drawing import _passable  # noqa: E402

# Every catalogue entry, called as a notebook would.
CATALOGUE = [
    "plt.figure()", "plt.figure(figsize=(10, 6))", "plt.figure(figsize=(4.5, 3), dpi=80)",
    "plt.title('a title')", "plt.title('t', fontsize=14)", "plt.xlabel('x')", "plt.ylabel('y', fontsize=9)",
    "plt.suptitle('s')", "plt.legend()", "plt.tight_layout()", "plt.axis('off')", "plt.axis('equal')",
    "plt.grid()", "plt.grid(True)", "plt.show()", "plt.show(block=False)", "plt.close()",
]


def _user_namespace():
    return {"plt": plt, "np": np, "pd": pd, "a": np.arange(6.0).reshape(2, 3),
            "df": pd.DataFrame({"x": [1, 2], "y": ["p", "q"]}), "items": [1, [2, 3], {"k": "v"}], "n": 3}


def _snapshot(ns):
    return {k: pickle.dumps(v) for k, v in ns.items() if k not in ("plt", "np", "pd", "__builtins__")}


@pytest.mark.parametrize("cell", CATALOGUE)
def test_catalogue_call_changes_no_user_value(cell):
    ns = _user_namespace()
    before = _snapshot(ns)
    keys = set(ns)
    exec(compile(cell, "<cell>", "exec"), ns)  # a real call: it must not raise
    ns.pop("__builtins__", None)
    ns.pop("__warningregistry__", None)  # Python's record of warnings shown (legend() with no labels warns)
    assert set(ns) == keys and _snapshot(ns) == before
    plt.close("all")


@pytest.mark.parametrize("cell", CATALOGUE)
def test_catalogue_call_is_passed_over(cell):
    # Past the drawing call, the reading reaches the crash below it.
    o = run_checks(cell + "\na + np.ones(4)", _user_namespace())
    assert o.crash is not None and o.crash.exception == "ValueError" and o.crash.line == 2, o
    plt.close("all")


@pytest.mark.parametrize("cell", ["plt.title('$x^')", "plt.figure(figsize='big')", "plt.axis('sideways')",
                                  "plt.title(title_var)", "plt.xlabel('x', fontsize='huge')", "plt.figure(1)",
                                  "plt.scatter(a, a)"])
def test_outside_the_catalogue_the_reading_stops(cell):
    ns = dict(_user_namespace(), title_var=object())
    o = run_checks(cell + "\na + np.ones(4)", ns)
    assert o.crash is None and o.stopped_at is not None and o.stopped_at.line == 1


def test_catalogue_rejects_hostile_argument_types():
    class Sneaky(str):
        def __eq__(self, other):
            raise RuntimeError("ran")

    assert not _passable("axis", [Sneaky("off")], {})
    assert not _passable("figure", [], {"figsize": [4, 3]})


def test_patched_pyplot_helper_stops_the_reading(monkeypatch):
    monkeypatch.setitem(plt.__dict__, "gca", lambda: None)
    o = run_checks("plt.title('t')\na + np.ones(4)", _user_namespace())
    assert o.crash is None and o.stopped_at.line == 1


def test_patched_axes_method_stops_the_reading(monkeypatch):
    from matplotlib.axes import Axes

    monkeypatch.setattr(Axes, "set_title", lambda self, *a, **k: None)
    o = run_checks("plt.title('t')\na + np.ones(4)", _user_namespace())
    assert o.crash is None and o.stopped_at.line == 1


def test_window_backend_stops_the_reading():
    saved = dict.get(matplotlib.rcParams, "backend")
    dict.__setitem__(matplotlib.rcParams, "backend", "TkAgg")  # as a GUI kernel would have it, unvalidated
    try:
        o = run_checks("plt.title('t')\na + np.ones(4)", _user_namespace())
    finally:
        dict.__setitem__(matplotlib.rcParams, "backend", saved)
    assert o.crash is None and o.stopped_at.line == 1


RECORDED = {"adv": {"dtype": "float32", "has_nan": False, "shape": (3, 224, 224), "type": "numpy.ndarray",
                    "value_range": (-2.1, 2.4)},
            "plt": {"type": "<class 'module'>"}}


def test_imshow_of_channels_first_from_recorded_facts():
    o = run_checks_on_facts("plt.imshow(adv)", RECORDED, executed=["import matplotlib.pyplot as plt\nadv = f()"])
    assert o.crash is not None and o.crash.exception == "TypeError" and o.crash.rule == "image-shape"
    with pytest.raises(TypeError, match="Invalid shape"):
        plt.imshow(np.zeros((3, 224, 224), dtype=np.float32))  # what the recorded array does for real
    plt.close("all")


def test_imshow_of_an_image_from_recorded_facts_is_no_claim():
    facts = dict(RECORDED, adv=dict(RECORDED["adv"], shape=(224, 224, 3)))
    o = run_checks_on_facts("plt.imshow(adv)", facts, executed=["import matplotlib.pyplot as plt\nadv = f()"])
    assert o.crash is None
    plt.imshow(np.zeros((224, 224, 3), dtype=np.float32))
    plt.close("all")


def test_imshow_without_a_recorded_dtype_is_unknown():
    facts = {"adv": {"shape": (3, 224, 224), "type": "numpy.ndarray"}}
    o = run_checks_on_facts("plt.imshow(adv)", facts, executed=["import matplotlib.pyplot as plt\nadv = f()"])
    assert o.crash is None
