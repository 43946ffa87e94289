"""Differential fuzzing: random straight-line cells over a pool of live pandas / NumPy /
scikit-learn / builtin values, for checking the checker against real execution. Besides plain
statements the generators write class bodies, comprehensions (nested, filtered, with walrus),
IPython line magics / escapes / prompts (alone, so the shell's prefilter sees them, or among
statements), and cells run after a notebook patched a pandas / NumPy / scikit-learn function.

`generate(n, seed)` returns cells, `generate_cases(n, seed)` exec_runner cases (some patched);
each is run for real by exec_runner together with the checker,
and a claim that does not match what the cell really raised (type and line) is a false claim.
The templates mix names that exist, names that do not, real and removed attributes, present and
missing columns, fitting and clashing shapes, so that both real crashes and clean cells are common.
"""

from __future__ import annotations

import importlib.util
import os
import random
import tempfile
from typing import List

from exec_runner import CELL_BREAK

POOL_SETUP = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.model_selection import train_test_split
df = pd.DataFrame({'a': [1, 2, 3, 4], 'b': [0.5, 1.5, None, 3.5], 'c': ['p', 'q', 'r', 's']})
dfi = pd.DataFrame([[1, 2, 3], [4, 5, 6]], columns=[0, 1, 2])
ser = df['a']
v3 = np.arange(3)
v4 = np.arange(4.0)
m43 = np.ones((4, 3))
m34 = np.ones((3, 4))
m22 = np.eye(2)
lst = [1, 2, 3]
tup = (1, 'x')
dct = {'a': 1, 'b': 2}
txt = 'text'
zero = 0
three = 3
half = 0.5
nothing = None
y4 = np.array([0, 1, 0, 1])
y3 = np.array([0, 1, 0])
lr_unfit = LinearRegression()
lr_fit = LinearRegression().fit(m43, y4)
sc_fit = StandardScaler().fit(m43)
from collections import defaultdict, OrderedDict
class MyFrame(pd.DataFrame):
    @property
    def _constructor(self):
        return MyFrame
class Dyn:
    def __getattr__(self, name):
        return 42
class MyList(list):
    pass
sub = MyFrame({'a': [1, 2], 'b': [3, 4]})
dyn = Dyn()
ddict = defaultdict(int, {'a': 1})
odict = OrderedDict(a=1)
mylist = MyList([1, 2, 3])
mi = pd.DataFrame([[1, 2], [3, 4]], columns=pd.MultiIndex.from_tuples([('a', 'x'), ('b', 'y')]))
dti = pd.DataFrame({'a': [1.0, 2.0]}, index=pd.date_range('2020-01-01', periods=2))
i8 = np.array([1, 2, 3, 4], dtype=np.int8)
u8 = np.array([1, 2, 3], dtype=np.uint8)
bools = np.array([True, False, True, False])
strs = np.array(['x', 'y', 'z'])
objs = np.array([1, 'a', None], dtype=object)
scalar0 = np.array(5.0)
f64 = np.float64(2.0)
gen = (i for i in range(3))
it = iter([1, 2, 3])
idx = pd.Index(['a', 'b', 'c'])
fn_user = lambda v: v
frames = [df, dfi]
alias = df
from sklearn.pipeline import make_pipeline
pipe = make_pipeline(StandardScaler(), LinearRegression()).fit(m43, y4)
class MyEst(LinearRegression):
    def predict(self, X):
        return 0
