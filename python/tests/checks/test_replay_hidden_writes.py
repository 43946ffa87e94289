"""Executed cells that change what the target meets in ways no assignment shows, each really run in
an IPython shell after the replay read it: the replay claims nothing where the cell runs clean,
and keeps its claim where the same cells, written plainly, leave the crash in place.

Found by a red-team pass over the replay (2 Dec): the builtins module reached through other
modules (`site.builtins`), code IPython evaluates inside `!` and magic arguments, transformers
installed on the shell, audit hooks, modules that run code given as text or by name, and objects
given code to run when they are freed. The harness records every name of `user_ns` as a fact, so
the hidden bindings here go through the builtins, which the facts do not list."""

from __future__ import annotations

import importlib.util
import tempfile

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from fuzzgen import verdict

DF = "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3]})"
UNDO = ("import builtins, sys\nbuiltins.__dict__.pop('y', None)\n"
        "for _m in ('emoji', 'tabulate', 'langdetect'):\n    sys.modules.pop(_m, None)")
SETS_Y = "__import__('builtins').__dict__.setdefault('y', 1)"
MODULE = ("import sys, os, tempfile\n_d = tempfile.mkdtemp()\n"
          "open(os.path.join(_d, 'crane_mod_y.py'), 'w').write('import builtins\\nbuiltins.y = 1\\n')\n")

NAMES_BOUND_OUT_OF_SIGHT = [
    "import builtins as b\nb.y = 1",
    "import site\nsite.builtins.y = 1",
    "import inspect\ninspect.builtins.y = 'a'",
    "import pydoc\npydoc.locate('builtins').y = 1",
    "import inspect\ninspect.getmodule(len).y = 1",
    "get_ipython().ns_table['builtin']['y'] = 1",
    f"get_ipython().system(\"echo {{{SETS_Y}}}\")",
    f"x = get_ipython().getoutput(\"echo {{{SETS_Y}}}\")",
    f"get_ipython().run_line_magic('pip', \"--version {{{SETS_Y}}}\")",
    f"get_ipython().run_line_magic('config', \"InteractiveShell.separate_in = {SETS_Y}\")",
    "import timeit\ntimeit.timeit('import builtins; builtins.y = 1', number=1)",
    "import code\ncode.InteractiveInterpreter().runsource('import builtins; builtins.y = 1')",
    MODULE + "sys.path.insert(0, _d)" + B + "from importlib import import_module\nimport_module('crane_mod_y')",
    MODULE + "from runpy import run_path\nrun_path(os.path.join(_d, 'crane_mod_y.py'))",
    # (second red-team pass, 2 Dec evening) a builtin's own module, and a thread that binds later
    "s = print.__self__.__setattr__\ns('y', 1)",
    "import functools\nfunctools.reduce(getattr, ['__self__', '__dict__'], print)['y'] = 1",
]

CLEAN_AFTER_HOOKS = [
    # (executed cells, target, teardown): the target runs clean, though `df` never had the column
    (DF + B + "get_ipython().input_transformers_post.append(lambda lines: [l.replace('zz', 'a') for l in lines])",
     "df['zz']", "get_ipython().input_transformers_post.pop()"),
    (DF + B + "import ast\nclass T(ast.NodeTransformer):\n    def visit_Constant(self, node):\n"
     "        return ast.Constant('a') if node.value == 'zz' else node\nget_ipython().ast_transformers.append(T())",
     "df['zz']", "get_ipython().ast_transformers.pop()"),
    (DF + B + "class K:\n    def __del__(self):\n        df['zz'] = 1\nk = K()", "k = None\ndf['zz']", ""),
    (DF + B + "class K:\n    def __del__(self):\n        df['zz'] = 1\nlst = [K()]", "del lst\ndf['zz']", ""),
    (DF + B + "import weakref\ndf2 = pd.DataFrame({'b': [1]})\nweakref.finalize(df2, df.insert, 1, 'zz', 0)",
     "df2 = 0\ndf['zz']", ""),
    (DF + B + "def g():\n    try:\n        yield 1\n    finally:\n        df['zz'] = 0\ngen = g()\nnext(gen)",
     "gen = None\ndf['zz']", ""),
    (DF + B + "import io\nclass K(io.StringIO):\n    def close(self):\n        df['zz'] = 0\n        super().close()\nk = K()",
     "k = None\ndf['zz']", ""),
    ("import threading\nthreading.Timer(0.2, lambda: __import__('builtins').__dict__.update(y=1)).start()",
     "import time\ntime.sleep(1.5)\nprint(y)", UNDO),
    ("import gettext\ngettext.install('app', names=['ngettext'])", "print(ngettext('a', 'b', 2))",
     "import builtins\nfor n in ('_', 'ngettext'):\n    builtins.__dict__.pop(n, None)"),
]

