"""Crash cells and their safe twins, one table per rule, on real pandas / NumPy / scikit-learn objects.

Each Pair is (rule, setup, crash cell, safe twin, exception). The harness runs both for real: the
crash cell must raise `exception` at the line the checker claims, the twin must run clean and get
no claim. `NO_CLAIM` lists cells that really crash but where the checker must stay silent
(uncertain by design: star imports, loops, user functions).
"""

from __future__ import annotations

from typing import List, NamedTuple


class Pair(NamedTuple):
    rule: str
    setup: str
    crash: str
    safe: str
    exception: str  # "A|B" when the installed library version decides which one


DF = ("import pandas as pd\nimport numpy as np\n"
      "df = pd.DataFrame({'a': [1, 2, 3], 'b': [4.0, 5.0, 6.0], 'c': ['x', 'y', 'z']})")
NP = ("import numpy as np\na = np.ones((3, 2))\nb = np.ones((3, 3))\nv3 = np.arange(3)\nv4 = np.arange(4)\n"
      "v2 = np.arange(2.0)\nm6 = np.arange(6)")
SK = ("import numpy as np\nimport pandas as pd\n"
      "from sklearn.linear_model import LinearRegression, LogisticRegression\n"
      "from sklearn.preprocessing import StandardScaler\nfrom sklearn.cluster import KMeans\n"
      "from sklearn.decomposition import PCA\nfrom sklearn.tree import DecisionTreeClassifier\n"
      "from sklearn.model_selection import train_test_split\n"
      "X = np.arange(30, dtype=float).reshape(10, 3)\ny = np.array([0, 1] * 5)\ny_short = y[:8]\n"
      "X2 = X[:, :2]\nXdf = pd.DataFrame(X, columns=['f1', 'f2', 'f3'])\n"
      "fitted = LogisticRegression().fit(X, y)\nunfitted = LogisticRegression()\n"
      "scaler = StandardScaler()\nscaler_fit = StandardScaler().fit(X)")
NONE = ""

