"""matplotlib's pyplot: drawing calls the checker goes on past, and images of an impossible shape.

A notebook cell often draws before the line that crashes. A pyplot call changes pyplot's own
current figure and axes, never a variable of the notebook nor an object a later line reads
through a name (the checker models nothing that reads pyplot's state back: `plt.gca()` and
friends stay unknown). So the calls of the catalogue below are passed over, on arguments of plain
constants that cannot make them raise. Each entry is proven by a test that snapshots the
namespace before and after a real call (`tests/checks/test_drawing.py`).

`plt.scatter(x, y, s, ...)` takes x, y, s and c positionally in every matplotlib (its later
parameters moved around between versions): the same one also given by keyword is a certain
TypeError ("got multiple values for argument 's'") when Python binds the call, before any of
pyplot's code runs, whatever the version the recording kernel had. A scatter of integer arrays of
one length (integers hold no NaN or infinity), sizes and colours of that length or plain ones, and
a colormap or marker of the few every version has, is passed over.

`plt.imshow(X)` with an ndarray that is neither 2-D nor 3-D with 1, 3 or 4 channels raises
TypeError ("Invalid shape ... for image data") once the image's data is set, as every matplotlib
from 2.0 on does; numeric dtypes only (others raise TypeError too, but from another check).

Everything holds only while pyplot and the classes it drives are matplotlib's own code, the
backend is one that draws off screen or inline, and warnings stay warnings.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from typing import Any, Dict, List

from ..static_reads import loaded_module, checked, class_dict
from ..abstract_values import Opaque, Value
from ..outcome import CertainCrash, Crash, Stop
from ..provenance import classes_pristine, instance_dict, own_module_function
from .library_state import library_state_plain
from .pyplot_settings import settings_plain

_PYPLOT = "matplotlib.pyplot"
# The pyplot functions the catalogue's entries call on their way (looked up in pyplot's globals).
_HELPERS = ("gca", "gcf", "figure", "_get_backend_mod", "new_figure_manager", "draw_if_interactive")
# The classes they drive, as (module, class name).
_CLASSES = (("matplotlib.figure", "Figure"), ("matplotlib.axes", "Axes"), ("matplotlib.image", "AxesImage"),
            ("matplotlib.text", "Text"), ("matplotlib.backend_bases", "FigureCanvasBase"),
            ("matplotlib.backend_bases", "FigureManagerBase"), ("matplotlib.legend", "Legend"),
            # (what making an Axes and setting its texts runs: axes, ticks, scales, fonts, grids, colours)
            ("matplotlib.axis", "Axis"), ("matplotlib.axis", "XAxis"), ("matplotlib.axis", "YAxis"),
            ("matplotlib.axis", "XTick"), ("matplotlib.axis", "YTick"), ("matplotlib.ticker", "ScalarFormatter"),
            ("matplotlib.ticker", "AutoLocator"), ("matplotlib.scale", "LinearScale"),
            ("matplotlib.font_manager", "FontProperties"), ("matplotlib.gridspec", "SubplotSpec"),
            ("matplotlib.gridspec", "GridSpec"), ("matplotlib.spines", "Spine"), ("matplotlib.colors", "Normalize"))
# Drawing the figure (`plt.show()` on the inline backend, `plt.tight_layout()`, `savefig`) runs far
# more: fonts, layout, every artist, logging to the notebook's handlers. Those calls are not passed over.
# Backends that draw to memory or inline into the notebook (a GUI backend may fail to open a window).
_BACKENDS = ("agg", "module://matplotlib_inline.backend_inline", "inline", "module://ipykernel.pylab.backend_inline")
_AXIS_WORDS = ("off", "on", "equal", "tight", "scaled", "auto", "image", "square")
_MAX_IMAGE = 10 ** 7
# pyplot.scatter's leading parameters, positional or keyword in every matplotlib from 1.x to today.
_SCATTER_PREFIX = ("x", "y", "s", "c")
# Colormaps, markers and colours that every matplotlib from 2.0 on knows.
_CMAPS = ("viridis", "plasma", "inferno", "magma", "jet", "gray", "hot", "cool", "coolwarm", "rainbow",
          "Blues", "Reds", "Greens", "Spectral")
_MARKERS = ("o", ".", "x", "X", "+", "*", "s", "^", "v", "D", "d", "p", "h")
_COLORS = ("red", "blue", "green", "black", "orange", "purple", "gray", "r", "g", "b", "k", "c", "m", "y")
_MAX_POINTS = 10 ** 6


def _number(c: Any) -> bool:
    return type(c) in (int, float) and 0 < c < 1e4


def _text(c: Any) -> bool:
    # `$` starts mathtext, which is parsed (and may fail) when the figure is drawn; a lone surrogate
    # (a file name decoded with `surrogateescape`) fails the text's own setter.
    if type(c) is not str or "$" in c or len(c) >= 10000:
        return False
    try:
        c.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _font_ok(kwargs: Dict[str, Any]) -> bool:
    return all(k == "fontsize" and _number(v) for k, v in kwargs.items())


def _passable(fname: str, args: List[Any], kwargs: Dict[str, Any]) -> bool:
    """Whether this call is in the catalogue: changes no variable and, on these arguments, never raises."""
    if fname == "figure":
        if args:
            return False
        for k, v in kwargs.items():
            if k == "figsize":
                if not (type(v) is tuple and len(v) == 2 and all(_number(x) for x in v)):
                    return False
            elif k == "dpi":
                if not (_number(v) and v <= 1000):
                    return False
            else:
                return False
        figsize = kwargs.get("figsize", (1, 1))
        return figsize[0] * figsize[1] * kwargs.get("dpi", 100) ** 2 <= 4e8
    if fname == "subplot":
        return (len(args) == 3 and not kwargs and all(type(a) is int for a in args) and 1 <= args[0] <= 100
                and 1 <= args[1] <= 100 and 1 <= args[2] <= args[0] * args[1])
    if fname in ("title", "xlabel", "ylabel", "suptitle"):
        return len(args) == 1 and _text(args[0]) and _font_ok(kwargs)
    if fname in ("legend", "close"):
        return not args and not kwargs
    if fname == "axis":
        return len(args) == 1 and type(args[0]) is str and args[0] in _AXIS_WORDS and not kwargs
    if fname == "grid":
        return len(args) <= 1 and all(type(a) is bool for a in args) and not kwargs
    return False


def pyplot_plain(interp, node) -> bool:
    """pyplot's helpers and the classes they drive are matplotlib's own; the backend draws off screen."""
    ok = interp.memo.get("pyplot_plain")
    if ok is None:
        ok = _check_pyplot()
        interp.memo["pyplot_plain"] = ok
    return ok


def _check_pyplot() -> bool:
    plt = loaded_module(_PYPLOT)
    mpl = loaded_module("matplotlib")
    if plt is None or mpl is None:
        return False
    for name in _HELPERS:
        fn = checked(plt.__dict__).get(name)
        if fn is not None and not own_module_function(_PYPLOT, name, fn, "matplotlib"):
            return False
    if not classes_pristine(_CLASSES, "matplotlib"):
        return False
    if not _no_figure_open():
        return False
    params = checked(mpl.__dict__).get("rcParams")
    if params is None or not issubclass(type(params), dict):
        return False
    if dict.get(params, "text.usetex") is not False:
        return False  # (text laid out through LaTeX fails where LaTeX is missing)
    if not _own_rectilinear_axes() or not _own_linear_scale() or not settings_plain():
        return False
    backend = dict.get(params, "backend")  # dict's own lookup: no user __getitem__ runs
    rcsetup = loaded_module("matplotlib.rcsetup")
    if rcsetup is not None and backend is checked(rcsetup.__dict__).get("_auto_backend_sentinel", object()):
        # Not chosen yet: with no display to open windows on, matplotlib settles on Agg.
        return sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or
                                                         os.environ.get("WAYLAND_DISPLAY"))
    return type(backend) is str and backend.lower() in _BACKENDS


def _own_rectilinear_axes() -> bool:
    """The Axes pyplot makes are matplotlib's own: a notebook can register a class of its own under
    the default projection's name (`register_projection`), whose methods `plt.title` would run."""
    projections, axes = loaded_module("matplotlib.projections"), loaded_module("matplotlib.axes")
    if projections is None or axes is None:
        return False
    registry = checked(projections.__dict__).get("projection_registry")
    own = instance_dict(registry) if registry is not None else None
    types_by_name = own.get("_all_projection_types") if own is not None else None
    return type(types_by_name) is dict and dict.get(types_by_name, "rectilinear") is checked(axes.__dict__).get("Axes")


