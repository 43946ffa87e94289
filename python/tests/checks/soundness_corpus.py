"""The soundness corpus: tricky cells an attacker would write, each checked and then really run.

Every case is a dict for exec_runner: `setup` (plain Python), `shell` (run through the shell:
magics, `%autocall`, future imports), `cell` (checked, then run with InteractiveShell.run_cell),
`teardown` (undoes a patch), `optimize` (run in a `python -O` process). A claim on any of them
that differs from what the shell really raised is a false claim.

Families: IPython's rewriting (automagic, autocall, escapes, prompts), future flags, Python's
scoping corners, patched libraries, replaced builtins, hostile objects, interpreter flags.
"""

from __future__ import annotations

import importlib.util
from typing import Dict, List

DF = ("import pandas as pd\nimport numpy as np\n"
      "df = pd.DataFrame({'a': [1, 2, 3], 'b': [4.0, 5.0, 6.0], 'c': ['x', 'y', 'z']})\n"
      "X = np.arange(12, dtype=float).reshape(4, 3)\ny = np.array([0, 1, 0, 1])\n"
      "from sklearn.linear_model import LinearRegression, LogisticRegression\n"
      "from sklearn.preprocessing import StandardScaler\nimport sklearn.utils.validation\n"
      "lr = LinearRegression()\nlr_fit = LinearRegression().fit(X, y)\nlst = [1, 2, 3]\nd = {'k': 1}\n")

HOSTILE = DF + '''
import time as _time
class Loud:
    """Every special method and property raises."""
    def __getattr__(self, name): raise KeyError(name)
    def __getattribute__(self, name):
        if name.startswith('__') and name.endswith('__'):
            return object.__getattribute__(self, name)
        raise KeyError(name)
    def __eq__(self, other): raise KeyError('eq')
    def __ne__(self, other): raise KeyError('ne')
    def __hash__(self): raise KeyError('hash')
    def __repr__(self): raise KeyError('repr')
    def __str__(self): raise KeyError('str')
    def __format__(self, spec): raise KeyError('format')
    def __len__(self): raise KeyError('len')
    def __iter__(self): raise KeyError('iter')
    def __bool__(self): raise KeyError('bool')
    def __call__(self, *a, **k): raise KeyError('call')
    def __getitem__(self, k): raise KeyError('getitem')
    def __add__(self, o): raise KeyError('add')
    def __radd__(self, o): raise KeyError('radd')
    def __lt__(self, o): raise KeyError('lt')
    def __index__(self): raise KeyError('index')
    def __int__(self): raise KeyError('int')
    def __float__(self): raise KeyError('float')
    def __reduce_ex__(self, p): raise KeyError('reduce')
    @property
    def __class__(self): raise KeyError('class')
class Meta(type):
    def __eq__(cls, other): raise KeyError('meta eq')
    def __hash__(cls): raise KeyError('meta hash')
    def __getattribute__(cls, name):
        if name in ('__mro__', '__dict__', '__name__', '__module__', '__qualname__'):
            raise KeyError('meta ' + name)
        return type.__getattribute__(cls, name)
class Shady(metaclass=Meta):
    pass
class DictProp:
    @property
    def __dict__(self): raise KeyError('dict')
_armed = [False]
class Name:
    """A column label whose hashing and comparing raise (once the setup is done)."""
    def __hash__(self):
        if _armed[0]:
            raise KeyError('label hash')
        return 1
    def __eq__(self, o): raise KeyError('label eq')
    def __repr__(self): raise KeyError('label repr')
loud = Loud()
shady = Shady()
dictprop = DictProp()
labelled = pd.DataFrame([[1, 2]], columns=['a', 'b'])
labelled.columns = pd.Index([Name(), 'b'], dtype=object)
keyed = {Name(): 1}
_armed[0] = True
'''


def _c(cell: str, setup: str = DF, shell: str = "", teardown: str = "", optimize: bool = False) -> Dict:
    case = {"setup": setup, "cell": cell}
    if shell:
        case["shell"] = shell
    if teardown:
        case["teardown"] = teardown
    if optimize:
        case["optimize"] = True
    return case


def ipython_rewriting() -> List[Dict]:
    out = []
    # One-line automagics and aliases: the shell runs them as magics.
    for line in ["ls", "pwd", "who", "whos", "who_ls", "env", "history", "time", "lsmagic", "dirs", "dhist",
                 "alias", "ll", "lf", "lk", "lx", "ldir", "ls -la", "pwd  ", "  ls", "time 1 + 1",
                 "time undefined_t", "env HOME", "history -n 1", "who int", "whos DataFrame", "ls /", "ls nope_dir",
                 "alias", "precision", "pwd # where", "ls\n", "\nls", "\n\npwd\n", "time df.shape", "who_ls int"]:
        out.append(_c(line))
    # Not one line once transformed: Python runs them, NameError is certain.
    for cell in ["x = 1\nls", "ls\nls", "pwd\nx = 1", "time\nprint(1)", "print(1)\nwho"]:
        out.append(_c(cell))
    # Shadowed magic names: Python again.
    for cell, setup in [("ls", DF + "ls = 5\n"), ("pwd", DF + "pwd = 'here'\n"), ("time", DF + "import time\n"),
                        ("time.nope", DF + "import time\n"), ("history + 1", DF + "history = 1\n"),
                        # A user variable named like a magic, used as Python: its crash is certain.
                        ("config['nope']", DF + "config = {'a': 1}\n"), ("ls[5]", DF + "ls = [1]\n"),
                        ("who.nope", DF + "who = 'me'\n"), ("env['HOME']", DF + "env = {}\n")]:
        out.append(_c(cell, setup))
    # Assignments to magic names are never rewritten.
    for cell in ["ls = 1", "time = 5\nprint(time)", "ls, pwd = 1, 2", "who = undefined_w"]:
        out.append(_c(cell))
    # %autocall: `fn 3` becomes `fn(3)`.
    auto = "%autocall 2"
    setup = DF + "def fn(v=0):\n    return v\n"
    for cell in ["fn 3", "fn", "print 3", "len [1, 2]", "sorted [3, 1]", "fn undefined_a", "str 5", "abs -3",
                 "lr.fit X, y", "max 1, 2", "fn 3\n", "int '7'", "list 'ab'", "df.head 2", "fn fn"]:
        out.append(_c(cell, setup, shell=auto))
    out.append(_c("fn 3", setup, shell="%autocall 1"))
    out.append(_c("len [1, 2]", setup, shell="%autocall 1"))
    # Escapes and help: never NameError.
    for cell in ["!ls", "!!ls", "files = !ls\nprint(files)", "here = %pwd\nprint(here)", "undefined_q?",
                 "undefined_q??", "?undefined_q", "%pinfo undefined_q", "%time undefined_t", "%%time\nundefined_t",
                 "df.nope?", "%timeit -n1 -r1 1", "%env", "%who", "%%capture\nundefined_c", "%config",
                 "%precision 3", "x = %time 1\nprint(x)", "lst?\nprint(lst)", "!echo hi\nprint(undefined_e)"]:
        out.append(_c(cell))
    # Prompts the transformer strips.
    for cell in ["In [1]: undefined_p", "In [3]: df['zz']", ">>> undefined_p", ">>> x = 1\n>>> x.nope",
                 "x = 1\n...\nundefined_p", "   ...: undefined_p", "In [2]: lst[9]", "\n\n\nundefined_p",
                 "\n  \nlst[5]", ">>> print(1)\n... \nundefined_p"]:
        out.append(_c(cell))
    # Macros and autocall objects in the namespace run when named alone.
    out.append(_c("mac", DF + "from IPython.core.macro import Macro\nmac = Macro('x = 1\\n')\n"))
    out.append(_c("caller", DF + "from IPython.core.autocall import IPyAutocall\n"
                                 "class C(IPyAutocall):\n    def __call__(self):\n        return 1\ncaller = C()\n"))
    return out


def future_flags() -> List[Dict]:
    out = []
    ann = "from __future__ import annotations"
    for cell in ["x: undefined_t = 5\nundefined_n", "def f(a: undefined_t) -> undefined_r:\n    pass\nundefined_n",
                 "x: undefined_t = 5\nx.nope", "def g(a: int = 1) -> undefined_r:\n    pass\nlst[7]",
                 "y: undefined_t = lst[0]\ny.real", "z: 'str' = 1\nz.nope", "class K:\n    v: undefined_t = 1\nlst[9]"]:
        out.append(_c(cell, shell=ann))
        out.append(_c(cell))  # the same without the flag: annotations run first
    for cell in ["1 <> 2\nundefined_b", "print(1 <> 2)", "x = 1 <> 1\nx.nope", "1 != 2"]:
        out.append(_c(cell, shell="from __future__ import barry_as_FLUFL"))
        out.append(_c(cell))
    for cell in ["from __future__ import annotations\nx: undefined_t = 1\nundefined_n",
                 "from __future__ import annotations\ndef h(a: undefined_t):\n    pass\nh.nope",
                 "from __future__ import generator_stop\nundefined_n", "from __future__ import braces",
                 "x = 1\nfrom __future__ import annotations"]:
        out.append(_c(cell))
    return out


def scoping() -> List[Dict]:
    g = DF + "x = [1, 2, 3]\n"
    out = [
        _c("class A:\n    x = [1]\n    y = [x[2] for _ in [0]]", g),
        _c("class A:\n    x = [1]\n    y = [x[5] for _ in [0]]", g),
        _c("class A:\n    x = [1]\n    y = [x[2] for _ in [0]]"),
        _c("class A:\n    x = [1]\n    y = [i for i in x]\n    z = y[0]"),
        _c("class A:\n    q = 1\n    r = [q for _ in range(2)]"),
        _c("class A:\n    q = 1\n    r = [_ for _ in range(q)]"),
        _c("class A:\n    q = [1]\n    r = {k: q for k in 'ab'}", g),
        _c("class A:\n    lst = [9]\n    r = [lst[2] for _ in [0]]"),
        _c("class A:\n    print(__module__, __qualname__)"),
        _c("class A:\n    m = __module__\n    n = __qualname__.upper()"),
        _c("class A:\n    __name__.upper()"),
        _c("x: int = 1\nprint(__annotations__)"),
        _c("x: int = 1\n__annotations__['x']"),
        _c("print(__annotations__)"),
        _c("print(__name__, __doc__)"),
        _c("__builtins__.len"),
        _c("print(__spec__)"),
        _c("__file__"),
        _c("__loader__"),
        _c("z = 5\ndel z\nprint(z)"),
        _c("len = 5\ndel len\nlen([1])"),
        _c("lst = 1\ndel lst\nlst"),
        _c("del d\nd['k']"),
        _c("[w := i for i in range(3)]\nprint(w)"),
        _c("[w := i for i in []]\nprint(w)"),
        _c("class A:\n    z = (w2 := 5)\nprint(w2)"),
        _c("class A:\n    z = (w3 := 5)\n    t = w3 + 1"),
        _c("(w4 := 1)\nw4.nope"),
        _c("global gx\ngx = 1\nprint(gx)"),
        _c("global gy\nprint(gy)"),
        _c("class A:\n    v = 1\n    def m(self, a=v):\n        pass"),
        _c("class A:\n    v = 1\n    f = lambda self, a=v: a"),
        _c("class A:\n    v = 1\n    def m(self, a=undefined_v):\n        pass"),
        _c("f = lambda a=undefined_l: a"),
        _c("f = lambda: undefined_l\nf.nope"),
        _c("def deco(fn):\n    return 5\n@deco\ndef f():\n    pass\nf.real"),
        _c("@undefined_deco\ndef f():\n    pass"),
        _c("try:\n    1 / 0\nexcept Exception as e:\n    pass\nprint(e)"),
        _c("match lst:\n    case [a, b, c]:\n        pass\nprint(a)"),
        _c("e = 0\nfrom math import *\n1 / e"),
        _c("pi = []\nfrom math import *\npi[0]"),
        _c("from math import *\nnot_in_math"),
        _c("from os.path import *\njoin.nope"),
        _c("import numpy as e\nfrom math import *\ne.zeros"),
        _c("class A:\n    pass\nA.nope"),
        _c("class A:\n    x = 1\nA.x.nope"),
        _c("class A:\n    def m(self):\n        return undefined_in_body\nA.m"),
        _c("def f():\n    nonlocal_v = 1\nnonlocal_v"),
        _c("for i in range(0):\n    pass\nprint(i)"),
        _c("with open('f.txt', 'w') as fh:\n    pass\nfh.nope"),
        _c("import builtins\nbuiltins.nope"),
        _c("[x for x in lst if undefined_c]", g),
        _c("[x for x in []  if undefined_c]"),
        _c("[y for y in lst for z in undefined_i]"),
        _c("{k: undefined_v for k in []}"),
        _c("[[j for j in range(i)] for i in lst][2][5]"),
        _c("x = [1]\nclass A:\n    x = [1, 2, 3]\n    y = x[2]"),
        _c("x = [1]\nclass A:\n    x = [1, 2, 3]\n    y = [x[2] for _ in [0]]"),
        _c("async def f():\n    pass\nf.nope"),
        _c("await undefined_aw"),
    ]
    return out


def _writable(module: str, name: str) -> bool:
    """The compiled class lets a notebook set its attributes (a heap type not marked immutable,
    as Cython 3 makes them)."""
    import importlib

    cls = getattr(importlib.import_module(module), name)
    return bool(cls.__flags__ & (1 << 9)) and not cls.__flags__ & (1 << 8)