# (second red team, 3 Dec afternoon) a module written under a library's name by a writer of text
# files, into a directory on the path, then imported: it binds a builtin the target reads.
_DIR = tempfile.mkdtemp()
_SPOOF = "import builtins\nbuiltins.y = 1\n"
MODULES_WRITTEN = [
    f"import sys\nimport pandas as pd\nsys.path.append({_DIR!r})" + B +
    f"pd.DataFrame(columns=['import builtins;builtins.y=1']).to_csv({_DIR!r} + '/emoji.p' + 'y', index=False)" + B +
    "import emoji",
    f"import sys\nimport io\nsys.path.append({_DIR!r})" + B +
    f"f = io.FileIO({_DIR!r} + '/tabulate.p' + 'y', 'w')\nf.write({_SPOOF.encode()!r})\nf.flush()" + B + "import tabulate",
    f"import sys\nimport zipfile\nz = zipfile.ZipFile({_DIR!r} + '/a.zip', 'w')\n"
    f"z.writestr('langdetect.p' + 'y', {_SPOOF!r})\nz.close()" + B + f"sys.path.append({_DIR!r} + '/a.zip')" + B +
    "import langdetect",
    # a `.pth` file's import lines, run when the `site` module reads its directory
    f"open({_DIR!r} + '/crane_y.pth', 'w').write('import builtins; builtins.y = 1\\n')" + B +
    f"from site import addsitedir\naddsitedir({_DIR!r})",
    f"open({_DIR!r} + '/crane_y2.pth', 'w').write('import builtins; builtins.y = 1\\n')" + B +
    f"import site as s\ns.addsitedir({_DIR!r})",
    # a file opened for writing by a one-argument `.open` whose argument is the mode
    f"import sys\nfrom pathlib import Path\nsys.path.append({_DIR!r})\nm = 'w'\n"
    f"Path({_DIR!r} + '/crane_open_y.p' + 'y').open(m).write({_SPOOF!r})" + B + "import crane_open_y",
    # the table of modules itself, read and then called through another name
    "import sys\nm = sys.modules\nm['builtins'].y = 1",
    # the same modules, used
    "import pickle" + B + "import io\npickle.load(io.BytesIO(b'cbuiltins\\nexec\\n(Vimport builtins; builtins.y = 1\\ntR.'))",
    f"import subprocess" + B + f"subprocess.run(['sh', '-c', \"printf 'import builtins; builtins.y = 1' > {_DIR}/crane_sp_y.py\"])" + B +
    f"import sys\nsys.path.append({_DIR!r})\nimport crane_sp_y",
]
# (third red team, 7 Dec) a module moved into place by the os module under other spellings, by
# pathlib's unbound and keyword forms, by a method taken as a value, and by torch.hub's downloader
# reading a `file://` origin. Each case moves its own payload into its own directory on the path.
_PAYLOAD = "import builtins\nbuiltins.y = 1\n"


def _moved(mover: str, module: str) -> str:
    d = tempfile.mkdtemp()
    src = repr(d + "/payload.txt")
    return (f"import sys\nsys.path.append({d!r})\nopen({src}, 'w').write({_PAYLOAD!r})\n"
            f"dst = {d + '/' + module!r} + '.p' + 'y'" + B + mover.replace("src", src) + B + f"import {module}")


# A directory appended to the import path may hold a module named like a library the kernel did not
# have installed (here `emoji`, which none of these runs has).
_APPENDED = tempfile.mkdtemp()
with open(_APPENDED + "/emoji.py", "w") as _f:
    _f.write(_PAYLOAD)
