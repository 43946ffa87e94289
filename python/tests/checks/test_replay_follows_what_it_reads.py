"""The replay follows what it can read (fifth red team, 3 Dec). An executed cell may reach code or
a namespace by routes no list of spellings names: a standard module that writes into the module a
string names (`enum.global_enum`), evaluates annotations (`inspect`, `singledispatch`, `typing`'s
private `_evaluate`), unpickles under another module's name (`pd.io.pickle.pickle`, `_pickle`,
`multiprocessing.reduction`, NumPy's `allow_pickle` by position), a query text that calls through
a name, a thread started by `run_in_executor` / `_thread.start_new` / `multiprocessing.dummy`, a
dtype computed from text (`astype('Spa' + 'rse[str]')`). The replay now follows only the standard
modules notebooks use and no private attribute, and takes a submodule as loaded in the recorded
kernel only when it surely is (`checks/bare_imports.py`). Each target runs for real in a kernel of
its own: the replay claims nothing, or exactly what it raised. Twins keep their claims."""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

from kernel_apart import claims_only_what_raises, claims_what_raises, record_and_run, replay

# (executed cells, target, seconds between the facts and the target)
CASES = [
    (["import enum\nC = enum.IntEnum('C', {'zz': 1}, module='built' + 'ins')\nenum.global_enum(C)"],
     'zz\n1/0', 0),
    (["import pandas as pd\npd.io.pickle.pickle.loads(b'cbuiltins\\nsetattr\\n(cbuiltins\\n__import__\\n(Vbuiltins\\ntRVzz\\nI5\\ntR.')"],
     'zz\n1/0', 0),
    (["import multiprocessing.reduction as r\nr.ForkingPickler.loads(b'cbuiltins\\nsetattr\\n(cbuiltins\\n__import__\\n(Vbuiltins\\ntRVzz\\nI5\\ntR.')"],
     'zz\n1/0', 0),
    (["import _pickle\n_pickle.loads(b'cbuiltins\\nsetattr\\n(cbuiltins\\n__import__\\n(Vbuiltins\\ntRVzz\\nI5\\ntR.')"],
     'zz\n1/0', 0),
    (['import typing\ntyping.ForwardRef("__builtins__.__setitem__(\'zz\', 1) or int")._evaluate(None, None, frozenset())'],
     'zz\n1/0', 0),
    (['import inspect\ndef f(x: "setattr(__import__(\'builtins\'), \'zz\', 1) or int"):\n    pass\ninspect.get_annotations(f, eval_str=True)'],
     'zz\n1/0', 0),
    (['import inspect\ndef f(x: "setattr(__import__(\'builtins\'), \'zz\', 1) or int"):\n    pass\ninspect.signature(f, eval_str=True)'],
     'zz\n1/0', 0),
    (['from functools import singledispatch\n@singledispatch\ndef f(x):\n    pass\n@f.register\ndef g(x: "setattr(__import__(\'builtins\'), \'zz\', 1) or int"):\n    pass'],
     'zz\n1/0', 0),
    (['import sympy\nsympy.sympify("__import__(\'builtins\').__dict__.update(zz=1)")'],
     'zz\n1/0', 0),
    (["import numpy as np\nimport enum\nC = enum.IntEnum('C', {'zeros_typo': 1}, module='num' + 'py')\nenum.global_enum(C)"],
     'np.zeros_typo\n1/0', 0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})", "import asyncio, time\ndef f():\n    time.sleep(0.3)\n    df['b'] = 1\nasyncio.get_event_loop().run_in_executor(None, f)"],
     "df['b']", 1.0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})", "import _thread, time\ndef f():\n    time.sleep(0.3)\n    df['b'] = 1\n_thread.start_new(f, ())"],
     "df['b']", 1.0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})", "from multiprocessing.dummy import Process\nimport time\ndef f():\n    time.sleep(0.3)\n    df['b'] = 1\nProcess(target=f).start()"],
     "df['b']", 1.0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf.to_html()"],
     'pd.io.formats.html\n1/0', 0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nprint(df)"],
     'pd.io.formats.string\n1/0', 0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf.style.highlight_max()"],
     'isinstance(df, pd.io.formats.style.Styler)\n1/0', 0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nd = df.to_dict()"],
     'pd.core.methods.to_dict\n1/0', 0),
    (["import io, warnings\nwarnings.simplefilter('ignore')\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\nc,3,7\\n'))", "import argparse\nimport numpy as np\nn = 'bonus'.upper()\nargparse._StoreAction([], n)(None, df, np.zeros(0))\ndf[n] = 1"],
     'n = df.BONUS.shape[0]\n[1, 2, 3][n]', 0),
    (["open('p.pkl', 'wb').write(b'cbuiltins\\nsetattr\\n(cbuiltins\\n__import__\\n(Vbuiltins\\ntRVzz\\nI5\\ntR.')\nimport numpy as np\nobj = np.load('p.pkl', None, True)"],
     'zz\n1/0', 0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf.query('@pd.__builtins__.update(zz=1) is None', engine='python')"],
     'zz\n1/0', 0),
    (["import io, warnings\nwarnings.simplefilter('ignore')\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\nc,3,7\\n'))", "df.columns = df.columns.astype('Spa' + 'rse[str]')"],
     'n = df.Salary.shape[0]\n[1, 2, 3][n]', 0),
    (["import io, warnings\nwarnings.simplefilter('ignore')\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\nc,3,7\\n'))", "df.columns = df.columns.astype('Spar' 'se[str]')"],
     'n = df.Salary.shape[0]\n[1, 2, 3][n]', 0),
    (["import io, warnings\nwarnings.simplefilter('ignore')\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\nc,3,7\\n'))", "df.columns = df.columns.astype('Spa' + 'rse[str]')"],
     "df.Salary\ndf['zz']", 0),
    (["import logging.config\nb = logging.config.BaseConfigurator({}).resolve('built' + 'ins')\nb.zz = 1"],
     'zz\n1/0', 0),
    (["import numpy as np\nimport enum\nenum.global_enum(enum.Enum('E', {'flo' + 'at': 1.0}, module='num' + 'py'))"],
     'x = np.float\n1/0', 0),
]