def patched_libraries() -> List[Dict]:
    out = []

    def patch(target: str, value: str, cells: List[str], extra: str = "") -> None:
        owner, _, attr = target.rpartition(".")
        setup = DF + extra + f"_orig = {owner}.__dict__.get('{attr}', None)\n{owner}.{attr} = {value}\n"
        teardown = (f"if _orig is None:\n    delattr({owner}, '{attr}')\nelse:\n    {owner}.{attr} = _orig\n")
        for cell in cells:
            out.append(_c(cell, setup, teardown=teardown))

    frame_cells = ["df['zz']", "df[['a', 'zz']]", "df.drop(columns=['zz'])", "df.nope", "len(df) + 'a'",
                   "df.sort_values('zz')", "df.groupby('zz')", "df.set_index('zz')", "df.loc[:, 'zz']", "print(df)\nx.nope",
                   "df['zz'] = [1, 2]", "df.columns = ['a']", "del df['zz']", "df.pop('zz')", "df.head()['zz']"]
    patch("pd.DataFrame.__getitem__", "lambda s, k: 42", frame_cells)
    patch("pd.DataFrame.drop", "lambda s, *a, **k: s", frame_cells[:6])
    patch("pd.DataFrame.__getattr__", "lambda s, n: 1", ["df.nope", "df.nope + 1"])
    patch("pd.DataFrame.__len__", "lambda s: 'x'", ["len(df) + 1", "len(df)"])
    # The one false claim of the 10,000-cell fuzz of 30 Nov (seed 1): a column set, then selected,
    # with a patched __len__ (the assignment itself may raise).
    patch("pd.DataFrame.__len__", "lambda s: 7", ["df['e'] = [1, 2, 3]\ndf[['e', 'zz']]",
                                                  "df['e'] = [1, 2, 3, 4]\ndf[['e', 'zz']]"])
    patch("pd.DataFrame.head", "lambda s, *a: None", ["df.head()['a']", "df.head().nope"])
    patch("pd.DataFrame.__setitem__", "lambda s, k, v: None", ["df['e'] = [1, 2]", "df['e'] = [1, 2, 3, 4]"])
    patch("pd.DataFrame.sort_values", "lambda s, *a, **k: s", ["df.sort_values('zz')"])
    patch("pd.DataFrame.set_index", "lambda s, *a, **k: s", ["df.set_index('zz')"])
    patch("pd.DataFrame.groupby", "lambda s, *a, **k: s", ["df.groupby('zz')"])
    patch("pd.DataFrame.__repr__", "lambda s: 1 / 0", ["print(df)\nundefined_r"])
    patch("pd.core.generic.NDFrame.__getattr__", "lambda s, n: 7", ["df.nope", "df.zz + 1"])
    patch("pd.core.generic.NDFrame.head", "lambda s, *a: 3", ["df.head()['zz']"])
    patch("pd.Index.__contains__", "lambda s, k: True", ["df['zz']", "df.drop(columns=['zz'])"])
    patch("pd.Index.__iter__", "lambda s: iter(['zz'])", ["df['zz']", "[c for c in df.columns][3]"])
    patch("pd.DataFrame.columns", "property(lambda s: pd.Index(['zz']))", ["df['zz']", "df.drop(columns=['zz'])"])
    patch("pd.DataFrame.__getitem__", "_wrapped_getitem", ["df['zz']", "df[['zz']]"],
          extra="import functools\n_real = pd.DataFrame.__getitem__\n@functools.wraps(_real)\n"
                "def _wrapped_getitem(self, key):\n    try:\n        return _real(self, key)\n"
                "    except KeyError:\n        return None\n")
    # Module-level helpers pandas' own methods call by name (`__getitem__` calls com.apply_if_callable
    # and is_hashable), replaced with the notebook's function or with another of pandas' own.
    patch("pd.core.common.apply_if_callable", "lambda maybe, obj, **kw: 'a'", ["df['zz']", "df[['a', 'zz']]"])
    patch("pd.core.common.apply_if_callable", "pd.core.common.maybe_make_list", ["df['zz']"])
    patch("pd.core.frame.is_hashable", "lambda x: False", ["df['zz']"])
    patch("pd.core.common.maybe_make_list", "lambda obj: ['a']", ["df.drop(columns=['zz'])"])
    # The same in pandas' compiled modules, which its Python code reaches by attribute
    # (`lib.item_from_zerodim(key)` opens `DataFrame.__getitem__`): a function of the notebook's,
    # another of pandas' compiled ones, or one of its typed versions' table.
    libs = "import pandas._libs.lib as _lib\nimport pandas._libs.hashtable as _ht\n"
    patch("_lib.item_from_zerodim", "lambda key: 'a'", ["df['zz']", "df[['a', 'zz']]"], extra=libs)
    patch("_lib.item_from_zerodim", "_lib.is_scalar", ["df['zz']"], extra=libs)
    patch("_lib.is_list_like", "lambda obj, *a: 1 / 0", ["df.drop(columns=['zz'])", "df[['a', 'zz']]"], extra=libs)
    patch("_ht.value_count", "lambda *a, **k: 1 / 0", ["vc = df['c'].value_counts()\nundefined_vc"], extra=libs)
    # ... and one of them in another's place in pandas' Python modules (`frame.is_list_like` held
    # pandas' compiled `is_bool`: `df[['a', 'zz']]` raised InvalidIndexError)
    patch("pd.core.frame.is_list_like", "_lib.is_bool", ["df[['a', 'zz']]", "df['zz']"], extra=libs)
    patch("pd.core.frame.is_list_like", "_lib.is_scalar", ["df[['a', 'zz']]"], extra=libs)
    # ... or in a class's place: a builtin in a pandas class, a compiled function in one of the
    # compiled classes pandas 3 lets a notebook write (`df['zz']` then raised no KeyError)
    patch("pd.Index.get_loc", "len", ["df['zz']"])
    patch("pd.Index.get_loc", "_lib.is_scalar", ["df['zz']"], extra=libs)
    engines = libs + "import pandas._libs.index as _idx\n"
    if _writable("pandas._libs.index", "ObjectEngine"):
        patch("_idx.ObjectEngine.get_loc", "_lib.is_scalar", ["df['zz']"], extra=engines)
        patch("_idx.IndexEngine.get_loc", "_lib.is_scalar", ["df['zz']"], extra=engines)
    if _writable("pandas._libs.hashtable", "PyObjectHashTable"):
        patch("_ht.PyObjectHashTable.get_item", "_lib.is_scalar", ["df['zz']"], extra=libs)
    patch("np.vstack", "lambda t: 0", ["np.vstack([np.ones(2), np.ones(3)])"])
    patch("np.dot", "lambda a, b: 0", ["np.dot(np.ones(2), np.ones(3))"])
    # `np.unique` is gone on past (to reach a call its result cannot bind): never when it, or a
    # helper it calls by module global, is the notebook's.
    unique_cells = ["u = np.unique(np.ones(3))\nundefined_u", "print(len, np.unique(X), undefined_u)"]
    sets = ("import importlib\n_sets = importlib.import_module('numpy.lib._arraysetops_impl' "
            "if hasattr(np.lib, '_arraysetops_impl') else 'numpy.lib.arraysetops')\n")
    patch("np.unique", "lambda *a, **k: 1 / 0", unique_cells)
    patch("_sets._unique1d", "lambda *a, **k: 1 / 0", unique_cells, extra=sets)
    patch("_sets._unique_hash", "lambda *a, **k: 1 / 0", unique_cells, extra=sets)
    patch("np.ma.is_masked", "lambda *a, **k: 1 / 0", unique_cells, extra="import numpy.ma\n")
    # pandas' own code, made again while its module held the notebook's builtins (which the
    # function keeps, 3.10+): `callable` says a column name is callable.
    rebuilt = (DF + "import types, builtins\nimport pandas.core.common as _com\n_orig = _com.apply_if_callable\n"
               "_g = _com.__dict__\n_real_b = _g['__builtins__']\n"
               "_g['__builtins__'] = dict(vars(builtins), callable=lambda x: isinstance(x, str))\n"
               "_com.apply_if_callable = types.FunctionType(_orig.__code__, _g, 'apply_if_callable', _orig.__defaults__)\n"
               "_g['__builtins__'] = _real_b\n")
    for cell in ["df['zz']", "df[['a', 'zz']]", "df.loc[:, 'zz']"]:
        out.append(_c(cell, rebuilt, teardown="_com.apply_if_callable = _orig\n"))
    series_unique = ["u = df['a'].unique()\nundefined_u"]
    patch("pd.Series.unique", "lambda s: 1 / 0", series_unique)
    patch("pd.core.algorithms.unique1d", "lambda values: 1 / 0", series_unique, extra="import pandas.core.algorithms\n")
    patch("pd.core.base.algorithms", "types.SimpleNamespace(unique1d=lambda v: 1 / 0)", series_unique,
          extra="import types, pandas.core.base\n")
    patch("np.reshape", "lambda *a, **k: 0", ["np.reshape(np.ones(6), (5,))"])
    patch("np.concatenate", "_wrapped_concat", ["np.concatenate([np.ones((2, 2)), np.ones((3, 3))])"],
          extra="import functools\n_realc = np.concatenate\n@functools.wraps(_realc)\n"
                "def _wrapped_concat(*a, **k):\n    return 0\n")
    patch("LinearRegression.predict", "lambda self, X: 0", ["lr.predict(X)", "LinearRegression().predict(X)",
                                                            "lr_fit.predict(np.ones((4, 5)))"])
    patch("LinearRegression.fit", "lambda self, X, y: self", ["lr.fit(X, y[:2])", "LinearRegression().fit(X, y[:3])"])
    patch("LinearRegression.__init__", "lambda self, **k: None", ["LinearRegression().predict(X)"])
    patch("sklearn.base.BaseEstimator.get_params", "lambda self, deep=True: {}", ["lr.predict(X)"])
    patch("sklearn.utils.validation.check_is_fitted", "lambda *a, **k: None", ["lr.predict(X)"])
    patch("StandardScaler.transform", "lambda self, X, copy=None: X", ["StandardScaler().transform(X)"])
    patch("pd.Series.__len__", "lambda s: 'x'", ["len(df['a']) + 1"])
    # ConfusionMatrixDisplay's labels: its plot(), matplotlib's tick labels, scikit-learn's confusion_matrix.
    cmd = ("import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\nimport matplotlib.axis\n"
           "import sklearn.metrics\nfrom sklearn import metrics\nfrom sklearn.metrics import ConfusionMatrixDisplay\n"
           "cm3 = np.ones((3, 3), dtype=int)\nya = np.array(['a', 'b', 'c'])\n")
    plot_cells = ["ConfusionMatrixDisplay(cm3, display_labels=['a', 'b']).plot()",
                  "cm = metrics.confusion_matrix(ya, ya)\nConfusionMatrixDisplay(cm, display_labels=['a', 'b']).plot()"]
    patch("ConfusionMatrixDisplay.plot", "lambda self, **k: self", plot_cells, extra=cmd)
    patch("matplotlib.axis.Axis.set_ticklabels", "lambda self, labels, **k: []", plot_cells, extra=cmd)
    patch("sklearn.metrics.confusion_matrix", "lambda a, b: np.ones((2, 2), dtype=int)", plot_cells[1:], extra=cmd)
    # The classification metrics' reading of their targets: the helpers they call by name, and the
    # metric itself, replaced by the notebook's code or by another of scikit-learn's functions.
    metric = ("import sklearn.metrics\nimport sklearn.metrics._classification\nimport sklearn.utils.multiclass\n"
              "from sklearn.metrics import accuracy_score\nyt = np.array([0, 1, 1])\nys = np.array([0.2, 0.9, 0.7])\n")
    metric_cells = ["accuracy_score(yt, ys)", "sklearn.metrics.accuracy_score(yt, ys)",
                    "sklearn.metrics.f1_score(yt, ys)"]
    patch("sklearn.utils.multiclass.type_of_target", "lambda y, input_name='': 'binary'", metric_cells, extra=metric)
    patch("sklearn.metrics._classification.type_of_target", "lambda y, input_name='': 'binary'", metric_cells,
          extra=metric)
    patch("sklearn.metrics._classification._check_targets", "lambda *a, **k: ('binary', None, a[0], a[1], None)",
          metric_cells, extra=metric)
    patch("sklearn.metrics._classification.type_of_target", "sklearn.utils.multiclass.unique_labels",
          metric_cells, extra=metric)
    patch("sklearn.metrics.accuracy_score", "lambda a, b: 1.0", metric_cells[1:2], extra=metric)
    patch("sklearn.metrics.f1_score", "sklearn.metrics.r2_score", metric_cells[2:], extra=metric)
    patch("np.isfinite", "lambda x, *a, **k: x == x", metric_cells, extra=metric)
    # A classifier's refusal of a continuous target: the check it calls by name, replaced.
    fit_cells = ["LogisticRegression().fit(Xc, ys)", "from sklearn.tree import DecisionTreeClassifier\n"
                 "DecisionTreeClassifier().fit(Xc, ys)"]
    fit_extra = metric + "import sklearn.linear_model._logistic\nimport sklearn.tree._classes\nXc = np.ones((3, 2))\n"
    patch("sklearn.linear_model._logistic.check_classification_targets", "lambda y: None", fit_cells[:1],
          extra=fit_extra)
    patch("sklearn.linear_model._logistic.check_classification_targets", "sklearn.utils.validation.column_or_1d",
          fit_cells[:1], extra=fit_extra)
    patch("sklearn.utils.multiclass.type_of_target", "lambda y, input_name='', raise_unknown=False: 'binary'",
          fit_cells, extra=fit_extra)
    patch("sklearn.tree._classes.check_classification_targets", "lambda y: None", fit_cells[1:], extra=fit_extra)
    # Process-wide switches that make library calls raise.
    for cell in ["np.ones(3) / 0\nundefined_w", "np.ones(3) / np.zeros(3)\nlst[9]", "df['a'] / 0\nundefined_w"]:
        out.append(_c(cell, DF + "np.seterr(all='raise')\n"))
        out.append(_c(cell, DF + "import warnings\nwarnings.simplefilter('error')\n"))
    out.append(_c("np.log(np.zeros(2))\nundefined_w", DF + "import warnings\nwarnings.simplefilter('error')\n"))
    # Printing runs formatters a notebook may install.
    for cell in ["print(X)\nundefined_f", "f'{X}'\nundefined_f", "print(df)\nundefined_f", "print(df['b'])\nlst[9]"]:
        out.append(_c(cell, DF + "np.set_printoptions(formatter={'all': lambda v: 1 / 0})\n"
                                 "pd.set_option('display.float_format', lambda v: 1 / 0)\n",
                      teardown="np.set_printoptions(formatter=None)\npd.reset_option('display.float_format')\n"))
    out.append(_c("print(1)\nundefined_o", DF + "import sys\nclass W:\n    def write(self, s):\n"
                                            "        raise OSError('closed')\n    def flush(self):\n"
                                            "        pass\nsys.stdout = W()\n"))
    return out