MODULES_MOVED = [
    f"import sys\nsys.path.append({_APPENDED!r})" + B + "import emoji",
    f"from sys import path\npath.append({_APPENDED!r})" + B + "import emoji",
    _moved("from os import rename\nrename(src, dst)", "emoji"),
    _moved("import os as o\no.renames(src, dst)", "tabulate"),
    _moved("import os\nos.path.os.link(src, dst)", "langdetect"),
    _moved("from os import symlink\nsymlink(src, dst)", "emoji"),
    _moved("import os\nmv = os\nmv.replace(src, dst)", "tabulate"),
    _moved("from pathlib import Path\nPath.rename(Path(src), dst)", "langdetect"),
    _moved("from pathlib import Path\nPath(src).rename(target=dst)", "emoji"),
    _moved("from pathlib import Path\nmv = Path(src).replace\nmv(dst)", "tabulate"),
]
if importlib.util.find_spec("torch") is not None:  # (not installed beside every Python the suite runs on)
    MODULES_MOVED.append(_moved("import torch\ntorch.hub.download_url_to_file('file://' + src, dst, progress=False)",
                                "langdetect"))
NAMES_BOUND_OUT_OF_SIGHT += MODULES_WRITTEN + MODULES_MOVED

# The plain twins: the same targets after cells that change nothing of the kind keep their claims.
TWINS = [
    ("import math as b\nz = b.pi", "print(y)", "NameError"),
    ("get_ipython().system('echo plain')", "print(y)", "NameError"),
    ("get_ipython().run_line_magic('config', \"InlineBackend.figure_format = 'retina'\")", "print(y)", "NameError"),
    (DF + B + "class K:\n    pass\nk = K()", "k = None\ndf['zz']", "KeyError"),
    # a PyTorch checkpoint's name (`.pth`) is no module: written where nothing reads it as one
    (f"open({_DIR + '/model.pth'!r}, 'w').write('import builtins; builtins.y = 1\\n')", "print(y)",
     "NameError"),
    ("url = 'https://download.pytorch.org/models/googlenet-1378be20.pth'", "print(y)", "NameError"),
    # an image opened by PIL at a computed path (PIL's `open` only reads)
    (f"import numpy as np\nfrom PIL import Image\np = {_DIR!r} + '/img.png'\n"
     "Image.fromarray(np.zeros((2, 2), dtype='uint8')).save(p)\nim = Image.open(p)", "print(y)", "NameError"),
    # a model's layers (`model.modules()`, called): some object's method, not `sys.modules`
    ("class Net:\n    def modules(self):\n        return [self]\nfor m in Net().modules():\n    pass", "print(y)",
     "NameError"),
    # a library's number constants written into the notebook's own values (no library object)
    ("import numpy as np\nimport pandas as pd\nimport math\ndf = pd.DataFrame({'Age': [1.0, 2.0]})\n"
     "df['Age'] = np.nan\ndf.loc[df.Age > 5, 'Age'] = np.inf\nX = df.values.copy()\nX[0, 0] = math.pi",
     "df['zz']", "KeyError"),
    # a model pickled out: only pickle's loaders run what they are given
    (f"import pickle\nwith open({_DIR + '/m.pkl'!r}, 'wb') as f:\n    pickle.dump({{'a': 1}}, f, "
     "protocol=pickle.HIGHEST_PROTOCOL)\nb = pickle.dumps([1])", "print(y)", "NameError"),
    # modules that run code or place files, imported under names no cell uses
    ("import pickle\nimport shutil, subprocess\nimport IPython" + B + "x = 1", "print(y)", "NameError"),
]


def _cases():
    cases = [{"setup": cell, "cell": "print(y)", "teardown": UNDO} for cell in NAMES_BOUND_OUT_OF_SIGHT]
    cases += [{"setup": s, "cell": c, "teardown": t} if t else {"setup": s, "cell": c} for s, c, t in CLEAN_AFTER_HOOKS]
    cases += [{"setup": s, "cell": c} for s, c, _ in TWINS]
    return [dict(case, replay=True, replay_executed=True) for case in cases]


@pytest.fixture(scope="module")
def results():
    return run_batch(_cases())


