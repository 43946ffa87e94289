"""PyTorch, TensorFlow and Keras objects built to run code while the runtime information reads them:
a class naming itself a library's, a module whose `__getattr__` answers missing members, a library
function or method the notebook replaced, a tensor whose one reduction would take a minute, a
dataset, index list, flag or sample with hooks of its own. No hook runs (the one exception is a
DataLoader's dataset `__getitem__` and `collate_fn`), the gathering stays within its budget, and
each test's twin shows an ordinary object still summarised."""

import random
import time
import types

import numpy as np
import pytest

from crane_llm.kernel.entry import gather

CALLS = []
ARMED = [False]
BUDGET = 2.0


def record(name):
    """A hook that notes its call while armed (building the objects is not counted)."""
    def hook(*args, **kwargs):
        if ARMED[0]:
            CALLS.append(name)
        return None
    return hook


def _gather(namespace, source=None):
    """The real gathering of `source` (every name read) against `namespace`: (summaries by name,
    seconds taken). No exception may escape."""
    CALLS.clear()
    ARMED[0] = True
    started = time.monotonic()
    try:
        reply = gather({"protocol": 1, "source": source or "\n".join(namespace), "cellId": None, "useLlm": True,
                        "includeRuntimeInfo": True, "budgetSeconds": BUDGET}, namespace)
    finally:
        ARMED[0] = False
    seconds = time.monotonic() - started
    return {v["name"]: v["summary"] for v in reply["runtimeInfo"]["variables"]}, seconds


# -- 2: a module's `__getattr__` never runs ----------------------------------------------------------

def test_a_fake_modules_getattr_is_not_called():
    """A module whose members are missing answers through `__getattr__`: torch's and TensorFlow's
    members are read from the module's dictionary, a missing one is "not there"."""
    from crane_llm.runinfo import keras_info, torch_info

    fake = types.ModuleType("torch")
    fake.__getattr__ = record("module __getattr__")
    ARMED[0] = True
    try:
        assert torch_info.tensor_types(fake) == ()
        assert keras_info.is_tf_dataset(fake, object()) is False
    finally:
        ARMED[0] = False
    assert CALLS == []


def test_real_torch_with_a_getattr_hook_and_a_deleted_member(monkeypatch):
    torch = pytest.importorskip("torch")
    namespace = {"t": torch.zeros(2, 3), "p": torch.nn.Parameter(torch.ones(2))}
    monkeypatch.setattr(torch, "__getattr__", record("torch.__getattr__"), raising=False)
    monkeypatch.delattr(torch, "nn")
    summaries, _ = _gather(namespace)
    assert CALLS == []
    assert summaries["t"]["kind"] == "tensor" and summaries["t"]["shape"] == [2, 3]
    assert summaries["p"]["kind"] == "tensor"


# -- 3: library functions the notebook replaced are not called ---------------------------------------

def _torch_namespace(torch):
    from torch.utils.data import DataLoader, Subset, TensorDataset

    data = TensorDataset(torch.randn(6, 3), torch.arange(6))
    return {"t": torch.tensor([1.0, float("nan")]), "loader": DataLoader(data, batch_size=2),
            "subset": Subset(data, [0, 2, 4])}


def _replacements(torch):
    return {
        "torch.isnan": (torch, "isnan", record("torch.isnan")),
        "torch.no_grad": (torch, "no_grad", record("torch.no_grad")),
        "torch.get_rng_state": (torch, "get_rng_state", record("torch.get_rng_state")),
        "torch.set_rng_state": (torch, "set_rng_state", record("torch.set_rng_state")),
        "random.getstate": (random, "getstate", record("random.getstate")),
        "np.random.get_state": (np.random, "get_state", record("np.random.get_state")),
        "default_collate": (torch.utils.data, "default_collate", record("default_collate")),
    }


@pytest.mark.parametrize("which", ["torch.isnan", "torch.no_grad", "torch.get_rng_state", "torch.set_rng_state",
                                   "random.getstate", "np.random.get_state", "default_collate"])
