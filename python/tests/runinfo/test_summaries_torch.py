"""Rows of the README's table ("What the runtime information contains") for PyTorch objects, and failures inside a summary."""

import random

import numpy as np
import pytest

from .helpers import summary_of, validate
from crane_llm.runinfo import collect

# -- torch ----------------------------------------------------------------------------------------

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader, Dataset, IterableDataset, Subset, TensorDataset  # noqa: E402


def test_tensor_fields():
    t = torch.zeros(2, 3, requires_grad=True)
    assert summary_of(t) == {"kind": "tensor", "shape": [2, 3], "dtype": "float32", "device": "cpu", "requiresGrad": True, "hasNaN": False}
    assert summary_of(torch.tensor([1.0, float("nan")]))["hasNaN"] is True
    assert summary_of(torch.arange(4))["hasNaN"] is False
    assert summary_of(torch.nn.Parameter(torch.ones(1)))["kind"] == "tensor"


def test_dataloader_over_tensor_dataset():
    ds = TensorDataset(torch.randn(25, 3), torch.arange(25))
    s = summary_of(DataLoader(ds, batch_size=8, shuffle=True))
    assert s["kind"] == "dataloader" and s["examples"] == 25 and s["batchSize"] == 8 and s["batches"] == 4
    assert s["fields"] == [{"name": "tensors", "type": "tuple"}]
    assert s["sampleShapes"] == ["(Tensor[3] float32, Tensor[] int64)"] * 10
    assert s["batchShape"] == "[Tensor[10, 3] float32, Tensor[10] int64]"
    assert summary_of(DataLoader(ds, batch_size=8, drop_last=True))["batches"] == 3


def test_subset_and_loader_over_subset():
    ds = TensorDataset(torch.randn(25, 3), torch.arange(25))
    sub = Subset(ds, [0, 5, 7])
    s = summary_of(sub)
    assert s["kind"] == "torch-subset" and s["examples"] == 3 and len(s["sampleShapes"]) == 3
    assert s["batchShape"] == "[Tensor[3, 3] float32, Tensor[3] int64]"
    assert s["datasetType"].endswith("TensorDataset")
    assert summary_of(DataLoader(sub, batch_size=2))["batches"] == 2


class ImageFolderLike(Dataset):
    def __init__(self, n):
        self.n = n
        self.labels = list(range(n))
        self.transform = None

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        noise = torch.rand(3, 8, 8)  # random augmentation: moves torch's RNG
        np.random.rand()
        random.random()
        return {"image": noise, "label": i}


def test_user_dataset_samples_and_collate_with_rng_restored():
    loader = DataLoader(ImageFolderLike(30), batch_size=16, collate_fn=lambda b: [x["image"] for x in b])
    random.seed(1), np.random.seed(1), torch.manual_seed(1)
    states = (random.getstate(), np.random.get_state()[1].copy(), torch.get_rng_state().clone())
    s = summary_of(loader)
    assert random.getstate() == states[0]
    assert np.array_equal(np.random.get_state()[1], states[1])
    assert torch.equal(torch.get_rng_state(), states[2])
    assert s["examples"] == 30 and s["batches"] == 2
    assert [f["name"] for f in s["fields"]] == ["n", "labels", "transform"]
    assert s["sampleShapes"][0] == "{image: Tensor[3, 8, 8] float32, label: int}"
    assert s["batchShape"].startswith("[Tensor[3, 8, 8] float32, ")


class Stream(IterableDataset):
    def __init__(self):
        self.consumed = 0

    def __iter__(self):
        self.consumed += 1
        yield torch.zeros(1)


def test_iterable_dataset_is_not_read():
    ds = Stream()
    s = summary_of(DataLoader(ds, batch_size=4))
    assert ds.consumed == 0 and s["examples"] is None and "samplesUnavailable" in s


def test_a_failing_summary_is_reported_and_the_rest_goes_on():
    class Broken(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            raise RuntimeError("disk gone")

    info = validate(collect("a, b", {"a": DataLoader(Broken()), "b": 1}))
    a, b = info["variables"]
    assert a["summary"] == {"kind": "unavailable", "reason": "RuntimeError: disk gone"}
    assert b["summary"] == {"kind": "int", "value": "1"}


def test_a_slow_summary_is_cut_off(monkeypatch):
    import time
    from crane_llm.runinfo import budget

    class Slow(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            time.sleep(5)

    monkeypatch.setattr(budget, "HARD_SECONDS", 0.2)
    started = time.perf_counter()
    s = summary_of(DataLoader(Slow()))
    assert time.perf_counter() - started < 2
    assert s == {"kind": "unavailable", "reason": "took longer than 0.2 s"}