NAME_ERROR: List[Pair] = [
    Pair("name", DF, "dff.head()", "df.head()", "NameError"),
    Pair("name", DF, "print(totl)", "print(df.shape)", "NameError"),
    Pair("name", NONE, "x = 1\nprint(y)", "x = 1\nprint(x)", "NameError"),
    Pair("name", DF, "result = df['a'] + offset", "offset = 1\nresult = df['a'] + offset", "NameError"),
    Pair("name", NONE, "vals = [v * 2 for v in [1, 2]]\nprint(v)", "vals = [v * 2 for v in [1, 2]]\nprint(vals)",
         "NameError"),
    Pair("name", NONE, "print(n)\n(n := 3)", "(n := 3)\nprint(n)", "NameError"),
    Pair("name", NONE, "z = 5\ndel z\nprint(z)", "z = 5\nprint(z)\ndel z", "NameError"),
    Pair("name", NONE, "np2.zeros(3)", "import numpy as np2\nnp2.zeros(3)", "NameError"),
    Pair("name", NONE, "print(i)\nfor i in range(2):\n    pass", "for i in range(2):\n    pass\nprint(i)", "NameError"),
    Pair("name", NONE, "print(fh)\nwith open('f.txt', 'w') as fh:\n    pass",
         "with open('f.txt', 'w') as fh:\n    pass\nprint(fh)", "NameError"),
    Pair("name", NONE, "helper(2)\ndef helper(v):\n    return v", "def helper(v):\n    return v\nhelper(2)",
         "NameError"),
    Pair("name", NONE, "Point()\nclass Point:\n    pass", "class Point:\n    pass\nPoint()", "NameError"),
    Pair("name", NONE, "def f():\n    return undefined_inside\nprint(also_missing)",
         "def f():\n    return undefined_inside\nprint(f)", "NameError"),
    Pair("name", NONE, "g = lambda: nothing_here\nprint(g2)", "g = lambda: nothing_here\nprint(g)", "NameError"),
    Pair("name", NONE, "global gx\nprint(gx)", "global gx\ngx = 1\nprint(gx)", "NameError"),
    Pair("name", DF, "print(missing)\n%time 1", "print(df.shape)\n%time 1", "NameError"),
    Pair("name", DF, "print(missing_var)\n!echo hi", "print(df.shape)\n!echo hi", "NameError"),
    Pair("name", NONE, "print(files2)\nfiles = !ls", "print(len('x'))\nfiles = !ls", "NameError"),
    Pair("name", DF, "[col for col in undefined_seq]", "[col for col in df.columns]", "NameError"),
    Pair("name", NONE, "[q * k for k in [1, 2]]", "[k * 2 for k in [1, 2]]", "NameError"),
    Pair("name", NONE, "[q for k in [1]]", "[q for k in []]", "NameError"),
    Pair("name", NONE, "print(before_star)\nfrom math import *", "from math import *\nprint(floor(2.5))", "NameError"),
    Pair("name", NONE, "def f(a=defval):\n    pass", "defval = 1\ndef f(a=defval):\n    pass", "NameError"),
    Pair("name", NONE, "@decor\ndef f():\n    pass", "def decor(fn):\n    return fn\n@decor\ndef f():\n    pass",
         "NameError"),
    Pair("name", NONE, "class A(BaseMissing):\n    pass", "class A(object):\n    pass", "NameError"),
    Pair("name", DF, "print(f'{missing_in_fstring}')", "print(f'{df.shape}')", "NameError"),
    Pair("name", DF, "df.head(n=num_rows)", "num_rows = 2\ndf.head(n=num_rows)", "NameError"),
    Pair("name", DF, "df[colname]", "colname = 'a'\ndf[colname]", "NameError"),
    Pair("name", DF, "len(df) + missing_len", "missing_len = 1\nlen(df) + missing_len", "NameError"),
    Pair("name", NONE, "d = {'k': missing_val}", "d = {'k': 1}", "NameError"),
    Pair("name", DF, "def prep(x):\n    return x\nprep(missing_arg)", "def prep(x):\n    return x\nprep(df)",
         "NameError"),
    Pair("name", NONE, "total = (1 +\n         missing_part)", "missing_part = 1\ntotal = (1 +\n         missing_part)",
         "NameError"),
    Pair("name", NONE, "del undefined_thing", "undefined_thing = 1\ndel undefined_thing", "NameError"),
    Pair("name", NONE, "y = 1 if missing_cond else 2", "y = 1 if True else 2", "NameError"),
    Pair("name", NONE, "counter += 1", "counter = 0\ncounter += 1", "NameError"),
    Pair("name", NONE, "a, b = 1, 2\nprint(c)", "a, b = 1, 2\nprint(a, b)", "NameError"),
    Pair("name", NONE, "from math import sqrt\nprint(sqrtt(4))", "from math import sqrt\nprint(sqrt(4))",
         "NameError"),
    Pair("name", DF, "{k: v for k, v in [('a', 1)]}\nprint(k)", "{k: v for k, v in [('a', 1)]}\nprint(df.shape)",
         "NameError"),
    Pair("name", NONE, "[(w := j) for j in []]\nprint(w)", "[(w := j) for j in [1, 2]]\nprint(w)", "NameError"),
    Pair("name", DF, "DF.head()", "df.head()", "NameError"),
    Pair("name", NONE, "prnt('x')", "print('x')", "NameError"),
    Pair("name", NONE, "del print", "print = 1\ndel print\nprint('x')", "NameError"),
    Pair("name", NONE, "import math\nmath.floor(missing_x)", "import math\nmath.floor(2.5)", "NameError"),
]