def test_a_replaced_library_function_is_not_called(monkeypatch, which):
    """The summaries never call these by module attribute: the tensor and the loader are still read."""
    torch = pytest.importorskip("torch")
    np.random.rand()  # (numpy.random loaded: its state is kept)
    owner, name, hook = _replacements(torch)[which]
    monkeypatch.setattr(owner, name, hook)
    summaries, _ = _gather(_torch_namespace(torch))
    assert CALLS == []
    assert summaries["t"]["kind"] == "tensor" and summaries["t"]["hasNaN"] is True
    assert summaries["loader"]["batchShape"] == "[Tensor[6, 3] float32, Tensor[6] int64]"  # (the samples read)
    assert summaries["subset"]["batchShape"] == "[Tensor[3, 3] float32, Tensor[3] int64]"


@pytest.mark.parametrize("which", ["min", "detach", "shape"])
def test_a_patched_tensor_class_is_not_read(monkeypatch, which):
    torch = pytest.importorskip("torch")
    hook = record("Tensor." + which)
    monkeypatch.setattr(torch.Tensor, which, property(hook) if which == "shape" else hook, raising=False)
    summaries, _ = _gather({"t": torch.tensor([1.0, 2.0])})
    assert CALLS == []
    assert summaries["t"]["kind"] == "unavailable" and "tensor classes were changed" in summaries["t"]["reason"]


def test_a_tensors_own_attributes_do_not_shadow_its_methods():
    torch = pytest.importorskip("torch")
    t = torch.tensor([1.0, 2.0])
    for name in ("min", "detach", "is_floating_point", "numel", "isnan"):
        t.__dict__[name] = record("t." + name)
    summaries, _ = _gather({"t": t})
    assert CALLS == []
    assert summaries["t"] == {"kind": "tensor", "shape": [2], "dtype": "float32", "device": "cpu",
                              "requiresGrad": False, "hasNaN": False}


def test_a_patched_collate_module_stops_the_batch(monkeypatch):
    """torch's default collate calls its module's `collate` by name: replaced, no sample is read."""
    torch = pytest.importorskip("torch")
    import torch.utils.data._utils.collate as collate_module

    monkeypatch.setattr(collate_module, "collate", record("collate"))
    summaries, _ = _gather(_torch_namespace(torch))
    assert CALLS == []
    for name in ("loader", "subset"):
        assert "collate functions were changed" in summaries[name]["samplesUnavailable"]
        assert "sampleShapes" not in summaries[name]


def test_a_replaced_generator_class_method_stops_the_samples(monkeypatch):
    """`random`'s generator state is taken through its C class; a notebook's method there is not
    called, and then no sample is read (its state could not be put back)."""
    torch = pytest.importorskip("torch")
    import _random

    if _random.Random.__flags__ & (1 << 8):  # (an immutable type on this Python: cannot be patched)
        pytest.skip("_random.Random is immutable here")
    monkeypatch.setattr(_random.Random, "getstate", record("_random.Random.getstate"))
    summaries, _ = _gather(_torch_namespace(torch))
    assert CALLS == []
    assert "random-number generators" in summaries["loader"]["samplesUnavailable"]


