"""A Keras 3 model in a replay: the few attribute names no Keras 3 model ever has.

The recorded facts of a Keras model give only its type. A type under `keras.src.models` exists in
Keras 3 alone (Keras 2 kept its models under `keras.engine` / `keras.src.engine`, tf-keras under
`tf_keras.src.engine`), and in every Keras 3 release read for this rule (the sources of 3.0, 3.3,
3.6, 3.9 and 3.15) the model classes and all their bases, whatever the backend, define none of the
names in NEVER and no `__getattr__`, but for torch's `nn.Module.__getattr__`, which answers only the
parameters, buffers and submodules stored under attribute names (Keras stores its layers in lists,
never under one of these names). So reading one of them raises AttributeError, unless the object
itself was given it: the answer is "missing" only when the executed cells are all known, none can
write attributes out of sight (the kernel's `dynamic` reason: `setattr`, `__dict__`, `exec`, a
magic, a module of the user's own, ...), none stores an attribute of that name anywhere and none
mentions `__class__` (a user class can claim to be a Keras model). A cell that patched the library
stops the whole replay before any rule runs (RecordedKernel.patches). Any other name is unknown:
the installed Keras is not the one that recorded the facts.
"""

from __future__ import annotations

from typing import FrozenSet, Optional

from .abstract_values import FactValue

KERAS3_MODELS = frozenset({"keras.src.models.sequential.Sequential", "keras.src.models.functional.Functional",
                           "keras.src.models.model.Model"})
# `load` is what notebooks reach for instead of `keras.models.load_model`; the rest Keras 2.6-2.x removed.
NEVER = frozenset({"load", "predict_classes", "predict_proba", "fit_generator", "evaluate_generator",
                   "predict_generator"})


class RecordedKerasModel(FactValue):
    """A recorded Keras 3 model; `written` holds every attribute name the executed cells may have
    set on any object, or None when what they wrote cannot be read."""

    def __init__(self, type_name: str, written: Optional[FrozenSet[str]]):
        super().__init__("keras-model", type_name=type_name)
        self.written = written

    def has_attr(self, attr: str) -> Optional[bool]:
        if attr in NEVER and self.written is not None and attr not in self.written:
            return False
        return None
