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
    "plt.suptitle('s')", "plt.legend()", "plt.axis('off')", "plt.axis('equal')",
    "plt.grid()", "plt.grid(True)", "plt.close()",
]
# (`plt.tight_layout()` and `plt.show()` draw the figure: fonts, formatters, the notebook's log
# handlers; they are not in the catalogue, test_drawing_renders.py)


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


@pytest.mark.parametrize("module, name, method", [("matplotlib.ticker", "FixedFormatter", "get_offset"),
                                                  ("matplotlib.axis", "XAxis", "set_label_position")])
def test_patched_tick_class_stops_the_display_labels_claim(monkeypatch, module, name, method):
    """A class ConfusionMatrixDisplay.plot() drives beyond pyplot's own (its tick labels'): patched,
    the display-labels claim stands aside."""
    import importlib

    metrics = pytest.importorskip("sklearn.metrics")
    ns = dict(_user_namespace(), ConfusionMatrixDisplay=metrics.ConfusionMatrixDisplay,
              cm3=np.array([[5, 1, 0], [0, 4, 2], [1, 0, 6]]))
    cell = "ConfusionMatrixDisplay(confusion_matrix=cm3, display_labels=[False, True]).plot()"
    assert run_checks(cell, ns).crash.exception == "ValueError"
    # (a method of the class's own dictionary: monkeypatch's undo would leave an inherited one in it)
    monkeypatch.setattr(getattr(importlib.import_module(module), name), method, lambda self, *a: None)
    o = run_checks(cell, ns)
    assert o.crash is None and o.stopped_at.line == 1
    plt.close("all")


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


# scatter calls the reading passes over: integer points, sizes and colours of their length.
SCATTERS = ["plt.scatter(xi, yi)", "plt.scatter(xi, yi, si, c=ci, cmap='viridis')",
            "plt.scatter(xi, yi, s=5, c='red', marker='x', alpha=0.5)", "plt.scatter(xi, yi, 30, c=ci)"]


def _points():
    ns = _user_namespace()
    ns.update(xi=np.arange(20), yi=np.arange(20) * 2, si=np.arange(20) + 1, ci=np.arange(20) % 3)
    return ns


@pytest.mark.parametrize("cell", SCATTERS)
def test_scatter_of_integer_points_changes_no_user_value(cell):
    ns = _points()
    before = _snapshot(ns)
    keys = set(ns)
    exec(compile(cell, "<cell>", "exec"), ns)
    ns.pop("__builtins__", None)
    ns.pop("__warningregistry__", None)
    assert set(ns) == keys and _snapshot(ns) == before
    plt.close("all")
    o = run_checks(cell + "\na + np.ones(4)", _points())
    assert o.crash is not None and o.crash.line == 2, o
    plt.close("all")


@pytest.mark.parametrize("cell", ["plt.scatter(a[0], a[1])", "plt.scatter(xi[:4], yi[:4])",
                                  "plt.scatter(xi, yi, c=ci, cmap=name)", "plt.scatter(xi, yi, c=ci, cmap='Pastel9')",
                                  "plt.scatter(xi, yi, edgecolors='k')", "plt.scatter(xi, yi, c=[1] * 20)"])
def test_other_scatters_stop_the_reading(cell):
    o = run_checks(cell + "\na + np.ones(4)", dict(_points(), name="not_a_map"))
    assert o.crash is None and o.stopped_at is not None and o.stopped_at.line == 1, o


# JunoBench matplotlib_5: K-Means points drawn, then the centroids with a third positional and `s=`.
KMEANS = {"X": {"dtype": "int64", "has_nan": False, "shape": (768, 3), "type": "numpy.ndarray"},
          "centriods": {"dtype": "float64", "has_nan": False, "shape": (3, 3), "type": "numpy.ndarray"},
          "labels": {"dtype": "int32", "has_nan": False, "shape": (768,), "type": "numpy.ndarray"},
          "plt": {"type": "<class 'module'>"}}
KMEANS_CELL = ("plt.scatter(X[:,0], X[:,1], X[:,2], c = labels, cmap = 'viridis')\n"
               "plt.scatter(centriods[:,0], centriods[:,1], centriods[:,2], marker = 'X', s = 200, c = 'red')\n"
               "plt.title('K-Means Clustering')\nplt.show()")
KMEANS_EXECUTED = ["import numpy as np\nimport matplotlib.pyplot as plt\nX = f()\nlabels = g(X)\ncentriods = h(X)"]


def test_scatter_given_s_twice_from_recorded_facts():
    o = run_checks_on_facts(KMEANS_CELL, KMEANS, executed=KMEANS_EXECUTED)
    assert o.crash is not None and o.crash.exception == "TypeError" and o.crash.line == 2, o
    assert "multiple values for argument 's'" in o.crash.message
    rng = np.random.default_rng(0)
    ns = {"plt": plt, "X": rng.integers(0, 846, (768, 3)), "labels": rng.integers(0, 3, 768).astype(np.int32),
          "centriods": rng.random((3, 3))}
    with pytest.raises(TypeError, match="multiple values for argument 's'") as raised:
        exec(compile(KMEANS_CELL, "<cell>", "exec"), ns)  # what the recorded arrays do for real
    assert raised.traceback[1].lineno + 1 == 2  # (the cell's own frame, line 2)
    fixed = KMEANS_CELL.replace("centriods[:,2], ", "")
    assert run_checks_on_facts(fixed, KMEANS, executed=KMEANS_EXECUTED).crash is None
    exec(compile(fixed, "<cell>", "exec"), ns)
    plt.close("all")