def library_identity() -> List[Dict]:
    """Patches that keep a library function's file name, name or identity: code compiled under the
    library's file name, a swapped `__code__`, library code with the notebook's globals, defaults
    rewritten in place, a method moved to another name or class, `_metadata` naming internals, a
    closure cell refilled, a cached property of the notebook's, metaclass tricks."""
    out = []
    restore_getitem = "pd.DataFrame.__getitem__ = _orig\n"
    grab = "_orig = pd.DataFrame.__dict__['__getitem__']\n"
    cases = [
        ("df['zz']", grab + "import pandas.core.frame as _f\n_ns = {}\nexec(compile('def __getitem__(self, key):\\n"
                     "    return 42\\n', _f.__file__, 'exec'), _f.__dict__, _ns)\npd.DataFrame.__getitem__ = "
                     "_ns['__getitem__']\n", restore_getitem),
        ("df['zz']", grab + "_ns = {}\nexec(compile('def g(self, key):\\n    return 42\\n', '<x>', 'exec'), {}, _ns)\n"
                     "_g = _ns['g']\n_g.__code__ = _g.__code__.replace(co_filename=_orig.__code__.co_filename, "
                     "co_name='__getitem__', co_firstlineno=_orig.__code__.co_firstlineno)\n"
                     "pd.DataFrame.__getitem__ = _g\n", restore_getitem),
        ("df['zz']", "_orig_code = pd.DataFrame.__getitem__.__code__\n_ns = {}\nexec(compile('def g(self, key):\\n"
                     "    return 42\\n', _orig_code.co_filename, 'exec'), {}, _ns)\n"
                     "pd.DataFrame.__getitem__.__code__ = _ns['g'].__code__\n",
         "pd.DataFrame.__getitem__.__code__ = _orig_code\n"),
        ("df['zz']", grab + "import types, pandas.core.frame as _f\n_gl = dict(_f.__dict__)\n"
                     "_gl['is_hashable'] = lambda k: 1 / 0\npd.DataFrame.__getitem__ = types.FunctionType("
                     "_orig.__code__, _gl, '__getitem__', _orig.__defaults__, _orig.__closure__)\n", restore_getitem),
        ("df.drop(columns=['zz'])", "pd.DataFrame.drop.__kwdefaults__['errors'] = 'ignore'\n",
         "pd.DataFrame.drop.__kwdefaults__['errors'] = 'raise'\n"),
        ("df.drop(columns=['zz'])", "_kw = pd.DataFrame.drop.__kwdefaults__\n"
                                    "pd.DataFrame.drop.__kwdefaults__ = dict(_kw, errors='ignore')\n",
         "pd.DataFrame.drop.__kwdefaults__ = _kw\n"),
        ("df.drop(columns=['zz'])", "_d = pd.DataFrame.drop.__defaults__\npd.DataFrame.drop.__defaults__ = ('zz',)\n",
         "pd.DataFrame.drop.__defaults__ = _d\n"),
        ("df.drop(columns=['zz'])", "_orig = pd.DataFrame.__dict__['drop']\npd.DataFrame.drop = pd.DataFrame.head\n",
         "pd.DataFrame.drop = _orig\n"),
        ("df['zz']", grab + "pd.DataFrame.__getitem__ = pd.Series.__getitem__\n", restore_getitem),
        ("df2 = df[['a']]\ndf2['b']", "pd.DataFrame._metadata = ['_mgr']\n", "del pd.DataFrame._metadata\n"),
        ("df2 = df[['a']]\ndf2['b']", "pd.core.generic.NDFrame._metadata.append('_mgr')\n",
         "pd.core.generic.NDFrame._metadata.remove('_mgr')\n"),
        ("df2 = df[['a']]\ndf2['zz']", "pd.Series._metadata.append('_mgr')\n", "pd.Series._metadata.remove('_mgr')\n"),
        ("df.columns.is_unique + 1\ndf['zz']", "from pandas.util._decorators import cache_readonly\n"
                                              "_orig_u = pd.Index.__dict__['is_unique']\n"
                                              "pd.Index.is_unique = cache_readonly(lambda s: 'x')\n",
         "pd.Index.is_unique = _orig_u\n"),
        ("df['zz']", "import functools\n_orig_c = pd.DataFrame.__dict__.get('columns')\n"
                     "class _CP(functools.cached_property):\n    pass\n", ""),
        ("df['zz']", "class _M(type):\n    def mro(cls):\n        return [cls, pd.DataFrame, object]\n"
                     "class _Fake(metaclass=_M):\n    def __getitem__(self, k):\n        return 1\n", ""),
        ("lr.predict(X)", "class _EqMeta(type):\n    def __eq__(cls, o):\n        return True\n"
                          "    __hash__ = type.__hash__\nclass _Fake(metaclass=_EqMeta):\n"
                          "    def predict(self, X):\n        return 0\nlr = _Fake()\n", ""),
        ("df2 = df[['a']]\ndf2['b']", "class _Q(pd.DataFrame):\n    __module__ = 'pandas.core.frame'\n"
                                     "    _metadata = ['_mgr']\ndf = _Q(df)\n", ""),
    ]
    for cell, setup, teardown in cases:
        out.append(_c(cell, DF + setup, teardown=teardown))
    # A decorator's wrapper whose closure cell a notebook refilled with its own function.
    wrapped = [(n, f) for n, f in (("predict", "LinearRegression.predict"), ("fit", "LinearRegression.fit"))]
    for name, target in wrapped:
        out.append(_c(f"lr.{name}(X{', y[:2]' if name == 'fit' else ''})",
                      DF + f"_cells = {target}.__closure__ or ()\n_saved = [c.cell_contents for c in _cells]\n"
                           "for _c in _cells:\n    if callable(_c.cell_contents):\n"
                           "        _c.cell_contents = lambda *a, **k: None\n",
                      teardown="for _c, _v in zip(_cells, _saved):\n    _c.cell_contents = _v\n"))
    return out


def replaced_builtins() -> List[Dict]:
    out = []

    def patch(name: str, value: str, cells: List[str]) -> None:
        setup = DF + f"import builtins\n_orig_b = builtins.{name}\nbuiltins.{name} = {value}\n"
        teardown = f"import builtins\nbuiltins.{name} = _orig_b\n"
        for cell in cells:
            out.append(_c(cell, setup, teardown=teardown))

    # Replacements that keep the rest of the process working (they change the cell's inputs only).
    patch("len", "lambda x, _r=_orig_b: 0 if type(x) in (int, type(None)) else _r(x)",
          ["len(5)", "len(5) + 'a'", "len(None)", "n = len(3)\nn.nope", "len([1])\nundefined_l"])
    patch("len", "lambda x, _r=_orig_b: abs(x) if type(x) is int else _r(x)", ["len(-3)", "len(5)"])
    patch("print", "lambda *a, _r=_orig_b, **k: None if a == (1,) else _r(*a, **k)",
          ["print(undefined_p)", "print(1)\nundefined_q"])
    patch("sorted", "lambda x, _r=_orig_b, **k: [] if type(x) is int else _r(x, **k)",
          ["sorted(5)", "sorted([3, 1])[2]"])
    patch("max", "lambda *a, _r=_orig_b, **k: 0 if a in ((), ([],), (5,)) else _r(*a, **k)", ["max([])", "max(5)"])
    patch("divmod", "lambda a, b, _r=_orig_b: (0, 0) if b == 0 else _r(a, b)", ["divmod(1, 0)"])
    patch("round", "lambda x, *a, _r=_orig_b: 0 if type(x) is str else _r(x, *a)", ["round('x')"])
    patch("abs", "lambda x, _r=_orig_b: 0 if type(x) is str else _r(x)", ["abs('x')"])
    patch("__import__", "lambda n, *a, _r=_orig_b, **k: 5 if n == 'math' else _r(n, *a, **k)",
          ["import math\nmath.nope", "from math import floor\nfloor.nope"])
    patch("isinstance", "lambda a, b, _r=_orig_b: True if b == 5 else _r(a, b)", ["isinstance(1, 5)"])
    patch("chr", "lambda x, _r=_orig_b: 'a' if x == -1 else _r(x)", ["chr(-1)"])
    patch("hash", "lambda x, _r=_orig_b: 0 if type(x) is list else _r(x)", ["hash([1])"])
    patch("sum", "lambda x, *a, _r=_orig_b: 0 if type(x) is int else _r(x, *a)", ["sum(5)"])
    for cell, setup in [("len(5)", DF + "def len(x):\n    return 0\n"),
                        ("len(5)", DF + "len = lambda x: 0\n"),
                        ("int('x')", DF + "int = str\n"),
                        ("undefined_b", DF + "import builtins\nbuiltins.undefined_b = 1\n"),
                        ("len(5)", DF + "import builtins as _b\n__builtins__ = dict(_b.__dict__)\n"),
                        ("len", DF + "import builtins as _b\n__builtins__ = {k: v for k, v in _b.__dict__.items()"
                                     " if k != 'len'}\n"),
                        ("print(1)\nundefined_z", DF + "import builtins as _b\n__builtins__ = _b\n")]:
        teardown = "import builtins\nbuiltins.__dict__.pop('undefined_b', None)\n"
        out.append(_c(cell, setup, teardown=teardown))
    return out


def hostile_objects() -> List[Dict]:
    cells = ["loud.nope", "loud.x + 1", "loud['k']", "loud + 1", "1 + loud", "len(loud)", "print(loud)",
             "f'{loud}'", "str(loud)", "repr(loud)", "isinstance(loud, int)", "type(loud)", "loud == 1",
             "loud < 1", "[v for v in loud]", "a, b = loud", "lst[loud]", "d[loud]", "{loud: 1}", "loud()",
             "loud.nope\nundefined_h", "isinstance(loud, int)\nundefined_h", "int(loud)", "bool(loud)",
             "not loud", "loud and 1", "shady.nope", "shady == 1", "type(shady) == int", "isinstance(shady, int)",
             "[shady][0].nope", "print(shady)", "len(shady)", "shady + 1", "Shady.nope", "Shady.x",
             "dictprop.nope", "dictprop.x + 1", "labelled['zz']", "labelled['b']", "labelled.drop(columns=['zz'])",
             "labelled.nope", "print(labelled)", "labelled.groupby('zz')", "labelled[['b', 'zz']]",
             "keyed['k']", "keyed[1]", "len(keyed)", "[k for k in keyed]", "LinearRegression(fit_intercept=loud)"
             ".predict(X)", "LogisticRegression(C=loud).fit(X, y[:2])", "LinearRegression(n_jobs=shady).predict(X)",
             "x = [loud, shady]\nx[0].nope", "t = (loud,)\nt[5]", "{'k': loud}['z']", "lst.append(loud)\nlst[9]",
             "max(loud, 1)", "sorted([loud, 1])", "hash(loud)", "abs(loud)", "divmod(loud, 1)", "round(loud)"]
    return [_c(cell, HOSTILE) for cell in cells]


def run_hooks_and_finalizers() -> List[Dict]:
    """Code of the notebook's that runs before or between the cell's lines without the cell calling
    it: event callbacks, trace and profile functions, `__del__` and weak-reference callbacks of an
    object a rebinding frees. Each next to the twin without the hook, whose crash stays certain."""
    out = []
    for event, sig in (("pre_run_cell", "info"), ("pre_execute", "")):
        register = (f"get_ipython().events.register('{event}', lambda {sig}: "
                    "get_ipython().user_ns.update(undefined_e=1))")
        unregister = f"get_ipython().events.callbacks['{event}'].pop()\n"
        out.append(_c("undefined_e", shell=register, teardown=unregister))
        out.append(_c("lst[9]", shell=register, teardown=unregister))
    out.append(_c("undefined_e"))
    tracer = ("import sys\ndef _tr(frame, ev, arg):\n    frame.f_globals['zz_t'] = 1\n"
              "sys.{0}(_tr)")
    for setter in ("settrace", "setprofile"):
        out.append(_c("zz_t", shell=tracer.format(setter), teardown=f"import sys\nsys.{setter}(None)\n"))
        out.append(_c("del zz_t\nzz_t", shell=tracer.format(setter), teardown=f"import sys\nsys.{setter}(None)\n"))
    dying = DF + "class O:\n    def __del__(self):\n        globals()['zz_d'] = 1\n"
    for cell in ["del o\nzz_d", "o = None\nzz_d", "(o := 1)\nzz_d", "def o():\n    pass\nzz_d",
                 "import math as o\nzz_d", "del holder\nzz_d", "holder = 0\nzz_d", "del arr\nzz_d",
                 "frame = 0\nzz_d", "named = 0\nzz_d"]:
        out.append(_c(cell, dying + "o = O()\nholder = [1, {'k': (O(),)}]\narr = np.array([O()], dtype=object)\n"
                                    "frame = df.copy()\nframe.attrs['o'] = O()\nnamed = pd.Series([1], name=O())\n"))
    out.append(_c("del w\nzz_w", DF + "import weakref\nclass W:\n    pass\nw = W()\n"
                                       "weakref.finalize(w, lambda: globals().update(zz_w=1))\n"))
    # Twins: what dropping frees runs nothing, so the crash after it is certain.
    plain = DF + "class P:\n    pass\np = P()\nholder = [1, {'k': (2.0, 'x')}]\n"
    # `ast_node_interactivity = 'all'` displays every expression, through a display hook the notebook
    # may replace (whose error is the cell's); with IPython's own hook the claim stands.
    bad_hook = "get_ipython().displayhook.write_format_data = lambda *a, **k: 1 / 0"
    every = "%config InteractiveShell.ast_node_interactivity = 'all'"
    undo = "del get_ipython().displayhook.write_format_data\nget_ipython().ast_node_interactivity = 'last_expr'\n"
    for cell in ["lst[0]\nlst[9]", "lst[0]\nundefined_y", "x = 5\nundefined_y"]:
        out.append(_c(cell, shell=every + "\n" + bad_hook, teardown=undo))
        out.append(_c(cell, shell=every, teardown="get_ipython().ast_node_interactivity = 'last_expr'\n"))
        out.append(_c(cell, shell=bad_hook, teardown="del get_ipython().displayhook.write_format_data\n"))
    for cell in ["del p\nzz_d", "p = None\nzz_d", "holder = 0\nzz_d", "del lst\nzz_d", "df = df.dropna()\nzz_d",
                 "X = X * 2\nzz_d", "del d\nlst[9]"]:
        out.append(_c(cell, plain))
    return out


