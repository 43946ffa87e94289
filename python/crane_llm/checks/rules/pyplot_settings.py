"""Whether matplotlib's process-wide settings let pyplot make a figure and an Axes without running
the notebook's code or failing: the drawing rules pass over `plt.figure()` and the like only then.

- `rcParams`: every value is plain data that matplotlib's own validator accepts (a value written
  past the validator, `dict.__setitem__(rcParams, ...)`, is found out here), no `figure.hooks`
  (functions pyplot calls on every new figure), and the few values the validators accept but a
  figure or an image refuses (a non-positive size or dpi, subplot margins the wrong way round, a
  colour map or interpolation matplotlib does not know);
- the units registry: every converter is matplotlib's or pandas' own (creating an Axes converts
  its default limits through it, whatever the cell draws).
"""

from __future__ import annotations

import enum
import math
import types
from typing import Any, List, Optional

from ..library_code import genuine
from ..provenance import audit, class_dict, class_module, mro
from ..static_reads import checked, held_by_its_module, instance_dict, loaded_module

_PLAIN = (str, int, float, bool, type(None))
_BUILTIN_TYPES = (str, int, float, bool, list, tuple)


def settings_plain() -> bool:
    mpl, rcsetup = loaded_module("matplotlib"), loaded_module("matplotlib.rcsetup")
    if mpl is None or rcsetup is None:
        return False
    params = checked(mpl.__dict__).get("rcParams")
    validators = checked(rcsetup.__dict__).get("_validators")
    if params is None or not issubclass(type(params), dict) or type(validators) is not dict:
        return False
    return _params_plain(params, validators) and _figure_fits(params) and _converters_own()


def _params_plain(params: dict, validators: dict) -> bool:
    hooks = dict.get(params, "figure.hooks", [])
    if type(hooks) is not list or hooks:
        return False
    budget = [_MAX_ITEMS]  # (for all the settings together: shared lists cost nothing to make, and much to read)
    for key, value in list(dict.items(params)):
        validate = validators.get(key)
        if key == "backend":
            continue  # (read by the caller; validating it may import a backend)
        if validate is None or not _own_validator(validate) or not _plain(value, 0, budget):
            return False
        try:
            validate(value)
        except Exception:
            return False
    return True


def _own_validator(validate: Any, depth: int = 0) -> bool:
    """matplotlib's own validator: a function of its file (with what its closure holds being the
    same), an instance of its `ValidateInStrings` holding plain data, or one of its enum classes."""
    if type(validate) is types.FunctionType:
        home = validate.__module__  # (a function's own slot: exactly a FunctionType here)
        if type(home) is not str or home.split(".")[0] != "matplotlib" or not genuine(validate):
            return False
        cells = validate.__closure__ or ()
        return depth < 2 and all(_plain(c.cell_contents) or c.cell_contents in _BUILTIN_TYPES or
                                 _own_validator(c.cell_contents, depth + 1) for c in cells)
    if _own_enum(validate):
        return True
    cls = type(validate)
    if class_module(cls).split(".")[0] != "matplotlib" or not held_by_its_module(cls) or \
            not audit().pristine(cls, "matplotlib"):
        return False
    state = instance_dict(validate)
    return state is None or all(_plain(v) for v in state.values())


def _own_enum(cls: Any) -> bool:
    """One of matplotlib's enums (`JoinStyle`), its methods those of its file."""
    if type(cls) is not enum.EnumMeta or class_module(cls).split(".")[0] != "matplotlib" or \
            not held_by_its_module(cls):
        return False
    for klass in mro(cls):
        if class_module(klass).split(".")[0] not in ("matplotlib", "enum", "builtins"):
            return False
        for fn in class_dict(klass).values():
            if type(fn) is types.FunctionType and class_module(klass).split(".")[0] == "matplotlib" and \
                    not genuine(fn):
                return False
    return True


_MAX_ITEMS = 50000


def _plain(value: Any, depth: int = 0, budget: Optional[List[int]] = None) -> bool:
    budget = budget if budget is not None else [_MAX_ITEMS]  # (items read in all: shared lists cost nothing to make)
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if type(value) in _PLAIN or _own_enum(type(value)):
        return True
    if type(value) in (list, tuple) and depth < 3 and len(value) <= 1000:
        return all(_plain(v, depth + 1, budget) for v in value)
    if type(value) is dict and depth < 3 and len(value) <= 1000:
        return all(type(k) in _PLAIN and _plain(v, depth + 1, budget) for k, v in value.items())
    cycler = loaded_module("cycler")
    own = checked(cycler.__dict__).get("Cycler") if cycler is not None else None
    if own is not None and type(value) is own and audit().pristine(own, "cycler"):
        try:
            return all(type(k) is str and _plain(list(v), depth + 1, budget) for k, v in value.by_key().items())
        except Exception:
            return False
    return False


def _figure_fits(params: dict) -> bool:
    """Values the validators pass that a new figure or Axes refuses."""
    size, dpi = dict.get(params, "figure.figsize"), dict.get(params, "figure.dpi")
    if type(size) not in (list, tuple) or len(size) != 2 or not all(_positive(x) for x in size) or not _positive(dpi):
        return False
    margin = {side: dict.get(params, f"figure.subplot.{side}") for side in ("left", "right", "bottom", "top")}
    if not all(type(v) in (int, float) and 0 <= v <= 1 for v in margin.values()):
        return False
    if not (margin["left"] < margin["right"] and margin["bottom"] < margin["top"]):
        return False
    # an image's colour map and interpolation, which the validators take as any text
    mpl, image = loaded_module("matplotlib"), loaded_module("matplotlib.image")
    registry = checked(mpl.__dict__).get("colormaps") if mpl is not None else None
    cmaps = (instance_dict(registry) or {}).get("_cmaps") if registry is not None else None
    methods = checked(image.__dict__).get("_interpd_") if image is not None else None
    cmap, interpolation = dict.get(params, "image.cmap"), dict.get(params, "image.interpolation")
    return type(cmaps) is dict and type(cmap) is str and cmap in cmaps and \
        type(methods) is dict and type(interpolation) is str and interpolation in methods


def _positive(x: Any) -> bool:
    return type(x) in (int, float) and math.isfinite(x) and x > 0


def _converters_own() -> bool:
    units = loaded_module("matplotlib.units")
    registry = checked(units.__dict__).get("registry") if units is not None else None
    own = checked(units.__dict__).get("Registry") if units is not None else None
    if own is None or type(registry) is not own or not audit().pristine(own, "matplotlib"):
        return False
    for converter in list(dict.values(registry)):
        cls = type(converter)
        home = class_module(cls).split(".")[0]
        if home not in ("matplotlib", "pandas") or not held_by_its_module(cls) or not audit().pristine(cls, home):
            return False
    return True