def _own_linear_scale() -> bool:
    """Every Axis a new Axes makes takes its scale from matplotlib's registry by name: a notebook
    can register a class of its own as 'linear' (`register_scale`)."""
    scale = loaded_module("matplotlib.scale")
    mapping = checked(scale.__dict__).get("_scale_mapping") if scale is not None else None
    return type(mapping) is dict and dict.get(mapping, "linear") is checked(scale.__dict__).get("LinearScale")


def _no_figure_open() -> bool:
    """pyplot holds no figure. An open one may carry the notebook's own Axes, artists or callbacks,
    which pyplot's calls run (`plt.title` is the current Axes' `set_title`, `plt.show` draws every
    artist). Jupyter's inline backend closes its figures after each cell, so this is the usual case."""
    helpers = loaded_module("matplotlib._pylab_helpers")
    gcf = checked(helpers.__dict__).get("Gcf") if helpers is not None else None
    figs = class_dict(gcf).get("figs") if issubclass(type(gcf), type) else None
    return type(figs) in (OrderedDict, dict) and len(figs) == 0


def call(interp, fn: Any, fname: str, args: List[Value], kwargs: Dict[str, Value], node) -> Value:
    """A call of a pyplot function: passed over, a certain TypeError, or a stop."""
    if not own_module_function(_PYPLOT, fname, fn, "matplotlib"):
        raise Stop(node.lineno, f"a call to `matplotlib.pyplot.{fname}`, which is not matplotlib's own")
    library_state_plain(interp, node)
    if not pyplot_plain(interp, node):
        raise Stop(node.lineno, "pyplot with a patched matplotlib or a backend that opens windows")
    if fname == "imshow" and len(args) == 1 and not kwargs:
        if _image_shape(args[0], node):
            return Opaque()  # a drawable image: drawn, nothing of the notebook's changed
    if fname == "scatter":
        _scatter_binding(args, kwargs, node)
        if _scatter_passable(args, kwargs):
            return Opaque()
    consts = [a.concrete() for a in args]
    kconsts = {k: v.concrete() for k, v in kwargs.items()}
    if _passable(fname, consts, kconsts):
        return Opaque()
    raise Stop(node.lineno, f"a call to `matplotlib.pyplot.{fname}`, whose effect the checker does not model")