SYNTAX_ERROR: List[Pair] = [
    Pair("syntax", NONE, "x = (1, 2", "x = (1, 2)", "SyntaxError"),
    Pair("syntax", NONE, "def f(:\n    pass", "def f():\n    pass", "SyntaxError"),
    Pair("syntax", NONE, "print 'x'", "print('x')", "SyntaxError"),
    Pair("syntax", NONE, "if True\n    pass", "if True:\n    pass", "SyntaxError"),
    Pair("syntax", NONE, "x = 1\n  y = 2", "x = 1\ny = 2", "IndentationError"),
    Pair("syntax", NONE, "return 5", "def g():\n    return 5", "SyntaxError"),
    Pair("syntax", NONE, "x = 1 +", "x = 1 + 1", "SyntaxError"),
    Pair("syntax", NONE, "for in range(3):\n    pass", "for i in range(3):\n    pass", "SyntaxError"),
    Pair("syntax", NONE, "a = [1, 2,, 3]", "a = [1, 2, 3]", "SyntaxError"),
    Pair("syntax", NONE, "x := 5", "(x := 5)", "SyntaxError"),
    Pair("syntax", NONE, "break", "for i in []:\n    break", "SyntaxError"),
    Pair("syntax", NONE, "nonlocal q", "q = 1", "SyntaxError"),
    Pair("syntax", NONE, "%time 1\nx = = 2", "%time 1\nx = 2", "SyntaxError"),
]

ATTRIBUTE_ERROR: List[Pair] = [
    Pair("attribute", DF, "df.append(df)", "pd.concat([df, df])", "AttributeError"),
    Pair("attribute", DF, "np.float(3)", "float(3)", "AttributeError"),
    Pair("attribute", DF, "x = np.NaN", "x = np.nan", "AttributeError"),
    Pair("attribute", DF, "df = df.dropna(inplace=True)\ndf.head()", "df.dropna(inplace=True)\ndf.head()",
         "AttributeError"),
    Pair("attribute", DF, "df = df.drop(columns=['a'], inplace=True)\ndf.shape",
         "df = df.drop(columns=['a'])\ndf.shape",
         "AttributeError"),
    Pair("attribute", DF, "df = df.sort_values('a', inplace=True)\ndf.columns",
         "df.sort_values('a', inplace=True)\ndf.columns", "AttributeError"),
    Pair("attribute", DF, "x = None\nx.shape", "x = np.zeros(2)\nx.shape", "AttributeError"),
    Pair("attribute", NONE, "s = 'abc'\ns.lowercase()", "s = 'abc'\ns.lower()", "AttributeError"),
    Pair("attribute", "from sklearn.linear_model import LinearRegression\nimport numpy as np",
         "model = LinearRegression()\nmodel.coef_",
         "model = LinearRegression().fit(np.ones((4, 1)), np.arange(4))\nmodel.coef_", "AttributeError"),
    Pair("attribute", DF, "df.ix[0]", "df.iloc[0]", "AttributeError"),
    Pair("attribute", DF, "arr = np.zeros(3)\narr.length", "arr = np.zeros(3)\narr.size", "AttributeError"),
    Pair("attribute", DF, "np.int(5)", "np.int64(5)", "AttributeError"),
    Pair("attribute", NONE, "d = {'a': 1}\nd.has_key('a')", "d = {'a': 1}\n'a' in d", "AttributeError"),
    Pair("attribute", DF, "df = df.reset_index(drop=True, inplace=True)\ndf.columns",
         "df = df.reset_index(drop=True)\ndf.columns", "AttributeError"),
    Pair("attribute", DF, "df.as_matrix()", "df.to_numpy()", "AttributeError"),
    Pair("attribute", DF, "import numpy\nnumpy.bool8", "import numpy\nnumpy.bool_", "AttributeError"),
    Pair("attribute", DF, "df.nope", "df.a", "AttributeError"),
]

