"""A recorded PyTorch tensor in a replay: its shape and dtype, when no executed cell could have
changed what torch's operations do.

The paper's recorder writes an exact `torch.Tensor` (not a Parameter, not a subclass: its type is
`str(type(value))`) with its shape, dtype and device, taken just before the target cell. What the
recording cannot show is the state of torch itself in that kernel: a `__torch_function__` or
dispatch mode left active runs Python code on every operation (`mode.__enter__()`, a `with mode:`
held open by a suspended generator, `torch.set_default_device`), `torch.library` can replace an
operator's CPU kernel, and a user class can print as `torch.Tensor` (its own `__module__`, or the
module `__name__` a cell bound, which read_executed refuses for every recorded type). So the facts
count only when no executed cell spells any of those (in code, in a text, as an import: a comment
may) and none holds a `with` block open across a `yield` or an `await`. Library patches and cells
that act out of sight (`exec`, `setattr`, `torch.load`, a magic, ...) already stop every claim
(RecordedKernel.dynamic / .patches).
"""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from .torch_facts import TensorFacts, tensor_class

# The ways into torch's mode stacks, its operator registry and its defaults, a class naming itself
# after another (`__module__ = 'torch'` makes a user class print as `torch.Tensor`), and named
# tensors, which the recording does not show.
_TORCH_STATE = re.compile(
    r"\b(__enter__|enter_context|TorchFunctionMode|TorchDispatchMode|FakeTensorMode|__torch_function__|"
    r"__torch_dispatch__|set_default_device|set_default_dtype|set_default_tensor_type|[Ll]ibrary|_C|"
    r"_python_dispatch|_subclasses|overrides|_ops|_dynamo|_inductor|_prims|_refs|_decomp|"
    r"__module__|__qualname__|__class__|"
    # named tensors (an older torch's): names that do not match fail an operation whatever the shapes
    r"refine_names|align_to|align_as|"
    # sparse and quantized tensors: the recording shows no layout, and most operations refuse them
    r"to_sparse\w*|sparse\w*|quantize\w*|quantized|to_mkldnn|nested\w*)\b|\b(names|module)\s*=(?!=)|\.rename\(\s*(None\b|['\"*])")


# Dtypes of ordinary dense tensors (a quantized one, `torch.quint8`, refuses most operations).
_DENSE_DTYPES = {"float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool",
                 "complex64", "complex128"}


def tensors_as_recorded(trees: Iterable[ast.AST], unparsed: Iterable[Optional[str]]) -> bool:
    """No executed cell could have left torch running other code for an operation on a recorded
    tensor. The cells are read as parsed and printed back (`unparsed`: comments dropped,
    identifiers normalised, texts joined); one that does not print back (None) refuses."""
    unparsed = list(unparsed)
    if any(code is None for code in unparsed):
        return False
    return not any(_TORCH_STATE.search(code) for code in unparsed) and not any(_holds_with_open(t) for t in trees)


def _holds_with_open(tree: ast.AST) -> bool:
    """A generator or coroutine function with a `with` block: suspended inside it, the block stays entered."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = list(ast.walk(node))
            suspends = isinstance(node, ast.AsyncFunctionDef) or \
                any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in inner)
            if suspends and any(isinstance(n, (ast.With, ast.AsyncWith)) for n in inner):
                return True
    return False


def recorded_tensor(facts: dict) -> Optional[TensorFacts]:
    """An exact CPU tensor's recorded shape and dtype ('torch.float32'), as the tensor rules read
    them; None when the facts do not say them or torch is not loaded here unpatched."""
    shape, dtype = facts.get("shape"), facts.get("dtype")
    if tensor_class() is None or not isinstance(shape, (tuple, list)) or \
            not all(type(d) is int and d >= 0 for d in shape) or type(dtype) is not str or \
            not dtype.startswith("torch.") or dtype[len("torch."):] not in _DENSE_DTYPES or facts.get("device") != "cpu":
        return None
    return TensorFacts(shape=tuple(shape), dtype=dtype[len("torch."):], device="cpu")