def test_scatter_of_float_points_from_recorded_facts_is_not_passed():
    facts = dict(KMEANS, X=dict(KMEANS["X"], dtype="float64"))  # a float may be NaN or infinite
    o = run_checks_on_facts(KMEANS_CELL, facts, executed=KMEANS_EXECUTED)
    assert o.crash is None and o.stopped_at.line == 1


def _user_axes_namespace(**overrides):
    # An earlier cell's figure whose current Axes is the notebook's own subclass: pyplot's calls go
    # through its methods, so they are user code.
    from matplotlib.axes import Axes

    class LoudAxes(Axes):
        def set_title(self, *args, **kwargs):
            raise RuntimeError("the notebook's own set_title ran")

    fig = plt.figure()
    fig.add_subplot(axes_class=LoudAxes)
    return dict(_user_namespace(), fig=fig, **overrides)


def test_an_open_figure_with_the_notebooks_own_axes_stops_the_reading():
    cell = "plt.title('t')\na + np.ones(4)"
    ns = _user_axes_namespace()
    try:
        o = run_checks(cell, ns)
        assert o.crash is None and o.stopped_at is not None and o.stopped_at.line == 1, o
        with pytest.raises(RuntimeError, match="own set_title"):  # what really happens: line 1 raises
            exec(compile(cell, "<cell>", "exec"), dict(ns))
    finally:
        plt.close("all")


def test_with_no_figure_open_the_same_cell_is_still_claimed():
    plt.close("all")
    o = run_checks("plt.title('t')\na + np.ones(4)", _user_namespace())
    assert o.crash is not None and o.crash.exception == "ValueError" and o.crash.line == 2
    with pytest.raises(ValueError):
        exec(compile("plt.title('t')\na + np.ones(4)", "<cell>", "exec"), _user_namespace())
    plt.close("all")


def _moved(cls_path, key, source_key):
    """Put the generated method `source_key` of a matplotlib class at `key` (as a notebook could)."""
    import importlib

    modname, cname = cls_path.rsplit(".", 1)
    cls = getattr(importlib.import_module(modname), cname)
    owner = next(k for k in cls.__mro__ if source_key in k.__dict__)
    return cls, owner.__dict__[source_key]


# matplotlib's generated methods call another by name: `Text.set_c` calls `self.set_color`, the axis
# wrapper `get_xgridlines` calls `self.xaxis.get_gridlines`. Moved to the key `plt.title` reaches,
# they make line 1 raise; the checker must not pass over it and claim line 2.
MOVED = [("matplotlib.text.Text", "set_text", "set_c", ValueError),
         ("matplotlib.axes.Axes", "set_title", "get_xgridlines", TypeError)]


@pytest.mark.parametrize("cls_path,key,source_key,raised", MOVED)
def test_a_generated_method_moved_to_another_key_stops_the_reading(monkeypatch, cls_path, key, source_key, raised):
    cell = "plt.title('t')\na + np.ones(4)"
    plt.close("all")
    cls, moved = _moved(cls_path, key, source_key)
    monkeypatch.setattr(cls, key, moved)
    o = run_checks(cell, _user_namespace())
    assert o.crash is None and o.stopped_at is not None and o.stopped_at.line == 1, o
    with pytest.raises(raised):  # what really happens: line 1 raises
        exec(compile(cell, "<cell>", "exec"), _user_namespace())
    plt.close("all")


def test_generated_methods_in_their_own_places_are_the_librarys():
    """The twin: every generated alias and axis wrapper as matplotlib made them is accepted (the
    claim above, `test_with_no_figure_open_the_same_cell_is_still_claimed`, depends on it)."""
    from matplotlib.axes._base import _AxesBase
    from matplotlib.text import Text

    from crane_llm.checks import provenance
    from crane_llm.checks.library_code import class_generated_names

    aliases, _, _ = class_generated_names(list(Text.__dict__.values()), "Text")
    assert aliases["set_c"] == "set_color" and aliases["get_size"] == "get_fontsize"
    aliases, wrappers, _ = class_generated_names(list(_AxesBase.__dict__.values()), "_AxesBase")
    assert aliases["set_fc"] == "set_facecolor" and wrappers["get_xticks"] == "xaxis.get_ticklocs"
    assert provenance.own_type(Text, "matplotlib") and provenance.own_type(_AxesBase, "matplotlib")


def test_a_factory_made_getter_and_setter_stay_in_their_places(monkeypatch):
    """`get_view_interval, set_view_interval = _make_getset_interval("view", "viewLim", "intervalx")`
    in XAxis's body (ConfusionMatrixDisplay.plot's rule audits XAxis): the pair swapped, or YAxis's
    getter put in XAxis, or into the setter's closure, is not matplotlib's XAxis any more."""
    from matplotlib.axis import XAxis, YAxis

    from crane_llm.checks import provenance

    assert provenance.own_type(XAxis, "matplotlib")
    getter, setter = XAxis.__dict__["get_view_interval"], XAxis.__dict__["set_view_interval"]
    for key, value in (("get_view_interval", setter), ("set_view_interval", getter),
                       ("get_view_interval", YAxis.__dict__["get_view_interval"])):
        monkeypatch.setattr(XAxis, key, value)
        assert not provenance.own_type(XAxis, "matplotlib"), key
        monkeypatch.undo()
    cell = next(c for c in setter.__closure__ if callable(c.cell_contents))
    monkeypatch.setattr(cell, "cell_contents", YAxis.__dict__["get_view_interval"])
    assert not provenance.own_type(XAxis, "matplotlib")
    monkeypatch.undo()
    assert provenance.own_type(XAxis, "matplotlib")
