"""The collector inside a real ipykernel, called the way the front end calls it (user_expressions):
summaries arrive, the time limit fires on the kernel's main thread, the user's state is untouched."""

import ast
import json

import pytest
from kernels import running_kernel

jupyter_client = pytest.importorskip("jupyter_client")


SETUP = """
import random, time
import numpy as np, pandas as pd
df = pd.DataFrame({'a': [1.0, None, 3.0], 'b': ['x', 'y', 'x']})
class Slow:
    def __len__(self): return 3
    def __getitem__(self, i): time.sleep(30)
random.seed(3)
"""


@pytest.fixture(scope="module")
def kernel():
    with running_kernel() as (_, kc):
        yield kc


def evaluate(kc, expression):
    reply = kc.execute_interactive("", silent=True, store_history=False, user_expressions={"r": expression}, timeout=60)
    value = reply["content"]["user_expressions"]["r"]
    assert value["status"] == "ok", value
    return ast.literal_eval(value["data"]["text/plain"])


def collect_in(kc, source):
    expression = "__import__('json').dumps(__import__('crane_llm.runinfo', fromlist=['collect']).collect(%r, get_ipython().user_ns))" % source
    return json.loads(evaluate(kc, expression))


def test_collect_in_the_kernel(kernel):
    kernel.execute_interactive(SETUP, timeout=60)
    before = evaluate(kernel, "repr(random.getstate()[1][:5])")
    info = collect_in(kernel, "df.dropna()")
    [df] = info["variables"]
    assert df["name"] == "df" and df["attributes"] == ["dropna"]
    assert df["summary"]["shape"] == [3, 2] and df["summary"]["hasNaN"] is True
    assert evaluate(kernel, "repr(random.getstate()[1][:5])") == before


def test_time_limit_fires_on_the_kernel_main_thread(kernel):
    pytest.importorskip("torch")
    kernel.execute_interactive("import torch\nfrom torch.utils.data import DataLoader\nloader = DataLoader(Slow())", timeout=60)
    info = collect_in(kernel, "loader")
    assert info["variables"][0]["summary"] == {"kind": "unavailable", "reason": "took longer than 2 s"}