COLUMN_KEY_ERROR: List[Pair] = [
    Pair("column", DF, "df['nope']", "df['a']", "KeyError"),
    Pair("column", DF, "df[['a', 'nope']]", "df[['a', 'b']]", "KeyError"),
    Pair("column", DF, "df.drop(columns=['nope'])", "df.drop(columns=['a'])", "KeyError"),
    Pair("column", DF, "df.drop('nope', axis=1)", "df.drop('a', axis=1)", "KeyError"),
    Pair("column", DF, "df.groupby('nope')", "df.groupby('a')", "KeyError"),
    Pair("column", DF, "df.sort_values('nope')", "df.sort_values('b')", "KeyError"),
    Pair("column", DF, "df.loc[:, 'nope']", "df.loc[:, 'a']", "KeyError"),
    Pair("column", DF, "df.set_index('nope')", "df.set_index('a')", "KeyError"),
    Pair("column", DF, "df.dropna(subset=['nope'])", "df.dropna(subset=['a'])", "KeyError"),
    Pair("column", DF, "df2 = df.drop(columns=['a'])\ndf2['a']", "df2 = df.drop(columns=['a'])\ndf2['b']", "KeyError"),
    Pair("column", "import pandas as pd\ndfi = pd.DataFrame([[1, 2]], columns=[0, 1])", "dfi[2]", "dfi[1]", "KeyError"),
    Pair("column", DF, "df.drop(columns=['a'], inplace=True)\ndf['a']", "df.drop(columns=['a'], inplace=True)\ndf['b']",
         "KeyError"),
    Pair("column", DF, "df = df.rename(columns={'a': 'A'})\ndf['a']", "df = df.rename(columns={'a': 'A'})\ndf['A']",
         "KeyError"),
    Pair("column", DF, "df.head()\ndf['Nope']", "df.head()\ndf['c']", "KeyError"),
    Pair("column", DF, "df.sort_values(by=['a', 'nope'])", "df.sort_values(by=['a', 'b'])", "KeyError"),
    Pair("column", DF, "df['a ']", "df['a']", "KeyError"),
    Pair("column", DF, "df['d'] = 1\ndf['e']", "df['d'] = 1\ndf['d']", "KeyError"),
    Pair("column", DF, "df = df.set_index('a')\ndf['a']", "df = df.set_index('a')\ndf['b']", "KeyError"),
    Pair("column", DF, "sub = df[['a', 'b']]\nsub['c']", "sub = df[['a', 'c']]\nsub['c']", "KeyError"),
    Pair("column", DF, "df.loc[:, ['a', 'zz']]", "df.loc[:, ['a', 'c']]", "KeyError"),
    Pair("column", DF + "\nframes = [df]\nalias = df", "df['new'] = 1\nframes[0]['zz']",
         "df['new'] = 1\nframes[0]['new']\nalias['new']", "KeyError"),
    Pair("column", DF, "del df['nope']", "del df['a']", "KeyError"),
    Pair("column", DF, "df.drop([10472], inplace=True)", "df.drop([2], inplace=True)", "KeyError"),
    Pair("column", DF, "df.drop(index=['r1'])", "df.drop(index=[0, 1])", "KeyError"),
    Pair("column", DF + "\ndf.index = ['p', 'q', 'r']", "df.drop('s')", "df.drop('q')", "KeyError"),
    Pair("column", DF, "del df['a']\ndf['a']", "del df['a']\ndf['b']", "KeyError"),
    Pair("column", DF, "df.pop('nope')", "df.pop('c')", "KeyError"),
    Pair("column", DF, "df.columns = ['x', 'y', 'z']\ndf['a']", "df.columns = ['x', 'y', 'z']\ndf['x']", "KeyError"),
    Pair("column", DF + "\nalias = df", "alias.drop(columns=['a'], inplace=True)\ndf['a']",
         "alias.drop(columns=['a'], inplace=True)\ndf['b']", "KeyError"),
]

