"""A recorded value's missing attribute in the replay: `df.Agee` and `arr.join` are AttributeErrors
when no pandas (NumPy) that could have recorded the value had that name.

An ndarray is NumPy's compiled class: no instance dictionary, no `__getattr__`, nothing a notebook
or a library can add to it. Its name is missing when the installed NumPy (2.0 or later) lacks it and
no NumPy 1.x had it (the recording names its class exactly, and the replay follows no subclass).

pandas' `NDFrame.__getattr__` hands out only the frame's columns as extra attributes, so the name
is missing when it is no column (the recording lists them all, as exact texts), no attribute of the
installed `DataFrame` class, none an older pandas had (removed_api), none a newer one than 2.3 added,
none the executed cells set on any object, and none a library of the recorded kernel registered:
`tqdm.pandas()` adds `progress_apply`, `import hvplot.pandas` adds `hvplot`, a profiling library
adds `profile_report`, and any `register_dataframe_accessor` adds its name. A cell may reach
`tqdm.pandas` under any name, so an import of tqdm alone leaves frame attributes unjudged. So the executed cells
may import only libraries that register nothing on DataFrame (any other module already leaves the
replay without names: RecordedKernel.dynamic) and spell no registration. Private names are never
judged: pandas keeps some in the frame's own `__dict__`, and which ones changed across versions.
A class that renames itself a library's, or a write into an instance's `__dict__`, leaves the
written names unknown (RecordedKernel.written is None): no claim.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable

from .class_facts import _MISSING, ndarray_type, pandas_types, pristine_pandas
from .provenance import lookup_static
from .removed_api import FRAME_ATTRIBUTES_OF_PAST_PANDAS
from .library_writes import imported_tops
from .static_reads import library_version

# Added after pandas 2.3 (the oldest pandas this rule reads with: an older one may lack a name a
# newer recording kernel had), and names an instance may carry from pandas itself (`groupby(...).apply`
# gives each group frame its key as `.name`) or numpy-like names some old pandas had.
_OTHER_NAMES = frozenset({"from_arrow", "select", "to_iceberg", "name", "ptp", "nonzero", "real", "imag", "data",
                          "base", "strides", "itemsize", "asobject", "to_long", "to_wide", "delevel", "put", "valid",
                          "order", "compress", "searchsorted"})
# Libraries of `recorded_kernel._KNOWN_LIBRARIES` that register attributes on DataFrame when
# imported (or may: geopandas and dask extend pandas' accessor tables).
# (tqdm registers `progress_apply` and its kin through `tqdm.pandas()`, a function a cell may also
# reach under another name: `f = tqdm.pandas`, `tqdm_pandas(tqdm())`.)
_EXTENDING = frozenset({"hvplot", "holoviews", "pandas_profiling", "ydata_profiling", "geopandas", "dask", "tqdm"})
_REGISTERING = re.compile(r"register_\w*(accessor|method)|pandas_flavor|\bextensions\b|\.\s*pandas\s*\(")


def attributes_as_shipped(trees: Iterable[ast.AST], texts: Iterable[str]) -> bool:
    """No executed cell imports a library that extends DataFrame or spells a registration."""
    if any(set(imported_tops(node)) & _EXTENDING for tree in trees for node in ast.walk(tree)
           if isinstance(node, (ast.Import, ast.ImportFrom))):
        return False
    return not any(_REGISTERING.search(text) for text in texts)


# What NumPy 1.x's ndarray had that 2.x took away.
_PAST_NDARRAY = frozenset({"itemset", "newbyteorder", "ptp", "tostring", "setasflat", "asscalar"})


def missing_in_every_numpy(value: Any, attr: str) -> bool:
    """`value` (a recorded ndarray, replay.ReplayValue) has no attribute `attr` in any NumPy."""
    cls = value.facts.cls
    # (the recorder types an ndarray subclass by its own `__module__` and `__name__`: one the cells
    # named `numpy.ndarray` would be recorded as one, so the cells must show that none did)
    if value.kind() != "ndarray" or not value.type_as_named or cls is None or cls is not ndarray_type() or \
            attr.startswith("_") or \
            attr in _PAST_NDARRAY or (library_version("numpy") or (0, 0)) < (2, 0):
        return False
    return lookup_static(cls, attr, _MISSING) is _MISSING


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def missing_in_every_pandas(value: Any, attr: str) -> bool:
    """`value` (a recorded DataFrame, replay.ReplayValue) has no attribute `attr` in any pandas."""
    frame = value.frame() if value.kind() == "frame" else None
    if frame is None or frame.columns is None or not frame.flat or not all(type(c) is str for c in frame.columns):
        return False
    if attr.startswith("_") or attr in _OTHER_NAMES or attr in FRAME_ATTRIBUTES_OF_PAST_PANDAS:
        return False
    written = value.set_attrs
    # A private name set anywhere may be one `NDFrame.__getattr__` reads from the frame itself
    # (`df._info_axis_name = 'index'` makes it hand out rows); a dunder one a class of the
    # notebook's defines (`__getattr__`) is no frame's, and Python never reads dunders from an instance.
    if not value.frame_attributes_as_shipped or not value.plain_column_index or written is None or \
            attr in written or any(_private(name) for name in written):
        return False
    frame_cls = pandas_types()[0]
    if frame_cls is None or value.facts.cls is not frame_cls or not pristine_pandas(frame_cls) or \
            (library_version("pandas") or (0, 0)) < (2, 3):
        return False
    return frame.has_column(attr) is False and lookup_static(frame_cls, attr, _MISSING) is _MISSING
