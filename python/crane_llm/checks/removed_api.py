"""APIs the libraries removed (or never had): what a claim says instead of a did-you-mean.

A near name is the wrong hint for an attribute a library took away: `predict_classes` is not a
misspelt `predict_step`, and pandas' own `_append` is private. When the missing attribute is one of
these, the claim says the library removed it and what replaces it, and offers no correction.
The library is read from the class's module (or the module's own name), never from user code.
"""

from __future__ import annotations

import types
from typing import Optional

from .abstract_values import NOTHING, Value
from .keras_models import RecordedKerasModel
from .live_adapter import LiveValue
from .static_reads import checked, class_module

_KERAS_PREDICT = ("Keras 2.6 removed it: `np.argmax(model.predict(x), axis=-1)` gives the classes "
                  "(`(model.predict(x) > 0.5).astype('int32')` for one sigmoid output)")
_NUMPY_ALIAS = "NumPy 1.24 removed this alias of the builtin: use the builtin `{0}` itself"
REMOVED = {
    ("keras", "predict_classes"): _KERAS_PREDICT,
    ("keras", "predict_proba"): "Keras 2.6 removed it: `model.predict(x)` gives the probabilities",
    ("keras", "fit_generator"): "Keras removed it: `model.fit` takes the generator itself",
    ("keras", "evaluate_generator"): "Keras removed it: `model.evaluate` takes the generator itself",
    ("keras", "predict_generator"): "Keras removed it: `model.predict` takes the generator itself",
    # Never a method, but what notebooks write for the loader function.
    ("keras", "load"): "`keras.models.load_model(path)` is what loads a saved model",
    ("pandas", "append"): "pandas 2.0 removed `.append`: `pd.concat([df, other])` joins them",
    ("pandas", "iteritems"): "pandas 2.0 removed `.iteritems`: use `.items()`",
    ("numpy", "float"): _NUMPY_ALIAS.format("float"),
    ("numpy", "int"): _NUMPY_ALIAS.format("int"),
    ("numpy", "bool"): _NUMPY_ALIAS.format("bool"),
    ("numpy", "object"): _NUMPY_ALIAS.format("object"),
    ("numpy", "complex"): _NUMPY_ALIAS.format("complex"),
    ("numpy", "str"): _NUMPY_ALIAS.format("str"),
}
# Every public DataFrame attribute a pandas release since 0.20 had and the installed one may lack: in
# the kernel that recorded a replay's facts, `df.last` may have been the method, not the column.
FRAME_ATTRIBUTES_OF_PAST_PANDAS = frozenset({
    "ix", "irow", "icol", "iget_value", "sort", "sortlevel", "as_matrix", "get_value", "set_value", "ftypes",
    "get_ftype_counts", "get_dtype_counts", "get_values", "select", "convert_objects", "consolidate", "is_copy",
    "compound", "clip_upper", "clip_lower", "to_panel", "to_sparse", "to_dense", "to_msgpack", "reindex_axis",
    "from_items", "from_csv", "blocks", "as_blocks", "combineAdd", "combineMult", "lookup", "mad", "tshift",
    "slice_shift", "append", "iteritems", "applymap", "backfill", "bool", "first", "last", "pad", "swapaxes", "to_gbq",
})
_LIBRARIES = {"keras": "keras", "tensorflow": "keras", "tf_keras": "keras", "pandas": "pandas", "numpy": "numpy"}


def _library(base: Value) -> Optional[str]:
    if isinstance(base, RecordedKerasModel):
        return "keras"
    if not isinstance(base, LiveValue):
        return None
    c = base.concrete() if base.kind() == "module" else NOTHING
    if type(c) is types.ModuleType:
        name = checked(c.__dict__).get("__name__")
        top = name.split(".")[0] if type(name) is str else ""
    else:
        top = class_module(type(base.obj)).split(".")[0]
    return _LIBRARIES.get(top)


def removed_note(base: Value, attr: str) -> Optional[str]:
    """Why `attr` is missing when the value's library removed it, else None."""
    lib = _library(base)
    return REMOVED.get((lib, attr)) if lib is not None else None