INDEX_ERROR: List[Pair] = [
    Pair("index", NONE, "d = {'a': 1}\nd['missing']", "d = {'a': 1}\nd['a']", "KeyError"),
    Pair("index", NONE, "lst = [1, 2, 3]\nlst[5]", "lst = [1, 2, 3]\nlst[2]", "IndexError"),
    Pair("index", NONE, "lst = [1, 2, 3]\nlst[-4]", "lst = [1, 2, 3]\nlst[-3]", "IndexError"),
    Pair("index", NONE, "t = (1, 2)\nt[2]", "t = (1, 2)\nt[1]", "IndexError"),
    Pair("index", NP, "v3[10]", "v3[2]", "IndexError"),
    Pair("index", NP, "a[1, 5]", "a[1, 1]", "IndexError"),
    Pair("index", NP, "v3[0, 0]", "v3[0]", "IndexError"),
    Pair("index", NONE, "'abc'[3]", "'abc'[2]", "IndexError"),
    Pair("index", NONE, "lst = [1, 2, 3]\nlst[10]", "lst = [1, 2, 3]\nlst[10:]", "IndexError"),
    Pair("index", NONE, "cfg = {'a': {'b': 1}}\ncfg['a']['c']", "cfg = {'a': {'b': 1}}\ncfg['a']['b']", "KeyError"),
    Pair("index", NONE, "lst = [1, 2, 3]\nlst[3] = 0", "lst = [1, 2, 3]\nlst[2] = 0", "IndexError"),
    Pair("index", NONE, "d = {1: 'x'}\nd['1']", "d = {1: 'x'}\nd[True]", "KeyError"),
    Pair("index", NP, "a[3]", "a[-3]", "IndexError"),
    Pair("index", DF, "shape = df.shape\nshape[2]", "shape = df.shape\nshape[1]", "IndexError"),
    Pair("index", DF, "s = df['a'].shape\ns[1]", "s = df['a'].shape\ns[0]", "IndexError"),
    Pair("index", NONE, "pairs = [(1, 2)]\npairs[0][2]", "pairs = [(1, 2)]\npairs[0][1]", "IndexError"),
]

COLUMN_LENGTH: List[Pair] = [
    Pair("column-length", DF, "df['d'] = [1, 2]", "df['d'] = [1, 2, 3]", "ValueError"),
    Pair("column-length", DF, "df['d'] = np.zeros(4)", "df['d'] = np.zeros(3)", "ValueError"),
    Pair("column-length", DF, "df['d'] = list(range(5))", "df['d'] = list(range(3))", "ValueError"),
    Pair("column-length", DF, "df['d'] = []", "df['d'] = 0", "ValueError"),
    Pair("column-length", DF, "df['a'] = [1]", "df['a'] = [7, 8, 9]", "ValueError"),
    Pair("column-length", DF, "df['d'] = [v for v in range(4)]", "df['d'] = [v for v in range(3)]", "ValueError"),
    Pair("column-length", DF, "dfh = df.head(2)\ndfh['d'] = [1, 2, 3]", "dfh = df.head(2)\ndfh['d'] = [1, 2]",
         "ValueError"),
    Pair("column-length", DF, "df2 = df.copy()\ndf2['z'] = [1, 2, 3, 4]", "df2 = df.copy()\ndf2['z'] = [1, 2, 3]",
         "ValueError"),
    Pair("column-length", DF, "vals = [1, 2, 3, 4]\ndf['d'] = vals", "vals = [1, 2, 3]\ndf['d'] = vals", "ValueError"),
    Pair("column-length", DF, "df['d'] = np.arange(2)", "df['d'] = np.arange(3)", "ValueError"),
    Pair("column-length", DF, "df.columns = ['x', 'y']", "df.columns = ['x', 'y', 'z']", "ValueError"),
    Pair("column-length", DF, "df.columns = ('x', 'y', 'z', 'w')", "df.columns = ('x', 'y', 'z')", "ValueError"),
    Pair("column-length", DF, "df['d'] = 1\ndf['e'] = ['p', 'q']", "df['d'] = 1\ndf['e'] = ['p', 'q', 'r']",
         "ValueError"),
]

