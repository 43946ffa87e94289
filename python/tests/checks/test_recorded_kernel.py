"""Names in the replay: the executed cells say which names can exist, so a name none of them binds
is a certain NameError, unless some cell can bind names the parser does not see.

Each claim is proven by running the executed cells and the target for real in a fresh namespace;
each twin runs clean and gets no claim."""

from __future__ import annotations

import builtins
import sys
import types

import pytest

from crane_llm.checks import run_checks_on_facts
from crane_llm.checks.recorded_kernel import read_executed


def _run(cells, target):
    """Run the executed cells, then the target, in one fresh namespace: the exception's name or None.
    `sys.modules['__main__']` is that namespace while they run; what they add to builtins is removed."""
    main = types.ModuleType("__main__")
    ns = main.__dict__
    saved_main, saved_builtins = sys.modules["__main__"], set(builtins.__dict__)
    sys.modules["__main__"] = main
    try:
        for cell in cells:
            exec(compile(cell, "<executed>", "exec"), ns)
        try:
            exec(compile(target, "<target>", "exec"), ns)
        except Exception as exc:  # the crash being checked
            return type(exc).__name__
        return None
    finally:
        sys.modules["__main__"] = saved_main
        for added in set(builtins.__dict__) - saved_builtins:
            del builtins.__dict__[added]


CLAIMED = [
    # (executed cells, target): the target raises NameError, and the checker claims it
    (["import math\nx = 1"], "print(y)"),
    (["import numpy as np\ntf_idf_matrix = np.ones(2)"], "tf_idf.sum()"),
    (["def f():\n    local_only = 1\n    return local_only"], "print(local_only_typo)"),
    ([], "t = torch.zeros(3)"),
    (["import numpy as np"], "import numpy as np\nr = np.random.randint(0, len(src_images))"),
    # (an imported name counts as bound when the facts hold it, as the paper's recording does)
    (["from collections import OrderedDict"], "d = OrderedDict\nprint(missing)", {"OrderedDict": {"type": "<class 'type'>"}}),
    # IPython's display helpers and matplotlib's toolkits bind nothing else
    (["from IPython.display import Image, display\nfrom IPython.display import FileLink as link",
      "from mpl_toolkits import mplot3d"], "print(y)"),
]

TWINS = [
    # the same shapes where an executed cell binds the name: no claim, and the target runs clean
    (["import math\ny = 1"], "print(y)"),
    (["import numpy as np\ntf_idf = np.ones(2)"], "tf_idf.sum()"),
    (["def f():\n    global made\n    made = 1\nf()"], "print(made)"),
    (["import numpy as torch"], "t = torch.zeros(3)"),
    (["import numpy as np\nsrc_images = [1, 2]"], "import numpy as np\nr = np.random.randint(0, len(src_images))"),
    (["for missing in range(2):\n    pass"], "print(missing)"),
    # match captures bind too (the copy of the walk the replay's names came from had missed them)
    *[pytest.param(cells, target, marks=pytest.mark.skipif(sys.version_info < (3, 10), reason="match is 3.10+"))
      for cells, target in [
          (["match [1, 2]:\n    case [first, *rest]:\n        pass"], "print(first, rest)"),
          (["match {'a': 1}:\n    case {'a': a_val, **others}:\n        pass"], "print(a_val, others)")]],
]

DYNAMIC = [
    # cells that bind a name the parser cannot see: the target runs clean, and nothing is claimed
    ["globals()['y'] = 1"],
    ["exec('y = 1')"],
    ["import builtins\nbuiltins.y = 1"],
    ["vars()['y'] = 1"],
    ["import sys\nsys.modules['__main__'].__dict__['y'] = 1"],
    ["import sys\nsetattr(sys.modules['__main__'], 'y', 1)"],
    ["from math import *\ny = pi"],
    # through objects rather than names: frames, a function's globals, every object alive
    ["import sys\nsys._getframe(0).f_globals['y'] = 1"],
    ["import inspect\ninspect.currentframe().f_globals['y'] = 1"],
    ["def f(): pass\nf.__globals__['y'] = 1"],
    ["import sys\nframe = sys._getframe()\nns = frame.f_globals\nns['y'] = 1"],
    ["import sys\nsys._getframe().f_locals.update(y=1)"],
    ["import sys\nsys._getframe().f_builtins['y'] = 1"],
    ["import gc\n[d for d in gc.get_objects() if type(d) is dict and d.get('__name__') == '__main__' and d.get('gc') is gc][0]['y'] = 1"],
    ["import sys\nfrom operator import attrgetter\nattrgetter('f_glo' + 'bals')(sys._getframe())['y'] = 1"],
    ["import sys\nname = 'f_glo' + 'bals'\ngetattr(sys._getframe(), name)['y'] = 1"],
]