def interpreter_flags() -> List[Dict]:
    cells = ["assert undefined_a", "assert False\nundefined_b", "assert 1 / 0\nlst[9]", "assert lst[9]\nundefined_c",
             "assert False, undefined_m\nlst.nope", "x = __debug__\nx.nope", "assert df['zz']\ndf.nope",
             "assert len(5)\nundefined_d"]
    out = []
    for cell in cells:
        out.append(_c(cell, optimize=True))
        out.append(_c(cell))
    return out


def ambiguous_keys() -> List[Dict]:
    """A key that names both a column and a row index level: groupby and sort_values raise ValueError
    on it, so the reading must not go on past them to claim a later line."""
    setup = DF + "dfi = df.set_index(pd.Index([7, 8, 9], name='a'))\n"
    cells = ["dfi.groupby('a')\ndfi['zz']", "g = dfi.groupby('a').sum()\nundefined_g",
             "dfi.sort_values('a')\ndfi['zz']", "dfi.sort_values(by=['b', 'a'])\nundefined_s",
             "dfi.groupby('b').sum()\ndfi.sort_values('a')\nlst[9]"]
    out = [_c(cell, setup) for cell in cells]
    # A repeated column label: groupby's grouper is 2-D (ValueError), sort_values' key not unique.
    dup = DF + "dfd = pd.DataFrame([[1, 2, 3]], columns=['a', 'a', 'b'])\n"
    out += [_c(cell, dup) for cell in ["dfd.groupby('a')\ndfd['zz']", "dfd.sort_values('a')\ndfd['zz']",
                                       "dfd.groupby('b')\nundefined_d"]]
    # Values that do not order (numbers and text in one object column) or order by the notebook's code.
    mixed = DF + ("class _Lt:\n    def __lt__(self, other):\n        raise RuntimeError('lt')\n"
                  "dfm = pd.DataFrame({'a': [1, 'x', 2.5], 'b': [1, 2, 3], 'h': [_Lt(), _Lt(), _Lt()]})\n")
    out += [_c(cell, mixed) for cell in ["dfm.sort_values('a')\ndfm['zz']", "dfm.sort_values(['b', 'a'])\nundefined_m",
                                         "dfm.sort_values('h')\ndfm['zz']", "dfm.sort_values('b')\ndfm['zz']"]]
    return out


def class_creation() -> List[Dict]:
    """`type()` acts on a class body once it has run: the names it reads itself (`__slots__`,
    `__qualname__`) and every value's `__set_name__`, which may raise or bind names. Next to twins
    whose class creation runs nothing, so the crash after them stays certain."""
    hooks = DF + ("import functools\ncp = functools.cached_property(lambda s: 1)\n"
                  "class SetsName:\n    def __set_name__(self, owner, name):\n        globals()['undefined_s'] = 1\n"
                  "class Refuses:\n    def __set_name__(self, owner, name):\n        raise KeyError(name)\n"
                  "sets, refuses = SetsName(), Refuses()\n")
    cells = ["class A:\n    __slots__ = ['a']\n    a = 1\nundefined_s", "class A:\n    __slots__ = 5\nundefined_s",
             "class A:\n    __qualname__ = 5\nundefined_s", "class A:\n    x = sets\nundefined_s",
             "class A:\n    x = refuses\nundefined_s", "class A:\n    p = cp\n    q = cp\nundefined_s",
             "class A:\n    x = (y := sets)\nundefined_s",
             # Twins: plain values, functions, a docstring and a module name.
             "class A:\n    x = lst\n    y = df\nundefined_s",
             "class A:\n    'doc'\n    __doc__ = 'd'\n    __module__ = 'm'\nundefined_s",
             "class A:\n    def f(self):\n        pass\n    g = f\nlst[9]"]
    return [_c(cell, hooks) for cell in cells]


def annotation_store() -> List[Dict]:
    """`x: A = v` at module level stores A in the namespace's `__annotations__`: a value there that
    is no dict raises, a dict subclass runs its `__setitem__`. Twins: none there, or a plain dict."""
    setitem = DF + ("class Noted(dict):\n    def __setitem__(self, k, v):\n        globals()['undefined_z'] = 1\n"
                    "__annotations__ = Noted()\n")
    return [_c("x: int = 1\nundefined_z", DF + "__annotations__ = 5\n"), _c("x: int = 1\nundefined_z", setitem),
            _c("__annotations__ = 3\nx: int = 1\nundefined_z"),
            _c("x: int = 1\nundefined_z"), _c("x: int = 1\nundefined_z", DF + "__annotations__ = {'a': int}\n"),
            _c("del __annotations__\nx: int = 1\nundefined_z", DF + "__annotations__ = 5\n"),
            _c("(x): int = 1\nundefined_z", DF + "__annotations__ = 5\n")]


def import_reads() -> List[Dict]:
    """What an import statement reads of a loaded module: `__spec__._initializing`, `__path__` for
    `from m import ...`, `__all__` for `*`, each name of `import a.b as m` as an attribute; a module
    `__getattr__` (PEP 562) answers what its dictionary lacks, and may raise. Twins: plain modules."""
    mods = DF + ("import types, sys\ndef _refuse(name):\n    raise KeyError(name)\n"
                 "zplain = types.ModuleType('zplain')\nzplain.helper = 1\nsys.modules['zplain'] = zplain\n"
                 "zga = types.ModuleType('zga')\nzga.helper = 1\nzga.__getattr__ = _refuse\nsys.modules['zga'] = zga\n"
                 "zpkg = types.ModuleType('zpkg')\nzpkg.__path__ = []\nzpkg.helper = 1\nzpkg.__getattr__ = _refuse\n"
                 "sys.modules['zpkg'] = zpkg\nsys.modules['zpkg.sub'] = types.ModuleType('zpkg.sub')\n"
                 "zpk2 = types.ModuleType('zpk2')\nzpk2.__path__ = []\nsys.modules['zpk2'] = zpk2\n"
                 "sys.modules['zpk2.sub'] = types.ModuleType('zpk2.sub')\nzpk2.sub = 5\n"
                 "zspec = types.ModuleType('zspec')\nclass _Spec:\n    def __getattr__(self, n):\n"
                 "        globals()['undefined_m'] = 1\n        return False\nzspec.__spec__ = _Spec()\n"
                 "sys.modules['zspec'] = zspec\ndel zplain, zga, zpkg, zpk2, zspec\n")
    undo = "import sys\nfor _m in ('zplain', 'zga', 'zpkg', 'zpkg.sub', 'zpk2', 'zpk2.sub', 'zspec'):\n    sys.modules.pop(_m, None)\n"
    cells = ["from zga import helper\nundefined_m", "from zga import *\nundefined_m", "from zpkg import sub\nundefined_m",
             "import zspec\nundefined_m", "import zpk2.sub as s\ns.real", "from zpk2 import sub\nsub.real",
             # Twins: the module holds what is asked, or has no `__getattr__`.
             "from zplain import helper\nundefined_m", "from zpkg import helper\nundefined_m", "import zga\nundefined_m",
             "import zpk2.sub as s\ns.nope", "import zpk2.sub\nzpk2.nope", "import zplain as p\np.nope",
             "import os.path as p\np.nope", "from numpy import array\nundefined_m", "import sklearn.linear_model as lm\nlm.nope"]
    return [_c(cell, mods, teardown=undo) for cell in cells]


def printed_text() -> List[Dict]:
    """print() to a file's text stream: a strict UTF-8 stream refuses a lone surrogate (text read
    with `surrogateescape`), an ASCII one any other character, and a text stream over a raw stream
    of the notebook's runs its `write`; printing a frame formats numbers, which NumPy's error state
    may make raise. Twins: text the stream takes, a stream over a real file, the default state."""
    sur = DF + "s = 'caf\\udce9'\ndfs = pd.DataFrame({'caf\\udce9': [1, 2]})\nser = pd.Series([1.0], name='n\\ud800')\n"
    sur += "dfn = pd.DataFrame({'x': [1, 2]}, index=['é', 'f'])\n"
    out = [_c(cell, sur) for cell in ["print('\\ud800')\nundefined_p", "print(s)\nundefined_p", "print(dfs)\nundefined_p",
                                      "print(ser)\nundefined_p", "print(1, end=s)\nundefined_p",
                                      "print('café')\nundefined_p", "print(X)\nundefined_p",
                                      "print('a', 1, None, 2.5)\nundefined_p", "print(dfn)\nundefined_p"]]
    keep = DF + "import sys\n_old_out = sys.stdout\n"
    back = "import sys\nsys.stdout = _old_out\n"
    ascii_out = "import io, os, sys\nsys.stdout = io.TextIOWrapper(io.FileIO(os.devnull, 'w'), encoding='ascii')"
    out += [_c("print('é')\nundefined_o", keep, shell=ascii_out, teardown=back),
            _c("print('e')\nundefined_o", keep, shell=ascii_out, teardown=back)]
    raw = keep + ("import io\nclass Raw(io.RawIOBase):\n    def writable(self):\n        return True\n"
                  "    def write(self, b):\n        globals()['undefined_o'] = 1\n        return len(b)\n")
    out.append(_c("print(1)\nundefined_o", raw, teardown=back,
                  shell="import io, sys\nsys.stdout = io.TextIOWrapper(io.BufferedWriter(Raw()), line_buffering=True)"))
    out.append(_c("print(1)\nundefined_o", keep, teardown=back,
                  shell="import io, os, sys\nsys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(os.devnull, 'w')), "
                        "line_buffering=True)"))
    # Formatting a float16 column casts it, which overflows: under `np.seterr(all='raise')` it raises.
    half = DF + "dfh = pd.DataFrame({'x': np.array([np.float16(65504)])})\n"
    out += [_c("print(dfh)\nundefined_q", half + "np.seterr(all='raise')\n"), _c("print(dfh)\nundefined_q", half)]
    return out


def pandas_copy_writes() -> List[Dict]:
    """pandas 2 under `mode.chained_assignment = 'raise'`: a column written into a filtered copy
    raises SettingWithCopyError (pandas 3 ignores the option). Twin: the default, where it warns."""
    sub = DF + "sub = df[df['a'] > 1]\n"
    back = "pd.set_option('mode.chained_assignment', 'warn')\n"
    return [_c("sub['e'] = 1\nundefined_w", sub + "pd.set_option('mode.chained_assignment', 'raise')\n", teardown=back),
            _c("sub['e'] = 1\nundefined_w", sub)]


def builtin_trap() -> List[Dict]:
    """IPython's builtin trap puts `get_ipython` into the builtins while a cell runs and takes `exit`
    and `quit` out; the check reads the builtins outside it. A namespace without its own name (deleted
    by the cell or before it) falls through to the builtins the trap made, not to the ones read."""
    return [
        # false claims before: NameError claimed, but the trap's get_ipython answers
        _c("del get_ipython\nget_ipython", "get_ipython = 5\n"),
        _c("del get_ipython\nprint(get_ipython().user_ns is not None)", "get_ipython = 6\n"),
        _c("get_ipython().user_ns\nundefined_z", "del get_ipython\n"),
        # false claim before: AttributeError claimed on site's Quitter; the cell finds no `exit` at all
        _c("del exit\nexit.nope", "exit = 3\n"),
        _c("del quit\nquit.nope", "quit = 4\n"),
        # twins: a name the namespace still holds is read from it, and the crash stays certain
        _c("get_ipython.nope"),
        _c("exit = 5\nexit.nope"),
        _c("del get_ipython\ndel get_ipython", "get_ipython = 7\n"),
        _c("x = 1\ndel x\nget_ipython()\nundefined_z"),
    ]


