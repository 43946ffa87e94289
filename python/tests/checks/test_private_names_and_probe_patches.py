"""Private names in class bodies, NumPy's replaced module `__getattr__`, scikit-learn functions a
notebook patched, and the seed `train_test_split` rejects: each cell runs for real after the check.

- Python mangles `__x` to `_A__x` inside `class A` (names, attributes, comprehensions): the checker
  claims nothing about such a body.
- `np.__getattr__` replaced: NumPy's tables of removed names no longer say what the module raises.
- A scikit-learn probe runs the library's code only (`checks/library_only.py`): a notebook's function
  put in one of its modules is never called (nor one it compiled from text with the module's own
  globals), and a remembered answer is asked afresh once the modules hold something else
  (`library_namespace.sklearn_generation`).
"""

from __future__ import annotations

import pandas as pd
import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim, case_ids

PRIVATE_FRAME = "import pandas as pd\ndf = pd.DataFrame({'_A__Salary': [1, 2]})"
PATCHED_NUMPY = ("import numpy as np\n_g = np.__getattr__\n"
                 "def _mine(name):\n    if name in ('float', 'NaN'):\n"
                 "        return {'float': float, 'NaN': float('nan')}[name]\n    return _g(name)\n"
                 "np.__getattr__ = _mine\n")
FIT = ("import numpy as np\nfrom sklearn.linear_model import LogisticRegression, LinearRegression\n"
       "X = np.arange(40.).reshape(20, 2); y = np.array([0, 1] * 10)\nHITS = []\n")

# (setup, cell, teardown): the cell runs clean, or raises elsewhere; nothing may be claimed, and no
# code of the notebook's may run during the check.
UNCLAIMED = [
    ("_A__x = 1", "class A:\n    y = __x", ""),
    ("_A__x = 1", "class A:\n    y = [__x for _ in range(1)]", ""),
    ("_A__x = 5", "class __A:\n    y = __x", ""),
    ("_A__data = [1, 2, 3]", "class A:\n    n = len(__data)", ""),
    (PRIVATE_FRAME, "class A:\n    x = df.__Salary", ""),
    ("import types\nmod = types.ModuleType('m')\nmod._A__v = 1", "class A:\n    y = mod.__v", ""),
    ("class C:\n    pass\nc = C()\nc._A__v = 1", "class A:\n    y = c.__v", ""),
    (PATCHED_NUMPY, "x = np.float(3)", "np.__getattr__ = _g"),
    (PATCHED_NUMPY, "x = np.NaN", "np.__getattr__ = _g"),
    (FIT + "import sklearn.linear_model._logistic as _L\nm = LogisticRegression(penalty='l1', solver='lbfgs')\n"
           "_orig = _L._check_solver\n"
           "_L._check_solver = lambda s, p, d: (HITS.append(1), _orig(s, p, d))[1]",
     "m.fit(X, y)", "_L._check_solver = _orig"),
    (FIT + "import sklearn.base as _B\nm = LogisticRegression(max_iter=100.5)\n"
           "_orig = _B.validate_parameter_constraints\n_B.validate_parameter_constraints = lambda *a, **k: HITS.append(1)",
     "m.fit(X, y)", "_B.validate_parameter_constraints = _orig"),
    (FIT + "import sklearn.utils.validation as _V\nX = np.arange(40.)\nm = LinearRegression()\n"
           "_orig = _V._ensure_no_complex_data\n_V._ensure_no_complex_data = lambda a: (HITS.append(1), _orig(a))[1]",
     "m.fit(X, y)", "_V._ensure_no_complex_data = _orig"),
    # compiled from text with the library module's own globals, as the standard library's
    # dataclasses and namedtuple compile theirs: called as a function, not as a library class's method
    (FIT + "import sklearn.base as _B\nm = LogisticRegression(max_iter=100.5)\n_orig = _B.validate_parameter_constraints\n"
           "exec('def validate_parameter_constraints(*a, **k):\\n    __import__(\"__main__\").HITS.append(1)', vars(_B))",
     "m.fit(X, y)", "_B.validate_parameter_constraints = _orig"),
    (FIT + "import sklearn.linear_model._logistic as _L\nm = LogisticRegression(penalty='l1', solver='lbfgs')\n"
           "_orig = _L._check_solver\nexec('def _check_solver(s, p, d):\\n    __import__(\"__main__\").HITS.append(1)\\n"
           "    return \"liblinear\"', vars(_L))",
     "m.fit(X, y)", "_L._check_solver = _orig"),
    ("import numpy as np\nfrom sklearn.model_selection import train_test_split\nX = np.zeros((5, 2)); y = np.zeros(4)",
     "train_test_split(X, y, random_state=-1)", ""),
    ("import numpy as np\nfrom sklearn.model_selection import train_test_split\nX = np.zeros((0, 2)); y = np.zeros(0)",
     "train_test_split(X, y, random_state=2**40)", ""),
]