# cells that install code running with the target's own lines: the whole replay claims nothing
RUNS_WITH_TARGET = [
    "import sys\ndef tr(frame, event, arg):\n    frame.f_globals['y'] = 1\nsys.settrace(tr)",
    "import sys\nfrom sys import setprofile\nsetprofile(lambda *a: None)",
    "import threading\nthreading.settrace(print)",
    "get_ipython().events.register('pre_run_cell', lambda *a: None)",
    "import sys\nt = sys.monitoring\nt.use_tool_id(3, 'mine')",
    "def jump(frame, event, arg):\n    frame.f_lineno = 2\n    return jump",
]


@pytest.mark.parametrize("cells,target,facts", [case if len(case) == 3 else (*case, {}) for case in CLAIMED])
def test_a_name_no_executed_cell_binds_is_a_certain_name_error(cells, target, facts):
    assert _run(cells, target) == "NameError"
    o = run_checks_on_facts(target, facts, executed=cells)
    assert o.crash is not None and o.crash.exception == "NameError", o


@pytest.mark.parametrize("cells,target", TWINS)
def test_a_name_some_executed_cell_binds_is_not_claimed(cells, target):
    assert _run(cells, target) is None
    assert run_checks_on_facts(target, {}, executed=cells).crash is None


@pytest.mark.parametrize("cells", DYNAMIC)
def test_cells_that_bind_names_dynamically_leave_every_name_unknown(cells):
    assert _run(cells, "print(y)") is None
    assert read_executed(cells).dynamic is not None
    assert run_checks_on_facts("print(y)", {}, executed=cells).crash is None


@pytest.mark.parametrize("cell", RUNS_WITH_TARGET)
def test_code_installed_to_run_with_the_target_stops_the_replay(cell):
    assert read_executed([cell]).patches is not None
    assert run_checks_on_facts("print(y)", {}, executed=[cell]).crash is None


def test_a_trace_function_installed_by_an_executed_cell_really_defines_the_name():
    try:
        assert _run([RUNS_WITH_TARGET[0]], "print(y)") is None
    finally:
        sys.settrace(None)
    # its twin without the tracer: the same name is a certain NameError
    twin = ["import sys\ndef tr(frame, event, arg):\n    return None\nsys.getrecursionlimit()"]
    assert _run(twin, "print(y)") == "NameError"
    assert run_checks_on_facts("print(y)", {}, executed=twin).crash.exception == "NameError"


@pytest.mark.parametrize("cell", ["%run helper.py", "%store -r y", "%timeit y = 1", "import my_helpers",
                                  "get_ipython().user_ns['y'] = 1", "get_ipython().push({'y': 1})",
                                  "from my_utils import load", "import pyforest", "import IPython\nshell = IPython",
                                  "from IPython.display import Javascript\nJavascript('x')",
                                  "from IPython.display import display, HTML\ndisplay(HTML('<b>x</b>'))",
                                  "from IPython import get_ipython\nshell = get_ipython"])
def test_magics_and_modules_of_ones_own_make_the_names_unknown(cell):
    assert read_executed([cell]).dynamic is not None
    assert run_checks_on_facts("print(y)", {}, executed=[cell]).crash is None


def test_inert_magics_and_shell_commands_keep_the_names_known():
    cells = ["%matplotlib inline", "!pip install -q numpy", "%config InlineBackend.figure_format = 'svg'"]
    assert read_executed(cells).dynamic is None
    assert run_checks_on_facts("print(y)", {}, executed=cells).crash.exception == "NameError"


@pytest.mark.parametrize("name", ["_", "_5", "_i3", "__", "Out", "In", "get_ipython", "display", "aiter",
                                  "ExceptionGroup", "WindowsError", "__name__"])
def test_names_ipython_or_another_python_may_provide_are_never_claimed(name):
    assert run_checks_on_facts(f"print({name})", {}, executed=["x = 1"]).crash is None


def test_imports_bind_the_installed_module_only_when_nothing_else_binds_the_name():
    k = read_executed(["import numpy as np\nfrom os import path as osp", "import pandas as pd\npd = 3"])
    assert k.aliases == {"np": ("numpy", None), "osp": ("os", "path")}
    assert {"numpy", "os", "pandas"} <= k.modules
    nested = read_executed(["try:\n    import numpy as np\nexcept ImportError:\n    pass"])
    assert nested.aliases == {} and "numpy" not in nested.modules  # may not have run
    patched = read_executed(["import numpy as np\nnp.mean = len"])
    assert patched.aliases == {}  # the module was patched: its installed functions prove nothing
    via_param = read_executed(["import numpy as np\ndef patch(m):\n    m.mean = len\npatch(np)"])
    assert via_param.aliases == {}
    assert read_executed(["import numpy as np\nclass A:\n    def __init__(self):\n        self.v = 1"]).aliases