def multiline_chains() -> List[Dict]:
    """A chain split over lines fails where CPython locates the failing instruction: since 3.10 an
    attribute is read on the line its name ends, and a call compiled as a method call (`obj.m(...)`:
    no `*`/`**`, and on 3.11+ not of a name the statement imports) runs there too; other calls run
    on the line they start on, subscripts on the line the subscript starts on."""
    return [
        # false claims before (the line the expression starts on was claimed)
        _c("x = (lst\n     .nope)"),
        _c("x = (lst.\n nope)"),
        _c("x = lst\\\n.nope"),
        _c("(df\n .drop(columns=['zz']))"),
        _c("(df\n .rename(columns={'a': 'q'})\n .sort_values('a'))"),
        _c("(df\n .groupby('zz'))"),
        _c("(X\n .reshape(5, 5))"),
        _c("(lr\n .predict(X))"),
        _c("(lr\n .coef_)"),
        _c("import math\n(math\n .sqrt(-1))"),
        _c("(df\n .columns) = ['p']"),
        _c("(df.a\n .str)"),
        # twins: calls that run on their start line, subscripts, the same chains that run clean
        _c("(df\n .sort_values(*['zz']))"),
        _c("(df\n .sort_values(**{'by': 'zz'}))"),
        _c("import math as mm; (mm\n .sqrt(-1))"),
        _c("for i in [0]:\n    import math\n    x = (math\n     .sqrt(-1))"),
        _c("(df\n .loc\n [:, 'zz'])"),
        _c("(len\n (5))"),
        _c("(df\n .drop(columns=['a'])\n .b\n .sum())\nundefined_z"),
        _c("(X\n .reshape(6, 2)\n .T)\nundefined_z"),
    ]


def identity_of_constants() -> List[Dict]:
    """`is` between values the cell makes: which object a literal or folded constant is, is the
    compiler's choice (IPython compiles each statement on its own; equal constants of one statement are
    merged, identifier-like strings interned, small ints cached), not the checker's objects'."""
    return [
        # false claims before: the checker's two objects differ, the run's are one
        _c("((1000) is (1000)) or undefined_z"),
        _c("a = [1000, 1000]\n(a[0] is a[1]) or undefined_z"),
        _c("a = 'hello'\nb = 'hello'\n(a is b) or undefined_z"),
        _c("((1, 2) is (1, 2)) or undefined_z"),
        _c("((2 ** 8) is 256) or undefined_z"),
        _c("a = 1.5\n(a is 1.5) or undefined_z"),
        # and the other way round: the checker's one object, the run's two
        _c("a = 'hello world'\nb = 'hello world'\n(a is b) and undefined_z"),
        _c("a = 1000\nb = 1000\n(a is not b) or undefined_z"),
        # twins: singletons and different types decide it
        _c("a = None\n(a is None) and undefined_z"),
        _c("(1 is True) or undefined_z"),
        _c("((1 < 2) is True) and undefined_z"),
        _c("('a' is not None) and undefined_z"),
    ]


def huge_int_text() -> List[Dict]:
    """An int of more digits than `sys.get_int_max_str_digits()` (4300) allows has no text: print()
    and an f-string of it raise ValueError; an int the checker did not compute (too big to) may be one."""
    return [
        # false claims before: printed as if any int had a text
        _c("x = 10 ** 5000\nprint(x)\nundefined_z"),
        _c("print(10 ** 5000)\nundefined_z"),
        _c("x = 10 ** 4300\nf'{x}'\nundefined_z"),
        _c("x = 2 ** 20000\nf'{x!r}'\nundefined_z"),
        _c("x = int('9' * 4300)\nprint(x * x)\nundefined_z"),
        _c("x = (99 ** 64) ** 64\nprint(x)\nundefined_z"),
        _c("x = [(99 ** 64) ** 64]\nprint(x)\nundefined_z"),
        # twins: 3841 digits print (the limit is 4300), the limit lifted, str() of it raises where it is
        _c("x = (10 ** 60) ** 64\nprint(x)\nundefined_z"),
        _c("x = (99 ** 64) ** 64\nprint(x)\nundefined_z", "import sys\nsys.set_int_max_str_digits(0)\n",
           teardown="import sys\nsys.set_int_max_str_digits(4300)\n"),
        _c("x = (99 ** 64) ** 64\nstr(x)"),
        _c("x = 10 ** 5000\nprint(hex(x))\nundefined_z"),
    ]


def set_order() -> List[Dict]:
    """The order a set the cell builds iterates in is CPython's table order, which depends on how it
    was built (a display of constants is a frozenset constant copied into a new set), not the order of
    a set the checker builds from the same items; a set of the kernel's iterates as it does now."""
    return [
        # false claim before: KeyError claimed for 'hello world', the run's first item is 'a'
        _c("a, *b = {'hello world', 'a', 'ab', 'b', 'x1'}\n{'a': 1}[a]"),
        _c("a, *b = {'b', 'ab', 'hello world', 'a', 'x1'}\n{'a': 1}[a]"),
        _c("for x in {'hello world', 'a', 'ab', 'b', 'x1'}:\n    {'a': 1}[x]"),
        _c("s = {'hello world', 'a', 'ab', 'b', 'x1'}\n{'a': 1}[list(s)[0]]"),
        # twins: the size of the set is known, and a kernel set iterates as it does now
        _c("a, b = {'hello world', 'a', 'ab'}"),
        _c("len({'hello world', 'a', 'a'}) + undefined_z"),
        _c("a, *b = ks\n{'a': 1}[a]\nundefined_z", DF + "ks = {'a'}\n"),
    ]


def results_too_large() -> List[Dict]:
    """Operations the checker does not compute, only types, because their result is large: a float
    power overflows (OverflowError), and a result too large to allocate raises MemoryError at once."""
    return [
        # false claims before: NameError claimed on line 2, the first line raises
        _c("x = 2.0 ** 10000\nundefined_z"),
        _c("x = 2 ** 10000.0\nundefined_z"),
        _c("x = (-2.0) ** 1025\nundefined_z"),
        _c("x = 'a' * 10 ** 13\nundefined_z"),
        _c("x = (1,) * 10 ** 13\nundefined_z"),
        _c("x = 1 << 10 ** 13\nundefined_z"),
        # twins: a float power that fits, an int power, a repetition that fits
        _c("x = 1.5 ** 100\nundefined_z"),
        _c("x = 2 ** 10000\nundefined_z"),
        _c("x = 0.5 ** 10000\nundefined_z"),
        _c("x = 'a' * 200000\nundefined_z"),
        _c("x = 10.0 ** 400"),
    ]


def boolean_masks() -> List[Dict]:
    """A list of bools inside `df[...]` or `.loc[:, ...]` is a boolean mask, not column labels: one of
    the right length selects rows or columns, one of the wrong length raises ValueError or IndexError,
    never the KeyError of a missing column (even when the frame has a column named True)."""
    bools = DF + "dfb = pd.DataFrame({True: [1, 2], 'x': [3, 4]})\n"
    cells = ["df[[True, False, True]]\nundefined_b", "df[[True, False]]\nundefined_b",
             "df.loc[:, [True, False, True]]\nundefined_b", "df.loc[:, [True, False]]\nundefined_b",
             "df.loc[0, [True, False, True]]\nundefined_b", "t = True\ndf[[t, False, t]]\nundefined_b",
             "dfb[[True]]\nundefined_b", "dfb[[True, True]]\nundefined_b",
             # Twins: a lone bool is a label, and so is a list mixing bools with other labels.
             "dfb[True]\nundefined_b", "dfb[[True, 'x']]\nundefined_b", "df[True]\nundefined_b",
             "df[[True, 'a']]\nundefined_b", "df.drop([True, False, True], axis=1)\nundefined_b"]
    return [_c(cell, bools) for cell in cells]


def repeated_column_writes() -> List[Dict]:
    """`df[label] = values` where the label names several columns: pandas writes one value into each
    of them when there are as many values as such columns, whatever the row count (1, 1.0 and True
    are one key). Twins: another count of values, or a label naming one column, is a length ValueError."""
    dup = DF + ("dfd = pd.DataFrame([[1, 2, 3]], columns=['a', 'a', 'b'])\n"
                "dfo = pd.DataFrame([[1, 2, 3]], columns=pd.Index([1, 1.0, 'c'], dtype=object))\n")
    cells = ["dfd['a'] = [1, 2]\nundefined_r", "dfd['a'] = np.array([1, 2])\nundefined_r", "dfo[1] = [1, 2]\nundefined_r",
             "dfo[True] = [1, 2]\nundefined_r", "df.columns = [1, 1.0, 'c']\ndf[1] = [1, 2]\nundefined_r",
             "df.columns = ['a', 'a', 'c']\ndf['a'] = [1, 2]\nundefined_r",
             "dfd['a'] = [1, 2, 3]\nundefined_r", "dfd['b'] = [1, 2]\nundefined_r", "dfo['c'] = [1, 2]\nundefined_r",
             "df.columns = ['a', 'a', 'c']\ndf['c'] = [1, 2]\nundefined_r",
             "df.columns = ['a', 'a', 'c']\ndf['a'] = [1, 2, 4, 5]\nundefined_r"]
    return [_c(cell, dup) for cell in cells]


def unsigned_arrays() -> List[Dict]:
    """Arithmetic on unsigned NumPy arrays stays unsigned: a negative Python integer then raises
    OverflowError (NEP 50), so the reading must not take `u + u` for a signed array and go on past
    `(u + u) + (-1)`. Twins: non-negative integers, floats, division and signed arrays run clean."""
    u = DF + "u = np.array([1, 2], dtype=np.uint8)\nu16 = np.array([1, 2], dtype=np.uint16)\n" \
             "i8 = np.array([1, 2], dtype=np.int8)\n"
    crash = ["(u + u) + (-1)", "(u - u) + (-5)", "(u + u16) + (-1)", "(u // u) + (-1)", "np.vstack([u, u]) + (-1)",
             "np.concatenate([u, u]) + (-1)", "np.stack([u, u]) - (-1)", "(u @ u) + (-1)", "np.dot(u, u) + (-1)",
             "np.hstack([u, u]) + (-1)", "(u + 1) + (-1)",
             # Sums keep the kind: np.sum of uint8 is a uint64 scalar, the builtin sum a uint8 one.
             "np.sum(u) + (-1)", "sum(u) + (-1)", "sum(np.vstack([u, u])) + (-1)"]
    clean = ["(u * u) - 1", "(u + u) + 1", "(u + u) + 1.5", "(u / u) + (-1)", "(u + i8) + (-1)", "(i8 + i8) + (-128)",
             "(u + u) + 255", "np.mean(u) + (-1)", "np.sum(u) + 1", "sum(np.array([True, False])) + (-1)"]
    return [_c(cell + "\nundefined_u", u) for cell in crash + clean]


def feature_conversions() -> List[Dict]:
    """A fitted model given a frame of the wrong width: scikit-learn converts X to floats before it
    compares the feature count, so a datetime or timedelta column raises DTypePromotionError and an
    object column of Timestamps TypeError, not the count's ValueError. Twins: numeric, bool and text
    columns (the count's ValueError, or the ValueError of text that is no number) are still caught."""
    fit = DF + ("import warnings\nwarnings.filterwarnings('ignore')\n"
                "Xdt = pd.DataFrame({'p': pd.to_datetime(['2020-01-01'] * 4), 'q': 1.0})\n"
                "Xtd = pd.DataFrame({'p': pd.to_timedelta([1] * 4, unit='s'), 'q': 1.0})\n"
                "Xts = pd.DataFrame({'p': pd.Series([pd.Timestamp('2020-01-01')] * 4, dtype=object), 'q': 1.0})\n"
                "Xok = pd.DataFrame({'p': [1, 2, 3, 4], 'q': [True] * 4})\nXs = pd.DataFrame({'p': ['a'] * 4, 'q': 1.0})\n"
                "sc_fit = StandardScaler().fit(X)\n")
    cells = ["lr_fit.predict(Xdt)", "lr_fit.predict(Xtd)", "lr_fit.predict(Xts)", "sc_fit.transform(Xdt)",
             "lr_fit.predict(Xdt[['p', 'q']])", "lr_fit.predict(Xdt.head(2))", "lr_fit.predict(Xdt.drop(columns='q'))",
             "lr_fit.predict(Xok)", "lr_fit.predict(Xs)", "lr_fit.predict(Xok[['p', 'q']])", "sc_fit.transform(Xok.head(2))",
             "lr_fit.predict(Xok.isna())"]
    return [_c(cell + "\nundefined_f", fit) for cell in cells]


def target_conversions() -> List[Dict]:
    """`fit(X, y)` with y shorter than X: scikit-learn converts y (floats for a regressor, sorted
    classes for a classifier) before it compares the lengths, so a y of dicts or Timestamps raises
    TypeError (float() of a dict) and [1, None, 2] TypeError in GaussianNB's sorting of the classes.
    Twins: numbers, text and rows of numbers are still the length ValueError."""
    fit = DF + ("from sklearn.tree import DecisionTreeRegressor\nfrom sklearn.naive_bayes import GaussianNB\n"
                "ts = pd.Timestamp('2020-01-01')\n")
    crash = ["LinearRegression().fit(X, [{}, {}, {}])", "LinearRegression().fit(X, [ts, ts, ts])",
             "DecisionTreeRegressor().fit(X, [{}, {}, {}])", "GaussianNB().fit(X, [{}, {}, {}])",
             "GaussianNB().fit(X, [1, None, 2])", "LinearRegression().fit(X, np.array([ts, ts, ts]))"]
    twins = ["LinearRegression().fit(X, [1, 2, 3])", "GaussianNB().fit(X, ['a', 'b', 'a'])",
             "LinearRegression().fit(X, [[1, 2], [3, 4], [5, 6]])", "GaussianNB().fit(X, np.array([0, 1, 0]))",
             "LinearRegression().fit(X, pd.Series([1.0, 2.0, 3.0]))"]
    return [_c(cell + "\nundefined_t", fit) for cell in crash + twins]