ARRAY_SHAPES: List[Pair] = [
    Pair("array-shapes", NP, "a + b", "a + a", "ValueError"),
    Pair("array-shapes", NP, "a @ a", "a @ a.T", "ValueError"),
    Pair("array-shapes", NP, "np.dot(a, a)", "np.dot(a, a.T)", "ValueError"),
    Pair("array-shapes", NP, "a.dot(b)", "b.dot(a)", "ValueError"),
    Pair("array-shapes", NP, "np.vstack([v3, v4])", "np.vstack([v3, v3])", "ValueError"),
    Pair("array-shapes", NP, "np.hstack([a, np.ones((4, 2))])", "np.hstack([a, b])", "ValueError"),
    Pair("array-shapes", NP, "np.concatenate([a, b], axis=0)", "np.concatenate([a, b], axis=1)", "ValueError"),
    Pair("array-shapes", NP, "m6.reshape(4, 2)", "m6.reshape(2, 3)", "ValueError"),
    Pair("array-shapes", NP, "m6.reshape(-1, 4)", "m6.reshape(-1, 2)", "ValueError"),
    Pair("array-shapes", NP, "np.reshape(m6, (5,))", "np.reshape(m6, (6,))", "ValueError"),
    Pair("array-shapes", NP, "v3 * v4", "v3 * v3", "ValueError"),
    Pair("array-shapes", NP, "np.stack([v3, v4])", "np.stack([v3, v3])", "ValueError"),
    Pair("array-shapes", NP, "a - v3", "a - v2", "ValueError"),
    Pair("array-shapes", NP, "np.matmul(v3, v4)", "np.matmul(v3, v3)", "ValueError"),
    Pair("array-shapes", NP, "c = a * 2.0\nd = c + b", "c = a * 2.0\nd = c + a", "ValueError"),
    Pair("array-shapes", NP, "np.concatenate([v3, a])", "np.concatenate([v3, v4])", "ValueError"),
]

SKLEARN: List[Pair] = [
    Pair("sklearn", SK, "m = LinearRegression()\nm.predict(X)", "m = LinearRegression()\nm.fit(X, y)",
         "NotFittedError"),
    Pair("sklearn", SK, "unfitted.predict(X)", "fitted.predict(X)", "NotFittedError"),
    Pair("sklearn", SK, "scaler.transform(X)", "scaler_fit.transform(X)", "NotFittedError"),
    Pair("sklearn", SK, "unfitted.predict_proba(X)", "fitted.predict_proba(X)", "NotFittedError"),
    Pair("sklearn", SK, "unfitted.score(X, y)", "fitted.score(X, y)", "NotFittedError"),
    Pair("sklearn", SK, "km = KMeans(n_clusters=2)\nkm.predict(X)", "km = KMeans(n_clusters=2, n_init=1)\nkm.fit(X)",
         "NotFittedError"),
    # scikit-learn 1.6 reads `components_` before checking: AttributeError there, NotFittedError in 1.9.
    Pair("sklearn", SK, "PCA(n_components=2).transform(X)", "PCA(n_components=2).fit(X).transform(X)",
         "NotFittedError|AttributeError"),
    Pair("sklearn", SK, "fitted.predict(X2)", "fitted.predict(X)", "ValueError"),
    Pair("sklearn", SK, "scaler_fit.transform(X2)", "scaler_fit.transform(X)", "ValueError"),
    Pair("sklearn", SK, "fitted.predict(Xdf[['f1', 'f2']])", "fitted.predict(X[:, :3])", "ValueError"),
    Pair("sklearn", SK, "m = LinearRegression()\nm.fit(X, y_short)", "m = LinearRegression()\nm.fit(X, y)",
         "ValueError"),
    Pair("sklearn", SK, "LinearRegression().fit(X, y_short)", "StandardScaler().fit(X, y_short)", "ValueError"),
    Pair("sklearn", SK, "DecisionTreeClassifier().fit(Xdf, y_short)", "DecisionTreeClassifier().fit(Xdf, y)",
         "ValueError"),
    Pair("sklearn", SK, "train_test_split(X, y_short)", "train_test_split(X, y)", "ValueError"),
    Pair("sklearn", SK, "train_test_split(X, y_short, test_size=0.25, random_state=0)",
         "train_test_split(X, y, test_size=0.25, random_state=0)", "ValueError"),
    Pair("sklearn", SK, "train_test_split(Xdf, [0, 1, 0])", "train_test_split(Xdf, list(range(10)))", "ValueError"),
    Pair("sklearn", SK, "fitted.decision_function(X2)", "fitted.decision_function(X)", "ValueError"),
    Pair("sklearn", SK + "\nfrom sklearn.preprocessing import Normalizer", "StandardScaler().transform(X)",
         "Normalizer().transform(X)", "NotFittedError"),
]

