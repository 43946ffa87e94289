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
