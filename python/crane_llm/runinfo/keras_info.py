"""TensorFlow `tf.data` datasets and Keras image iterators, read from library objects only."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..checks.provenance import class_module, class_name, instance_dict, mro
from .safe import cut, is_library_type, one_of

_ITERATORS = ("DirectoryIterator", "DataFrameIterator")


def is_tf_dataset(tf: Any, obj: Any) -> bool:
    dataset = getattr(getattr(tf, "data", None), "Dataset", None)
    return dataset is not None and one_of(dataset, mro(type(obj))) and is_library_type(type(obj), "tensorflow")


def tf_dataset_summary(obj: Any) -> Dict[str, Any]:
    # element_spec is a property of TensorFlow's own class (checked above), not of user code.
    return {"kind": "tf-dataset", "elementSpec": cut(str(obj.element_spec), 2000)}


def is_keras_iterator(obj: Any) -> bool:
    cls = type(obj)
    return class_name(cls) in _ITERATORS and is_library_type(cls, "keras", "tensorflow", "tf_keras")


def keras_iterator_summary(obj: Any) -> Dict[str, Any]:
    fields = instance_dict(obj, {})
    shape = fields.get("image_shape")
    samples = fields.get("samples", fields.get("n"))
    classes = fields.get("num_classes")
    if classes is None and type(fields.get("class_indices")) is dict:
        classes = len(fields["class_indices"])
    return {
        "kind": "keras-iterator",
        "samples": _int_or_none(samples),
        "classes": _int_or_none(classes),
        "batchSize": _int_or_none(fields.get("batch_size")),
        "imageShape": [int(d) for d in shape] if one_of(type(shape), (tuple, list)) and all(type(d) is int for d in shape) else None,
    }


def is_keras_history(obj: Any) -> bool:
    cls = type(obj)
    return class_name(cls) == "History" and is_library_type(cls, "keras", "tensorflow", "tf_keras")


def _int_or_none(value: Any) -> Optional[int]:
    try:
        return int(value) if value is not None and class_module(type(value)) in ("builtins", "numpy") else None
    except (TypeError, ValueError):
        return None