def _image_shape(x: Value, node) -> bool:
    """TypeError when `x` cannot be an image; True when it is one imshow draws without fail."""
    if x.kind() != "ndarray":
        return False
    facts = x.array()
    if facts is None or facts.shape is None or None in facts.shape or facts.kind is None:
        return False
    shape = tuple(facts.shape)
    if facts.kind not in "biuf":
        return False
    size = 1
    for n in shape:
        size *= n
    if size > _MAX_IMAGE:
        return False
    if len(shape) == 2 or (len(shape) == 3 and shape[-1] in (1, 3, 4)):
        return 0 not in shape  # an empty image is another matter
    hint = " (channels first: `np.transpose(X, (1, 2, 0))` puts them last)" if len(shape) == 3 and \
        shape[0] in (1, 3, 4) else ""
    raise Crash(CertainCrash("TypeError", node.lineno, node.col_offset,
                             f"`plt.imshow()` draws 2-D arrays or 3-D arrays with 1, 3 or 4 channels last; "
                             f"{('`' + x.name + '`') if x.name else 'this array'} has shape {shape}: "
                             f"Invalid shape {shape} for image data{hint}.", "image-shape",
                             [x.name] if x.name else []))


def _scatter_binding(args: List[Value], kwargs: Dict[str, Value], node) -> None:
    """x, y, s, c given both by position and by keyword: Python's binding raises TypeError first."""
    if len(args) > len(_SCATTER_PREFIX):
        return  # (from the fifth on, versions differ: some warn first, which may raise)
    twice = [p for p in _SCATTER_PREFIX[:len(args)] if p in kwargs]
    if twice:
        raise Crash(CertainCrash("TypeError", node.lineno, node.col_offset,
                                 f"`plt.scatter()` takes x, y, s and c in that order: argument {len(args)} is "
                                 f"already `{_SCATTER_PREFIX[len(args) - 1]}`, and `{twice[0]}=` gives it again: "
                                 f"scatter() got multiple values for argument '{twice[0]}'.", "call-arguments", []))


def _int_vector(v: Value) -> Any:
    """The length of a 1-D ndarray of integers (no NaN, no infinity), else None."""
    if v.kind() != "ndarray":
        return None
    facts = v.array()
    if facts is None or facts.shape is None or len(facts.shape) != 1 or facts.kind is None:
        return None
    n = facts.shape[0]
    return n if facts.kind in "iu" and type(n) is int else None


def _scatter_passable(args: List[Value], kwargs: Dict[str, Value]) -> bool:
    """A scatter of integer points that no matplotlib rejects (more than 4 points: with 3 or 4,
    colour values may read as one RGB(A) colour)."""
    if len(args) < 2 or len(args) > 3 or any(k not in ("s", "c", "cmap", "marker", "alpha") for k in kwargs):
        return False
    n = _int_vector(args[0])
    if n is None or not 4 < n <= _MAX_POINTS or _int_vector(args[1]) != n:
        return False
    sizes = args[2] if len(args) == 3 else kwargs.get("s")
    if sizes is not None and _int_vector(sizes) != n and not _number(sizes.concrete()):
        return False
    colours = kwargs.get("c")
    if colours is not None and _int_vector(colours) != n and not _one_of(colours.concrete(), _COLORS):
        return False
    cmap, marker, alpha = (kwargs[k].concrete() if k in kwargs else None for k in ("cmap", "marker", "alpha"))
    return ((cmap is None or _one_of(cmap, _CMAPS)) and (marker is None or _one_of(marker, _MARKERS))
            and (alpha is None or type(alpha) in (int, float) and 0 <= alpha <= 1))


def _one_of(c: Any, names) -> bool:
    return type(c) is str and c in names
