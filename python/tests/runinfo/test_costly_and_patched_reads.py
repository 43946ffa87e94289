"""Runtime information that would cost more than its budget in one uninterruptible call, or run a
pandas / NumPy function the notebook replaced (fourth red team, 3 Dec): a file-mapped array (its
values are the file's), an integer array whose distinct count would allocate its maximum per
chunk, a frame of 200,000 tiny columns, a pandas helper module or array class patched."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry
from crane_llm.runinfo.frame_info import file_backed
from crane_llm.runinfo.value_summary import array_distinct


@pytest.fixture
def shell():
    return InteractiveShell.instance()


def gather(shell, source):
    return entry.gather({"protocol": 1, "source": source, "useLlm": True, "includeRuntimeInfo": True},
                        shell.user_ns, shell)


def summaries(reply):
    return {v["name"]: v["summary"] for v in reply["runtimeInfo"]["variables"]}


def test_a_file_mapped_array_is_described_without_reading_the_file(shell, tmp_path):
    path = tmp_path / "data.bin"
    with open(path, "wb") as fh:
        fh.truncate(8 * 1000)
    mapped = np.memmap(path, dtype=np.float64, mode="r")
    assert file_backed(np, mapped) and file_backed(np, mapped[3:]) and file_backed(np, np.asarray(mapped))
    assert not file_backed(np, np.zeros(3)) and not file_backed(np, np.zeros(3)[1:])
    shell.user_ns.update(a=mapped, b=np.zeros(1000))
    got = summaries(gather(shell, "a.sum() + b.sum()"))
    assert got["a"]["shape"] == [1000] and got["a"]["min"] is None and "values" not in got["a"]
    assert got["b"]["min"] == 0.0  # (the twin in memory is read)


def test_the_exact_distinct_count_is_not_bought_with_a_huge_count_array():
    a = np.zeros(12_500_000, dtype=np.int64)
    a[-1] = 49_999_999  # (counted in 96 chunks, each would allocate 50M counts: seconds in all)
    started = time.perf_counter()
    distinct, approximate, _ = array_distinct(np, a, 0, 49_999_999)
    assert time.perf_counter() - started < 1.0 and (distinct == 2 or approximate)
    small = np.arange(300_000) % 5
    assert array_distinct(np, small, 0, 4) == (5, False, [0, 1, 2, 3, 4])


def test_a_frame_of_many_tiny_columns_leaves_time_for_the_next_variable(shell):
    shell.user_ns.update(wide=pd.DataFrame(np.zeros((2, 200_000))), small=pd.DataFrame({"a": [1.0, None]}))
    reply = gather(shell, "wide.sum()\nsmall")
    got = summaries(reply)
    assert got["wide"]["kind"] == "dataframe" and got["wide"].get("hasNaNApprox") is True
    assert got["small"]["hasNaN"] is True and not reply["budget"]["cut"]


@pytest.mark.parametrize("patch, restore", [
    ("import pandas.core.indexers.utils as m\n_real = m.is_list_like\nm.is_list_like = lambda obj, *a: hit(_real(obj, *a))",
     "m.is_list_like = _real"),
    ("import pandas.core.arrays.masked as m\n_real = m.check_array_indexer\n"
     "m.check_array_indexer = lambda *a, **k: hit(_real(*a, **k))", "m.check_array_indexer = _real"),
    ("m = pd.arrays.SparseArray\n_real = m.isna\nm.isna = lambda self: hit(_real(self))", "m.isna = _real"),
])
def test_patched_pandas_helpers_and_array_classes_are_not_called(shell, patch, restore):
    shell.run_cell("import pandas as pd\nhits = []\ndef hit(x):\n    hits.append(1)\n    return x\n"
                   "f = pd.DataFrame({'a': [1.0, None], 'b': pd.arrays.SparseArray([0.0, 1.0]), 'c': ['x', None], 'd': pd.array([1, None], dtype='Int64')})")
    shell.run_cell(patch)
    try:
        gather(shell, "f.sum()")
        assert shell.user_ns["hits"] == []
    finally:
        shell.run_cell(restore)


def test_lists_of_equal_huge_ints_are_not_compared_digit_by_digit(shell):
    # Two equal ints of 33 million bits, in distinct objects: each comparison walks every digit,
    # and min/max/sort of 200,000 such references took 53 s in one C call.
    a = (1 << 33_000_000) - 1
    shell.user_ns.update(big=[a, a * 1] * 100_000, mixed=[a, a * 1, None] * 1000, small=[3, 1, 2, 2])
    started = time.perf_counter()
    got = summaries(gather(shell, "big, mixed, small"))
    assert time.perf_counter() - started < 2.0
    assert got["big"]["length"] == 200_000 and "values" not in got["big"]
    assert "values" not in got["mixed"]
    assert got["small"]["values"]["values"] == [1, 2, 3]  # (the twin: a list of small ints is read)


@pytest.mark.skipif(not hasattr(__import__("sys"), "set_int_max_str_digits"), reason="Python 3.11's digit limit")
def test_an_int_too_long_to_write_out_says_how_many_digits_it_has(shell):
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # (the notebook lifted the limit: writing it out would take minutes)
    try:
        shell.user_ns.update(n=10 ** 2_000_000, d={"k": 10 ** 5000}, m=12345)
        started = time.perf_counter()
        got = summaries(gather(shell, "n + m, d"))
        assert time.perf_counter() - started < 2.0
    finally:
        sys.set_int_max_str_digits(limit)
    assert got["n"]["value"] == "<int of about 2000001 digits>" and got["m"]["value"] == "12345"
    assert "10000" not in str(got["d"])


# Equal long texts in distinct objects: every hash-table or sort comparison of two of them reads
# them whole, inside one C call no alarm can cut (fifth red team, 3 Dec: 70 s to 300 s and more).
LONG_TEXTS = ("a = 'x' * 30_000_000\nb = 'x' * 30_000_000\n"
              "s = pd.Series([a, b] * 1000, dtype=object)\n"
              "df = pd.DataFrame(np.zeros((1, 1000)), columns=pd.Index([a, b] * 500, dtype=object))\n"
              "l = [a, b] * 50_000\n")


@pytest.mark.parametrize("cell, claimed", [
    ("s.head()", None),
    ("df['y']", "KeyError"),  # (labels compared one by one with the short label asked for)
    ("y = sorted(l)\nundefined_zz", None),
    ("y = set(l)\nundefined_zz", None),
])
def test_equal_long_texts_are_never_compared_in_one_call(shell, cell, claimed):
    shell.run_cell("import numpy as np\nimport pandas as pd\n" + LONG_TEXTS)
    try:
        started = time.perf_counter()
        reply = gather(shell, cell)
        took = time.perf_counter() - started
    finally:
        shell.run_cell("del a, b, s, df, l")
    assert took < 1.5 and not reply["budget"]["ranOut"], (took, reply["budget"])
    crash = reply["checks"].get("crash")
    assert (crash or {}).get("exception") == claimed, reply["checks"]


def test_a_dataset_that_catches_the_hard_stop_is_stopped_after_its_sample(shell):
    pytest.importorskip("torch")
    shell.run_cell(
        "import time\nimport torch\nfrom torch.utils.data import Dataset, DataLoader\n"
        "class Stubborn(Dataset):\n    def __len__(self):\n        return 100\n"
        "    def __getitem__(self, i):\n        t = time.time()\n        while time.time() - t < 1.5:\n"
        "            try:\n                time.sleep(0.1)\n            except BaseException:\n                pass\n"
        "        return torch.zeros(3)\n"
        "dl = DataLoader(Stubborn(), batch_size=4)")
    started = time.perf_counter()
    reply = gather(shell, "for xb in dl:\n    pass")
    took = time.perf_counter() - started
    shell.run_cell("del dl")
    # (it swallows the first OutOfTime and finishes its sample; no second sample is read: 10 of
    # them took 15 s)
    assert took < 4.0 and reply["budget"]["ranOut"] is True, (took, reply["budget"])