myest = MyEst()
import matplotlib
matplotlib.use('agg')
import matplotlib.pyplot as plt
chw = np.zeros((3, 4, 4))
labs = np.array([[1], [0]])
iv = np.arange(6)
from sklearn.metrics import accuracy_score, f1_score, confusion_matrix
p4 = np.array([0.1, 0.9, 0.4, 0.7])
sp4 = pd.Series(p4)
stext = pd.Series(['a', None, 'b', 'a'])
"""

NAMES = ["df", "dfi", "ser", "v3", "v4", "m43", "m34", "m22", "lst", "tup", "dct", "txt", "zero", "three", "half",
         "nothing", "y4", "y3", "lr_unfit", "lr_fit", "sc_fit", "sub", "dyn", "ddict", "odict", "mylist", "mi", "dti",
         "i8", "u8", "bools", "strs", "objs", "scalar0", "f64", "gen", "it", "idx", "fn_user", "frames", "alias",
         "np", "pd", "p4"]
PLAUSIBLE = [
    "accuracy_score(y4, p4)", "accuracy_score(y4, y4)", "f1_score(y4, p4)", "accuracy_score(y3, p4)",
    "confusion_matrix(p4, y4)", "accuracy_score(stext, p4)", "accuracy_score(y4, sp4)", "accuracy_score(y4, objs)",
    "accuracy_score(y4, [0.5, 1, 0, 1])", "accuracy_score(y4, v4)", "f1_score(y4, m43)", "accuracy_score(ser, p4)",
    "accuracy_score(bools, sp4 * 2)", "f1_score(y_true=p4, y_pred=p4)", "accuracy_score(y4, p4, normalize=False)",
    "LogisticRegression().fit(m43, p4)", "LogisticRegression().fit(m43, y4)", "LinearRegression().fit(m43, p4)",
    "LogisticRegression().fit(m43, sp4)", "LogisticRegression().fit(df, p4)", "LogisticRegression().fit(m34, p4)",
    "LogisticRegression().fit(m43, [0.5, 1, 0, 1])", "LogisticRegression().fit(m43, stext)",
    "df['a']", "df[['a', 'b']]", "df.head()", "df.drop(columns=['a'])", "df.groupby('c')", "df.sort_values('b')",
    "df.set_index('c')", "df.loc[:, 'b']", "df.dropna(subset=['b'])", "df.shape", "df.columns", "len(df)",
    "df.copy()", "df.rename(columns={'a': 'A'})", "df.reset_index(drop=True)", "df.drop('b', axis=1)",
    "m43 @ m34", "m34 @ m43", "m43 + v3", "m43 * 2.0", "v4 + 1.5", "m43.T", "m43.reshape(3, 4)", "m43.dot(v3)",
    "np.vstack([m43, m43])", "np.hstack([m43, m43])", "np.concatenate([v3, v3])", "np.stack([v4, v4])",
    "lr_fit.predict(m43)", "sc_fit.transform(m43)", "train_test_split(m43, y4)", "LinearRegression()",
    "lst[0]", "lst[-1]", "tup[1]", "dct['a']", "txt.upper()", "three / 2", "half * three", "str(three)",
    "[x * 2 for x in lst]", "{k: v for k, v in dct.items()}", "print(df)", "dfi[0]", "idx[0]", "i8 + 1",
    "sub['a']", "mi['a']", "dti['a']", "ddict['zz']", "odict['a']", "mylist[5]", "dyn.anything", "objs + 1",
    "strs + strs", "u8 - 1", "bools - bools", "scalar0[0]", "f64.nope", "len(gen)", "next(it)", "fn_user(1)",
    "i8 + 1000", "u8 + -1", "sub.nope", "mi.nope", "bools + 1", "scalar0.shape", "np.concatenate([scalar0, v3])",
    "scalar0.sum(axis=0)", "scalar0.max(axis=-1)", "np.mean(scalar0, axis=1)", "m43.sum(axis=2)", "v4.mean(1)",
    "np.std(m43, axis=-3)", "bools.any(axis=1)", "objs.sum(axis=1)", "strs.max(axis=1)", "m43.cumsum(axis=-2)",
    "df['a'].str.upper()", "df['c'].str.upper()", "df['b'].dt.year", "df['c'].dt.year", "ser.cat.codes",
    "ser.str.len()", "df['a'].cat.codes", "sub['a'].str.len()", "dti['a'].dt.year", "mi['a'].str.len()",
    "import math\nmath.sqrt(zero - 1)", "import math\nmath.log(zero)", "import math\nmath.log(half)",
    "df.head(1, 2)", "ser.head(1, 2)", "sub.head(1, 2)", "lr_fit.predict()", "lr_unfit.get_params(True, 1)",
    "df.sort_values(by='a', asc=1)", "df.merge()", "dfi.tail(1, 2)", "mi.head(1, 2)", "df.fillna(0, 1)",
    "df.iloc[4]", "df.iloc[-1]", "df.iloc[:, 3]", "df.iloc[1, 2]", "dfi.iloc[2]", "sub.iloc[5]", "dti.iloc[:, 1]",
    "df.join(df)", "df.join(dfi)", "df.join(df, rsuffix='_r')", "dti.join(df)", "df.join(sub)", "dfi.join(dfi)",
    "pd.DataFrame(m43, columns=['a', 'b'])", "pd.DataFrame(m43, columns=['a', 'b', 'c'])", "pd.DataFrame(v4, columns=['a'])",
    "v4[f64]", "m43[half]", "m43[1, half]", "np.random.choice(m43)", "np.random.choice(v4)", "np.random.choice(scalar0)",
    "StandardScaler().fit(v4)", "StandardScaler().fit(df)", "LinearRegression().fit(df, y4)", "StandardScaler().fit(bools)",
    "df['c'].astype(int)", "df['a'].astype(int)", "ser.astype('int64')", "df.groupby('c').sum()", "dti.groupby('a').sum()",
    "df['c'].astype(float)", "df['a'].astype('float64')", "df['b'].astype(np.float32)", "ser.astype(float)",
]
MISSING = ["dff", "df_", "Lst", "arr", "model", "X_train", "undefined"]
ATTRS = ["shape", "columns", "head", "T", "dtype", "size", "append", "ix", "nope", "lower", "keys", "coef_",
         "n_features_in_", "values", "index", "float", "nan", "NaN", "int", "a", "length", "mean_"]
KEYS = ["0", "1", "2", "3", "-1", "-4", "5", "'a'", "'b'", "'c'", "'z'", "'nope'", "1:", ":2", "0, 1", "1, 5",
        "['a', 'b']", "['a', 'z']", "True"]
OPS = ["+", "-", "*", "/", "//", "%", "@", "<", "=="]
COLS = ["'a'", "'b'", "'c'", "'z'", "0", "1", "3"]


def _name(rng: random.Random, bound: List[str]) -> str:
    r = rng.random()
    if r < 0.03:
        return rng.choice(MISSING)
    if bound and r < 0.35:
        return rng.choice(bound)
    return rng.choice(NAMES[:-2])


def _literal(rng: random.Random) -> str:
    return rng.choice(["0", "1", "2", "2.5", "'s'", "None", "[1, 2, 3]", "[1, 2]", "(1, 2)", "[]", "{'a': 1}",
                       "True", "-1", "[1, 2, 3, 4]"])


def _expr(rng: random.Random, bound: List[str], depth: int = 0) -> str:
    if rng.random() < 0.35:
        return rng.choice(PLAUSIBLE)
    n = _name(rng, bound)
    k = rng.randrange(15)
    if depth > 1:
        k = rng.choice([0, 1, 2])
    if k == 0:
        return n
    if k == 1:
        return _literal(rng)
    if k == 2:
        return f"{n}.{rng.choice(ATTRS)}"
    if k == 3:
        return f"{n}[{rng.choice(KEYS)}]"
    if k == 4:
        return f"{_expr(rng, bound, depth + 1)} {rng.choice(OPS)} {_expr(rng, bound, depth + 1)}"
    if k == 5:
        return f"{n}.{rng.choice(['head()', 'copy()', 'dropna()', 'tail(2)', 'isna()', 'info()'])}"
    if k == 6:
        col = rng.choice(COLS)
        return rng.choice([f"df.drop(columns=[{col}])", f"df.drop({col}, axis=1)", f"df.groupby({col})",
                           f"df.sort_values({col})", f"df.set_index({col})", f"df.loc[:, {col}]",
                           f"df.dropna(subset=[{col}])", f"dfi[{col}]", f"df[[{col}]]",
                           f"df.drop(columns=[{col}], errors='ignore')", f"df.rename(columns={{{col}: 'r'}})"])
    if k == 7:
        shape = rng.choice(["(3, 4)", "(4, 3)", "(2, -1)", "(-1, 5)", "(12,)", "(5, 2)", "-1", "(2, 6)"])
        return rng.choice([f"m43.reshape{shape}" if shape.startswith("(") else "m43.reshape(-1)",
                           f"np.reshape(m34, {shape})", f"v3.reshape({shape.strip('()') or '3'})"])
    if k == 8:
        a, b = rng.choice(["v3", "v4", "m43", "m34", "m22", "y4"]), rng.choice(["v3", "v4", "m43", "m34", "m22", "y3"])
        return rng.choice([f"np.dot({a}, {b})", f"np.matmul({a}, {b})", f"np.vstack([{a}, {b}])",
                           f"np.hstack([{a}, {b}])", f"np.concatenate([{a}, {b}])",
                           f"np.concatenate([{a}, {b}], axis=1)", f"np.stack([{a}, {b}])", f"{a}.dot({b})"])
    if k == 9:
        est = rng.choice(["lr_unfit", "lr_fit", "sc_fit", "LinearRegression()", "StandardScaler()"])
        x = rng.choice(["m43", "m34", "v4", "df[['a']]", "m43[:, :2]", "m22"])
        yv = rng.choice(["y4", "y3", "[1, 2, 3, 4]", "ser"])
        return rng.choice([f"{est}.predict({x})", f"{est}.transform({x})", f"{est}.fit({x}, {yv})",
                           f"{est}.score({x}, {yv})", f"train_test_split({x}, {yv})",
                           f"train_test_split({x}, {yv}, test_size=0.5, random_state=0)"])
    if k == 10:
        return rng.choice([f"len({n})", f"int({rng.choice(['txt', '3.5', chr(39) + '7' + chr(39), 'half'])})",
                           f"print({n})", f"str({n})", f"float({rng.choice(['txt', 'three', 'zero'])})",
                           f"max({rng.choice(['lst', '[]', 'tup', 'txt'])})", f"sum({rng.choice(['lst', 'tup'])})"])
    if k == 11:
        body = rng.choice(['x', 'x * 2', 'x + 1', 'q'])
        source = rng.choice(['lst', 'txt', 'dct', 'range(3)', '[]', 'df.columns'])
        return f"[{body} for x in {source}]"
    if k == 12:
        left = rng.choice(['three', 'half', '10', 'lst[0]'])
        return f"{left} {rng.choice(['/', '//', '%'])} {rng.choice(['zero', 'three', '0', '0.0', 'half'])}"
    if k == 13:
        return f"f'{{{n}}}'"
    return f"{n}.{rng.choice(['lower()', 'upper()', 'keys()', 'append(1)', 'split()'])}"


NUMPY_ATTRS = ["float_", "bool8", "product", "cumproduct", "sometrue", "alltrue", "Inf", "PINF", "NINF", "infty",
               "NaN", "asfarray", "round_", "msort", "linalg", "random", "fft", "testing", "char", "rec", "strings",
               "core", "ma", "typing", "dtypes", "exceptions", "matlib", "polynomial", "ctypeslib", "f2py",
               "distutils", "array_api", "int0", "unicode_", "string_", "object0", "chararray", "nope", "zeros",
               "float64", "long", "ulong", "bool", "object", "emath", "lib", "version", "__version__"]
TRICKY = [
    "df.set_index('c', inplace=True)\ndf.groupby('c')", "df.set_index('c', inplace=True)\ndf.sort_values('c')",
    "df.loc[0, 'a']", "df.loc[0, 'z']", "df.loc['q', 'a']", "df.loc[:, ['a', 'z']]",
    "class K:\n    x = {n}\n    def m(self, a={n}):\n        pass", "def g(a={n}):\n    pass", "h = lambda v={n}: v",
    "print({n}, sep={lit})", "x = {n}\ndel x\nx", "del {n}\n{n}", "for i in lst:\n    pass\n{n}",
    "if {n}:\n    pass", "from numpy import *\n{n}", "import numpy\nnumpy.{npattr}", "np.{npattr}",
    "pd.{pdattr}", "txt.index('z')", "txt.split(1)", "txt.replace('t')", "int(txt)", "round(half)", "chr(three)",
    "divmod(three, zero)", "lst * 2", "tup + lst", "dct | dct", "{{1}} - {{2}}", "txt * half", "txt % three",
    "b'x' + 'y'", "a, b = dct", "[y for x in lst for y in range(x)]", "{{x for x in [[1]]}}",
    "{{x: 1 for x in lst}}", "r = 1\nr += 'a'", "r = 'a'\nr *= 2\nr[5]", "t = (1,)\nt += (2,)\nt[2]",
    "df['a'] == 1", "df['a'] == (1, 2)", "df[df['a'] == 1]", "(z := {n})\nz", "[(w := x) for x in lst]\nw",
    "print(*lst)", "print(*{n})", "print(**dct)", "f'{{{n}!r:>10}}'", "type({n})", "isinstance({n}, int)",
    "isinstance({n}, {n})", "len({n})", "str({n})[0]", "sorted({n})", "sum({n})", "max({n})", "list({n})",
    "lr_fit.n_features_in_ + 1", "lr_unfit.coef_", "sc_fit.mean_[5]", "m43.shape[2]", "m43.T @ v4", "v4 @ m43",
    "v3 @ v3", "v3 @ v4", "scalar0 @ v3", "np.dot(scalar0, v3)", "dfi[[0, 5]]", "dfi.drop(columns=[5])",
    "mi.drop(columns=['a'])", "mi['z']", "dti.loc['2020', 'a']", "dti.loc[:, 'z']", "sub.drop(columns=['z'])",
    "odict['z']", "ddict['z'] + 1", "mylist[9]", "idx[9]", "objs[9]", "strs[9]", "i8[-5]", "u8[3]",
    "df.dropna(inplace=True)\ndf['z']", "df = df.dropna(inplace=True)\ndf['a']", "df['e'] = lst\ndf['e']",
    "df['e'] = [1, 2, 3, 4]\ndf[['e', 'z']]", "df.rename(columns={{'a': 'b'}})['b']", "df.copy()['z']",
    "df.head(2)['z']", "df.drop_duplicates()['z']", "df.reset_index(drop=True)['z']", "df.isna()['z']",
    "train_test_split(m43, y3, test_size=2)", "train_test_split(m43, y3, stratify=y3)",
    "train_test_split(m43, y3, test_size=1.5)", "lr_fit.predict(df[['a', 'b', 'c']])", "lr_fit.predict(dfi)",
    "sc_fit.transform(dfi)", "LinearRegression(fit_intercept='x').fit(m43, y3)", "LinearRegression().fit(m43, y3)",
    "LogisticRegression(C=-1).fit(m43, y3)", "StandardScaler().fit(m43, y3)", "m43.reshape(2, 2, -1)",
    "df['e'] = 1\nalias['e']", "df['e'] = 1\nframes[0]['e']", "alias.drop(columns=['a'], inplace=True)\ndf['a']",
    "frames[0].dropna(inplace=True)\nframes[0]['b']", "alias = alias.dropna(inplace=True)\ndf.head()",
    "del df['{col}']\ndf['a']", "df.pop('{col}')", "df.columns = ['x', 'y', 'z']\ndf['{col}']",
    "df.columns = ['x', 'y']", "alias.columns = ['a', 'b', 'e']\ndf['e']", "del frames[0]['a']\ndf['a']",
    "s = df['a'].shape\ns[1]", "df.drop([9], inplace=True)", "df.drop(index=[0, 7])",
    "df.drop(3)['a']", "dti.drop(['2020-01-01'])", "dfi.drop(1)", "df.drop('a')", "mi.drop(0)", "sub.drop(0)",
    "df['a'].values @ m43", "m43.reshape(-1, -1)",
    "pipe.predict(m43[:, :2])", "pipe.predict(m43)", "myest.predict(m43)", "myest.transform(m43)",
    "myest.coef_", "pipe.fit(m43, y3)", "myest.fit(m43, y3)", "m43.reshape(0, -1)",
    "np.zeros((2, 3)) + np.zeros((3, 2))", "np.zeros(0).reshape(-1, 3)",
    # fit rejecting its own parameters, empty splits, reductions followed by a shape clash
    "LogisticRegression(solver='liblinear', penalty='elasticnet').fit(m43, y4)",
    "LogisticRegression(solver='lbfgs', penalty='l1').fit({n}, y4)", "LogisticRegression(C=-1).fit({n}, y3)",
    "LinearRegression().fit(m43)", "LinearRegression().fit({n})", "StandardScaler(copy='x').fit({n})",
    "train_test_split(np.zeros((0, 3)), np.zeros(0))", "train_test_split(m43[:0], y4[:0], test_size=0.2)",
    "train_test_split({n}[:0], {n}[:0])", "mu = np.mean({n})\n{n} - mu", "mu = np.mean(v4)\nv4 - mu + v3",
    "s = sum({n})\ns + v4", "s = sum(m43)\ns + v4", "t = np.sum({n})\n({n} - t) ** 2 + v3",
    "q = v4 ** 2\nq + m43", "q = {n} ** 0.5\nq @ m34", "q = i8 ** 2\nq + v3", "sum(scalar0)", "np.mean(np.zeros(0)) + v3",
    # calls whose arguments the parameters cannot take
    "pd.concat([df], [df])", "pd.concat([df, {n}])", "pd.isna()", "pd.isna({n}, {n})", "pd.to_numeric(ser, erors=1)",
    "pd.get_dummies({n}, data=df)", "def q(a, /, b=1, *, c=2):\n    return a\nq({n}, a=1)", "def q(a):\n    return a\nq()",
    "def q(a, b):\n    return a\nq(*lst)", "def q(*a, **k):\n    return a\nq({n}, z={n})",
    "from sklearn.utils.class_weight import compute_class_weight as ccw\nccw('balanced', np.unique({n}), {n})",
    "from sklearn.utils.class_weight import compute_class_weight as ccw\nccw('balanced', classes=np.unique({n}), y={n})",
    "u = np.unique({n})\nu + v4", "u = np.unique({n})\nundefined_u", "print(np.unique({n}), ser.unique())",
    # value_counts gone on past: its result in a call that cannot bind, or followed by a crash
    "vc = df['c'].value_counts()\nvc.index + v4", "vc = ser.value_counts(dropna=False)\nundefined_vc",
    "vc = df['a'].value_counts(sort=False)\n{n}[vc]", "pd.isna(df['c'].value_counts().index, df['a'].value_counts())",
    "vc = {n}.value_counts()\nlst[9]", "vc = sub['a'].value_counts(normalize=True)\nlst[9]",
    # pyplot: the drawing catalogue, images of no image shape; loops' first pass; arrays as list indices
    "plt.imshow(chw)", "plt.imshow({n})", "plt.figure(figsize=(3, 2))\n{n} + v4", "plt.title('t')\nplt.imshow({n})",
    "plt.subplot(2, 2, 5)", "plt.axis('nope')", "plt.legend()\nplt.show()\n{n}[labs]", "plt.imshow(m43.astype('uint8'))",
    "plt.xlabel({n}, fontsize=3)\nv3 + v4", "plt.imshow(chw.astype('int8'))\nv3 @ v4", "plt.grid({n})\nlst[v3]",
    "for i in range(2):\n    {n} + v4", "for i in lst:\n    lst[labs[i]]", "for k in txt:\n    dct[k]",
    "for i in []:\n    undefined", "for c in dct:\n    {n}[c]", "for i in range(3):\n    if i > 1:\n        v3 + v4",
    "for i in {n}:\n    plt.imshow({n})", "for w in range(2):\n    del {n}\n    {n}", "lst[labs[0]]", "txt[v3]",
    # every pass of a loop over listed items, its `else`, the reading after it; frames changed in passes
    "for c in ['a', 'zz']:\n    df[c]", "for c in ['a', 'c']:\n    df[c]\ndf[c]", "for i in range(4):\n    lst[i]",
    "for k in (1, 2):\n    r = {n}\nr + v4", "for i in []:\n    pass\ni", "for c in dct:\n    q = {n}\nelse:\n    q + v4",
    "for c in ('a', 'b'):\n    df[c + 'x'] = 0\ndf['ax']", "for c in ('a', 'b'):\n    alias[c + 'y'] = 1\ndf['by']",
    "for c in df.columns:\n    df[c + 'z'] = 0\ndf['zz']", "for t in txt:\n    dct[t]", "for c in lst:\n    del {n}",
    "for c in ['a', 'b']:\n    {n} = df[c]\n{n} + v4", "for i in range(2):\n    for j in range(3):\n        lst[i + j]",
    "tup[scalar0]", "strs.tolist()[labs[1]]", "lst[{n}]",
    "c = pd.Categorical(df['a'])\nc.cat", "pd.Categorical(df['a'], categories=range(3)).cat",
    "pd.Categorical(df['a'], categories=range(9), ordered=True).cat.codes", "pd.Categorical(df['c']).cat",
    "pd.Categorical(dfi[0], categories=[1, 4, 1]).cat", "pd.Categorical({n}).str", "pd.Categorical(df['a']).codes",
    # pyplot.scatter: x, y, s, c given twice; integer points passed over
    "plt.scatter(iv, iv, iv, s=3)", "plt.scatter(iv, iv, 5, c=iv, s=2)", "plt.scatter({n}, {n}, {n}, s=1)",
    "plt.scatter(iv, iv, c=iv, cmap='viridis')\n{n} + v4", "plt.scatter(iv, iv * 2, iv)\nv3 + v4",
    "plt.scatter({n}, {n})\nv3 @ v4", "plt.scatter(iv, {n}, x=iv)", "plt.scatter(iv, iv[:3])\nv3 + v4",
    "plt.scatter(iv, iv, c={n}, marker='o')\nv3 + v4", "plt.scatter(iv, iv, {n}, c='red')\nlst[v3]",
    "plt.scatter(iv, iv, iv, {n}, c=iv)", "plt.scatter({n}, iv, iv, cmap={n})\nv3 + v4",
]
PD_ATTRS = ["DataFrame", "read_csv", "Panel", "np", "datetime", "ExcelWriter", "api", "plotting", "testing",
            "arrays", "tseries", "io", "core", "nope", "concat", "Series", "SparseArray", "datetools"]


def _tricky(rng: random.Random, bound: List[str]) -> str:
    t = rng.choice(TRICKY)
    return t.format(n=_name(rng, bound), lit=_literal(rng), npattr=rng.choice(NUMPY_ATTRS),
                    pdattr=rng.choice(PD_ATTRS), col=rng.choice(["a", "b", "z"]))


def _stmt(rng: random.Random, bound: List[str]) -> str:
    r = rng.random()
    if r < 0.2:
        return _tricky(rng, bound)
    if r < 0.26:
        return _class_body(rng, bound)
    if r < 0.32:
        return _comprehension(rng, bound)
    if r < 0.36:
        return _line_magic(rng, bound)
    k = rng.randrange(10)
    if k <= 4:
        return _expr(rng, bound)
    if k <= 6:
        target = rng.choice(["r", "t", "u", "df", "lst", "nothing", "w"])
        bound.append(target)
        return f"{target} = {_expr(rng, bound)}"
    if k == 7:
        names = rng.choice(["p, q", "p, q, s", "p, *q", "p,"])
        bound.extend(["p", "q"])
        return f"{names} = {rng.choice(['lst', 'tup', 'txt', 'dct', 'df.shape', 'three', 'm43', 'v3', '[]'])}"
    if k == 8:
        col = rng.choice(["'a'", "'d'", "'e'"])
        val = rng.choice(["[1, 2, 3, 4]", "[1, 2]", "0", "np.zeros(4)", "np.zeros(3)", "list(range(5))", "'k'"])
        return rng.choice([f"df[{col}] = {val}", "df = df.dropna(inplace=True)", "df.dropna(inplace=True)",
                           f"df.drop(columns=[{col}], inplace=True)", f"lst[{rng.choice(['0', '3', '-4'])}] = 1"])
    return rng.choice([f"del {_name(rng, bound)}", f"(z := {_expr(rng, bound)})", "import numpy as np2",
                       "from math import floor", "def fn(v):\n    return v", f"fn({_name(rng, bound)})"])


def _class_body(rng: random.Random, bound: List[str]) -> str:
    """A class body: its names are seen by its own statements, not by comprehensions inside it."""
    name = rng.choice(["lst", "x", "three", "txt", "q", "df"])
    value = rng.choice(["[1]", "[1, 2, 3, 4, 5, 6]", "0", "'s'", "None", _expr(rng, bound, 2)])
    use = rng.choice([f"[{name}[2] for _ in [0]]", f"[{name} for _ in range(2)]", f"[i for i in {name}]",
                      f"{name}[2]", f"{{k: {name} for k in 'ab'}}", "__module__.upper()", "__qualname__[0]",
                      "__name__", f"(w := {name})", f"[w for w in [{name}]]", f"len({name})", "__annotations__",
                      f"lambda a={name}: a", f"[[{name} for j in [1]] for i in [0]]"])
    lines = [f"class K{rng.randrange(3)}:", f"    {name} = {value}", f"    u = {use}"]
    if rng.random() < 0.3:
        lines.append(f"    def m(self, a={name}):\n        return undefined_in_body")
    if rng.random() < 0.4:
        lines.append(rng.choice(["w", "K0.u", "u", f"{name}[5]", "K1.nope"]))
    return "\n".join(lines)


def _comprehension(rng: random.Random, bound: List[str]) -> str:
    src = rng.choice(["lst", "txt", "dct", "range(3)", "[]", "tup", "[[1, 2], [3]]", "df.columns", "three"])
    body = rng.choice(["x", "x * 2", "x[0]", "y", "w", "(w := x)", "[y for y in x]", "undefined_c", "x.nope"])
    cond = rng.choice(["", " if x", " if undefined_c", " if x == 1", " if (w := x)"])
    inner = rng.choice(["", " for y in lst", " for y in x", " for y in undefined_i"])
    form = rng.choice(["[{b} for x in {s}{i}{c}]", "{{{b} for x in {s}{i}{c}}}", "{{x: {b} for x in {s}{i}{c}}}",
                       "list({b} for x in {s}{i}{c})"])
    cell = form.format(b=body, s=src, i=inner, c=cond)
    if rng.random() < 0.4:
        cell += "\n" + rng.choice(["x", "w", "y", "w + 1", "print(w)"])
    return cell


_LINE_MAGICS = ["ls", "pwd", "who", "whos", "env", "history", "time", "lsmagic", "dirs", "alias", "ll", "who_ls",
                "time three + 1", "time undefined_t", "env HOME", "history -n 1", "who int", "ls -a", "pwd  ",
                "dhist", "precision", "%time lst[5]", "%timeit -n1 -r1 three", "!echo x", "!!echo x", "%env HOME",
                "lst?", "undefined_h?", "%pinfo lst", "x = %pwd", "x = !echo x", "%who_ls", "%%time\nlst[5]",
                "In [1]: lst[5]", ">>> lst[5]", "   ls"]


def _line_magic(rng: random.Random, bound: List[str]) -> str:
    """IPython's own syntax: one-line automagics (the whole cell), escapes, prompts."""
    magic = rng.choice(_LINE_MAGICS)
    r = rng.random()
    if r < 0.5:
        return magic  # alone: a one-line cell, which the shell's prefilter sees
    if r < 0.75:
        return f"{magic}\n{_expr(rng, bound)}"
    return f"{_expr(rng, bound)}\n{magic}"


