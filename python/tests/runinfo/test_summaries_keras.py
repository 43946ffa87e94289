"""Rows of the README's table ("What the runtime information contains") for TensorFlow and Keras objects."""

import os

import numpy as np
import pandas as pd
import pytest

from .helpers import summary_of

# -- TensorFlow / Keras -----------------------------------------------------------------------------

tf = pytest.importorskip("tensorflow")


def test_tf_data_element_spec():
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((10, 4), np.float32), np.arange(10))).batch(4)
    s = summary_of(ds)
    assert s["kind"] == "tf-dataset"
    assert s["elementSpec"] == str(ds.element_spec)
    assert "shape=(None, 4)" in s["elementSpec"] and "float32" in s["elementSpec"]


def _image_tree(root, classes=("cat", "dog"), per_class=3):
    try:
        from PIL import Image
    except ImportError:
        Image = None
    files = []
    for c in classes:
        os.makedirs(root / c, exist_ok=True)
        for i in range(per_class):
            path = root / c / f"{i}.png"
            if Image is not None:
                Image.new("RGB", (8, 8)).save(path)
            else:  # the iterators list files by extension; the summary never opens them
                path.write_bytes(b"\x89PNG\r\n\x1a\n")
            files.append((f"{c}/{i}.png", c))
    return files


def test_keras_directory_iterator(tmp_path):
    gen = tf.keras.preprocessing.image.ImageDataGenerator()
    it = gen.flow_from_directory(str(tmp_path), target_size=(32, 24), batch_size=4) if _image_tree(tmp_path) else None
    s = summary_of(it)
    assert s == {"kind": "keras-iterator", "samples": 6, "classes": 2, "batchSize": 4, "imageShape": [32, 24, 3]}


def test_keras_dataframe_iterator(tmp_path):
    files = _image_tree(tmp_path, classes=("a", "b", "c"), per_class=2)
    frame = pd.DataFrame(files, columns=["filename", "class"])
    gen = tf.keras.preprocessing.image.ImageDataGenerator()
    it = gen.flow_from_dataframe(frame, directory=str(tmp_path), target_size=(16, 16), color_mode="grayscale", batch_size=5)
    s = summary_of(it)
    assert s == {"kind": "keras-iterator", "samples": 6, "classes": 3, "batchSize": 5, "imageShape": [16, 16, 1]}


def test_keras_history_object():
    keras = pytest.importorskip("keras")
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(loss="mse", metrics=["mae"])
    history = model.fit(np.zeros((4, 2)), np.zeros(4), epochs=2, verbose=0)
    s = summary_of(history)
    assert s["kind"] == "dict-history" and s["epochs"] == 2 and set(s["metrics"]) == {"loss", "mae"}