def metric_targets() -> List[Dict]:
    """A classification metric given a target of fractions raises ValueError, unless what scikit-learn
    reads before the values says otherwise: labels a dtype's metadata caches make a 2-D array of
    fractions a multilabel target (the metric then runs clean), and text with a missing value fails
    its sorting with TypeError first."""
    setup = DF + ("from sklearn.metrics import accuracy_score, f1_score\n"
                  "cached = np.dtype(np.float64, metadata={'unique': np.array([0.0, 1.0])})\n"
                  "ints = np.dtype(np.int64, metadata={'unique': np.array([0, 1])})\n"
                  "yp = np.array([[0.5, 0.2], [0.3, 0.9]], dtype=cached)\nyt = np.array([[0, 1], [1, 0]], dtype=ints)\n"
                  "yp1 = np.array([0.5, 0.2], dtype=cached)\nyt1 = np.array([0, 1])\n"
                  "ymix = pd.Series(['a', None])\nyq = np.array([0.5, 0.2])\n")
    cells = ["accuracy_score(yt, yp)", "f1_score(yt, yp, average='micro')", "accuracy_score(yt1, yp1)",
             "accuracy_score(ymix, yq)", "accuracy_score(yq, ymix)", "accuracy_score(yt1, yq)"]
    return [_c(cell, setup) for cell in cells] + [_c(cell + "\nundefined_m", setup) for cell in cells]


def sparse_tensors() -> List[Dict]:
    """A sparse (COO) tensor has a shape like a dense one, but `sp + a`, `sp.reshape(6)` and
    `torch.cat([sp, a])` raise RuntimeError whatever the shapes, so only dense (strided) tensors are
    read. Twins: the same operations on a dense tensor run clean, or fail on their shapes."""
    if importlib.util.find_spec("torch") is None:  # (the Python 3.9 kernel environment has no torch)
        return []
    ts = DF + "import torch\na = torch.zeros(2, 3)\nv = torch.zeros(3)\nsp = torch.zeros(2, 3).to_sparse()\n" \
              "dense = sp.to_dense()\n"
    cells = ["sp + a", "sp + v", "sp.reshape(6)", "torch.cat([sp, a])", "dense + a", "dense + v", "dense.reshape(6)",
             "torch.cat([dense, a])", "dense.reshape(4)", "torch.cat([dense, v])"]
    return [_c(cell + "\nundefined_p", ts) for cell in cells]


def wrapped_method_arguments() -> List[Dict]:
    """scikit-learn wraps `fit` (`_fit_context`) and `transform` (set_output's wrapper) in
    `(*args, **kwargs)` functions, so too many arguments raise TypeError only when the wrapper calls
    the method it wraps, before the data is looked at: no length, feature-count or not-fitted claim.
    Twins: the same calls with arguments the wrapped method takes keep their claims."""
    cells = ["lr_fit.fit(X[:, :2], [1, 2], 1, 2)", "lr_fit.fit(X, [1, 2], 1, 2, 3)",
             "StandardScaler().fit(X).transform(X[:, :2], True, 1)", "StandardScaler().transform(X, 1, 2)",
             "lr_fit.fit(X, [1, 2])", "lr_fit.fit(X, [1, 2], [1, 1])", "StandardScaler().fit(X).transform(X[:, :2], copy=True)",
             "StandardScaler().transform(X)"]
    return [_c(cell + "\nundefined_w") for cell in cells]


def slice_parts() -> List[Dict]:
    """A slice of a list, tuple, str or range whose parts are not plain integers raises (a zero step:
    ValueError; a float: TypeError) or is read by `__index__`: the checker leaves it to the model,
    and reads plain slices past as before."""
    cells = ["lst[::0]", "lst[1.0:]", "lst[::0]\nundefined_z", "'abc'[:1.5]\nundefined_z", "range(3)[::0]",
             "lst[np.int64(1):]\nundefined_z", "lst[1:]\nundefined_z", "lst[True:]\nundefined_z",
             "lst[:10 ** 30]\nundefined_z", "lst[::-1][5]"]
    return [_c(cell) for cell in cells]


def codecs_of_ones_own() -> List[Dict]:
    """`str(bytes, encoding, errors)` decodes through the codec registry, where a notebook registers
    its own codecs and error handlers: the checker never runs the decoding (the handler below refuses
    its first call only, so a checker that ran it would claim what the cell does not raise)."""
    once = ("import codecs\n_n = [0]\ndef _h(err):\n    _n[0] += 1\n    if _n[0] == 1:\n"
            "        raise ValueError('first call refused')\n    return ('?', err.end)\n"
            "codecs.register_error('crane_once', _h)\n")
    writes = ("import codecs\ndef _w(err):\n    globals()['undefined_q'] = 1\n    return ('?', err.end)\n"
              "codecs.register_error('crane_writes', _w)\n")
    return [_c("str(b'\\xff', 'utf-8', 'crane_once')\nundefined_q", DF + once),
            _c("str(b'\\xff', 'utf-8', errors='crane_writes')\nundefined_q", DF + writes),
            _c("str(b'\\xff', 'utf-8')\nundefined_q"), _c("str(b'x')\nundefined_q")]


def frame_arguments() -> List[Dict]:
    """Arguments pandas checks where it likes: `drop` given its labels two ways, unusual `kind=`,
    `na_position=`, `ignore_index=`; and `info()` writing to a stdout that raises."""
    cells = ["x = df.drop(index=[99], columns=['a'])\nundefined_q", "x = df.drop(labels=['a'], axis=1, index=[0])\nundefined_q",
             "x = df.drop(['a'], axis=1, index=[0])\nundefined_q", "x = df.drop(columns=['a'], labels=['b'])\nundefined_q",
             "x = df.sort_values('a', kind='nope')\nundefined_q", "x = df.sort_values('a', na_position='nope')\nundefined_q",
             "x = df.sort_values('a', kind=5)\nundefined_q", "x = df.drop_duplicates(ignore_index='x')\nundefined_q",
             "x = df.dropna(ignore_index=3)\nundefined_q", "x = df.sort_values('zz', kind='nope')",
             "x = df.drop(columns=['a'])\nundefined_q", "x = df.sort_values('a', kind='stable')\nundefined_q"]
    out = [_c(cell) for cell in cells]
    loud = DF + ("import sys\nclass _Broken:\n    def write(self, s):\n        raise OSError('closed')\n"
                 "    def flush(self):\n        pass\n")
    for cell in ("df.info()\nundefined_q", "df.info(verbose=True)\nundefined_q"):
        out.append(_c("_saved = sys.stdout\nsys.stdout = _Broken()\n" + cell, loud,
                      teardown="sys.stdout = sys.__stdout__"))
    return out


def sizes_past_the_machine() -> List[Dict]:
    """Arrays and tensors NumPy or PyTorch refuse to make (sizes past the index type: ValueError,
    TypeError, RuntimeError) or cannot allocate (MemoryError), and indices past NumPy's C integer
    (OverflowError below 2**64, IndexError above): the line that makes them is never passed over."""
    cells = ["x = np.zeros((10**10, 10**10))\nundefined_q", "x = np.zeros(2**63)\nundefined_q",
             "x = np.zeros((0, 10**20))\nundefined_q", "x = np.arange(10**20)\nundefined_q",
             "x = np.zeros(10**13)\nundefined_q", "x = np.arange(10**13)\nundefined_q",
             "x = np.ones((10**7, 10**7))\nundefined_q", "x = np.zeros(0).reshape(10**20, 0)\nundefined_q",
             "x = np.zeros(0).reshape(2**62, 4, 0)\nundefined_q", "x = np.zeros((2**40, 2**40))\nx.reshape(3, 3)",
             "x = np.zeros(10**13)\nnp.dot(x, np.ones(3))", "X[2**63]", "X[:, 2**63]", "np.arange(3)[2**63]",
             "np.zeros((2, 2))[0, 2**63]", "X[10**20]", "X[2**64]", "x = np.zeros((3, 4))\nundefined_q"]
    out = [_c(cell) for cell in cells]
    if importlib.util.find_spec("torch") is not None:
        torch = DF + "import torch\n"
        for cell in ("x = torch.zeros(0, 2**63)\nundefined_q", "x = torch.randn(0, 2**63)\nundefined_q",
                     "x = torch.ones(0, 2**62, 4)\nundefined_q", "x = torch.zeros(0, 2**62, 4)\nx.reshape(5)",
                     "x = torch.zeros(2, 3)\nundefined_q"):
            out.append(_c(cell, torch))
    return out


def displayed_mid_cell() -> List[Dict]:
    """With `ast_node_interactivity = 'all'` the shell displays every expression's value as it comes,
    and a value's own `__repr__` / `_repr_html_` may change what later lines read."""
    adds = DF + ("class K:\n    def __repr__(self):\n        df['zz'] = 1\n        return 'k'\n"
                 "class H:\n    def _repr_html_(self):\n        df['zz'] = 1\n        return '<b>h</b>'\n"
                 "k = K()\nh = H()\n")
    mode = "get_ipython().ast_node_interactivity = 'all'"
    back = "get_ipython().ast_node_interactivity = 'last_expr'"
    out = [_c(cell, adds, shell=mode, teardown=back)
           for cell in ("k\ndf['zz']", "h\ndf['zz']", "for i in range(1):\n    k\ndf['zz']", "3\ndf['zz']")]
    return out + [_c("k\ndf['zz']", adds)]


def loop_corners() -> List[Dict]:
    """Loops followed pass by pass: an index over an extension array yields its own scalars (1 / 0
    of an Int64 is inf, not an error) and may run a subclass's methods; pandas converts labels when
    a column is added (ints beside a float become floats); a stdout on a device that refuses writes
    fails on a later pass; a range too long for `len`; a loop rebinding `__builtins__`."""
    ext = DF + ("calls = []\nclass MyArr(pd.arrays.IntegerArray):\n    def __len__(self):\n        calls.append(1)\n"
                "        return 2\n    def tolist(self):\n        calls.append(2)\n        return ['zz', 'zz']\n"
                "idx = pd.Index(MyArr(np.array([1, 2]), np.array([False, False])))\n"
                "i64 = pd.Index([0, 1], dtype='Int64')\nf64 = pd.Index([1.0, 2.0], dtype='Float64')\n"
                "b8 = pd.Index([True, False], dtype='boolean')\nnum = pd.DataFrame({0: [1], 1: [2]})\nr = range(10**20)\n")
    cells = ["for c in i64:\n    1 / c", "for c in f64:\n    c ** 10000", "for c in b8:\n    lst[c]",
             "[1 / c for c in i64]", "for c in idx:\n    pass", "for c in idx:\n    pass\nc + 1",
             "num[1.5] = 0\nfor c in num.columns:\n    c.hex()", "num.columns = [0, 1.5]\nfor c in num.columns:\n    c.hex()",
             "for i in r:\n    break", "for __builtins__ in [{}]:\n    pass\nlen([1]) + 'a'",
             "__builtins__ = {}\nlen([1]) + 'a'", "for c in pd.Index([0, 1]):\n    1 / c",
             "for i in df.index:\n    lst[i + 1]", "for c in df.columns:\n    df[c + '_n'] = 0\ndf['zz']",
             "for c in pd.Index(['a', None], dtype='string'):\n    c + 1", "for c in pd.Index(['a', 'b'], dtype='string'):\n    c + 1"]
    out = [_c(cell, ext) for cell in cells]
    full = DF + "import sys\n_out = sys.stdout\nsys.stdout = open('/dev/full', 'w')\n"
    back = "sys.stdout = sys.__stdout__"
    if __import__("os").path.exists("/dev/full"):
        out += [_c("for i in range(200):\n    print('x' * 100)\nundefined_q", full, teardown=back)]
    closed = DF + "import io, sys\n_s = io.StringIO()\n_s.close()\nsys.stdout = _s\n"
    out += [_c("print(1)\nundefined_q", closed, teardown=back)]
    return out


def argument_checks_first() -> List[Dict]:
    """pandas and NumPy check some arguments before the keys or shapes the rules judge: a bad
    `ascending` is a ValueError before a missing sort key; `np.reshape`'s third positional is
    `order`, not a dimension."""
    cells = ["df.sort_values('zz', ascending='x')", "df.sort_values('zz', ascending=None)",
             "df.sort_values('zz', ascending=[True, False])", "df.sort_values(['a', 'zz'], ascending=[True])",
             "np.reshape(np.ones(6), 2, 3)\nundefined_q", "np.reshape(np.ones(5), 2, 3)"]
    return [_c(cell) for cell in cells]


def unpacking_lines() -> List[Dict]:
    """Python unpacks where the target stands, which a continued line puts after the statement's."""
    return [_c(cell) for cell in ("x = \\\n    a, b = [1, 2, 3]", "x = y = \\\n  [a, b] = [1, 2, 3]",
                                  "(a,\n b) = [1, 2, 3]", "x = \\\n    a, b = 5")]


def shell_command_lines() -> List[Dict]:
    """`!cmd` lines IPython expands (`{expr}` and `$name` are evaluated in the namespace), runs in
    the background (OSError) or raises on failure (`system_raise_on_error`)."""
    cells = ["!echo {d.update(zz=1)}\nd['zz']", "!echo {lst.extend([0] * 10)}\nlst[5]",
             "!echo {get_ipython().user_ns.update(zz_q=1)}\nzz_q", "x = !echo {d.update(zz=1)}\nd['zz']",
             "!true &\nundefined_q", "files = !true &\nundefined_q", "!echo $d\nundefined_q"]
    out = [_c(cell) for cell in cells]
    raising = "get_ipython().system_raise_on_error = True"
    out.append(_c("!false\nundefined_q", shell=raising, teardown="get_ipython().system_raise_on_error = False"))
    return out


