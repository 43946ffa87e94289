"""PyTorch and NumPy values that answer other than their class says (fifth red team, 7 Dec): a
layer's own attributes that its call path looks up first (`_compiled_call_impl`, `_call_impl`,
`_conv_forward`), a Conv2d whose stride, padding or dilation was set to what `F.conv2d` refuses by
type, a tensor's own `view`, `reshape` or `t`, an aten kernel replaced through `torch.library`,
`np.concatenate` of a 0-d array after the first (the axis is checked first), and a full reduction,
which is a NumPy scalar without `.dot`. Each cell really runs after the check: none may be claimed
but as it raised. Each plain twin keeps its claim."""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim

pytest.importorskip("torch")

T = "import torch\nimport torch.nn as nn\nimport numpy as np\n"
LIB = T + ("import warnings\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n"
           "    lib = torch.library.Library('aten', 'IMPL')\n"
           "    lib.impl('add.Tensor', lambda a, b, alpha=1: a.clone(), 'CPU')\n")

OVERRIDDEN = [
    # (setup, cell, teardown)
    (T + "lin = nn.Linear(4, 2)\nlin._compiled_call_impl = lambda *a, **k: 'ok'\nx = torch.randn(3, 5)",
     "y = lin(x)\nprint(y)", ""),
    (T + "lin = nn.Linear(4, 2)\nlin._call_impl = lambda *a, **k: 'ok'\nx = torch.randn(3, 5)", "y = lin(x)", ""),
    (T + "conv = nn.Conv2d(3, 8, 3)\nconv._conv_forward = lambda x, w, b: x\nx = torch.randn(1, 4, 8, 8)",
     "conv(x)", ""),
    (T + "loss = nn.CrossEntropyLoss()\nloss._compiled_call_impl = lambda *a, **k: 0\n"
     "logits = torch.randn(4, 3)\ntarget = torch.zeros(5, dtype=torch.long)", "loss(logits, target)", ""),
    (T + "conv = nn.Conv2d(3, 8, 3)\nk = 3\nconv.padding = ((k - 1) / 2, (k - 1) / 2)\nx = torch.randn(1, 4, 8, 8)",
     "y = conv(x)", ""),
    (T + "conv = nn.Conv2d(3, 8, 3)\nconv.stride = 1.5\nx = torch.randn(1, 4, 8, 8)", "y = conv(x)", ""),
    (T + "x = torch.randn(2, 3)\nx.view = lambda *s: x", "y = x.view(5)", ""),
    (T + "x = torch.randn(2, 3)\nw = torch.randn(3, 4)\nx.t = lambda: torch.randn(3, 4)", "x.t() @ w", ""),
    (LIB + "a = torch.zeros(3)\nb = torch.zeros(4)", "c = a + b\nprint(c)", "lib._destroy()"),
    (T + "x = np.arange(5.0)\nz = np.array(3.0)", "y = np.concatenate([x, z], axis=1)", ""),
    # (round 6) dtypes without a CPU kernel, inference weights, a broadcast that is not contiguous,
    # saved-tensor hooks that run before any shape check, torch's `_VF` given an attribute
    (T + "lin = nn.Linear(4, 3).to(torch.complex32)\nx = torch.ones(2, 4, dtype=torch.complex32)",
     "h = lin(x)\nh.view(7)", ""),
    (T + "with torch.inference_mode():\n    lin = nn.Linear(4, 3)\nx = torch.randn(2, 4, requires_grad=True)",
     "h = lin(x)\nh.view(7)", ""),
    (T, "a = torch.zeros(2, 3, dtype=torch.quint8)\na.view(7)", ""),
    (T + "import torch.nn.functional as F\nfeat = torch.randn(2, 3, 8, 8).to(memory_format=torch.channels_last)\n"
     "pooled = F.adaptive_avg_pool2d(feat, 1)\nbias = torch.zeros(4, 1)", "z = (pooled + bias).view(2, -1)\nz @ torch.ones(5, 5)", ""),
    (T + "x = torch.randn(2, 4, requires_grad=True)\ndef pack(t):\n    raise MemoryError('no room')\n"
     "_hooks = torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t)\n_hooks.__enter__()",
     "x @ torch.ones(5, 2)", "_hooks.__exit__(None, None, None)"),
    (T + "import torch.nn.functional as F\nimport torch._VF\n"
     "torch._VF.broadcast_tensors = lambda ts: (_ for _ in ()).throw(ValueError('nope'))\n"
     "v5 = torch.ones(5)\nv6 = torch.ones(6)", "F.mse_loss(v5, v6)", "del torch._VF.broadcast_tensors"),
    (T + "x = np.arange(5.0)\nw = np.ones(5)", "s = sum(x)\nr = s.dot(w).reshape(7)", ""),
    (T + "x = np.arange(5.0)\nw = np.ones((5, 2))", "m = np.mean(x)\nr = m.dot(w)\nr[9]", ""),
]
TWINS = [
    (T + "lin = nn.Linear(4, 2)\nx = torch.randn(3, 5)", "y = lin(x)", "RuntimeError", 1),
    (T + "conv = nn.Conv2d(3, 8, 3)\nx = torch.randn(1, 4, 8, 8)", "y = conv(x)", "RuntimeError", 1),
    (T + "conv = nn.Conv2d(3, 8, 3, padding='same')\nx = torch.randn(1, 4, 8, 8)", "y = conv(x)", "RuntimeError", 1),
    (T + "x = torch.randn(2, 3)", "y = x.view(5)", "RuntimeError", 1),
    (T + "a = torch.zeros(3)\nb = torch.zeros(4)", "c = a + b", "RuntimeError", 1),
    (T + "x = np.arange(5.0)\nz = np.array(3.0)", "y = np.concatenate([z, x])", "ValueError", 1),
    (T + "x = np.arange(5.0)\nw = np.ones(5)", "s = np.mean(x)\nr = (s * w).reshape(7)", "ValueError", 2),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, teardown=t) for s, c, t in OVERRIDDEN] + \
            [dict(setup=s, cell=c) for s, c, _, _ in TWINS]
    return run_batch(cases)


def test_the_replay_takes_no_sparse_or_quantized_tensor_for_a_dense_one():
    from exec_runner import CELL_BREAK as B
    cases = [dict(setup=T + B + "adj = torch.eye(4).to_sparse()\nfeats = torch.randn(4, 3)",
                  cell="both = torch.cat([adj, feats], dim=1)\nboth @ torch.ones(6, 2)"),
             dict(setup=T + B + "q = torch.quantize_per_tensor(torch.randn(2, 3), 0.1, 0, torch.quint8)",
                  cell="torch.cat([q, torch.ones(2, 4)])")]
    for case, r in zip(cases, run_batch([dict(c, replay=True, replay_executed=True) for c in cases])):
        assert r["setup_error"] is None and r["checker_error"] is None, r
        replayed = r["replay_claim"]
        assert replayed is None or (r["raised"] is not None and (replayed["exception"], replayed["line"]) ==
                                    (r["raised"]["exception"], r["raised"]["line"])), (case["cell"], replayed, r["raised"])


@pytest.mark.parametrize("i", range(len(OVERRIDDEN)), ids=[repr(c[1])[:40] for c in OVERRIDDEN])
def test_no_claim_where_the_value_answers_otherwise(results, i):
    assert_no_false_claim(results[i], OVERRIDDEN[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(OVERRIDDEN) + i], exception, line)
