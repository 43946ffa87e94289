"""Pairs for the PyTorch rules (tensor shapes through `@`, element-wise operators, `torch.matmul`,
`stack`, `cat`, `view`, `nn.Linear`, `nn.Conv2d`, `F.mse_loss`) and for calling a module object.
Same form as cases.py; the harness runs every cell for real. The NO_CLAIM cells crash, but through
something the rules must not vouch for (a hook, a patched layer, a mode, a subclass)."""

from __future__ import annotations

import importlib.util
from typing import List

from cases import NP, Pair

TORCH = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
         "m = torch.ones(4, 6)\nv6 = torch.ones(6)\nv5 = torch.ones(5)\nb3 = torch.ones(2, 3, 4)\n"
         "img = torch.ones(1, 3, 8, 8)\nlin = nn.Linear(6, 2)\nconv = nn.Conv2d(3, 2, 3)\n"
         "i64 = torch.ones(4, 6, dtype=torch.int64)")

TENSOR_SHAPE: List[Pair] = [
    Pair("tensor-shape", TORCH, "r = m @ m", "r = m @ m.T", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = m @ v5", "r = m @ v6", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = v5 @ v6", "r = v6 @ v6", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.matmul(m, torch.ones(5, 2))", "r = torch.matmul(m, torch.ones(6, 2))",
         "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.mm(m, m)", "r = torch.mm(m, m.t())", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = b3 @ torch.ones(3, 2)", "r = b3 @ torch.ones(4, 2)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = m + v5", "r = m + v6", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = m * torch.ones(6, 4)", "r = m * torch.ones(1, 6)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = (m - m) / torch.ones(3)", "r = (m - m) / torch.ones(6)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = i64 + v5", "r = i64 + v6", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.stack([v5, v6])", "r = torch.stack([v6, v6])", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.stack((m, m.T), dim=1)", "r = torch.stack((m, m), dim=1)",
         "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.cat([m, v6])", "r = torch.cat([m, v6.view(1, 6)])", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.cat([m, torch.ones(2, 5)])", "r = torch.cat([m, torch.ones(2, 6)])",
         "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = torch.cat([m, torch.ones(4, 2)], dim=0)",
         "r = torch.cat([m, torch.ones(4, 2)], dim=1)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = m.view(5, -1)", "r = m.view(3, -1)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = m.reshape(7, 3)", "r = m.reshape(3, 8)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "r = m.view(2, 2, 2)", "r = m.view(2, 2, 6)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "h = lin(torch.ones(3, 5))", "h = lin(torch.ones(3, 6))", "RuntimeError"),
    Pair("tensor-shape", TORCH, "h = lin(m.T)", "h = lin(m)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "h = lin(m)\nz = h @ m", "h = lin(m)\nz = h @ torch.ones(2, 3)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "y = conv(torch.ones(1, 1, 8, 8))", "y = conv(img)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "y = conv(torch.ones(8, 8))", "y = conv(torch.ones(3, 8, 8))", "RuntimeError"),
    Pair("tensor-shape", TORCH, "loss = F.mse_loss(v5, v6)", "loss = F.mse_loss(v6, v6)", "RuntimeError"),
    Pair("tensor-shape", TORCH, "loss = F.l1_loss(m, torch.ones(4, 5))", "loss = F.l1_loss(m, torch.ones(4, 6))",
         "RuntimeError"),
    Pair("tensor-shape", TORCH, "s = m.squeeze() @ v5", "s = m.squeeze() @ v6", "RuntimeError"),
]

MODULE_CALL: List[Pair] = [
    Pair("module-call", TORCH, "import torch.optim\nopt = torch.optim(lr=0.1)",
         "import torch.optim\nopt = torch.optim.SGD(lin.parameters(), lr=0.1)", "TypeError"),
    Pair("module-call", NP, "np.random(3)", "np.random.random(3)", "TypeError"),
    Pair("module-call", NP, "import math\nmath(2)", "import math\nmath.floor(2)", "TypeError"),
    Pair("module-call", NP, "import os\nos()", "import os\nos.getcwd()", "TypeError"),
    Pair("module-call", NP, "import json\njson('{}')", "import json\njson.loads('{}')", "TypeError"),
    Pair("module-call", NP, "import datetime\ndatetime(2020, 1, 1)", "from datetime import datetime\ndatetime(2020, 1, 1)",
         "TypeError"),
    Pair("module-call", NP, "import random\nrandom()", "import random\nrandom.random()", "TypeError"),
    Pair("module-call", NP, "import pprint\npprint({'a': 1})", "from pprint import pprint\npprint({'a': 1})",
         "TypeError"),
    Pair("module-call", NP, "import string\nstring('abc')", "import string\nstring.capwords('abc')", "TypeError"),
    Pair("module-call", NP, "import time\ntime()", "import time\ntime.time()", "TypeError"),
    Pair("module-call", NP, "import glob\nfiles = glob('*.csv')", "import glob\nfiles = glob.glob('*.csv')",
         "TypeError"),
]

# The kernel-side suites on Python 3.9 / 3.13 run without PyTorch (the test extra installs it on 3.11).
HAS_TORCH = importlib.util.find_spec("torch") is not None

PAIRS = TENSOR_SHAPE + MODULE_CALL if HAS_TORCH else [p for p in MODULE_CALL if p.setup != TORCH]

NO_CLAIM = [] if not HAS_TORCH else [
    # A forward hook that changes the input first: the hook runs before the shape check.
    ("h = lin(torch.ones(3, 5))",
     TORCH + "\nlin.register_forward_pre_hook(lambda mod, inp: (torch.ones(3, 4),))"),
    # A subclass of Tensor: its __torch_function__ runs.
    ("r = t5 @ t5", TORCH + "\nclass T(torch.Tensor):\n    pass\nt5 = torch.ones(2, 5).as_subclass(T)\n"
     "T.__matmul__ = lambda a, b: 1 / 0"),
    # A forward of the instance's own.
    ("h = lin(torch.ones(3, 5))", TORCH + "\nlin.forward = lambda x: torch.ones(2) @ torch.ones(3)"),
]