def test_rng_states_are_kept_through_the_c_generators():
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, Dataset

    class Noisy(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            random.gauss(0, 1)  # (leaves a `gauss_next` behind)
            np.random.rand()
            return torch.rand(2)

    random.seed(3), np.random.seed(3), torch.manual_seed(3)
    random.gauss(0, 1)
    before = (random.getstate(), np.random.get_state()[1].copy(), torch.get_rng_state().clone())
    summaries, _ = _gather({"loader": DataLoader(Noisy(), batch_size=2)})
    assert summaries["loader"]["batchShape"] == "Tensor[4, 2] float32"
    assert random.getstate() == before[0]
    assert np.array_equal(np.random.get_state()[1], before[1])
    assert torch.equal(torch.get_rng_state(), before[2])


# -- 4: no single C call may outlast the budget -------------------------------------------------------

def test_a_huge_stride_zero_tensor_is_sampled_within_the_budget():
    torch = pytest.importorskip("torch")
    summaries, seconds = _gather({"big": torch.zeros(1).expand(4_000_000_000),
                                  "big_nan": torch.full((1,), float("nan")).expand(3, 2_000_000_000),
                                  "small_nan": torch.tensor([[0.0, float("nan")]])})
    assert seconds < BUDGET + 2
    assert summaries["big"]["kind"] == "tensor" and summaries["big"]["shape"] == [4_000_000_000]
    assert summaries["big"]["hasNaN"] is None  # none in the sample: unknown, not "no"
    assert summaries["big_nan"]["hasNaN"] is True  # one in the sample is one in the tensor
    assert summaries["small_nan"]["hasNaN"] is True  # (small: scanned exactly)


# -- 5: datasets, indices, flags and samples with hooks ----------------------------------------------

def _recording_meta(*names):
    hooks = {n: record("meta " + n) for n in names}

    def getattribute(cls, name):
        if ARMED[0]:
            CALLS.append("meta __getattribute__")
        return type.__getattribute__(cls, name)

    def eq(cls, other):
        if ARMED[0]:
            CALLS.append("meta __eq__")
        return cls is other

    hooks["__getattribute__"] = getattribute
    hooks["__eq__"] = eq
    hooks["__hash__"] = type.__hash__
    return type("RecordingMeta", (type,), hooks)


def test_a_dataset_class_with_a_hooking_metaclass_is_not_looked_into():
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, Dataset

    Meta = _recording_meta()

    class Hooked(Dataset, metaclass=Meta):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return torch.zeros(2)

    class Plain(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return torch.zeros(2)

    summaries, _ = _gather({"hooked": DataLoader(Hooked(), batch_size=2), "plain": DataLoader(Plain(), batch_size=2)})
    assert CALLS == []
    assert "metaclass" in summaries["hooked"]["samplesUnavailable"]
    assert summaries["plain"]["examples"] == 4 and summaries["plain"]["batchShape"] == "Tensor[4, 2] float32"


def test_subset_indices_of_a_list_subclass_are_not_measured():
    torch = pytest.importorskip("torch")
    from torch.utils.data import Subset, TensorDataset

    class Idx(list):
        __len__ = record("Idx.__len__")
        __getitem__ = record("Idx.__getitem__")
        __iter__ = record("Idx.__iter__")

    base = TensorDataset(torch.zeros(4, 2))
    summaries, _ = _gather({"hooked": Subset(base, Idx([0, 1])), "plain": Subset(base, [0, 1]),
                            "ranged": Subset(base, range(3)), "arrayed": Subset(base, np.array([3, 1])),
                            "tensored": Subset(base, torch.tensor([2]))})
    assert CALLS == []
    assert summaries["hooked"]["examples"] is None and "indices" in summaries["hooked"]["samplesUnavailable"]
    assert summaries["plain"]["examples"] == 2 and summaries["plain"]["sampleShapes"] == ["(Tensor[2] float32)"] * 2
    assert summaries["ranged"]["examples"] == 3
    assert summaries["arrayed"]["examples"] == 2 and len(summaries["arrayed"]["sampleShapes"]) == 2
    assert summaries["tensored"]["examples"] == 1 and summaries["tensored"]["sampleShapes"] == ["(Tensor[2] float32)"]


def test_a_loader_flag_that_is_not_a_bool_is_not_asked():
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, TensorDataset

    class B:
        __bool__ = record("B.__bool__")

    hooked = DataLoader(TensorDataset(torch.zeros(5, 2)), batch_size=2)
    hooked.__dict__["drop_last"] = B()
    summaries, _ = _gather({"hooked": hooked, "plain": DataLoader(TensorDataset(torch.zeros(5, 2)), batch_size=2,
                                                                   drop_last=True)})
    assert CALLS == []
    assert summaries["hooked"]["batches"] is None and summaries["hooked"]["examples"] == 5
    assert summaries["plain"]["batches"] == 2


def test_sample_keys_and_sample_classes_with_hooks():
    """The dataset's `__getitem__` runs (the exception); what it returns is only looked at: a key's
    `__str__`, a metaclass's `__eq__` never run, and torch's default collate is not given them."""
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader, Dataset

    class Key:
        __str__ = record("Key.__str__")
        __repr__ = record("Key.__repr__")
        __format__ = record("Key.__format__")

    Meta = _recording_meta()

    class Sample(metaclass=Meta):
        pass

    class Keyed(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return {Key(): torch.zeros(2), "label": i}

    class Odd(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return (Sample(), torch.zeros(2))

    class Plain(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return {"image": torch.zeros(2), "label": i}

    summaries, _ = _gather({"keyed": DataLoader(Keyed(), batch_size=3), "odd": DataLoader(Odd(), batch_size=3),
                            "plain": DataLoader(Plain(), batch_size=3)})
    assert CALLS == []
    assert summaries["keyed"]["sampleShapes"][0] == "{?: Tensor[2] float32, label: int}"
    assert "batchShape" not in summaries["keyed"]
    assert summaries["odd"]["sampleShapes"][0].endswith("Sample, Tensor[2] float32)")
    assert "batchShape" not in summaries["odd"]
    assert summaries["plain"]["sampleShapes"][0] == "{image: Tensor[2] float32, label: int}"
    assert summaries["plain"]["batchShape"] == "{image: Tensor[3, 2] float32, label: Tensor[3] int64}"


# -- 1: TensorFlow and Keras classes are known by identity, numbers only as exact ints -------------------

def _tf():
    return pytest.importorskip("tensorflow")


def test_a_class_naming_itself_a_tf_dataset_is_not_read():
    tf = _tf()

    class Spec:
        __str__ = record("spec.__str__")
        __repr__ = record("spec.__repr__")

    class FakeDataset(tf.data.Dataset):
        __module__ = "tensorflow.python.data.ops.fake"

        def __init__(self):
            pass

        @property
        def element_spec(self):
            if ARMED[0]:
                CALLS.append("element_spec")
            return Spec()

        def _inputs(self):
            return []

    real = tf.data.Dataset.from_tensor_slices(np.zeros((4, 2), np.float32)).batch(2)
    summaries, _ = _gather({"fake": FakeDataset(), "real": real})
    assert CALLS == []
    assert summaries["fake"]["kind"] != "tf-dataset"
    assert summaries["real"] == {"kind": "tf-dataset", "elementSpec": str(real.element_spec)}


def test_a_fake_keras_iterator_and_int_subclasses_are_not_read(tmp_path):
    tf = _tf()
    from PIL import Image

    class UInt(int):
        __int__ = record("UInt.__int__")
        __index__ = record("UInt.__index__")
        __repr__ = record("UInt.__repr__")

    class DirectoryIterator:
        __module__ = "keras.src.legacy.preprocessing.image"

    fake = DirectoryIterator()
    fake.samples = UInt(3)
    for c in ("cat", "dog"):
        (tmp_path / c).mkdir()
        for i in range(2):
            Image.new("RGB", (8, 8)).save(tmp_path / c / f"{i}.png")
    gen = tf.keras.preprocessing.image.ImageDataGenerator()
    real = gen.flow_from_directory(str(tmp_path), target_size=(8, 8), batch_size=2)
    odd = gen.flow_from_directory(str(tmp_path), target_size=(8, 8), batch_size=2)
    odd.__dict__["batch_size"] = UInt(2)
    summaries, _ = _gather({"fake": fake, "real": real, "odd": odd})
    assert CALLS == []
    assert summaries["fake"]["kind"] != "keras-iterator"
    assert summaries["real"] == {"kind": "keras-iterator", "samples": 4, "classes": 2, "batchSize": 2,
                                 "imageShape": [8, 8, 3]}
    assert summaries["odd"]["kind"] == "keras-iterator" and summaries["odd"]["batchSize"] is None