OPERATORS: List[Pair] = [
    Pair("operators", NONE, "1 / 0", "1 / 1", "ZeroDivisionError"),
    Pair("operators", NONE, "n = 0\ntotal = 10 / n", "n = 2\ntotal = 10 / n", "ZeroDivisionError"),
    Pair("operators", NONE, "10 // 0", "10 // 3", "ZeroDivisionError"),
    Pair("operators", NONE, "5 % 0", "5 % 2", "ZeroDivisionError"),
    Pair("operators", NONE, "None + 1", "0 + 1", "TypeError"),
    Pair("operators", NONE, "'a' + 1", "'a' + str(1)", "TypeError"),
    Pair("operators", NONE, "[1] + (2,)", "[1] + [2]", "TypeError"),
    Pair("operators", NONE, "x = None\nx * 2", "x = 3\nx * 2", "TypeError"),
    Pair("operators", NONE, "a, b = [1, 2, 3]", "a, b, c = [1, 2, 3]", "ValueError"),
    Pair("operators", NONE, "a, b, c = (1, 2)", "a, b = (1, 2)", "ValueError"),
    Pair("operators", NONE, "x, y = 5", "x, y = 5, 6", "TypeError"),
    Pair("operators", NONE, "first, *rest = []", "first, *rest = [1]", "ValueError"),
    Pair("operators", NONE, "k, v = 'abc'", "k, v = 'ab'", "ValueError"),
    Pair("operators", NONE, "int('abc')", "int('12')", "ValueError"),
    Pair("operators", NONE, "float('x')", "float('1.5')", "ValueError"),
    Pair("operators", NONE, "len(5)", "len('5')", "TypeError"),
    Pair("operators", NONE, "sum(['a', 'b'])", "sum([1, 2])", "TypeError"),
    Pair("operators", NONE, "max([])", "max([1])", "ValueError"),
    Pair("operators", NONE, "'a' < 1", "'a' < 'b'", "TypeError"),
    Pair("operators", DF, "rows, cols, depth = df.shape", "rows, cols = df.shape", "ValueError"),
    Pair("operators", NONE, "total = 0\nratio = 5 / total", "total = 1\nratio = 5 / total", "ZeroDivisionError"),
]

ALL_PAIRS: List[Pair] = (NAME_ERROR + SYNTAX_ERROR + ATTRIBUTE_ERROR + COLUMN_KEY_ERROR + INDEX_ERROR +
                         COLUMN_LENGTH + ARRAY_SHAPES + SKLEARN + OPERATORS)

# Cells that really crash, on which the checker must stay silent: the crash is not certain
# from the checker's point of view (a star import could define the name, a loop may not run, ...).
NO_CLAIM = [
    ("from math import *\nprint(not_in_math)", NONE),
    ("for i in range(2):\n    if i:\n        undefined_in_loop", NONE),  # (only the second pass gets there)
    ("if True:\n    undefined_in_if", NONE),
    ("try:\n    undefined_in_try\nexcept ValueError:\n    pass", NONE),
    ("def f():\n    return undefined_name\nf()", NONE),
    ("def f():\n    raise ValueError('x')\nf()\nundefined_after_call", NONE),
    ("%time 1\nundefined_after_magic", NONE),
    ("import this_module_does_not_exist_xyz\nundefined_later", NONE),
    ("dfm.columns = pd.MultiIndex.from_tuples([('a', 'x'), ('b', 'y')])\ndfm['nope']",
     "import pandas as pd\ndfm = pd.DataFrame([[1, 2]])"),
    ("df.drop(columns=['nope'], errors='ignore')['nope']", DF),
    ("ser = df['a']\nser.nope", DF),
    ("(x for x in [1, 2, 3] if undefined_gen)\nundefined_after_gen", NONE),
]