def test_hidden_writes_run_clean_and_get_no_replay_claim(results):
    n = len(NAMES_BOUND_OUT_OF_SIGHT) + len(CLEAN_AFTER_HOOKS)
    for case, r in zip(_cases()[:n], results[:n]):
        assert r["setup_error"] is None and r["checker_error"] is None, (case, r)
        assert r["raised"] is None, (case, r["raised"])  # the cell really runs clean
        assert r["replay_claim"] is None, (case, r["replay_claim"])
        assert verdict(r) != "false-claim", (case, r["claim"])


def test_the_plain_twins_keep_their_claims(results):
    n = len(NAMES_BOUND_OUT_OF_SIGHT) + len(CLEAN_AFTER_HOOKS)
    for (setup, cell, exception), r in zip(TWINS, results[n:]):
        assert r["raised"] is not None and r["raised"]["exception"] == exception, (cell, r)
        assert verdict(r, key="replay_claim") == "caught", (setup, r["replay_claim"], r.get("replay_stop"))


def test_executed_cells_that_set_process_state_leave_the_replay_without_a_claim():
    # Warning filters, NumPy's error handling and the digit limit are the recording kernel's: the
    # replay would read its own process's (`1 is 1` is a SyntaxError under an 'error' filter). A
    # recursion limit set low makes the target overflow first (tests/kernel/test_deep_cells.py runs it).
    from crane_llm.checks import run_checks_on_facts

    target = "x = 1 + 1\nprint(undefined_zz)"
    warns = run_checks_on_facts("x = 1 is 1\nprint(undefined_zz)", {}, executed=["import warnings\nx = 1"],
                                names_complete=False)
    assert warns.crash is None and "compiling this cell warns" in warns.stopped_at.reason, warns
    for cell in ("import warnings\nwarnings.simplefilter('error')", "import numpy as np\nnp.seterr(all='raise')",
                 "import sys\nsys.set_int_max_str_digits(0)", "import warnings\nwarnings.filterwarnings('error')",
                 "from sys import setrecursionlimit as limit\nlimit(40)"):
        o = run_checks_on_facts(target, {}, executed=[cell], names_complete=False)
        assert o.crash is None, (cell, o.crash)
    for cell in ("import warnings\nx = 1", "import warnings\nwarnings.filterwarnings('ignore')",
                 "import numpy as np\nnp.seterr(all='ignore')", "import warnings\nwarnings.simplefilter(action='ignore')"):
        # (settings that only quieten turn nothing into an exception: the claim stays)
        o = run_checks_on_facts(target, {}, executed=[cell], names_complete=False)
        assert o.crash is not None and o.crash.exception == "NameError", (cell, o)


def test_a_set_of_recorded_text_is_never_iterated_in_the_checkers_order():
    # The recording kernel hashed its strings with its own seed: which of '0' and 'a' comes first
    # there is unknown, so neither ZeroDivisionError nor ValueError is certain.
    from crane_llm.checks import run_checks_on_facts

    facts = {"s": {"type": "<class 'str'>", "value": "a0"}}
    for cell in ("for ch in set(s):\n    1 / int(ch)", "[1 / int(ch) for ch in set(s)]"):
        o = run_checks_on_facts(cell, facts)
        assert o.crash is None and "set" in o.stopped_at.reason, o


def test_nested_loops_in_the_replay_end_within_its_time_budget():
    import time

    from crane_llm.checks import REPLAY_SECONDS, run_checks_on_facts

    started = time.monotonic()
    o = run_checks_on_facts("for i in range(2000):\n    for j in range(2000):\n        for k in range(2000):\n"
                            "            pass", {})
    assert o.crash is None and "time budget" in o.stopped_at.reason, o
    assert time.monotonic() - started < REPLAY_SECONDS + 5