# Patches a notebook may apply to a library, with the code that undoes them.
PATCHES = [
    ("pd.DataFrame.__getitem__", "lambda s, k: 42"),
    ("pd.DataFrame.drop", "lambda s, *a, **k: s"),
    ("pd.DataFrame.__getattr__", "lambda s, n: 1"),
    ("pd.DataFrame.__len__", "lambda s: 7"),
    ("pd.DataFrame.head", "lambda s, *a, **k: None"),
    ("pd.DataFrame.__setitem__", "lambda s, k, v: None"),
    ("pd.DataFrame.sort_values", "lambda s, *a, **k: s"),
    ("pd.DataFrame.set_index", "lambda s, *a, **k: s"),
    ("pd.DataFrame.groupby", "lambda s, *a, **k: s"),
    ("pd.DataFrame.dropna", "lambda s, *a, **k: None"),
    ("pd.DataFrame.__delitem__", "lambda s, k: None"),
    ("pd.DataFrame.pop", "lambda s, k: None"),
    ("pd.core.generic.NDFrame.__getattr__", "lambda s, n: 7"),
    ("pd.core.generic.NDFrame.head", "lambda s, *a: 3"),
    ("pd.Index.__contains__", "lambda s, k: True"),
    ("pd.Series.__len__", "lambda s: 7"),
    ("np.vstack", "lambda *a, **k: 0"),
    ("np.hstack", "lambda *a, **k: 0"),
    ("np.concatenate", "lambda *a, **k: 0"),
    ("np.dot", "lambda *a, **k: 0"),
    ("np.matmul", "lambda *a, **k: 0"),
    ("np.reshape", "lambda *a, **k: 0"),
    ("np.stack", "lambda *a, **k: 0"),
    ("LinearRegression.predict", "lambda self, X: 0"),
    ("LinearRegression.fit", "lambda self, X, y: self"),
    ("LinearRegression.__init__", "lambda self, **k: None"),
    ("StandardScaler.transform", "lambda self, X, copy=None: X"),
    ("sklearn.base.BaseEstimator.get_params", "lambda self, deep=True: {}"),
    ("train_test_split", "lambda *a, **k: (0, 0)"),
    ("pd.Categorical.cat", "property(lambda s: s)"),
    ("plt.gca", "lambda: None"),
    ("plt.imshow", "lambda *a, **k: None"),
    ("matplotlib.axes.Axes.set_title", "lambda s, *a, **k: None"),
    ("matplotlib.image.AxesImage.set_data", "lambda s, A: None"),
    ("matplotlib.figure.Figure.add_subplot", "lambda s, *a, **k: None"),
]


