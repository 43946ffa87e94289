"""What a modelled library call meets besides its arguments (sixth red team, 6 Dec): each cell runs
for real after the check, and nothing may be claimed that it does not raise, nor may the
notebook's code run during the check.

- A warning is written to `sys.stderr`: a stream that raises there (closed, or the notebook's own)
  makes the line that warned raise (`rules/streams.stderr_is_plain`).
- `__warningregistry__` bound in the cell: every later warning looks itself up there, under any
  filter, and a value that is not a dict is a TypeError.
- A Series' own `__dict__` shadows pandas' accessors (`s.__dict__['str'] = ...`), also the Series
  pandas 2 caches for a frame's column and hands out again (`df['a']`).
- pandas' helpers replaced by a stand-in module or namespace (`ix.com = fake`), and the modules of
  joins and of frames built from arrays (`library_namespace._pandas_value`).
- scikit-learn's helpers replaced (`check_consistent_length`, `validate_data`, `_num_samples`,
  `indexable`), also by another of the libraries' own functions: the rules that read a behaviour from facts hold only while its modules hold the
  libraries' own code (`library_namespace.sklearn_untouched`); parameter validation runs under
  the probes' guard.
"""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim, case_ids

ARRAYS = "import numpy as np, sys, io, warnings\nwarnings.simplefilter('default')\n" \
         "a = np.array([1.0, 2.0]); b = np.zeros(3); ai = np.array([1, 2])\n"
SERIES = "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3], 's': ['x', 'y', 'z']})\ns = df.a\n"
FRAME = "import pandas as pd, types, importlib\ndf = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n"
FAKE_COMMON = ("real = importlib.import_module('pandas.core.common')\n"
               "fake = types.ModuleType('pandas.core.common'); fake.__dict__.update(vars(real))\n"
               "fake.apply_if_callable = lambda k, obj, **kw: 'a' if k == 'x' else k\n")
SK = ("import numpy as np\nfrom sklearn.linear_model import LogisticRegression, LinearRegression\n"
      "from sklearn.model_selection import train_test_split\nimport sklearn.utils.validation as _V\n"
      "import sklearn.model_selection._split as _S\n"
      "X = np.random.RandomState(0).rand(10, 2); y = np.array([0, 1] * 4); X3 = np.zeros((4, 3))\n"
      "HITS = []\n")

