"""TensorFlow `tf.data` datasets and Keras image iterators, read from library objects only.

A library class is known by identity: the very class the loaded module its `__module__` names holds
under its name (a `__module__` string is anyone's to write, so a notebook's class naming itself
`tensorflow.python.data.ops.fake` is not TensorFlow's). Module members are read from the module's
dictionary, never by attribute (a module's `__getattr__` would run for a missing name), and the
numbers an iterator holds are taken only when they are exact `int`s (a subclass's `__int__`,
`__index__` or `__repr__` would run as they are read).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..checks.provenance import audit, is_subclass, lookup_static, own
from ..checks.static_reads import class_name, held_by_its_module, instance_dict, plain_class
from .safe import cut, is_library_type, member

_ITERATORS = ("DirectoryIterator", "DataFrameIterator")
_KERAS_HOMES = ("keras", "tensorflow", "tf_keras")

SPEC_NOT_OWN = "its element spec is not TensorFlow's own (reading it would run other code)"


def library_class(cls: Any, *prefixes: str) -> bool:
    """`cls` is a class of one of `prefixes`' packages, held by its module under its name, with a
    metaclass (`type`, `abc.ABCMeta`) whose lookups and comparisons run no one's code."""
    return plain_class(cls) and is_library_type(cls, *prefixes) and held_by_its_module(cls)


def is_tf_dataset(tf: Any, obj: Any) -> bool:
    dataset = member(member(tf, "data"), "Dataset")
    cls = type(obj)
    return dataset is not None and library_class(cls, "tensorflow") and is_subclass(cls, dataset)


def tf_dataset_summary(obj: Any) -> Dict[str, Any]:
    spec = _element_spec(obj)
    if spec is None or not _plain_spec(spec, 0):
        return {"kind": "unavailable", "reason": SPEC_NOT_OWN}
    # Exact containers of TensorFlow's own, unpatched spec classes: their repr is TensorFlow's code.
    return {"kind": "tf-dataset", "elementSpec": cut(str(spec), 2000)}


def _element_spec(obj: Any) -> Any:
    """The dataset's `element_spec`, through its class's property when that is TensorFlow's own code
    and the class reads its instance's attributes the ordinary way (no `__getattr(ibute)__` of its own)."""
    cls = type(obj)
    prop = lookup_static(cls, "element_spec")
    if type(prop) is not property or not own(prop, "tensorflow"):
        return None
    if lookup_static(cls, "__getattribute__") is not object.__getattribute__ or \
            lookup_static(cls, "__getattr__") is not None:
        return None
    return prop.fget(obj)


def _plain_spec(spec: Any, depth: int) -> bool:
    """A nest of exact tuples, lists and str-keyed dicts whose leaves are instances of TensorFlow's
    own, unpatched classes (a notebook's `TypeSpec` subclass, or an `ExtensionType`'s, has a repr
    of its own)."""
    t = type(spec)
    if t is tuple or t is list:
        return depth < 8 and all(_plain_spec(s, depth + 1) for s in spec)
    if t is dict:
        return depth < 8 and all(type(k) is str and _plain_spec(v, depth + 1) for k, v in dict.items(spec))
    return library_class(t, "tensorflow") and audit().pristine(t, "tensorflow")


def is_keras_iterator(obj: Any) -> bool:
    cls = type(obj)
    return class_name(cls) in _ITERATORS and library_class(cls, *_KERAS_HOMES)


def keras_iterator_summary(obj: Any) -> Dict[str, Any]:
    fields = instance_dict(obj, {})
    shape = fields.get("image_shape")
    samples = fields.get("samples", fields.get("n"))
    classes = fields.get("num_classes")
    indices = fields.get("class_indices")
    if classes is None and type(indices) is dict:
        classes = len(indices)  # (an exact dict's length is C's)
    return {
        "kind": "keras-iterator",
        "samples": _int_or_none(samples),
        "classes": _int_or_none(classes),
        "batchSize": _int_or_none(fields.get("batch_size")),
        "imageShape": list(shape) if (type(shape) is tuple or type(shape) is list)
        and all(type(d) is int for d in shape) else None,
    }


def is_keras_history(obj: Any) -> bool:
    cls = type(obj)
    return class_name(cls) == "History" and library_class(cls, *_KERAS_HOMES)


def _int_or_none(value: Any) -> Optional[int]:
    """An exact int as itself; anything else (an int subclass's `__int__` would run) is unknown."""
    return value if type(value) is int else None