def patched_case(rng: random.Random) -> dict:
    """A cell over the pool after a notebook patched one library function (undone afterwards)."""
    target, value = rng.choice(PATCHES)
    owner, _, attr = target.rpartition(".")
    if not owner:  # a name in the namespace, not a library attribute
        setup = POOL_SETUP + f"{attr} = {value}\n"
        teardown = ""
    else:
        setup = (POOL_SETUP + "import sklearn.base\n" + f"_orig = {owner}.__dict__.get('{attr}', None)\n"
                 f"{owner}.{attr} = {value}\n")
        teardown = f"if _orig is None:\n    delattr({owner}, '{attr}')\nelse:\n    {owner}.{attr} = _orig\n"
    bound: List[str] = []
    cell = "\n".join(_stmt(rng, bound) for _ in range(rng.randint(1, 4)))
    case = {"setup": setup, "cell": cell}
    if teardown:
        case["teardown"] = teardown
    return case


TORCH_SETUP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
t23 = torch.ones(2, 3)
t32 = torch.ones(3, 2)
t3 = torch.ones(3)
t4 = torch.ones(4)
t234 = torch.ones(2, 3, 4)
ti = torch.ones(2, 3, dtype=torch.int64)
tb = torch.ones(3, dtype=torch.bool)
t0 = torch.tensor(1.0)
tnc = torch.ones(3, 2).T
lin32 = nn.Linear(3, 2)
conv = nn.Conv2d(3, 1, 2)
img = torch.ones(1, 3, 4, 4)
ts = torch.ones(2, 3).as_subclass(type('Sub', (torch.Tensor,), {}))
"""
TENSORS = ["t23", "t32", "t3", "t4", "t234", "ti", "tb", "t0", "tnc", "ts", "img"]
TORCH_PATCHES = [
    ("torch.Tensor", "view", "lambda *a, **k: 0"),
    ("torch.Tensor", "reshape", "lambda *a, **k: 0"),
    ("torch.Tensor", "__matmul__", "lambda *a: 0"),
    ("torch.Tensor", "__add__", "lambda *a: 0"),
    ("torch", "matmul", "lambda *a, **k: 0"),
    ("torch", "stack", "lambda *a, **k: 0"),
    ("torch", "cat", "lambda *a, **k: 0"),
    ("torch", "ones", "lambda *a, **k: torch.zeros(5)"),
    ("nn.Linear", "forward", "lambda self, x: x"),
    ("nn.Conv2d", "forward", "lambda self, x: x"),
    ("F", "mse_loss", "lambda *a, **k: 0"),
]


def _torch_expr(rng: random.Random) -> str:
    a, b = rng.choice(TENSORS), rng.choice(TENSORS)
    size = rng.choice(["2, 3", "3, 2", "3", "4", "6", "2, 3, 4", "3, 4", "1, 3", "-1", "2, -1", "5, -1", "0, -1"])
    return rng.choice([
        f"{a} @ {b}", f"{a} + {b}", f"{a} - {b}", f"{a} * {b}", f"{a} / {b}", f"{a} // {b}", f"{a} @ {a}.T",
        f"torch.matmul({a}, {b})", f"torch.mm({a}, {b})", f"torch.stack([{a}, {b}])", f"torch.cat([{a}, {b}])",
        f"torch.cat([{a}, {b}], dim=1)", f"torch.stack([{a}, {b}], dim={rng.choice(['0', '1', '2', '3', '-1'])})",
        f"{a}.view({size})", f"{a}.reshape({size})", f"{a}.squeeze() @ {b}", f"{a}.t() @ {b}",
        f"lin32({a})", f"conv({a})", f"F.mse_loss({a}, {b})", f"F.l1_loss({a}, {b})", f"{a}.nope",
        f"torch.ones({size}) @ {b}", f"torch.zeros({size}) + {a}", f"torch.randn({size}, dtype=torch.float64) @ {b}",
        f"{a}.shape", f"{a}.T @ {b}", "torch.optim(lin32)", f"torch.nn({a})", f"{a}.numpy()",
    ])


def torch_case(rng: random.Random) -> dict:
    """A cell over a pool of tensors and layers, sometimes after torch was patched or a hook added."""
    lines = []
    for _ in range(rng.randint(1, 3)):
        expr = _torch_expr(rng)
        lines.append(rng.choice([expr, f"r = {expr}", f"r = {expr}\nq = r @ {rng.choice(TENSORS)}"]))
    case = {"setup": TORCH_SETUP, "cell": "\n".join(lines), "replay_executed": True}
    r = rng.random()
    if r < 0.15:
        owner, attr, value = rng.choice(TORCH_PATCHES)
        case["setup"] = TORCH_SETUP + f"_orig = {owner}.__dict__.get('{attr}', None)\n{owner}.{attr} = {value}\n"
        case["teardown"] = (f"if _orig is None:\n    delattr({owner}, '{attr}')\nelse:\n"
                            f"    setattr({owner}, '{attr}', _orig)\n")
    elif r < 0.22:
        case["setup"] = TORCH_SETUP + rng.choice([
            "lin32.register_forward_pre_hook(lambda m, i: (torch.ones(2, 3),))\n",
            "lin32.forward = lambda x: x\n",
            "conv.register_forward_pre_hook(lambda m, i: (torch.ones(1, 3, 4, 4),))\n"])
    return case


# The replay's reading of the executed cells: a last cell that dropped rows, then a target.
HISTORY_LAST = ["df.drop([1], inplace=True)", "df.drop(2, inplace=True)", "alias.drop([0], inplace=True)",
                "dfi.drop([1], inplace=True)", "df.drop(index=[3], inplace=True)", "df.drop([1])",
                "x = 1\ndf.drop([0], inplace=True)", "df.drop([0, 1], inplace=True)", "sub.drop([0], inplace=True)",
                "dti.drop(['2020-01-01'], inplace=True)", "df.drop([1], axis=0, inplace=True)"]
HISTORY_CELLS = ["df.drop([{r}], inplace=True)", "df.drop([{r}])", "df.drop(index=[{r}])", "alias.drop({r})",
                 "df.drop([{r}], axis=0)", "df.drop([{r}, 1])", "df.drop({r}.0)", "df.drop('{r}')", "dfi.drop([{r}])",
                 "df.loc[{r}]", "df.drop([2])\ndf.drop([{r}])", "df = df.reset_index(drop=True)\ndf.drop([{r}])",
                 "sub.drop([{r}])", "dti.drop(['2020-01-01'])", "df.drop([{r}], axis=1)", "df.drop([{r}], errors='ignore')",
                 # attributes of a recorded frame: columns, methods, removed ones, misspelt ones
                 "df.zz", "v = df.colums", "df.sort_value('a')", "df.name", "df.iteritems()", "df.A", "df.c.zz",
                 "dfi.zz", "sub.zz", "df.a.mean()", "df.T.zz", "alias.zz",
                 # and of recorded arrays
                 "v3.append(1)", "m43.shap", "v4.ptp()", "y4.join(',')", "m22.T.zz", "i8.tostring()", "u8.size"]


def history_case(rng: random.Random) -> dict:
    cell = rng.choice(HISTORY_CELLS).format(r=rng.choice(["0", "1", "2", "3"]))
    return {"setup": POOL_SETUP + CELL_BREAK + rng.choice(HISTORY_LAST), "cell": cell, "replay_executed": True}


# Keras models whose executed cells the replay reads, then a last cell that may give the model one
# of the names no Keras 3 model has (or patch Keras, undone by KERAS_UNDO).
KERAS_SETUP = ("import numpy as np\nimport keras" + CELL_BREAK
               + "seq = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])\n"
               "inp = keras.Input((3,))\nfun = keras.Model(inp, keras.layers.Dense(1, name='out')(inp))\n"
               "X = np.ones((4, 3))")
KERAS_LAST = ["", "seq.load = None", "def give(m):\n    m.predict_proba = len\ngive(fun)",
              # registered: the runner restores a setup's models by pickling them, which needs the class by name
              "@keras.saving.register_keras_serializable('fuzz')\nclass Mine(keras.Sequential):\n"
              "    def load(self, p):\n        raise ValueError(p)\n"
              "seq = Mine([keras.Input((3,))])", "setattr(fun, 'fit_generator', 1)",
              "alias = seq\nalias.predict_classes = print", "seq = 5", "fun.__dict__['load'] = len",
              "keras.Sequential.predict_generator = lambda self, x: x"]
KERAS_UNDO = "if 'predict_generator' in vars(keras.Sequential):\n    del keras.Sequential.predict_generator\n"
KERAS_ATTRS = ["load", "predict_classes", "predict_proba", "fit_generator", "evaluate_generator", "predict_generator",
               "predict", "summary", "nope", "load_weights", "name"]


def keras_case(rng: random.Random) -> dict:
    m, attr = rng.choice(["seq", "fun", "X"]), rng.choice(KERAS_ATTRS)
    cell = rng.choice([f"{m}.{attr}", f"r = {m}.{attr}(X)", f"{m}.{attr} = 1\n{m}.{attr}", f"n = 3\n{m}.{attr}('m.h5')"])
    last = rng.choice(KERAS_LAST)
    case = {"setup": KERAS_SETUP + (CELL_BREAK + last if last else ""), "cell": cell, "replay_executed": True}
    if "keras.Sequential." in last:
        case["teardown"] = KERAS_UNDO
    return case


# A frame read from CSV whose executed cells the replay reads (fresh_frames.py): a middle cell that
# may name a level of its row index, or only seem to, then a target whose keys pandas looks up
# among the columns and the index level names.
# (written here, so that the executed cells read it under a path written out)
CSV_PATH = os.path.join(tempfile.gettempdir(), "crane_llm_fuzz_frame.csv")
if not os.path.exists(CSV_PATH):  # (written aside and moved in whole: other processes may be reading it)
    _fd, _aside = tempfile.mkstemp(dir=tempfile.gettempdir())
    with os.fdopen(_fd, "w") as _f:
        _f.write("k,v,g\nx,1,p\ny,2,q\nz,3,p\n")
    os.replace(_aside, CSV_PATH)
CSV_SETUP = f"import pandas as pd\npath = {CSV_PATH!r}\n" + CELL_BREAK
CSV_READS = ["df = pd.read_csv(path)", "df = pd.read_csv(path, sep=',')", "df = pd.read_csv(path, index_col=0)",
             "df = pd.read_csv(path, index_col='g')", "df = pd.read_csv(path, names=['a', 'b'])",
             "df = pd.read_csv(path, usecols=['k', 'g'])"]
CSV_MIDDLE = ["", "df.index.name = 'w'", "df.rename_axis('w', inplace=True)", "df['w'] = 0\ndf.set_index('w', inplace=True)",
              "df.index.set_names('w', inplace=True)", "df.rename(columns={'v': 'w'}, inplace=True)",
              "df.reset_index(inplace=True)", "df.drop(columns=['v'], inplace=True)", "df = df.set_index('k')",
              "df.eval(\"@df.rename_axis('w', inplace=True)\")", "df.agg('rename_axis', index='w')",
              "d2 = df\nd2.index.name = 'g'", "df['g'] = df['g'].astype('category')", "df['v'] = df['v'].apply(lambda x: x * 2)",
              "def name(d):\n    d.index.names = ['w']\nname(df)", "df = pd.read_csv(path)",
              # rebound to what pandas makes of the frame: its index kept, or named by the grouping
              "df = df.dropna()", "df = df[df.v > 1].reset_index(drop=True)", "df = df.drop(columns=['v']).copy()",
              "df = df.sort_values('v').head(2)", "df = df.groupby('g').sum()",
              "df = df.pivot_table(index='k', values='v')", "df = df.loc[:, ['k', 'g']]"]
CSV_TARGETS = ["df.sort_values('{k}')", "df.sort_values(by=['v', '{k}'])", "df.groupby('{k}')",
               "df.groupby('g').get_group('{grp}').sort_values('{k}')", "df.groupby('{k}').get_group('p')",
               "df.sort_values('{k}', ascending=False)", "df.head(2).sort_values('{k}')"]


def csv_case(rng: random.Random) -> dict:
    cell = rng.choice(CSV_TARGETS).format(k=rng.choice(["w", "v", "g", "k", "zz", "index"]), grp=rng.choice("pqr"))
    middle = rng.choice(CSV_MIDDLE)
    # (a read without the column a middle cell names makes it fail: it is then a cell that raised)
    if middle:
        middle = "try:\n" + "".join("    " + line + "\n" for line in middle.split("\n")) + \
            "except Exception:\n    pass"
    setup = CSV_SETUP + rng.choice(CSV_READS) + (CELL_BREAK + middle if middle else "")
    return {"setup": setup, "cell": cell, "replay_executed": True}


def generate_cases(n: int, seed: int = 0, patched_share: float = 0.12, torch_share: float = 0.08,
                   history_share: float = 0.03, keras_share: float = 0.03, csv_share: float = 0.03) -> List[dict]:
    """Cases for exec_runner: most are cells over POOL_SETUP, a share run after a library patch,
    a share over a pool of PyTorch tensors and layers, a share whose replay reads the setup as
    executed cells ending with a drop of rows, a share over Keras models read the same way, a
    share over a frame read from CSV read the same way."""
    rng = random.Random(seed)
    cells = generate(n, seed=seed)
    if importlib.util.find_spec("torch") is None:
        torch_share = 0.0  # (the kernel-side suites on Python 3.9 / 3.13 run without PyTorch)
    if importlib.util.find_spec("keras") is None:
        keras_share = 0.0
    out = []
    for cell in cells:
        r = rng.random()
        if r < patched_share:
            out.append(patched_case(rng))
        elif r < patched_share + torch_share:
            out.append(torch_case(rng))
        elif r < patched_share + torch_share + history_share:
            out.append(history_case(rng))
        elif r < patched_share + torch_share + history_share + keras_share:
            out.append(keras_case(rng))
        elif r < patched_share + torch_share + history_share + keras_share + csv_share:
            out.append(csv_case(rng))
        else:
            out.append({"setup": POOL_SETUP, "cell": cell})
    return out


def generate(n: int, seed: int = 0, max_statements: int = 6) -> List[str]:
    rng = random.Random(seed)
    cells = []
    for _ in range(n):
        bound: List[str] = []
        if rng.random() < 0.04:
            cells.append(rng.choice(_LINE_MAGICS))  # a whole one-line cell the prefilter may rewrite
            continue
        cells.append("\n".join(_stmt(rng, bound) for _ in range(rng.randint(1, max_statements))))
    return cells


def verdict(result: dict, key: str = "claim") -> str:
    """'false-claim', 'caught', 'missed', 'clean' or 'broken' for one executed cell, judging the
    live checker's claim (`key="claim"`) or the replay adapter's (`key="replay_claim"`)."""
    if result.get("checker_error") or result.get("setup_error"):
        return "broken"
    claim, raised = result.get(key), result.get("raised")
    if claim is not None:
        if raised is None or raised["exception"] != claim["exception"] or raised["line"] != claim["line"]:
            return "false-claim"
        return "caught"
    return "missed" if raised is not None else "clean"