# Twins: the same shapes where the claim is sound, (setup, cell, exception, line).
CLAIMED = [
    ("_x = 1", "class A:\n    y = x", "NameError", 2),
    ("import math", "class A:\n    y = math.x", "AttributeError", 2),
    ("import numpy as np", "x = np.float(3)", "AttributeError", 1),
    (FIT + "m = LogisticRegression(max_iter=100.5)", "m.fit(X, y)", "InvalidParameterError", 1),
    ("import numpy as np\nfrom sklearn.model_selection import train_test_split\nX = np.zeros((5, 2)); y = np.zeros(4)",
     "train_test_split(X, y, random_state=2**32 - 1)", "ValueError", 1),
]


@pytest.fixture(scope="module")
def unclaimed():
    return run_batch([{"setup": s, "cell": c, "teardown": t} for s, c, t in UNCLAIMED], timeout=900)


@pytest.mark.parametrize("i", range(len(UNCLAIMED)), ids=case_ids(UNCLAIMED))
def test_nothing_claimed_and_nothing_run(unclaimed, i):
    assert unclaimed[i]["claim"] is None, (UNCLAIMED[i][1], unclaimed[i])
    assert_no_false_claim(unclaimed[i], UNCLAIMED[i][1])


@pytest.mark.parametrize("setup,cell,exception,line", CLAIMED, ids=case_ids(CLAIMED))
def test_sound_twins_still_claimed(setup, cell, exception, line):
    r, = run_batch([{"setup": setup, "cell": cell}])
    assert_claimed(r, exception, line)


def test_a_remembered_probe_answer_is_asked_again_after_a_patch():
    """The same check before, during and after a patch of a function the probe's code calls by
    name: claimed, not claimed (the patched validation lets the fit run), claimed again."""
    fit = {"setup": FIT + "import sklearn.base as _B\n_orig = _B.validate_parameter_constraints\n"
                          "m = LogisticRegression(max_iter=100.5)", "cell": "m.fit(X, y)"}
    patched = {**fit, "setup": fit["setup"] + "\n_B.validate_parameter_constraints = lambda *a, **k: None",
               "teardown": "_B.validate_parameter_constraints = _orig"}
    results = run_batch([fit, fit, patched, fit])
    assert [r["raised"] and r["raised"]["exception"] for r in results] == \
        ["InvalidParameterError", "InvalidParameterError", None, "InvalidParameterError"]
    assert [r["claim"] and r["claim"]["exception"] for r in results] == \
        ["InvalidParameterError", "InvalidParameterError", None, "InvalidParameterError"]


def test_a_submodule_a_call_may_import_is_not_claimed_missing():
    """`print(df)` imports `pandas.io.formats.string` the first time a frame is shown: a submodule
    file on disk means the attribute may be there by the time the line runs."""
    setup = ("import sys\nimport pandas as pd\ndf = pd.DataFrame({'a': [1]})\n"
             "assert 'pandas.io.formats.string' not in sys.modules")
    r, twin = run_batch([{"setup": setup, "cell": "print(df)\npd.io.formats.string\n1/0"},
                         {"setup": setup, "cell": "print(df)\npd.io.formats.zz_missing\n1/0"}])
    assert r["setup_error"] is None and r["raised"]["exception"] == "ZeroDivisionError"
    assert r["claim"] is None or (r["claim"]["exception"], r["claim"]["line"]) == ("ZeroDivisionError", 3)
    assert (twin["raised"]["exception"], twin["raised"]["line"]) == ("AttributeError", 2)
    if twin["claim"] is None:  # an older pandas's print(df) is one the checker does not go past
        assert twin["stop"]["line"] == 1 and int(pd.__version__.split(".")[0]) < 3, twin
    else:
        assert (twin["claim"]["exception"], twin["claim"]["line"]) == ("AttributeError", 2)