def warning_machinery() -> List[Dict]:
    """Warnings raised through a replaced `warnings.warn`, a filter whose pattern is an object of the
    notebook's, a default action of 'error', and NumPy's FutureWarning before an AttributeError."""
    warn = DF + ("import warnings\n_ow = warnings.warn\ndef _raiser(*a, **k):\n    raise RuntimeError('warned')\n"
                 "warnings.warn = _raiser\n")
    out = [_c(cell, warn, teardown="warnings.warn = _ow")
           for cell in ("df.sort_values('a', inplace=True)\nundefined_q", "np.str\nundefined_q",
                        "Xd = pd.DataFrame(np.ones((4, 5)))\nlr_fit.predict(Xd)")]
    evil = DF + ("import warnings\nclass _Evil:\n    def match(self, text):\n        raise RuntimeError('evil')\n"
                 "warnings.filters.insert(0, ('ignore', _Evil(), Warning, None, 0))\n")
    out += [_c(cell, evil, teardown="warnings.filters.pop(0)")
            for cell in ("x = np.ones(3) / 0\nundefined_q", "df.dropna(inplace=True)\nundefined_q")]
    default = DF + "import warnings\n_da = warnings.defaultaction\nwarnings.defaultaction = 'error'\n"
    out.append(_c("df.sort_values('a', inplace=True)\nundefined_q", default, teardown="warnings.defaultaction = _da"))
    strict = DF + "import warnings\nwarnings.simplefilter('error')\n"
    out.append(_c("np.str\nundefined_q", strict, teardown="warnings.resetwarnings()"))
    return out


def metaclass_methods() -> List[Dict]:
    """What only the metaclass has is bound to the class (`A.register(int)` takes one argument), and
    the metaclass's data descriptors win over the class body (`A.__name__` is type's)."""
    abcs = "import abc\nclass A(abc.ABC):\n    pass\nclass N:\n    __name__ = 5\n"
    return [_c(cell, abcs) for cell in ("A.register(int)\nundefined_q", "A._abc_caches_clear()\nundefined_q",
                                        "N.__name__ + 'x'\nundefined_q")]


def frame_flags_and_attrs() -> List[Dict]:
    """A frame that refuses duplicate labels (renames raise DuplicateLabelError, `inplace=True` is
    refused), and `attrs` pandas deep-copies into every derived frame."""
    flags = DF + "df.flags.allows_duplicate_labels = False\n"
    cells = ["df2 = df.rename(columns={'a': 'b'})\ndf2['zz']", "df.rename(columns={'a': 'b'}, inplace=True)\ndf['zz']",
             "d2 = df.head()\nd3 = d2.rename(columns={'a': 'b'})\nd3['zz']"]
    out = [_c(cell, flags) for cell in cells]
    attrs = DF + "class _NoCopy:\n    def __deepcopy__(self, memo):\n        raise RuntimeError('copied')\ndf.attrs['k'] = _NoCopy()\n"
    out += [_c(cell, attrs) for cell in ("df2 = df.head()\ndf2['zz']", "df2 = df[['a']]\ndf2['zz']")]
    return out


def estimator_parameters() -> List[Dict]:
    """scikit-learn's tags compare parameters (`self.kernel == 'precomputed'`): a parameter of the
    notebook's would have its `__eq__` run by the fitted check."""
    setup = DF + ("calls = []\nclass K:\n    def __eq__(self, o):\n        calls.append('eq')\n        return False\n"
                  "    __hash__ = object.__hash__\n    def __call__(self, a, b):\n        return a @ b.T\n"
                  "from sklearn.svm import SVC\nfrom sklearn.neighbors import KNeighborsClassifier\n"
                  "svc = SVC(kernel=K())\nknn = KNeighborsClassifier(metric=K())\ncalls.clear()\n")
    return [_c(cell, setup) for cell in ("svc.predict(X)", "knn.predict(X)")]


def pyplot_state() -> List[Dict]:
    """pyplot drives the class registered under the default projection's name, and lays text out
    through LaTeX when `text.usetex` is on."""
    mpl = DF + "import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"
    proj = mpl + ("from matplotlib.axes import Axes\nfrom matplotlib.projections import register_projection, "
                  "projection_registry\n_oldp = projection_registry._all_projection_types['rectilinear']\n"
                  "class MyAxes(Axes):\n    name = 'rectilinear'\n    def set_title(self, *a, **k):\n"
                  "        globals()['zz_t'] = 1\nregister_projection(MyAxes)\n")
    out = [_c("plt.title('x')\nzz_t", proj, teardown="projection_registry._all_projection_types['rectilinear'] = _oldp\n"
                                                  "plt.close('all')")]
    tex = mpl + "matplotlib.rcParams['text.usetex'] = True\n"
    out.append(_c("plt.xlabel('x')\nplt.tight_layout()\nundefined_q", tex,
                  teardown="matplotlib.rcParams['text.usetex'] = False\nplt.close('all')"))
    return out


def threads_beside_the_cell() -> List[Dict]:
    """A thread of the notebook's may bind a name while the cell runs."""
    setup = DF + ("import threading, time\ndef _later():\n    time.sleep(0.8)\n    get_ipython().user_ns['zz_t'] = 1\n"
                  "threading.Thread(target=_later, daemon=True).start()\n")
    return [_c("x = 3 ** (10 ** 7)\nzz_t", setup)]


def column_lookups() -> List[Dict]:
    """(red team, 3 Dec afternoon) pandas hands out a column '_a' as `df._a`; refuses `axis=` beside
    `columns=` before any lookup; and casts a list of labels to a narrow Index's dtype (257 finds the
    uint8 column 1)."""
    setup = DF + ("dfu = pd.DataFrame({'_zz': [1], 'T2': [2]})\n"
                  "dfu8 = pd.DataFrame(np.ones((2, 2)), columns=pd.Index([1, 2], dtype='uint8'))\n"
                  "dff = pd.DataFrame(np.ones((2, 2)), columns=pd.Index([0.1, 2.0], dtype='float32'))\n")
    cells = ["dfu._zz", "df.drop(columns='zz', axis=1)", "df.drop(columns=['zz'], axis=1, inplace=True)",
             "dfu8[[257]]", "dfu8.drop(columns=[257])", "dfu8.dropna(subset=[257])", "dff[[0.1]]",
             "df.sort_values('zz', by='a')", "df.groupby('zz', by='a')"]
    return [_c(cell, setup) for cell in cells]


def pyplot_settings_and_labels() -> List[Dict]:
    """(red team, 3 Dec afternoon) pyplot runs `figure.hooks` on every new figure, refuses settings
    its validators let through (margins the wrong way round, a negative size) or that bypassed
    them, and converts an Axes' default limits through the units registry; a series prints its
    name and its index's name with str(); a pandas `string` column's <NA> fails scikit-learn's
    float conversion with TypeError."""
    mpl = DF + ("import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt, types, sys\n"
                "img = np.zeros((3, 8, 8))\nlst = [1, 2]\n_saved_rc = dict(matplotlib.rcParams)\n")
    undo = "dict.update(matplotlib.rcParams, _saved_rc)\nplt.close('all')"
    hooks = mpl + ("_hm = types.ModuleType('zzhooks')\ndef _bind(fig):\n    get_ipython().user_ns['zz'] = 1\n"
                   "_hm.bind = _bind\nsys.modules['zzhooks'] = _hm\nmatplotlib.rcParams['figure.hooks'] = ['zzhooks:bind']\n")
    out = [_c(cell, hooks, teardown=undo) for cell in ("plt.figure()\nzz", "plt.subplot(1, 2, 1)\nzz")]
    for change in ("matplotlib.rcParams['figure.subplot.left'] = 0.9\nmatplotlib.rcParams['figure.subplot.right'] = 0.1\n",
                   "matplotlib.rcParams['figure.figsize'] = (-1, 2)\n",
                   "dict.__setitem__(matplotlib.rcParams, 'axes.facecolor', 'zz')\n",
                   "dict.__setitem__(matplotlib.rcParams, 'image.cmap', 'zz')\n"):
        out += [_c(cell, mpl + change, teardown=undo) for cell in ("plt.figure()\nplt.xlabel('x')\nlst[9]",
                                                                   "plt.imshow(img)")]
    units = mpl + ("import matplotlib.units as munits\nclass Conv(munits.ConversionInterface):\n"
                   "    @staticmethod\n    def convert(v, u, a):\n        get_ipython().user_ns['zz'] = 1\n        return v\n"
                   "    @staticmethod\n    def axisinfo(u, a):\n        get_ipython().user_ns['zz'] = 1\n"
                   "    @staticmethod\n    def default_units(x, a):\n        get_ipython().user_ns['zz'] = 1\n"
                   "munits.registry[int] = Conv()\nmunits.registry[float] = Conv()\n")
    out += [_c(cell, units, teardown="munits.registry.pop(int, None)\nmunits.registry.pop(float, None)\nplt.close('all')")
            for cell in ("plt.title('t')\nzz", "plt.subplot(1, 2, 1)\nzz")]
    names = DF + ("lst = [1, 2]\nclass Nm:\n    def __str__(self):\n        get_ipython().user_ns['zz'] = 1\n        return 'n'\n"
                  "    __repr__ = __str__\n    def __hash__(self):\n        return 1\n    def __eq__(self, o):\n"
                  "        return self is o\nsn = pd.Series([1.0, 2.0], name=Nm())\n"
                  "ser2 = pd.Series([1.0, 2.0])\nser2.index.name = Nm()\n")
    out += [_c(cell, names) for cell in ("print(sn)\nzz", "print(ser2)\nzz")]
    sna = DF + ("lr_fit = LinearRegression().fit(X[:, :2], y)\n"
                "sna = pd.DataFrame({'p': pd.array(['1', None, '2', '3'], dtype='string'), 'q': 1.0, 'r': 2.0})\n")
    out += [_c(cell, sna) for cell in ("lr_fit.predict(sna)", "LinearRegression().fit(sna, y[:3])")]
    return out


def torch_functions_patched() -> List[Dict]:
    """(red team, 3 Dec afternoon) PyTorch's layers and losses call functions by name at run time
    (`F.linear`, `F.conv2d`, `torch.broadcast_tensors`), and a Conv2d padding other than with
    zeros pads first, refusing other ranks with NotImplementedError."""
    if importlib.util.find_spec("torch") is None:  # (the Python 3.9 and 3.13 kernel environments have no torch)
        return []
    base = DF + "import torch, types\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    out = []
    for name, fake, cell, setup in (
            ("F.linear", "lambda x, w, b=None: x", "lin(x)", "lin = nn.Linear(4, 3)\nx = torch.zeros(2, 5)\n"),
            ("F.conv2d", "lambda *a, **k: a[0]", "conv0(im)", "conv0 = nn.Conv2d(3, 8, 3)\nim = torch.zeros(1, 2, 6, 6)\n"),
            ("F.cross_entropy", "lambda *a, **k: 0", "ce(sc, tg)",
             "ce = nn.CrossEntropyLoss()\nsc = torch.zeros(4, 3)\ntg = torch.zeros(5, dtype=torch.long)\n"),
            ("torch.broadcast_tensors", "lambda *t: (t[0], t[0])", "F.mse_loss(torch.zeros(3), torch.zeros(4))", "")):
        out.append(_c(cell, base + setup + f"_orig = {name}\n{name} = {fake}\n", teardown=f"{name} = _orig\n"))
    pad = base + "conv = nn.Conv2d(3, 8, 3, padding=1, padding_mode='reflect')\n"
    out += [_c(cell, pad) for cell in ("conv(torch.zeros(5, 5))", "conv(torch.zeros(1, 1, 2, 5, 5))")]
    return out


def torch_layouts_and_sizes() -> List[Dict]:
    """(second red team, 3 Dec afternoon) a Linear layer's bias of another size or dtype, an input
    made under `torch.inference_mode()`, results too large to allocate, the layout an element-wise
    result or a `reshape` keeps (a `view` of it may fail), and a range longer than len() can say."""
    if importlib.util.find_spec("torch") is None:  # (the Python 3.9 and 3.13 kernel environments have no torch)
        return []
    base = DF + "import torch\nimport torch.nn as nn\nlin = nn.Linear(4, 3)\nx = torch.zeros(2, 4)\nlst = [1, 2]\n"
    bias = base + "lin.bias = nn.Parameter(torch.zeros(7))\n"
    infer = base + "with torch.inference_mode():\n    xi = torch.randn(2, 4)\n"
    big = base + "col = torch.ones(10 ** 6, 1)\nrow = torch.ones(1, 10 ** 6)\n"
    layout = base + "m = torch.ones(4, 6)\nn = torch.ones(4, 6)\n"
    cells = [(bias, "y = lin(x)\nundefined_q"), (infer, "y = lin(xi)\nundefined_q"), (big, "c = col + row\nundefined_q"),
             (big, "c = col @ row\nundefined_q"), (layout, "s = m.T / n.T\nc = s.view(-1)\nlst[5]"),
             (layout, "c = m.T.reshape(2, 3, 4).view(24)\nlst[5]"), (base + "r = range(10 ** 20)\n", "r[5]\nundefined_q")]
    return [_c(cell, setup) for setup, cell in cells]


