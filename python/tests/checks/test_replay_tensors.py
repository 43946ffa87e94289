"""Recorded PyTorch tensors in the replay (recorded_tensors.py): shape errors of operators, `torch.matmul`,
`torch.stack` and `torch.cat` are claimed from the recorded shapes, each pair run for real, and no
claim survives an executed cell that changed what torch's operations do.

The hostile histories run for real to show the target runs clean; the gate itself is then read in
this process, whose torch has no mode and no override, so only the executed cells can refuse."""

from __future__ import annotations

import ast

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from harness import assert_clean_and_unclaimed, assert_replay_pair, replayed
from crane_llm.checks import run_checks_on_facts
from crane_llm.checks.recorded_tensors import _holds_with_open

torch = pytest.importorskip("torch")

SETUP = "import torch\nx = torch.randn(8, 10)\nt3 = torch.zeros(3)\nt4 = torch.zeros(4)"

PAIRS = [
    # (crashing cell, its clean twin): RuntimeError at line 1
    ("y = x @ torch.randn(5, 3)", "y = x @ torch.randn(10, 3)"),
    ("y = torch.matmul(x, x)", "y = torch.matmul(x, x.T)"),
    ("s = t3 + t4", "s = t3 + t3"),
    ("s = t3 * t4", "s = t3 * torch.zeros(1)"),
    ("st = torch.stack([t3, t4])", "st = torch.stack([t3, t3])"),
    ("c = torch.cat([x, torch.zeros(8, 3, 1)], dim=1)", "c = torch.cat([x, torch.zeros(8, 3)], dim=1)"),
]

# Executed cells after which the crashing cell of a pair runs clean: (history, target, teardown).
MODE = ("from torch.overrides import TorchFunctionMode\nclass M(TorchFunctionMode):\n"
        "    def __torch_function__(self, func, types, args=(), kwargs=None):\n        return torch.zeros(1)\n")
HOSTILE = [
    (SETUP + B + MODE + "m = M()\nm.__enter__()", "s = t3 + t4", "m.__exit__(None, None, None)"),
    (SETUP + B + MODE + "def held():\n    with M():\n        yield\ngen = held()\nnext(gen)", "s = t3 + t4",
     "gen.close()"),
    (SETUP + B + "import warnings\nwarnings.simplefilter('ignore')\nlib = torch.library.Library('aten', 'IMPL')\n"
     "lib.impl('add.Tensor', lambda a, b, alpha=1: torch.zeros(1), 'CPU')", "s = t3 + t4", "lib._destroy()"),
    # a class of the notebook's own that prints as `torch.Tensor`, shape, dtype and device included
    (SETUP + B + "class Tensor:\n    __module__ = 'torch'\n    shape = (3,)\n    dtype = torch.float32\n"
     "    device = 'cpu'\n    requires_grad = False\n    def __add__(self, other):\n        return self\n"
     "t3 = Tensor()", "s = t3 + t4", ""),
    (SETUP + B + "__name__ = 'torch'\nclass Tensor:\n    shape = (3,)\n    dtype = torch.float32\n    device = 'cpu'\n"
     "    requires_grad = False\n    def __add__(self, other):\n        return self\nt3 = Tensor()",
     "s = t3 + t4", "__name__ = '__main__'"),
    (SETUP + B + "torch.Tensor.__add__ = lambda a, b: a", "s = t3 + t4",
     "torch.Tensor.__add__ = torch._C.TensorBase.__add__"),
]


def _cases():
    cases = [{"setup": SETUP, "cell": cell} for pair in PAIRS for cell in pair]
    cases += [dict({"setup": s, "cell": c}, **({"teardown": t} if t else {})) for s, c, t in HOSTILE]
    return replayed(cases)


@pytest.fixture(scope="module")
def results():
    return run_batch(_cases())


def test_recorded_shapes_prove_the_crash_and_the_twins_get_no_claim(results):
    for i in range(len(PAIRS)):
        assert_replay_pair(results[2 * i], results[2 * i + 1], "RuntimeError")


def test_hostile_histories_run_clean_and_get_no_replay_claim(results):
    for (setup, _, _), r in zip(HOSTILE, results[2 * len(PAIRS):]):
        assert_clean_and_unclaimed(r, setup)


def _facts(t3_type: str = "<class 'torch.Tensor'>"):
    tensor = {"dtype": "torch.float32", "device": "cpu", "requires_grad": False}
    return {"torch": {"type": "<class 'module'>"}, "x": dict(tensor, type="<class 'torch.Tensor'>", shape=(8, 10)),
            "t3": dict(tensor, type=t3_type, shape=(3,)), "t4": dict(tensor, type="<class 'torch.Tensor'>", shape=(4,))}


@pytest.mark.parametrize("setup,cell,_", HOSTILE)
def test_the_gate_alone_refuses_each_hostile_history(setup, cell, _):
    # In this process torch is as shipped: only what the executed cells show can refuse the claim.
    assert run_checks_on_facts(cell, _facts(), executed=setup.split(B)).crash is None
    assert run_checks_on_facts(cell, _facts(), executed=SETUP.split(B)).crash is not None  # the plain twin


def test_a_with_block_held_open_by_a_suspended_generator_refuses():
    held = "def g():\n    with ctx():\n        yield 1\n"
    assert _holds_with_open(ast.parse(held))
    assert _holds_with_open(ast.parse("async def g():\n    with ctx():\n        pass\n"))
    assert not _holds_with_open(ast.parse("def g():\n    with ctx():\n        return 1\n"))
    assert run_checks_on_facts("s = t3 + t4", _facts(), executed=[SETUP, held]).crash is None


def test_what_the_facts_do_not_make_an_exact_cpu_tensor_is_not_judged():
    for t3_type in ("<class 'torch.nn.parameter.Parameter'>", "<class '__main__.Tensor'>"):
        assert run_checks_on_facts("s = t3 + t4", _facts(t3_type), executed=[SETUP]).crash is None
    facts = _facts()
    facts["t3"]["device"] = "cuda:0"
    assert run_checks_on_facts("s = t3 + t4", facts, executed=[SETUP]).crash is None
    # without the executed cells nothing says torch was left as shipped
    assert run_checks_on_facts("s = t3 + t4", _facts()).crash is None
    # `torch.load` unpickles (any code may run): the history is no longer plain
    assert run_checks_on_facts("s = t3 + t4", _facts(), executed=[SETUP, "w = torch.load('w.pt')"]).crash is None


def test_a_comment_naming_torch_internals_does_not_refuse():
    history = SETUP + "\n# the library's _C ops, __enter__ and overrides are not used here"
    assert run_checks_on_facts("s = t3 + t4", _facts(), executed=[history]).crash is not None
    assert run_checks_on_facts("s = t3 + t4", _facts(), executed=[history + "\nq = 'overrides'"]).crash is None


@pytest.mark.parametrize("history", [
    SETUP + "\nt3 = torch.zeros(3, names=('N',))", SETUP + "\nt3 = t3.refine_names('N')", SETUP + "\nt3 = t3.rename('N')",
    SETUP + "\nt3.names = ['N']"])
def test_named_tensors_refuse(history):
    # An older torch's named tensors fail an operation on names that do not match, whatever the
    # shapes, and the recording does not show names (the torch installed here has none to run).
    assert run_checks_on_facts("s = t3 + t3", _facts(), executed=[history]).crash is None
    assert run_checks_on_facts("s = t3 + t4", _facts(), executed=[history]).crash is None
