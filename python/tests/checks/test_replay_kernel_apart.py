"""The replay against a kernel in another process (fourth red team, 3 Dec), as JunoBench has it:
imports that failed or never ran (their cell raised first), a library patched by a library function
that writes into what it is given (`update_wrapper`, `parse_args(argv, np)`), unpickling under an
alias, a row drop that raised something other than KeyError, code that runs later on a timer, a
pool's callback or the event loop, and `import a.b as m` bound as Python binds it. Each target runs
for real in that kernel: the replay claims nothing, or exactly what it raised. Twins keep theirs."""

from __future__ import annotations

import pandas  # noqa: F401  (the replay's process has the libraries loaded, as bench/junobench's has)
import pytest

from kernel_apart import claims_only_what_raises, claims_what_raises, record_and_run, replay

PICKLE_SETTING_BUILTIN = ("open('p.pkl', 'wb').write(b'cbuiltins\\nsetattr\\n(cbuiltins\\n__import__\\n"
                          "(Vbuiltins\\ntRVzz\\nI5\\ntR.')\n")

FRAME_CSV = "import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO('labels,Salary,last\\na,1,5\\nb,2,6\\n'))"

# (executed cells, target, seconds between the facts and the target)
CASES = [
    # an import that failed, then the same import in the target
    (["import sklearn.externals.joblib as joblib"], "import sklearn.externals.joblib as joblib\n1/0", 0),
    (["import pandas.nonexistent_zz"], "import pandas.nonexistent_zz\nx = [1]\nx[5]", 0),
    # a name only a failed import binds, or an import in a cell that raised before it
    (["import numpy.nonexistent_zz as q"], "q\n1/0", 0),
    (["import sklearn.nonexistent_zz"], "sklearn\n1/0", 0),
    (["import sklearn.externals.joblib"], "joblib = sklearn.externals.joblib\n1/0", 0),
    (["1/0\nimport numpy as np"], "np\n1/0", 0),
    # a library function writing into the module it is given
    (["import numpy as np\nimport functools\nclass K: pass\nk = K()\nk.zeros_typo = 1\nfunctools.update_wrapper(np, k)"],
     "np.zeros_typo\n1/0", 0),
    (["import numpy as np\nimport argparse\np = argparse.ArgumentParser()\np.add_argument('--zeros_typo')\n"
      "p.parse_args(['--zeros_typo', '1'], np)"], "np.zeros_typo\n1/0", 0),
    (["import numpy as np\nimport functools\ndef f(): pass\nf.zeros_typo = 1\nfunctools.wraps(f)(np)"],
     "np.zeros_typo\n1/0", 0),
    (["import pandas as pd\nfrom functools import update_wrapper\nclass K: pass\nk = K()\nk.read_csvv = 1\n"
      "update_wrapper(pd, k)"], "df = pd.read_csvv\n1/0", 0),
    # unpickling through an alias or a submodule
    ([PICKLE_SETTING_BUILTIN + "import joblib as jl\nobj = jl.load('p.pkl')"], "zz\n1/0", 0),
    ([PICKLE_SETTING_BUILTIN + "import joblib as jl\nobj = jl.load('p.pkl')"], "x = [1]\nx[zz]", 0),
    ([PICKLE_SETTING_BUILTIN + "from joblib import numpy_pickle\nobj = numpy_pickle.load('p.pkl')"], "zz\n1/0", 0),
    ([PICKLE_SETTING_BUILTIN + "import pickle\nobj = pickle.loads(open('p.pkl', 'rb').read())"], "zz\n1/0", 0),
    # a row drop that raised InvalidIndexError (overlapping intervals), run again
    (["import pandas as pd\ns = pd.Series([0, 10])\n"
      "df = pd.concat([s.value_counts(bins=2), s.value_counts(bins=3)]).to_frame()", "df.drop(1, inplace=True)"],
     "df.drop(1, inplace=True)", 0),
    # code that runs after the facts were taken: a timer's signal handler, a pool's callback
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})",
      "import signal\ndef h(signum, frame):\n    df['b'] = df['a'] * 2\nsignal.signal(signal.SIGALRM, h)\n"
      "signal.setitimer(signal.ITIMER_REAL, 0.3)"], "df['b']", 1.0),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})",
      "import time\nfrom multiprocessing.pool import ThreadPool\ndef cb(result):\n    df['b'] = df['a'] * 2\n"
      "pool = ThreadPool(1)\nr = pool.apply_async(time.sleep, (0.3,), callback=cb)"], "df['b']", 1.0),
    # `import a.b as m` binds what `a` holds as `b` (here a dict, not the submodule)
    (["import seaborn.colors.xkcd_rgb as xk"], "xk.xkcd_rgb\n1/0", 0),
    # a library's method handed a module as its `self` writes into it (fifth red team)
    (["import numpy as np\nimport argparse\nargparse.Namespace.__init__(np, zeros_typo=1)"], "np.zeros_typo\n1/0", 0),
    # (the notebook's own `__init__` elsewhere does not make the library's one its own)
    (["import numpy as np\nimport argparse\nclass K:\n    def __init__(self):\n        pass\n"
      "argparse.Namespace.__init__(np, zeros_typo=1)"], "np.zeros_typo\n1/0", 0),
    (["import numpy as np\nimport logging\nlogging.LogRecord.__init__(np, 'n', 0, 'p', 0, 'm', None, None)"],
     "np.levelname\n1/0", 0),
    (["import pandas as pd\nimport argparse\nargparse.Namespace.__init__(pd, **{'read_' + 'csvv': len})"],
     "df = pd.read_csvv('x')\n1/0", 0),
    # pandas' private accessor registration, by a name from the data
    ([FRAME_CSV, "from pandas.core.accessor import _register_accessor\nclass A:\n    def __init__(self, obj):\n"
      "        pass\n    shape = (0,)\nfor n in df.columns[1:2]:\n    _register_accessor(n, pd.DataFrame)(A)"],
     "n = df.Salary.shape[0]\n[1, 2, 3][n]", 0),
]


TWINS = [
    (["import numpy as np"], "np.zeros_typo", "AttributeError", 1),
    (["import numpy as np\nimport sklearn.tree"], "np\nsklearn\n1/0", "ZeroDivisionError", 3),
    (["import joblib\nfrom joblib import Parallel, delayed\nx = [1]"], "x[3]", "IndexError", 1),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})"], "df['zz']", "KeyError", 1),
]


@pytest.mark.parametrize("executed, target, pause", CASES)
def test_the_replay_claims_nothing_the_target_does_not_raise(executed, target, pause):
    claims_only_what_raises(executed, target, pause)


@pytest.mark.parametrize("executed, target, exception, line", TWINS)
def test_twins_keep_their_claims(executed, target, exception, line):
    claims_what_raises(executed, target, exception, line)


def test_a_keras_model_on_pytorch_serves_its_modules_entries_as_attributes():
    pytest.importorskip("torch")
    pytest.importorskip("keras")
    # (the backend set outside any cell, as ~/.keras/keras.json would: a Keras model is then an
    # `nn.Module`, whose `_modules` entries are attributes)
    executed = ["import keras\nmodel = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])",
                "model._modules['predict_classes'] = keras.layers.Dense(1)"]
    kernel = record_and_run(executed, "model.predict_classes\n1/0", environ={"KERAS_BACKEND": "torch"})
    assert kernel["executed_errors"] == [None, None] and kernel["raised"]["exception"] == "ZeroDivisionError"
    outcome = replay(executed, kernel["facts"], "model.predict_classes\n1/0")
    assert outcome.crash is None or outcome.crash.exception == "ZeroDivisionError", outcome