def test_a_timed_cell_binds_what_its_code_binds():
    # `%%time` and `%time stmt` run the code in the notebook's namespace, as the replay reads them;
    # `%%timeit` runs it in a function, many times: names stay unknown there.
    cases = [("%%time\nmodel_a = 1\nz = 2", "print(model_a, z)", None),
             ("%%time\nmodel_a = 1", "print(modle_a)", "NameError"),
             ("%time model_b = 3", "print(model_b)", None),
             ("%time w = 1", "print(undefined_w)", "NameError"),
             ("%%timeit -n1 -r1\nmodel_c = 1", "print(undefined_c)", "unknown")]
    runs = [{"setup": "", "shell": shell, "cell": cell, "replay": True, "replay_executed": True,
             "teardown": "for _n in ('model_a', 'z', 'model_b', 'w', 'model_c'):\n    globals().pop(_n, None)"}
            for shell, cell, _ in cases]
    for (shell, cell, expected), r in zip(cases, run_batch(runs)):
        assert r["setup_error"] is None and r["checker_error"] is None, (shell, r)
        if expected is None:
            assert r["raised"] is None and r["replay_claim"] is None, (shell, r)
        elif expected == "unknown":
            assert r["raised"]["exception"] == "NameError" and r["replay_claim"] is None, (shell, r)
        else:
            assert r["raised"]["exception"] == expected, (shell, r)
            assert verdict(r, key="replay_claim") == "caught", (shell, r["replay_claim"], r.get("replay_stop"))


def _field_of_a_parameter(definition: str, function: str, module: str) -> str:
    d = tempfile.mkdtemp()
    return (f"import sys\nsys.path.append({d!r})\nD = 'data'\n{definition}" + B +
            f"{function}(\"printf 'import builtins; builtins.y = 1' > {d}/{module}.p\" + 'y')" + B + f"import {module}")


def test_a_shell_field_holding_a_plain_word_binds_nothing():
    # `!echo {D} $D`, D bound once to a plain word, is `!echo data data`; an expression there, a
    # class whose formatting writes a builtin, or a field holding a whole command binds one.
    fmt = ("import builtins\nclass S:\n    def __format__(self, spec):\n        builtins.y = 1\n        return 's'\n"
           "s = S()" + B + "!echo {s}")
    cases = [{"setup": "x = 0", "shell": "D = 'data'" + B + "!echo {D} $D", "cell": "print(y)"},
             {"setup": "x = 0", "shell": fmt, "cell": "print(y)", "teardown": UNDO},
             {"setup": "x = 0", "shell": "!echo {__import__('builtins').__dict__.setdefault('y', 1)}",
              "cell": "print(y)", "teardown": UNDO},
             # a field holding a whole command, which copies a module under a library's name where a
             # later import finds it
             {"setup": "x = 0", "shell": f"import sys\nsys.path.append({_DIR!r})\n"
              f"with open({_DIR + '/src.txt'!r}, 'w') as f:\n    f.write('import builtins; builtins.y = 1')" + B +
              "cmd = 'cp ' + " + repr(_DIR + "/src.txt ") + " + " + repr(_DIR + "/emoji.p") + " + 'y'" + B +
              "!{cmd}" + B + "import emoji", "cell": "print(y)", "teardown": UNDO},
             # (third red team, 7 Dec) a parameter of the same name: IPython expands the field from
             # the function's locals, so the plain word bound at top level is not what it holds
             {"setup": "x = 0", "shell": _field_of_a_parameter("def f(D):\n    !{D}", "f", "emoji"),
              "cell": "print(y)", "teardown": UNDO},
             {"setup": "x = 0", "shell": _field_of_a_parameter("f = lambda D: get_ipython().system('$D')", "f",
                                                               "tabulate"),
              "cell": "print(y)", "teardown": UNDO}]
    plain, *bound = run_batch([dict(c, replay=True, replay_executed=True) for c in cases])
    assert verdict(plain, key="replay_claim") == "caught", (plain["replay_claim"], plain.get("replay_stop"))
    for r in bound:
        assert r["setup_error"] is None and r["raised"] is None, r  # the target runs clean
        assert r["replay_claim"] is None, r["replay_claim"]


SHOWING_MAGICS_THAT_WRITE = """
import os, sys
sys.path.insert(0, '')  # (the notebook's folder, as a kernel started there has it)
from IPython.core.interactiveshell import InteractiveShell
sh = InteractiveShell.instance()
os.makedirs('dd', exist_ok=True)
open('dd/import builtins;builtins.zz=1', 'w').close()
for cell in {cells!r}:
    sh.run_cell(cell, store_history=True)
print('@@', sh.run_cell('zz', store_history=True).result)
"""