def numbers_labels_and_modules() -> List[Dict]:
    """(third red team, 3 Dec) an int past the float range meets a float (OverflowError, before any
    later line), True and 1 as one column key (pandas matches them), a label cast to a narrow row
    index's dtype, attributes every module has from its type, and ints too long to compute with
    inside a check's budget."""
    bools = "import pandas as pd\ndf = pd.DataFrame([[1, 2, 3], [4, 5, 6]], columns=[True, 1, 'z'])\n"
    huge = "z = ((7 ** 64) ** 64) ** 64\nv = z ** 4\nd = z ** 2 + 1\n"
    cases = [
        ("import json\n", "x = json.__dict__"), ("import json\n", "x = json.__class__"),
        ("import numpy as np\n", "x = np.__sizeof__()"),
        ("import numpy as np\nfrom sklearn.linear_model import Ridge\nX = np.zeros((5, 2))\ny = [1, 2, 3, 10 ** 400]\n",
         "Ridge().fit(X, y)"),
        ("import numpy as np\nfrom sklearn.tree import DecisionTreeRegressor\nX = np.zeros((5, 2))\n"
         "y = [-10 ** 400, 1, 2, 3]\n", "DecisionTreeRegressor().fit(X, y)"),
        ("", "x = 10 ** 400\ny = x + 0.5\ny + 'a'"), ("", "x = 10 ** 400\ny = x * 2.5\nz = 1 / 0"),
        (bools, "d = df[[1]]\nd.iloc[:, 1]"), (bools, "g = df.groupby(1).sum()\n1 / 0"),
        (bools, "s = df.sort_values(1)\n1 / 0"), (bools, "s = df.set_index(1)\ns.iloc[:, 1]"),
        ("import pandas as pd\ndf = pd.DataFrame([[1, 2, 3]], columns=[0, False, 'z'])\n", "g = df.groupby(0).sum()\n1 / 0"),
        ("import pandas as pd\ndf = pd.DataFrame({'c': [10, 11, 12]}, index=pd.Index([0, 1, 2], dtype='uint8'))\n",
         "df2 = df.drop(257)"),
        ("import pandas as pd\ndf = pd.DataFrame({'c': [10, 11]}, index=pd.Index([0, 1], dtype='uint16'))\n",
         "df2 = df.drop(65537)"),
        ("", "x = 7 ** 64\ny = x ** 64\nz = y ** 64\nw = z ** 24\n1 / 0"),
        (huge, "q = v // d\n1 / 0"), (huge, "q = divmod(v, d)\n1 / 0"),
    ]
    # a garbage-collector callback runs between the target's lines (even one hidden by rebinding
    # `gc.callbacks`): it may add the key the target reads
    collected = ("import gc\nbox = {}\ndef _cb(phase, info):\n    box['k'] = 1\ngc.callbacks.append(_cb)\n"
                 "gc.set_threshold(1)\n")
    undo = "gc.callbacks.remove(_cb)\ngc.set_threshold(700, 10, 10)\n"
    return [_c(cell, setup) for setup, cell in cases] + [
        _c("t = [[1], [2]]\nbox['k']", collected, teardown=undo),
        _c("t = [[1], [2]]\nbox['k']", collected + "_real = gc.callbacks\ngc.callbacks = []\n",
           teardown="gc.callbacks = _real\n" + undo)]


def shell_machinery() -> List[Dict]:
    """(third red team, 3 Dec) the cell as IPython 9 really runs it: doctest prompts stripped from
    every line once one line starts with `>>>`, str.splitlines' own line breaks, an unfinished
    block ("incomplete input", a SyntaxError), `%autoawait False`, a loop runner or compile flags
    of the notebook's, the shell's machinery replaced on the instance, its helpers or IPython's
    classes, `__class__` passing an object off as a Macro, the builtins module's trapped names read
    as attributes, the shell singleton cleared, `get_ipython().reset` as a hook, and autoreload
    (last: its hooks stay until the teardown takes them out)."""
    unload_autoreload = ("ip = get_ipython()\nfor ev in ('pre_run_cell', 'post_execute'):\n"
                         "    for cb in list(ip.events.callbacks[ev]):\n"
                         "        if type(getattr(cb, '__self__', None)).__module__ == 'IPython.extensions.autoreload':\n"
                         "            ip.events.unregister(ev, cb)\n"
                         "ip.extension_manager.loaded.discard('autoreload')\n")
    # IPython's own warning-registry hook bound to an object of the notebook's, which answers the
    # names IPython asks it about by defining one; a user module whose globals are not `user_ns`
    fake_hook = ("import types\nfrom IPython.core.interactiveshell import InteractiveShell\n"
                 "class _NS(dict):\n    def __contains__(self, key):\n        get_ipython().user_ns['sneaky'] = 1\n"
                 "        return False\nclass _Fake:\n    user_global_ns = _NS()\n"
                 "_hook = types.MethodType(InteractiveShell._clear_warning_registry, _Fake())\n"
                 "get_ipython().events.register('pre_execute', _hook)\n")
    other_globals = ("import types\n_m = types.ModuleType('__main__')\n_m.__dict__['ghost'] = 5\n"
                     "_m.__dict__['__builtins__'] = __builtins__\n_old_mod = get_ipython().user_module\n"
                     "get_ipython().user_module = _m\n")
    fake_macro = DF + "from IPython.core.macro import Macro\nclass Fake:\n    value = 'pass'\n    __class__ = Macro\nfake = Fake()\n"
    fake_autocall = DF + ("from IPython.core.autocall import IPyAutocall\nclass FakeA:\n    __class__ = IPyAutocall\n"
                          "    def set_ip(self, ip):\n        pass\n    def __call__(self, *a):\n        return 1\nfa = FakeA()\n")
    no_shell = DF + "from IPython.core.interactiveshell import InteractiveShell as _IS\n_keep = _IS.__dict__['_instance']\n_IS._instance = None\n"
    hooked = [
        _c("sneaky\n1/0", DF + fake_hook, teardown="get_ipython().events.unregister('pre_execute', _hook)\n"),
        _c("print(sneaky)", DF + fake_hook, teardown="get_ipython().events.unregister('pre_execute', _hook)\n"),
        _c("ghost\n1/0", DF + other_globals, teardown="get_ipython().user_module = _old_mod\n"),
        _c("print(ghost)", DF + other_globals, teardown="get_ipython().user_module = _old_mod\n"),
    ]
    return hooked + [
        _c('import math\nmath.__dict__', DF),
        _c("np.__dict__['zz']", DF),
        _c("import math\nm = math.__dict__\nm['pi'] + 'a'", DF),
        _c("import builtins\n__builtins__ = builtins.__dict__\nlen([1]) + 'a'", DF),
        _c('import math\nmath.__class__', DF),
        _c('import math\nmath.__repr__', DF),
        _c('x = np.__dict__\nundefined_q', DF),
        _c('x = 1\ny = 2\nd["\\\n>>> k"]', DF),
        _c('x = 1\ny = 2\ns = """\n>>> k"""\nd[s.strip()]', DF),
        _c('x = 1\ny = 2\ns = "\\\n>>> k"\nd[s]\nundefined_q', DF),
        _c('x = 1\ny = 2\nd["\\\n... k"]\nz = "\\\n>>> "', DF),
        _c('x = 1\ny = 2\ns = "\\\n>>> "\n... if undefined_q else 1', DF),
        _c('x = 0  #\u2028In [1]: \nd["\\\nIn [2]: k"]', DF),
        _c('x = 0  #\u2028   ...: \nd["\\\n   ...: k"]', DF),
        _c('await undefined_aw', DF, shell='%autoawait False', teardown='get_ipython().autoawait = True'),
        _c('x = 1\nawait undefined_aw', DF, shell='%autoawait False', teardown='get_ipython().autoawait = True'),
        _c('def f():', DF),
        _c('for i in lst:', DF),
        _c('lst[9]\ndef f():', DF),
        _c('while True:\n    # c', DF),
        _c('fake; lst[9]', fake_macro),
        _c('fake + undefined_q', fake_macro),
        _c('fake lst[9]', fake_macro),
        _c('fa lst[9]', fake_autocall),
        _c('fa; lst[9]', fake_autocall),
        _c('lst[9]', DF, shell="get_ipython().transform_cell = lambda raw_cell: 'pass\\n'", teardown='del get_ipython().transform_cell'),
        _c('undefined_q\nx = 1', DF, shell="import ast\nget_ipython().transform_ast = lambda node: ast.parse('pass')", teardown='del get_ipython().transform_ast'),
        _c('lst[9]', DF, shell='async def _rc(code_obj, result=None, *, async_=False):\n    return False\nget_ipython().run_code = _rc', teardown='del get_ipython().run_code'),
        _c('lst[9]', DF, shell="import ast\nget_ipython().compile.ast_parse = lambda *a, **k: ast.parse('pass')", teardown='del get_ipython().compile.ast_parse'),
        _c('lst[9]', DF, shell="get_ipython().prefilter_manager.prefilter_lines = lambda lines, continue_prompt=False: 'pass'", teardown='del get_ipython().prefilter_manager.prefilter_lines'),
        _c('lst[9]', DF, shell="get_ipython().input_transformer_manager.transform_cell = lambda cell: 'pass\\n'", teardown='del get_ipython().input_transformer_manager.transform_cell'),
        _c('lst[9]', DF + "from IPython.core.interactiveshell import InteractiveShell as _IS\n_o = _IS.__dict__['transform_cell']\n_IS.transform_cell = lambda self, raw_cell: 'pass\\n'\n", teardown='_IS.transform_cell = _o\n'),
        _c('undefined_q\nx = 1', DF + "import IPython.core.inputtransformer2 as it2\n_o = it2.TransformerManager.__dict__['transform_cell']\nit2.TransformerManager.transform_cell = lambda self, cell: 'pass\\n'\n", teardown='it2.TransformerManager.transform_cell = _o\n'),
        _c('lst[9]', DF + "import IPython.core.inputtransformer2 as it2\n_c = it2.cell_magic.__code__\nit2.cell_magic.__code__ = (lambda lines: ['pass\\n']).__code__\n", teardown='it2.cell_magic.__code__ = _c\n'),
        _c('lst[9]', DF + "from IPython.core.compilerop import CachingCompiler as _CC\nimport ast\n_o = _CC.__dict__['ast_parse']\n_CC.ast_parse = lambda self, source, filename='<unknown>', symbol='exec': ast.parse('pass')\n", teardown='_CC.ast_parse = _o\n'),
        _c('lst[9]', DF, shell='from IPython.core.interactiveshell import InteractiveShell as _IS\n_orc = _IS.run_code\nasync def _rc(self, code_obj, result=None, *, async_=False):\n    return False\n_IS.run_code = _rc', teardown='_IS.run_code = _orc'),
        _c('import builtins\nbuiltins.get_ipython', DF),
        _c('__builtins__.get_ipython', DF),
        _c('import builtins as b\nb.get_ipython\nundefined_q', DF),
        _c('import builtins\nbuiltins.get_ipython + 1', DF),
        _c('import builtins\nbuiltins.exit.eof[99]', DF),
        _c('import builtins\nq = builtins.quit\nq.name + 1', DF),
        _c('undefined_q', DF, shell='get_ipython().compile.flags |= 0x400'),
        _c('lst[9]', DF, shell='get_ipython().compile.flags |= 0x400'),
        _c('lst[9]\nimport asyncio\nawait asyncio.sleep(0)', DF, shell='from IPython.core.interactiveshell import ExecutionResult as _ER\n_olr = get_ipython().loop_runner\nget_ipython().loop_runner = lambda coro: (coro.close(), _ER(None))[1]', teardown='get_ipython().loop_runner = _olr'),
        _c('ls', no_shell, teardown='_IS._instance = _keep\n'),
        _c('env HOME', no_shell, teardown='_IS._instance = _keep\n'),
        _c('pwd', DF + "from IPython.core.interactiveshell import InteractiveShell as _IS\n_keep = _IS.__dict__['_instance']\nclass _Other(_IS):\n    pass\n_IS._instance = object.__new__(_Other)\n", teardown='_IS._instance = _keep\n'),
        _c('s = """Example session:\nresult:\n>>> 42\n"""\nint(s.splitlines()[2])', DF),
        _c('class A:\n', DF),
        _c("with open('f'):", DF),
        _c('match lst:\n    case 1:', DF),
        _c('if True:\n    pass\nelse:', DF),
        _c('lst[9]', DF, shell="get_ipython().prefilter_manager.get_handler_by_name('normal').handle = lambda line_info: 'pass'", teardown="del get_ipython().prefilter_manager.get_handler_by_name('normal').handle"),
        _c('lst[9]', DF, shell="get_ipython().events.register('pre_execute', get_ipython().reset)", teardown="get_ipython().events.unregister('pre_execute', get_ipython().reset)"),
        _c("zmod_ar.y", DF + "import sys\nsys.path.insert(0, '.')\nopen('zmod_ar.py', 'w').write('x = 1\\n')\nimport zmod_ar\n",
           shell="%load_ext autoreload\n%autoreload 2\nimport os, time\nopen('zmod_ar.py', 'w').write('x = 1\\ny = [1, 2]\\n')\n"
                 "_t = time.time() + 100\nos.utime('zmod_ar.py', (_t, _t))\n",
           teardown=unload_autoreload),
    ]


def corpus() -> List[Dict]:
    return (ipython_rewriting() + future_flags() + scoping() + patched_libraries() + library_identity()
            + replaced_builtins() + ambiguous_keys()
            + hostile_objects() + run_hooks_and_finalizers() + interpreter_flags() + class_creation()
            + annotation_store() + import_reads() + printed_text() + pandas_copy_writes() + builtin_trap()
            + multiline_chains() + identity_of_constants()
            + huge_int_text() + set_order() + results_too_large()
            + boolean_masks() + repeated_column_writes() + unsigned_arrays()
            + feature_conversions() + target_conversions() + metric_targets() + sparse_tensors()
            + wrapped_method_arguments() + slice_parts() + codecs_of_ones_own() + frame_arguments()
            + sizes_past_the_machine() + displayed_mid_cell() + loop_corners()
            + argument_checks_first() + unpacking_lines() + shell_command_lines() + warning_machinery()
            + metaclass_methods() + frame_flags_and_attrs() + estimator_parameters() + pyplot_state()
            + threads_beside_the_cell() + column_lookups() + pyplot_settings_and_labels()
            + torch_functions_patched() + torch_layouts_and_sizes() + numbers_labels_and_modules() + shell_machinery())


__all__ = ["corpus", "HOSTILE", "DF"]