TWINS = [
    # the standard modules notebooks use leave names known
    (["import os, re, glob, math, random, warnings, collections, itertools, json\nx = 1"], "zz\n1/0", "NameError", 1),
    # a submodule an executed cell imported, or one NumPy's own `__getattr__` imports on first use
    (["import matplotlib.pyplot as plt\nimport matplotlib"], "matplotlib.pyplot.zz_missing\n1/0", "AttributeError", 1),
    (["import numpy as np"], "np.random.zz_missing\n1/0", "AttributeError", 1),
    # a module attribute that no submodule file could provide
    (["import pandas as pd"], "pd.io.formats.zz_missing\n1/0", "AttributeError", 1),
    # dtypes written out do not hide the column
    (["import io, warnings\nwarnings.simplefilter('ignore')\nimport pandas as pd\n"
      "df = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\nc,3,7\\n'))\n"
      "df['last'] = df['last'].astype('float64')"], "n = df.Salary.shape[0]\n[1, 2, 3][n]", "IndexError", 2),
]


@pytest.mark.parametrize("executed, target, pause", CASES)
def test_the_replay_claims_nothing_the_target_does_not_raise(executed, target, pause):
    if "sympy" in executed[0]:
        pytest.importorskip("sympy")
    claims_only_what_raises(executed, target, pause)


def test_a_row_drop_of_a_frame_numpy_unpickled_is_not_run_again(tmp_path):
    """Overlapping intervals: the drop raised InvalidIndexError, not KeyError, and will again."""
    s = pd.Series([0, 10])
    path = tmp_path / "iv.pkl"
    path.write_bytes(pickle.dumps(pd.concat([s.value_counts(bins=2), s.value_counts(bins=3)]).to_frame()))
    executed = [f"import numpy as np\nimport pandas as pd\ndf = np.load({str(path)!r}, None, True)",
                "df.drop(1, inplace=True)"]
    kernel = record_and_run(executed, "df.drop(1, inplace=True)")
    assert kernel["raised"]["exception"] == "InvalidIndexError", kernel
    outcome = replay(executed, kernel["facts"], "df.drop(1, inplace=True)")
    assert outcome.crash is None, outcome


@pytest.mark.parametrize("executed, target, exception, line", TWINS)
def test_twins_keep_their_claims(executed, target, exception, line):
    claims_what_raises(executed, target, exception, line)


def test_a_submodule_this_process_loaded_is_not_taken_as_the_kernels():
    """`import matplotlib` alone binds no `pyplot` in the kernel, though the replay's process (as
    bench/junobench's preloads it) holds one: nothing is claimed past that read."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot  # noqa: F401

    executed, target = ["import matplotlib as mpl"], "fig = mpl.pyplot.figure()\n1/0"
    kernel = record_and_run(executed, target)
    assert kernel["raised"] == {"exception": "AttributeError", "line": 1}, kernel
    assert replay(executed, kernel["facts"], target).crash is None