def test_a_showing_magic_that_writes_a_module_leaves_the_replay_without_a_claim():
    # `ls` with a redirection, `history -f` (which with `-o` writes the outputs' text too) and a
    # shell line chained after `%pip` write a module a later import runs: `zz` is then defined.
    import subprocess
    import sys

    from crane_llm.checks import run_checks_on_facts

    histories = [["ls -1 dd>tabulate.py", "import tabulate"],
                 ["%pip --version; echo 'import builtins;builtins.zz=1' > tabulate.p''y", "import tabulate"]]
    for cells in histories:
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run([sys.executable, "-c", SHOWING_MAGICS_THAT_WRITE.format(cells=cells)], cwd=tmp,
                                  capture_output=True, text=True, timeout=120)
        assert "@@ 1" in proc.stdout, (cells, proc.stdout[-800:], proc.stderr[-800:])  # (it really runs clean)
        o = run_checks_on_facts("zz", {}, executed=cells, names_complete=False)
        assert o.crash is None, (cells, o.crash)
    o = run_checks_on_facts("zz", {}, executed=["history -o -ftabulate.py", "import tabulate"], names_complete=False)
    assert o.crash is None, o.crash
    # (the same magics that only show keep the claim)
    o = run_checks_on_facts("zz", {}, executed=["ls -1", "history", "%pip install seaborn -q", "import seaborn"],
                            names_complete=False)
    assert o.crash is not None and o.crash.exception == "NameError", o


def test_lines_the_shell_runs_as_magics_inside_timed_or_stored_cells_leave_the_replay_without_a_claim(tmp_path):
    """(fifth red team, 7 Dec) `%time` hands its statement to the shell's own transforms, so
    `%time run -i x.py` inside a longer cell runs a script into the namespace, and so does
    `time %run -i x.py`; `store -r` (storemagic, loaded by every IPython app) restores stored
    variables. A class named by `namedtuple(..., module='numpy')` prints as NumPy's."""
    helper = tmp_path / "helper.py"
    helper.write_text("import builtins\nbuiltins.zz_helper = 1\nlst[0] = 0\n")
    undo = "import builtins\nbuiltins.__dict__.pop('zz_helper', None)"
    cases = [
        dict(setup="lst = [5]\nx = [1, 2]", shell=f"import os\n%time run -i {helper}", cell="zz_helper", teardown=undo),
        dict(setup="lst = [5]\nx = [1, 2]", shell=f"import os\n%time run -i {helper}", cell="x[lst[0]]", teardown=undo),
        dict(setup="lst = [5]\nx = [1, 2]", shell=f"time %run -i {helper}", cell="zz_helper", teardown=undo),
        dict(setup="lst = [5]\nx = [1, 2]", shell=f"timeit -n1 -r1 %run -i {helper}", cell="zz_helper", teardown=undo),
        dict(setup="from collections import namedtuple\nArr = namedtuple('ndarray', 'flatten_all n', module='numpy')\n"
                   "arr = Arr(lambda: [1], 2)", cell="arr.flatten_all()"),
    ]
    twins = [dict(setup="lst = [5]\nx = [1, 2]", shell="import os\n%time y = 1", cell="x[lst[0]]")]
    if importlib.util.find_spec("torch") is not None:
        cases.append(dict(setup="import torch\nfrom collections import namedtuple\n"
                                "T = namedtuple('Tensor', 'shape dtype device requires_grad', module='torch')\n"
                                "t = T((2, 3), 'torch.float32', 'cpu', False)\nu = T((4, 5), 'torch.float32', 'cpu', False)",
                          cell="v = t + u"))
        twins.append(dict(setup="import torch\nt = torch.zeros(2, 3)\nu = torch.zeros(4, 5)", cell="v = t + u"))
    results = run_batch([dict(c, replay=True, replay_executed=True) for c in cases + twins])
    for case, r in zip(cases, results):
        assert r["setup_error"] is None and r["checker_error"] is None, (case, r)
        assert r["raised"] is None, (case, r["raised"])
        assert r["replay_claim"] is None, (case, r["replay_claim"])
    for case, r in zip(twins, results[len(cases):]):
        assert verdict(r, key="replay_claim") == "caught", (case, r["replay_claim"], r.get("replay_stop"))
    from crane_llm.checks.recorded_kernel import read_executed
    assert read_executed(["import os", "store -r"]).dynamic is not None
    assert read_executed(["import os", "who"]).dynamic is None