def test_a_module_the_recorded_kernel_loaded_imports_again_without_being_known():
    # `somepkg_not_here` is not installed in this process: importing it again still cannot fail,
    # so the NameError after it is certain; what the module holds stays unknown.
    cells = ["import somepkg_not_here"]
    k = read_executed(cells)
    assert "somepkg_not_here" in k.modules
    assert k.dynamic is not None  # an unknown module may be the user's own ...
    known = ["import cv2"]  # ... a well-known library is not
    ran = {"cv2": {"type": "<class 'module'>"}}  # (the facts show the import ran: it bound the name)
    o = run_checks_on_facts("import cv2\nimg = cv2.imread(path_missing)", ran, executed=known)
    assert o.crash is None  # `cv2.imread` is unknown: the reading stops before `path_missing`
    o = run_checks_on_facts("import cv2\nprint(path_missing)", ran, executed=known)
    assert o.crash is not None and o.crash.exception == "NameError" and o.crash.line == 2
    o = run_checks_on_facts("import cv2\nprint(path_missing)", {}, executed=known)
    assert o.crash is None  # (without it, the import may have failed: it may fail again)
    o = run_checks_on_facts("import cv2\nprint(path_missing)", {}, executed=["x = 1"])
    assert o.crash is None  # never imported before: the import itself may fail


def test_replay_leaves_version_dependent_library_behaviour_alone():
    # Recorded elsewhere, under other library versions: pandas 1.x took `read_csv(f, ',')`, and
    # scikit-learn before 1.3 took `max_features='auto'`. Only the installed versions reject them.
    pytest.importorskip("sklearn.ensemble")
    cells = ["import pandas as pd", "from sklearn.ensemble import RandomForestClassifier", "X = 1\ny = 2"]
    assert run_checks_on_facts("pd.read_csv('f.csv', ',')", {}, executed=cells).crash is None
    o = run_checks_on_facts("RandomForestClassifier(max_features='auto').fit(X, y)", {}, executed=cells)
    assert o.crash is None
    # A long-standing check (an unsupported solver / penalty pair) is taken across versions.
    cells.append("from sklearn.linear_model import LogisticRegression")
    # (X and y recorded: a name an executed cell binds but the facts do not have may not exist)
    facts = {"X": {"type": "<class 'int'>", "value": 1}, "y": {"type": "<class 'int'>", "value": 2},
             "LogisticRegression": {"type": "<class 'type'>"}}
    o = run_checks_on_facts("LogisticRegression(solver='liblinear', penalty='elasticnet').fit(X, y)", facts,
                            executed=cells)
    assert o.crash is not None and o.crash.exception == "ValueError"


