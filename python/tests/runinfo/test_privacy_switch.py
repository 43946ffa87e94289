"""With runtime information off, nothing of it is collected: no summary runs, none is returned."""

import pytest

from .helpers import validate

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader, Dataset  # noqa: E402

from crane_llm.kernel.entry import gather  # noqa: E402


class Recording(Dataset):
    def __init__(self):
        self.reads = 0

    def __len__(self):
        return 4

    def __getitem__(self, i):
        self.reads += 1
        return torch.zeros(2)


def request(include):
    return {"protocol": 1, "source": "for xb in loader:\n    print(xb.shape)", "cellId": None,
            "useLlm": True, "includeRuntimeInfo": include}


def test_runtime_information_off_collects_nothing():
    ds = Recording()
    reply = gather(request(False), {"loader": DataLoader(ds, batch_size=2)})
    assert reply["runtimeInfo"] is None
    assert ds.reads == 0


def test_runtime_information_on_collects_the_loader():
    ds = Recording()
    reply = gather(request(True), {"loader": DataLoader(ds, batch_size=2)})
    info = validate(reply["runtimeInfo"])
    assert info["variables"][0]["summary"]["kind"] == "dataloader"
    assert ds.reads == 4  # the first samples (up to 10) were read to show their shapes