# (setup, cell, teardown)
UNCLAIMED = [
    (ARRAYS + "s = io.StringIO(); s.close(); sys.stderr = s", "c = a / 0\nd = a + b", "sys.stderr = sys.__stderr__"),
    (ARRAYS + "class Bad:\n    def write(self, t):\n        raise KeyError('w')\n    def flush(self):\n        pass\n"
              "sys.stderr = Bad()", "c = ai // 0\nd = a[5]", "sys.stderr = sys.__stderr__"),
    (ARRAYS, "__warningregistry__ = 0\nc = a / 0\na[5]", ""),
    (ARRAYS + "warnings.simplefilter('ignore')", "__warningregistry__ = []\nc = a / 0\nd = a + b", ""),
    (SERIES + "s.__dict__['str'] = 'ABC'", "s.str.lower()", ""),
    (SERIES + "object.__setattr__(s, 'dt', pd.Timestamp('2020'))", "s.dt.year", ""),
    # pandas 2 hands out the Series its frame cached for a column (`s = df.a` cached it): its own
    # dict, or whatever a notebook put in the cache, is what `df['a']` gives
    (SERIES + "s.__dict__['str'] = 'ABC'", "df['a'].str.lower()", ""),
    (SERIES + "vars(df).setdefault('_item_cache', {})['a'] = pd.Series(['x', 'y', 'z'])", "df['a'].str.lower()", ""),
    (SERIES + "hits = []\nclass K(str):\n    def __hash__(self):\n        return hash('a')\n"
              "    def __eq__(self, other):\n        hits.append(1)\n        return False\n"
              "vars(df).setdefault('_item_cache', {})[K('b')] = s", "df['a'].str.lower()", ""),
    (FRAME + FAKE_COMMON + "import pandas.core.indexing as ix\n_o = ix.com\nix.com = fake", "df.loc[:, 'x']",
     "ix.com = _o"),
    (FRAME + FAKE_COMMON + "import pandas.core.frame as fr\n_o = fr.com\nfr.com = types.SimpleNamespace(**vars(fake))",
     "df['x']", "fr.com = _o"),
    (FRAME + "import pandas.core.reshape.merge as M\n_o = M._validate_operand\n"
             "def _v(obj):\n    raise TypeError('no')\nM._validate_operand = _v", "df.join(df)", "M._validate_operand = _o"),
    (SK + "_o = _V.check_consistent_length\n_V.check_consistent_length = lambda *a: HITS.append(1)",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "_o = _V.check_consistent_length\n_V.check_consistent_length = print",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "_o = _V._num_samples\n_V._num_samples = lambda x: 2", "train_test_split(X[:0], y[:0])",
     "_V._num_samples = _o"),
    (SK + "_o = _S.indexable\n_S.indexable = lambda *arrays: [x[:2] for x in arrays]", "train_test_split(X, y)",
     "_S.indexable = _o"),
    # One of the libraries' own functions in another's place: the module holds only their code.
    (SK + "import sklearn.utils._array_api as _A\n_o = _S.indexable\n_S.indexable = _A.get_namespace",
     "train_test_split(X, y)", "_S.indexable = _o"),
    (SK + "_o = _V.check_consistent_length\n_V.check_consistent_length = _V.column_or_1d",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    # The libraries' code remade around another globals dict, or wrapped (red team, 6 Dec)
    (SK + "import types\n_o = _V.check_consistent_length\n_g = dict(_V.__dict__)\n_g['ValueError'] = KeyError\n"
          "_V.check_consistent_length = types.FunctionType(_o.__code__, _g, 'check_consistent_length', _o.__defaults__)",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "import types\n_o = _V.check_consistent_length\n_g = dict(_V.__dict__)\n_g['_num_samples'] = lambda x: 3\n"
          "_V.check_consistent_length = types.FunctionType(_o.__code__, _g, 'check_consistent_length', _o.__defaults__)",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "import functools\n_o = _V.check_consistent_length\n_V.check_consistent_length = functools.partial(_V._num_samples)",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "import functools\n_o = _V.check_consistent_length\n"
          "_V.check_consistent_length = functools.partial(_V.check_array, accept_sparse=True)",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "import functools\n_o = _V.check_consistent_length\n"
          "_V.check_consistent_length = functools.lru_cache()(_V.column_or_1d)",
     "LogisticRegression().fit(X, y)", "_V.check_consistent_length = _o"),
    (SK + "from sklearn.utils.class_weight import compute_class_weight as cw\nimport pandas as pd\n"
          "import pandas.core.algorithms as _A\n_o = _A._hashtables['int64']\n"
          "class Evil:\n    def __init__(self, n):\n        HITS.append(1)\n        raise ValueError('evil')\n"
          "_A._hashtables['int64'] = Evil\nys = pd.Series([0, 1, 1])",
     "cw('balanced', ys.unique(), ys)", "_A._hashtables['int64'] = _o"),
    # a builtin in an estimator's method's place: `fit` then prints (the length rule claimed ValueError)
    (SK + "_o = LogisticRegression.__dict__['fit']\nLogisticRegression.fit = print", "LogisticRegression().fit(X, y)",
     "LogisticRegression.fit = _o"),
    (SK + "import sklearn.base\n_o = sklearn.base.validate_parameter_constraints\n"
          "sklearn.base.validate_parameter_constraints = lambda *a, **k: HITS.append(1)",
     "LogisticRegression().fit(X, y)", "sklearn.base.validate_parameter_constraints = _o"),
]

# The same shapes, untouched: (setup, cell, exception, line)
CLAIMED = [
    (ARRAYS, "c = a / 0\nd = a + b", "ValueError", 2),
    (ARRAYS, "c = ai // 0\nd = a[5]", "IndexError", 2),
    (SERIES, "s.str.lower()", "AttributeError", 1),
    (SERIES, "df['a'].str.lower()", "AttributeError", 1),
    (SERIES + "df['a'].sum()", "df['a'].dt.year", "AttributeError", 1),
    (FRAME, "df.loc[:, 'x']", "KeyError", 1),
    (FRAME, "df.join(df)", "ValueError", 1),
    (SK, "LogisticRegression().fit(X, y)", "ValueError", 1),
    (SK, "train_test_split(X[:0], y[:0])", "ValueError", 1),
    (SK, "train_test_split(X, y)", "ValueError", 1),
    (SK + "m = LinearRegression().fit(X, np.arange(10.))", "m.predict(X3)", "ValueError", 1),
]


@pytest.fixture(scope="module")
def unclaimed():
    return run_batch([{"setup": s, "cell": c, "teardown": t} for s, c, t in UNCLAIMED], timeout=900)


@pytest.mark.parametrize("i", range(len(UNCLAIMED)), ids=case_ids(UNCLAIMED))
def test_nothing_claimed_that_does_not_happen(unclaimed, i):
    assert_no_false_claim(unclaimed[i], UNCLAIMED[i][1])


@pytest.fixture(scope="module")
def claimed():
    return run_batch([{"setup": s, "cell": c} for s, c, _, _ in CLAIMED], timeout=900)


@pytest.mark.parametrize("i", range(len(CLAIMED)), ids=case_ids(CLAIMED))
def test_twins_keep_their_claims(claimed, i):
    assert_claimed(claimed[i], *CLAIMED[i][2:])


def test_a_compiled_function_in_anothers_place_is_seen():
    """Compiled functions are the libraries' own code whichever name they sit under: the judges
    read the name they were compiled with through the compiled-function type's own descriptor."""
    import pandas._libs.lib as lib
    import pandas.core.frame as frame
    import sklearn.utils.murmurhash as murmurhash
    import sklearn.utils.validation as validation
    from crane_llm.checks.library_namespace import pandas_untouched, sklearn_untouched

    assert pandas_untouched() and sklearn_untouched()
    swaps = [(frame, "is_list_like", lib.is_bool), (lib, "item_from_zerodim", lib.is_scalar),
             (validation, "cy_isfinite", murmurhash.murmurhash3_32)]
    for module, name, other in swaps:
        original = module.__dict__[name]
        setattr(module, name, other)
        try:
            assert not (pandas_untouched() and sklearn_untouched()), name
        finally:
            setattr(module, name, original)
        assert pandas_untouched() and sklearn_untouched(), name


def test_a_compiled_class_patched_after_a_check_is_seen():
    """The verdict on pandas' compiled modules is remembered between checks by the identity of what
    they hold, their classes' own dictionaries included: a notebook that patches an index engine
    after a first check (`ObjectEngine.get_loc = ...`) gets no claim from the second."""
    import pandas._libs.index as index

    flags = index.ObjectEngine.__flags__
    if not flags & (1 << 9) or flags & (1 << 8):
        pytest.skip("this pandas' compiled classes cannot be written")
    setup = ("import pandas as pd\nimport pandas._libs.index as _idx\nimport pandas._libs.lib as _lib\n"
             "df = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nfrom crane_llm.checks import run_checks\n"
             "_first = run_checks(\"df['zz']\", globals())\n_o = _idx.ObjectEngine.__dict__.get('get_loc')\n")
    for value in ("lambda self, key: 0", "_lib.is_scalar"):
        [r] = run_batch([{"setup": setup + f"_idx.ObjectEngine.get_loc = {value}", "cell": "df['zz']",
                          "teardown": "if _o is None:\n    del _idx.ObjectEngine.get_loc\n"
                                      "else:\n    _idx.ObjectEngine.get_loc = _o"}])
        assert_no_false_claim(r, value)
        assert r["claim"] is None, (value, r)


@pytest.mark.parametrize("owner, attr", [("nn.Linear", "forward"), ("nn.Module", "__call__"), ("nn.Module", "_call_impl")])
def test_a_builtin_in_a_torch_layers_place_stops_the_shape_rule(owner, attr):
    """`nn.Linear.forward = print`: the layer then prints what it is given, whatever its shape."""
    pytest.importorskip("torch")
    setup = (f"import torch\nimport torch.nn as nn\nlayer = nn.Linear(3, 2)\nx = torch.zeros(4, 5)\n"
             f"_o = {owner}.__dict__.get('{attr}')\n{owner}.{attr} = print")
    [r] = run_batch([{"setup": setup, "cell": "layer(x)", "teardown": f"{owner}.{attr} = _o"}])
    assert_no_false_claim(r, f"{owner}.{attr} = print")
    assert r["raised"] is None and r["claim"] is None, r