# An executed cell that patched an installed library: the recorded facts describe the values, not
# what the patched library does with them, so the replay claims nothing (each cell below runs clean).
PATCHES = [
    "pd.DataFrame.__getitem__ = lambda self, key: 0",
    "pd.DataFrame.drop.__kwdefaults__['errors'] = 'ignore'",
    "setattr(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "D = pd.DataFrame\nD.__getitem__ = lambda self, key: 0",
    "import pandas.core.generic\npandas.core.generic.NDFrame.__getitem__ = lambda self, key: 0",
    "def patch(cls):\n    cls.__getitem__ = lambda self, key: 0\npatch(pd.DataFrame)",
    # Writes that reach the library other than through a name an import bound, and code run from strings.
    "exec('pd.DataFrame.__getitem__ = lambda self, key: 0')",
    "eval(compile('setattr(pd.DataFrame, \"__getitem__\", lambda self, key: 0)', '<s>', 'eval'))",
    "setattr(pd.DataFrame, '__get' + 'item__', lambda self, key: 0)",
    "setattr(*[pd.DataFrame, '__getitem__', lambda self, key: 0])",
    "for m in [pd.DataFrame]:\n    m.__getitem__ = lambda self, key: 0",
    "f = lambda m: setattr(m, '__getitem__', lambda self, key: 0)\nf(pd.DataFrame)",
    "type.__setattr__(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "vars(pd)['DataFrame'].__getitem__ = lambda self, key: 0",
    "getattr(pd, 'DataFrame').__getitem__ = lambda self, key: 0",
    "[setattr(m, '__getitem__', lambda self, key: 0) for m in (pd.DataFrame,)]",
    "class P:\n    def go(self, m):\n        m.__getitem__ = lambda self, key: 0\nP().go(pd.DataFrame)",
    "__import__('pandas').DataFrame.__getitem__ = lambda self, key: 0",
    "x = [pd.DataFrame]\nx[0].__getitem__ = lambda self, key: 0",
    "(m := pd.DataFrame).__getitem__ = lambda self, key: 0",
    "D, = [pd.DataFrame]\nD.__getitem__ = lambda self, key: 0",
    "import functools\nfunctools.partial(setattr, pd.DataFrame)('__getitem__', lambda self, key: 0)",
    "list(map(lambda m: setattr(m, '__getitem__', lambda self, key: 0), [pd.DataFrame]))",
    "def g(m=pd.DataFrame):\n    m.__getitem__ = lambda self, key: 0\ng()",
    "type.__setattr__(*[pd.DataFrame, '__getitem__'], lambda self, key: 0)",
    # `setattr` reached other than by calling the builtin on the spot, and tools that patch
    "import builtins\nbuiltins.setattr(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "s = setattr\ns(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "for f in [setattr]:\n    f(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "x = {'f': setattr}\nx['f'](pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "import builtins\nsa = getattr(builtins, 'setattr')\nsa(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "from builtins import setattr as s\ns(pd.DataFrame, '__getitem__', lambda self, key: 0)",
    "df.__class__.__getitem__ = lambda self, key: 0",
    "from unittest import mock\nmock.patch.object(pd.DataFrame, '__getitem__', lambda self, key: 0).start()",
]
# Patches the real-run test leaves out (the runner could not undo them), read statically only.
UNDOABLE_PATCHES = [
    "import gc\ngc.get_referents(pd.DataFrame.__dict__)[0]['__getitem__'] = lambda self, key: 0",
    "import ctypes\nctypes.pythonapi.PyType_Modified(ctypes.py_object(pd.DataFrame))",
    "().__class__.__base__.__subclasses__()[0].x = 1",
    "import operator\noperator.methodcaller('__setattr__', 'x', 1)(pd.DataFrame())",
]
SETTINGS = [  # what notebooks commonly write that changes no library behaviour: the claim stays
    "pd.options.display.max_rows = 5\npd.set_option('display.width', 120)",
    "import os\nos.environ['X_SETTING'] = '1'\nimport sys\nsys.path.append('.')",
    "import numpy as np\nnp.random.seed(0)\nframe = df\nframe.columns = ['a', 'b', 'c']",
    # a name that is both a library alias and, from then on, the notebook's own dict
    "from sklearn import metrics\nmetrics = {}\nmetrics['acc'] = 0.9",
    # a function given a module writes into another of its parameters
    "def train(model, data, mod):\n    data['x'] = 1\n    return model\ntrain(1, {}, np)",
    "models = [LinearRegression, LogisticRegression]\nmodels.append(StandardScaler)",
]


def _replayed(setups, cell):
    from exec_runner import run_batch
    from soundness_corpus import DF

    cases = [{"setup": DF + _SAVE + s, "cell": "df.drop(columns=['zz'])" if "drop" in s else cell, "replay": True,
              "replay_executed": True, "teardown": _UNDO} for s in setups]
    return run_batch(cases)


_SAVE = "_saved_getitem = pd.DataFrame.__getitem__\n_saved_kw = dict(pd.DataFrame.drop.__kwdefaults__)\n"
_UNDO = "pd.DataFrame.__getitem__ = _saved_getitem\npd.DataFrame.drop.__kwdefaults__.update(_saved_kw)\n"


def test_replay_claims_nothing_after_an_executed_cell_patched_a_library():
    setups = [p for p in PATCHES if "NDFrame" not in p]  # (the runner restores DataFrame's own patches)
    for setup, r in zip(setups, _replayed(setups, "df['zz']")):
        assert r["setup_error"] is None, (setup, r)
        assert r["raised"] is None, (setup, r)  # the patched frame answers: no KeyError
        assert r["replay_claim"] is None and r["claim"] is None, (setup, r)
        assert "changes an installed library" in (r["replay_stop"] or {}).get("reason", ""), (setup, r)


def test_settings_in_executed_cells_keep_the_replay_claims():
    for setup, r in zip(SETTINGS, _replayed(SETTINGS, "df['zz']")):
        assert r["raised"] is not None and r["raised"]["exception"] == "KeyError", (setup, r)
        assert r["replay_claim"] is not None and r["replay_claim"]["exception"] == "KeyError", (setup, r)


@pytest.mark.parametrize("cell", PATCHES + UNDOABLE_PATCHES)
def test_every_form_of_patch_is_read_as_one(cell):
    assert read_executed(["import pandas as pd\n" + cell]).patches is not None


def test_a_patch_through_a_function_defined_in_an_earlier_cell():
    """`def patch(m): m.x = ...` in one cell, `patch(pd.DataFrame)` (or a method of the same name)
    in a later one: the cells are read together."""
    assert read_executed(["import pandas as pd\ndef patch(m):\n    m.__getitem__ = 1\n",
                          "patch(pd.DataFrame)"]).patches is not None
    assert read_executed(["import pandas as pd\nclass P:\n    def go(self, m):\n        m.x = 1\n",
                          "P().go(pd.DataFrame)"]).patches is not None
    assert read_executed(["import pandas as pd", "get_ipython().run_cell('pd.DataFrame.x = 1')"]).patches is not None


@pytest.mark.parametrize("cell", [
    "df = pd.DataFrame({'a': [1]})\ndf['b'] = 2\ndf.loc[0, 'a'] = 3\ndf.columns = ['x', 'y']",
    "class M:\n    def __init__(self, a):\n        self.a = a\n        setattr(self, 'b', a)\nm = M(pd.DataFrame())",
    "lst = []\nlst.append(1)\nd = {}\nd['k'] = 1",
    "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.set_title('x')\nplt.rcParams['figure.figsize'] = (8, 4)",
    "def add(frame):\n    frame['c'] = 1\n    return frame\nadd(pd.read_csv('x.csv'))",
    "import torch\ntorch.backends.cudnn.benchmark = True\nimport sys\nsys.path.append('..')",
    # a module's functions named like a list's mutating methods, and methods named like builtins
    "import os\nos.remove('weights.h5')\nimport numpy as np\nnp.append(np.arange(3), 1)\nnp.sort(np.arange(3))",
    "import gc\ngc.collect()\nclass M:\n    def eval(self):\n        return self\nM().eval()\ndf = pd.DataFrame({'a': [1]})\ndf.eval('b = a + 1')",
])
def test_ordinary_notebook_writes_are_no_patch(cell):
    assert read_executed(["import pandas as pd\n" + cell]).patches is None


# The replay's precision: writes into the notebook's own containers, and parameters that receive
# no library object, are no patch; each hostile twin (the same shape reaching a library object) is.
PRECISE = [
    ("from sklearn import metrics\nmetrics = {}\nmetrics['acc'] = 0.9",
     "from sklearn import metrics\nmetrics = {}\nmetrics = pd.DataFrame\nmetrics.x = 0.9"),
    ("from sklearn import metrics\nif True:\n    metrics = {}\n    metrics['acc'] = 0.9",
     "from sklearn import metrics\nmetrics = {}\nfor i in range(2):\n    metrics['acc'] = 0.9\n    metrics = pd.DataFrame._metadata"),
    ("from sklearn import metrics\nmetrics = []\nmetrics.append(0.9)",
     "from sklearn import metrics\nmetrics = []\ndef f():\n    global metrics\n    metrics = pd.DataFrame._metadata\nf()\nmetrics.append(0.9)"),
    ("from sklearn import metrics\nmetrics = []\nmetrics.append(0.9)",
     "from sklearn import metrics\nmetrics = []\ng = lambda: metrics.append(0.9)\nmetrics = pd.DataFrame._metadata\ng()"),
    ("from sklearn import metrics\nmetrics = {}\nmetrics['a'] = 1",
     "from sklearn import metrics\nmetrics = {}\nmetrics['a'] = (metrics := pd.DataFrame._AXIS_TO_AXIS_NUMBER)"),
    ("def train(model, data, mod):\n    data['x'] = 1\ntrain(1, {}, np)",
     "def train(model, data, mod):\n    mod.x = 1\ntrain(1, {}, np)"),
    ("def train(model, data, mod):\n    data['x'] = 1\ntrain(1, {}, mod=np)",
     "def train(model, data, mod):\n    data['x'] = 1\ntrain(1, mod={}, data=pd.DataFrame._AXIS_TO_AXIS_NUMBER)"),
    ("def train(model, data, mod):\n    data['x'] = 1\ntrain(1, {}, np)",
     "def train(model, data, mod):\n    data['x'] = 1\ntrain(*[1, pd.DataFrame._AXIS_TO_AXIS_NUMBER], np)"),
    ("def train(model, data, mod):\n    data['x'] = 1\ntrain(1, {}, np)",
     "import functools\n@functools.wraps(print)\ndef train(model, data, mod):\n    data['x'] = 1\ntrain(1, {}, np)"),
    # (through an attribute the receiver may be a class or an instance: both bindings are read)
    ("class T:\n    def go(self, mod, data):\n        data['x'] = 1\nT().go(np, {})",
     "class T:\n    def go(self, data, mod):\n        mod.x = 1\nT().go({}, np)"),
    ("class T:\n    def go(self, mod, data):\n        data['x'] = 1\nT().go(np, {})",
     "class T:\n    def go(self, data, mod):\n        data['x'] = 1\ngo = T().go\ngo(pd.DataFrame._AXIS_TO_AXIS_NUMBER, 1)"),
    ("def f(*rest):\n    rest[0]['x'] = 1\nf({}, 1)", "def f(*rest):\n    rest[0]['x'] = 1\nf(1, np)"),
    ("models = [pd.DataFrame]\nmodels.append(1)", "models = [pd.DataFrame]\nmodels[0].x = 1"),
    ("models = [pd.DataFrame]\nmodels.append(1)", "models = pd.DataFrame._metadata\nmodels.append('_mgr')"),
    ("x = []\nx.append('_mgr')", "x = pd.DataFrame._metadata\nx.append('_mgr')"),
    ("def add(l):\n    l.append(1)\nadd([])", "def add(l):\n    l.append('_mgr')\nadd(pd.DataFrame._metadata)"),
    ("from sklearn import metrics\nmetrics = {}\nmetrics['acc'] = 0.9",
     "from sklearn import metrics\nmetrics = {}\nglobals()['metrics'] = pd.DataFrame\nmetrics.x = 0.9"),
    # a name only `import` binds holds a module: its `.remove` is a function, not a list's method
    ("import os\nos.remove('f.txt')", "import os\nos = pd.DataFrame._metadata\nos.remove('_mgr')"),
    ("import os\nos.remove('f.txt')", "import os\ndef f():\n    import os\nos = pd.DataFrame._metadata\nos.remove('_mgr')"),
]


@pytest.mark.parametrize("plain,hostile", PRECISE)
def test_the_notebooks_own_values_are_no_patch_and_their_hostile_twins_are(plain, hostile):
    assert read_executed(["import pandas as pd\nimport numpy as np\n" + plain]).patches is None
    assert read_executed(["import pandas as pd\nimport numpy as np\n" + hostile]).patches is not None


def test_a_library_container_changed_through_a_name_is_a_patch():
    """`x = pd.DataFrame._metadata; x.append('_mgr')` (or through a parameter) changes what pandas
    copies into every result: really run, `df2['b']` no longer raises KeyError; the replay claims nothing."""
    setups = ["_m = pd.DataFrame._metadata\n_m.append('_mgr')",
              "def _add(l):\n    l.append('_mgr')\n_add(pd.DataFrame._metadata)"]
    from exec_runner import run_batch
    from soundness_corpus import DF

    cases = [{"setup": DF + s, "cell": "df2 = df[['a']]\ndf2['b']", "replay": True, "replay_executed": True,
              "teardown": "pd.DataFrame._metadata.remove('_mgr')\n"} for s in setups]
    cases.append({"setup": DF, "cell": "df2 = df[['a']]\ndf2['b']", "replay": True, "replay_executed": True})
    *attacks, twin = run_batch(cases)
    for setup, r in zip(setups, attacks):
        assert r["setup_error"] is None and (r["raised"] or {}).get("exception") != "KeyError", (setup, r)
        assert r["replay_claim"] is None and r["claim"] is None, (setup, r)
    assert twin["replay_claim"] is not None and twin["raised"]["exception"] == "KeyError", twin


def test_an_accessor_registered_over_a_library_method_is_a_patch():
    """`@pd.api.extensions.register_dataframe_accessor('drop')` puts the notebook's class where
    `DataFrame.drop` was: really run, `df.drop(columns=['zz'])` no longer raises, and the replay
    claims nothing; the twin without the registration is claimed and raises KeyError."""
    from exec_runner import run_batch
    from soundness_corpus import DF

    patch = ("_saved_drop = pd.DataFrame.__dict__['drop']\nimport warnings\nwarnings.simplefilter('ignore')\n"
             "@pd.api.extensions.register_dataframe_accessor('drop')\nclass _Quiet:\n"
             "    def __init__(self, frame):\n        pass\n    def __call__(self, *a, **k):\n        return None\n")
    undo = "pd.DataFrame.drop = _saved_drop\npd.DataFrame._accessors.discard('drop')\nwarnings.resetwarnings()\n"
    attack, twin = run_batch([
        {"setup": DF + patch, "cell": "df.drop(columns=['zz'])", "replay": True, "replay_executed": True,
         "teardown": undo},
        {"setup": DF, "cell": "df.drop(columns=['zz'])", "replay": True, "replay_executed": True}])
    assert attack["setup_error"] is None and attack["raised"] is None, attack
    assert attack["replay_claim"] is None and "changes an installed library" in attack["replay_stop"]["reason"], attack
    assert twin["raised"]["exception"] == "KeyError" and twin["replay_claim"]["exception"] == "KeyError", twin


def test_cells_that_may_import_or_unpickle_code_of_their_own_leave_names_unknown():
    # (second red team, 3 Dec afternoon) a module imported from a string, unpickling, a class
    # passed off as a library's through a dict's '__module__', a magic's expanded argument
    for cell in ("df.plot(backend='mymod')", "pd.options.plotting.backend = 'mymod'", "plt.style.use('mymod.style')",
                 "import matplotlib\nmatplotlib.use('module://mymod')", "import logging.config\nlogging.config.dictConfig(c)",
                 "x = pd.read_pickle(p)", "import joblib\nm = joblib.load(p)", "from joblib import load",
                 "a = np.load(p, allow_pickle=True)", "pwd ['{x}']", "df.to_csv(out)",
                 "import zipfile\nzipfile.ZipFile(p).extractall()", "import pickle\nm = pickle.load(f)",
                 "import pickle as pk\nm = pk.loads(b)", "import shutil\nshutil.unpack_archive(p)",
                 "import subprocess\nsubprocess.run(c, shell=True)", "import IPython\nIPython.get_ipython()",
                 "import pickle\nload = getattr(pickle, 'lo' + 'ad')", "import pylab\npylab.plot([1])",
                 "!echo x > m.p''y", "import io\nio.FileIO(p, 'w')", "import sys\nsys.path.insert(0, '')"):
        assert read_executed([cell]).dynamic is not None, cell
    assert read_executed(["S = type('S', (B,), {'__module__': 'keras.src.models.sequential'})"]).written is None
    for cell in ("df.plot(kind='bar')", "plt.style.use('ggplot')", "a = np.load(p)", "pwd",
                 "df.to_csv('submission.csv', index=False)", "df = pd.read_csv('data/x.csv.zip')", "!pip install -q x"):
        assert read_executed([cell]).dynamic is None, cell
    # Imported under names no cell uses, such modules are reached through nothing the cells spell.
    for cells in (["import pickle\nimport shutil, subprocess", "x = 1"], ["import IPython"], ["import pylab as p"],
                  ["from IPython.display import Javascript"], ["from IPython import get_ipython"],
                  ["import zipfile as z", "print('done')"]):
        assert read_executed(cells).dynamic is None, cells
    assert read_executed(["for m in model.modules():\n    m.reset()"]).dynamic is None
    # a number constant of a library stored into the notebook's values patches nothing; a module does
    head = "import numpy as np\nimport pandas as pd\ndf = pd.read_csv('x.csv')\n"
    for body in ("df['Age'] = np.nan", "df.loc[df.Age > 5, 'Age'] = np.inf", "X = df.values\nX[0, 0] = np.pi"):
        assert read_executed([head + body]).patches is None, body
    for body in ("x = [0]\nx[0] = np.linalg\nx[0].norm = 1", "x = [0]\nx[0] = pd.DataFrame\nx[0].drop = None",
                 "x = [0]\nx[0] = np.nan.__class__\nx[0].real = 1"):
        assert read_executed([head + body]).patches is not None, body
    assert read_executed(["import sys\nt = sys.modules.get\nt('x')"]).dynamic is not None
    # ... unless a text spells the name (it may reach the module by it) or another cell uses it
    for cells in (["import pickle", "print('pickle')"], ["import shutil", "def f():\n    return shutil"]):
        assert read_executed(cells).dynamic is not None, cells


def test_cells_that_may_place_a_module_or_load_native_code_leave_names_unknown():
    # (third red team, 7 Dec) the os module's movers under other spellings, pathlib's unbound and
    # keyword forms, movers taken as values, library copiers and downloaders (a `file://` origin
    # is a local file), archives unpacked, native libraries loaded, a model repository's own code
    for cell in ("from os import rename\nrename(a, b)", "import os as o\no.renames(a, b)", "import os\nos.path.os.link(a, b)",
                 "from os import symlink", "import os\nmv = os", "import os\nf = getattr(os, 'rename')",
                 "from pathlib import Path\nPath.rename(Path(a), b)", "from pathlib import Path\nPath(a).rename(target=b)",
                 "from pathlib import Path\nmv = Path(a).replace", "from pathlib import Path\nw = Path.write_text",
                 "import torch\ntorch.hub.download_url_to_file(u, p)", "import tensorflow as tf\ntf.keras.utils.get_file(n, u)",
                 "import tensorflow as tf\ntf.keras.utils.get_file('d.zip', u, extract=True)",
                 "import tensorflow as tf\ntf.io.write_file(p, s)", "import tensorflow as tf\ntf.io.gfile.copy(a, b)",
                 "import tensorflow as tf\nf = tf.io.gfile.GFile(p, 'w')", "import numpy as np\nm = np.memmap(p, mode='w+')",
                 "import gdown\ngdown.download(u, out)", "import torch\ntorch.ops.load_library(p)",
                 "import tensorflow as tf\ntf.load_op_library(p)", "from torch.utils.cpp_extension import load_inline",
                 "from transformers import AutoModel\nm = AutoModel.from_pretrained(r, trust_remote_code=True)",
                 "from gensim.models import Word2Vec\nm = Word2Vec.load(p)", "import gensim.downloader as api",
                 # (third red team, second pass) a path as bytes, plotting backends named in other
                 # ways, shell commands and installs that place files, loaders reached by other names,
                 # Keras' unsafe loading, the import path by another name
                 "open(b'/tmp/x/wave.py', 'w').write('x')", "import pandas as pd\npd.set_option('plotting.backend', 'm')",
                 "import pandas as pd\npd.set_option('plotting.b', 'm')", "import matplotlib\nmatplotlib.use('mo' + 'dule://m')",
                 "import matplotlib.pyplot as plt\nplt.switch_backend(b)", "import matplotlib as mpl\nmpl.rcParams['backend'] = b",
                 "import os\nos.environ['MPLBACKEND'] = b", "open('matplotlibrc', 'w').write(t)",
                 "get_ipython().run_line_magic('matplotlib', ' module://m')",
                 "get_ipython().system('python -c \"print(1)\"')", "get_ipython().system('pip install --target /tmp/x a.whl')",
                 "get_ipython().run_line_magic('pip', 'install --no-index --target /tmp/pp x.whl')",
                 "get_ipython().system('kaggle datasets download -d x/y --unzip')",
                 "import joblib\nloader = joblib.load", "import joblib\njl = joblib", "import torch\nhub = torch.hub",
                 "import sklearn\nm = sklearn.utils.parallel.joblib.load(p)", "import numpy as np\nnp.load(p, **kw)",
                 "import keras\nm = keras.models.load_model(p, safe_mode=False)",
                 "import keras\nkeras.config.enable_unsafe_deserialization()", "import torch\nm = torch.package.PackageImporter(p)",
                 "from sys import path", "import sys as s", "import sys\nsys.path.append('/tmp/x')",
                 "from torch import jit\nm = jit.load(p)"):
        assert read_executed([cell]).dynamic is not None, cell
    # a plain word in a shell field is read as the line IPython runs: a command that places files
    for cells in (["CMD = 'cp -r /a/. /b/'", "get_ipython().system('{CMD}')"],
                  ["CMD = 'unzip'", "get_ipython().system('$CMD data.zip')"]):
        assert read_executed(cells).dynamic is not None, cells
    assert read_executed(["D = 'data'", "get_ipython().system('ls {D}')"]).dynamic is None
    # what notebooks commonly write with the same names stays plain
    for cell in ("df = df.rename(columns={'a': 'b'})", "s = s.str.replace(' ', '')", "df = df.replace(0, np.nan)",
                 "t = text.replace('a', 'b')", "import os\np = os.path.join(d, 'x.csv')\nfiles = os.listdir(d)",
                 "import tensorflow as tf\np = tf.keras.utils.get_file('flowers.tgz', 'https://x/flowers.tgz')",
                 "import nltk\nnltk.download('punkt')", "b = a.copy()", "m = AutoModel.from_pretrained('bert-base-uncased')",
                 "import pandas as pd\npd.set_option('display.max_columns', None)", "import matplotlib\nmatplotlib.use('Agg')",
                 "import pandas as pd\npd.set_option('display.float_format', lambda x: '%.3f' % x)",
                 "get_ipython().system('pip install -q xgboost==1.7 lightgbm')", "get_ipython().system('wget https://x/d.csv')",
                 "get_ipython().run_line_magic('pip', 'install -q xgboost')", "import keras\nm = keras.models.load_model(p)",
                 "import torch\nx = torch.tensor([1], dtype=torch.float32)"):
        assert read_executed([cell]).dynamic is None, cell


def test_library_objects_reached_through_returns_class_attributes_and_containers_are_patches():
    # (third red team, second pass) what a store writes into may be a library object handed back
    # by a function, kept in a class attribute, or passed through a builtin container
    for cell in ("def get():\n    return pd.DataFrame\nget().__getitem__ = f", "class K:\n    T = torch\nK.T.cat = f",
                 "class K:\n    pass\nk = K()\nk.T = torch\nk.T.cat = f", "def g():\n    yield torch\nnext(g()).cat = f",
                 "f = lambda: torch\nf().cat = g", "max([torch], key=id).cat = f", "dict(c=torch)['c'].cat = f",
                 "list(map(lambda m: m, [torch]))[0].cat = f", "os.environ.pd = pd\nos.environ.pd.DataFrame.__getitem__ = f",
                 "plt.rcParams.__class__.__setitem__ = f"):
        head = "import os\nimport torch\nimport pandas as pd\nimport matplotlib.pyplot as plt\n"
        assert read_executed([head + cell]).patches is not None, cell
    for cell in ("pd.options.display.max_rows = 100", "plt.rcParams['figure.figsize'] = (8, 6)", "os.environ['X'] = '1'",
                 "t = torch.tensor([1.0])\nt.requires_grad = True", "def load():\n    return pd.read_csv('x.csv')\n"
                 "df = load()\ndf.columns = ['a']", "from tensorflow.keras import layers\nfor layer in model.layers:\n"
                 "    layer.trainable = False"):
        head = "import os\nimport torch\nimport pandas as pd\nimport matplotlib.pyplot as plt\n"
        assert read_executed([head + cell]).patches is None, cell


def test_cells_that_may_leave_finalizing_garbage_get_no_claim_and_their_twins_keep_it():
    # Garbage of a class that runs code when freed (or of a generator that cleans up) is freed at any
    # collection, in the middle of the target: no claim of any kind then.
    for cell in ("class K:\n    def __del__(self):\n        pass\nk = K()", "import weakref\nweakref.finalize(a, f)",
                 "import io\nclass S(io.StringIO):\n    def close(self):\n        pass",
                 "def g():\n    try:\n        yield 1\n    finally:\n        pass\nit = g()\nnext(it)",
                 "setattr(K, name, f)", "x = eval(text)"):
        assert read_executed([cell]).garbage_may_run_code, cell
        assert run_checks_on_facts("print(zz)", {}, executed=[cell]).crash is None, cell
    for cell in ("model.eval()", "import matplotlib.pyplot as plt\nplt.close('all')", "def g():\n    yield 1"):
        assert not read_executed([cell]).garbage_may_run_code, cell
