"""Pairs for positional `.iloc` past the ends, `.join` of frames with shared column names,
`pd.DataFrame(array, columns=...)` with the wrong number of names, assignment into an array
selection that the value cannot broadcast into, a float used as an array index, and
`np.random.choice` of a 2-D array. Same form as cases.py; the harness runs every cell for real.
The NO_CLAIM cells crash, but in a way the rules must not vouch for."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from typing import List

from cases import Pair

HAS_TORCH = importlib.util.find_spec("torch") is not None
# pandas 3 reads text as its str dtype; pandas 2 keeps it in object columns, which could hold
# anything, so the groupby rule leaves frames with text alone there.
PANDAS_3 = int(importlib.metadata.version("pandas").split(".")[0]) >= 3

FR = ("import pandas as pd\nimport numpy as np\n"
      "df = pd.DataFrame({'a': [1, 2, 3], 'b': [4.0, 5.0, 6.0], 'c': ['x', 'y', 'z']})\n"
      "empty = df.iloc[:0]\nkeyed = pd.DataFrame({'v': [1, 2]}, index=[10, 20])\n"
      "other = pd.DataFrame({'w': [7, 8]}, index=[10, 30])\nsame = pd.DataFrame({'v': [5, 6], 'z': [0, 0]})\n"
      "dated = pd.DataFrame({'w': [1, 2]}, index=pd.DatetimeIndex(['2024-01-01', '2024-01-02'], tz='UTC'))\n"
      "naive = pd.DataFrame({'w': [1, 2]}, index=pd.DatetimeIndex(['2024-01-01', '2024-01-02']))\n"
      "m32 = np.zeros((3, 2))\nm00 = np.zeros((0, 2))\nv3 = np.arange(3.0)")
AR = ("import numpy as np\ng = np.zeros((4, 4))\ngi = np.zeros((4, 4), dtype=int)\nv3 = np.arange(3.0)\n"
      "v4 = np.arange(4.0)\nrow = np.ones((1, 4))\nm23 = np.ones((2, 3))\nm24 = np.ones((2, 4))\n"
      "cube = np.zeros((2, 3, 4))\nf = np.float64(1.0)\nf32 = np.float32(2.0)\nk = np.int64(1)")

ILOC: List[Pair] = [
    Pair("positions", FR, "r = df.iloc[3]", "r = df.iloc[2]", "IndexError"),
    Pair("positions", FR, "r = df.iloc[-4]", "r = df.iloc[-3]", "IndexError"),
    Pair("positions", FR, "r = df.iloc[:, 3]", "r = df.iloc[:, 2]", "IndexError"),
    Pair("positions", FR, "r = df.iloc[:, -4]", "r = df.iloc[:, -1]", "IndexError"),
    Pair("positions", FR, "r = df.iloc[0, 7]", "r = df.iloc[0, 1]", "IndexError"),
    Pair("positions", FR, "r = df.iloc[5, 0]", "r = df.iloc[1, 0]", "IndexError"),
    Pair("positions", FR, "r = empty.iloc[0]", "r = empty.iloc[:, 0]", "IndexError"),
    Pair("positions", FR, "df2 = df.drop(columns=['c'])\nr = df2.iloc[:, 2]", "df2 = df.drop(columns=['c'])\nr = df2.iloc[:, 1]",
         "IndexError"),
    Pair("positions", FR, "top = df.head(2)\nr = top.iloc[2]", "top = df.head(2)\nr = top.iloc[1]", "IndexError"),
    Pair("positions", FR, "col = df.iloc[:, 1]\nr = df.iloc[3]", "col = df.iloc[:, 1]\nr = df.iloc[0]", "IndexError"),
    # a Series' positions: its length is its index's
    Pair("positions", FR, "r = df['b'].iloc[3]", "r = df['b'].iloc[2]", "IndexError"),
    Pair("positions", FR, "s = df['a']\nr = s.iloc[-4]", "s = df['a']\nr = s.iloc[-3]", "IndexError"),
    Pair("positions", FR + "\ns = pd.Series([1, 2], index=['x', 'x'])", "r = s.iloc[2]", "r = s.iloc[1]", "IndexError"),
    Pair("positions", FR + "\ne = pd.Series([], dtype=float)", "r = e.iloc[0]", "r = e.iloc[:1]", "IndexError"),
    Pair("positions", FR, "r = df.iloc[:, 2].iloc[3]", "r = df.iloc[:, 2].iloc[-3]", "IndexError"),
]

JOIN: List[Pair] = [
    Pair("join-overlap", FR, "j = df.join(df)", "j = df.join(df, rsuffix='_r')", "ValueError"),
    Pair("join-overlap", FR, "j = keyed.join(same)", "j = keyed.join(other)", "ValueError"),
    Pair("join-overlap", FR, "j = same.join(keyed)", "j = same.join(other)", "ValueError"),
    Pair("join-overlap", FR, "j = empty.join(df)", "j = empty.join(df, lsuffix='_x')", "ValueError"),
    Pair("join-overlap", FR, "j = df.join(keyed)\nk = df.join(df)", "j = df.join(keyed)\nk = df.join(same)", "ValueError"),
    Pair("join-overlap", FR, "j = empty.join(empty)", "j = empty.join(other)", "ValueError"),
    Pair("join-overlap", FR, "j = keyed.join(keyed)", "j = keyed.join(other)", "ValueError"),
    Pair("join-overlap", FR, "j = other.join(other)", "j = other.join(keyed)", "ValueError"),
    Pair("join-overlap", FR, "j = keyed.join(same)", "j = keyed.join(df)", "ValueError"),
    Pair("join-overlap", FR, "j = same.join(same)", "j = same.join(df)", "ValueError"),
]

CONSTRUCT: List[Pair] = [
    Pair("frame-shape", FR, "d = pd.DataFrame(m32, columns=['a', 'b', 'c'])", "d = pd.DataFrame(m32, columns=['a', 'b'])",
         "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m32, columns=['a'])", "d = pd.DataFrame(m32, columns=['x', 'y'])",
         "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m00, columns=['a'])", "d = pd.DataFrame(m00, columns=['a', 'b'])",
         "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(np.zeros((3, 2)), columns=[])",
         "d = pd.DataFrame(np.zeros((3, 2)), columns=[1, 2])", "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m32.T, columns=['a', 'b'])", "d = pd.DataFrame(m32.T, columns=['a', 'b', 'c'])",
         "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m32[:, :1], columns=['a', 'b'])",
         "d = pd.DataFrame(m32, columns=['a', 'a'])", "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m32, columns=['a', 'b'])\nd2 = pd.DataFrame(m32, columns=['a', 'b', 'c'])",
         "d = pd.DataFrame(m32, columns=['a', 'b'])\nd2 = d.iloc[:, 1]", "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(np.ones((2, 4)), columns=['p', 'q', 'r'])",
         "d = pd.DataFrame(np.ones((2, 4)), columns=['p', 'q', 'r', 's'])", "ValueError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m32, columns=['a', 'b'])\nr = d.iloc[:, 2]",
         "d = pd.DataFrame(m32, columns=['a', 'b'])\nr = d.iloc[2]", "IndexError"),
    Pair("frame-shape", FR, "d = pd.DataFrame(m32 * 2, columns=['a', 'b', 'c', 'd'])",
         "d = pd.DataFrame(m32 * 2, columns=[0, 1])", "ValueError"),
]

ARRAYS: List[Pair] = [
    Pair("array-assign", AR, "g[:, 0] = v3", "g[:, 0] = v4", "ValueError"),
    Pair("array-assign", AR, "g[0] = v3", "g[0] = v4", "ValueError"),
    Pair("array-assign", AR, "g[1:3] = m23", "g[1:3] = m24", "ValueError"),
    Pair("array-assign", AR, "g[:2, :3] = m24", "g[:2, :3] = m23", "ValueError"),
    Pair("array-assign", AR, "gi[:, 1] = row.T", "gi[:, 1] = row[0]", "ValueError"),
    Pair("array-assign", AR, "cube[0] = m23", "cube[0] = np.ones((3, 4))", "ValueError"),
    Pair("array-assign", AR, "g[1] = m24", "g[1] = row", "ValueError"),
    Pair("array-assign", AR, "g[4, :] = v4", "g[3, :] = v4", "IndexError"),
    Pair("array-assign", AR, "g[:] = v3", "g[:] = row", "ValueError"),
    Pair("array-assign", AR, "g[::2, 1] = v3", "g[::2, 1] = v3[:2]", "ValueError"),
    Pair("float-index", AR, "r = v4[f]", "r = v4[int(f)]", "IndexError"),
    Pair("float-index", AR, "r = g[1, 2.0]", "r = g[1, 2]", "IndexError"),
    Pair("float-index", AR, "r = v4[v3[2]]", "r = v4[2]", "IndexError"),
    Pair("float-index", AR, "r = g[f32]", "r = g[1]", "IndexError"),
    Pair("float-index", AR, "r = v4[1.0]", "r = v4[1]", "IndexError"),
    Pair("float-index", AR, "r = g[0, 2.5]", "r = g[0, 2]", "IndexError"),
    Pair("float-index", AR, "r = cube[0, :, v3[1]]", "r = cube[0, :, 1]", "IndexError"),
    Pair("float-index", AR, "g[f] = v4", "g[1] = v4", "IndexError"),
    Pair("float-index", AR, "x = v3[1]\nr = m24[x]", "x = v3[1]\nr = m24[1]", "IndexError"),
    Pair("float-index", AR, "r = v4[:2][f]", "r = v4[:2][1]", "IndexError"),
    Pair("random-choice", AR, "r = np.random.choice(m23)", "r = np.random.choice(v3)", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(g)", "r = np.random.choice(g[0])", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(cube)", "r = np.random.choice(cube.ravel())", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(row)", "r = np.random.choice(row[0])", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(np.zeros((3, 3)))", "r = np.random.choice(np.zeros(3))",
         "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(m24.T)", "r = np.random.choice(m24.flatten())", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(gi)", "r = np.random.choice(4)", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(m23 + 1)", "r = np.random.choice(v3 + 1)", "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(m23.reshape(3, 2))", "r = np.random.choice(m23.reshape(6))",
         "ValueError"),
    Pair("random-choice", AR, "r = np.random.choice(g[1:])", "r = np.random.choice(g[1])", "ValueError"),
]

SK1 = ("import numpy as np\nfrom sklearn.preprocessing import MinMaxScaler, StandardScaler\n"
       "from sklearn.cluster import KMeans\nfrom sklearn.decomposition import PCA\n"
       "y = np.arange(10.0)\nyi = np.arange(10)\nflags = np.array([True, False] * 5)\nscaler = StandardScaler()")

FIT_1D: List[Pair] = [
    Pair("fit-1d", SK1, "MinMaxScaler().fit(y)", "MinMaxScaler().fit(y.reshape(-1, 1))", "ValueError"),
    Pair("fit-1d", SK1, "StandardScaler().fit(yi)", "StandardScaler().fit(yi.reshape(-1, 1))", "ValueError"),
    Pair("fit-1d", SK1, "scaler.fit(y)", "scaler.fit(y[:, None])", "ValueError"),
    Pair("fit-1d", SK1, "KMeans(n_clusters=2, n_init=1).fit(y)", "KMeans(n_clusters=2, n_init=1).fit(y.reshape(5, 2))",
         "ValueError"),
    Pair("fit-1d", SK1, "PCA(n_components=1).fit(y)", "PCA(n_components=1).fit(y.reshape(5, 2))", "ValueError"),
    Pair("fit-1d", SK1, "MinMaxScaler(feature_range=(0, 2)).fit(flags)",
         "MinMaxScaler(feature_range=(0, 2)).fit(flags.reshape(-1, 1))", "ValueError"),
    Pair("fit-1d", SK1, "scaler.fit(yi)", "scaler.fit(np.ones((3, 2)))", "ValueError"),
    Pair("fit-1d", SK1, "s = StandardScaler(with_mean=False)\ns.fit(y)",
         "s = StandardScaler(with_mean=False)\ns.fit(y.reshape(2, 5))", "ValueError"),
    Pair("fit-1d", SK1, "MinMaxScaler().fit(yi)", "MinMaxScaler().fit(yi.reshape(-1, 2))", "ValueError"),
    Pair("fit-1d", SK1, "KMeans(n_clusters=3, n_init=1).fit(yi)",
         "KMeans(n_clusters=3, n_init=1).fit(yi.reshape(-1, 1))", "ValueError"),
]

SKD = ("import numpy as np\nimport pandas as pd\n"
       "from sklearn.linear_model import LogisticRegression, LinearRegression, Ridge\n"
       "from sklearn.tree import DecisionTreeClassifier\nfrom sklearn.ensemble import RandomForestClassifier, "
       "RandomForestRegressor, GradientBoostingClassifier\nfrom sklearn.preprocessing import StandardScaler\n"
       "from sklearn.cluster import KMeans\nfrom sklearn.svm import SVC\n"
       "X = np.arange(24, dtype=float).reshape(8, 3)\ny = np.array([0, 1] * 4)\nylist = [0, 1] * 4\nXn = X.copy()\nXn[3, 2] = np.nan\n"
       "X32 = X.astype(np.float32)\nX32[0, 0] = np.nan\n"
       "people = pd.DataFrame({'age': [20, 30, 40, 50], 'city': ['a', 'b', 'a', 'c'], 'n': ['1', '2', '3', '4']})\n"
       "objs = pd.DataFrame({'age': [1.0, 2.0, 3.0, 4.0], 'tag': pd.Series(['x', '1', '2', '3'], dtype=object)})\n"
       "nums = pd.DataFrame({'age': [20, 30, 40, 50], 'n': ['1', '2', '3', '4']})\nyl = [0, 1, 0, 1]\n"
       "forest = RandomForestClassifier(n_estimators=3)\nboost = GradientBoostingClassifier(n_estimators=2)\n"
       "fitted = RandomForestRegressor(n_estimators=2, random_state=0).fit(X, y)")

FIT_DATA: List[Pair] = [
    Pair("fit-data", SKD, "LogisticRegression().fit(people, yl)", "LogisticRegression().fit(nums, yl)", "ValueError"),
    Pair("fit-data", SKD, "LinearRegression().fit(objs, yl)", "LinearRegression().fit(nums, yl)", "ValueError"),
    Pair("fit-data", SKD, "DecisionTreeClassifier().fit(people, yl)", "DecisionTreeClassifier().fit(nums, yl)",
         "ValueError"),
    Pair("fit-data", SKD, "StandardScaler().fit(people)", "StandardScaler().fit(nums)", "ValueError"),
    Pair("fit-data", SKD, "KMeans(n_clusters=2, n_init=1).fit(objs)", "KMeans(n_clusters=2, n_init=1).fit(nums)",
         "ValueError"),
    Pair("fit-data", SKD, "LinearRegression().fit(Xn, y)", "LinearRegression().fit(X, y)", "ValueError"),
    Pair("fit-data", SKD, "LogisticRegression().fit(Xn, y)", "LogisticRegression().fit(X, y)", "ValueError"),
    # trees take NaN in this version: no claim on the twin
    Pair("fit-data", SKD, "LinearRegression().fit(Xn, y)", "DecisionTreeClassifier().fit(Xn, y)", "ValueError"),
    Pair("fit-data", SKD, "SVC().fit(X32, y)", "SVC().fit(X, y)", "ValueError"),
    Pair("fit-data", SKD, "KMeans(n_clusters=2, n_init=1).fit(Xn)", "KMeans(n_clusters=2, n_init=1).fit(X)",
         "ValueError"),
    Pair("fit-data", SKD, "Ridge(alpha=2.0).fit(Xn, ylist)", "Ridge(alpha=2.0).fit(X, ylist)", "ValueError"),
    Pair("fit-data", SKD, "r = RandomForestRegressor(n_estimators=2).fit(people, yl)",
         "r = RandomForestRegressor(n_estimators=2).fit(nums, yl)", "ValueError"),
]

UNFITTED_OWN: List[Pair] = [
    Pair("not-fitted", SKD, "forest.predict(X)", "forest.fit(X, y).predict(X)", "NotFittedError"),
    Pair("not-fitted", SKD, "forest.feature_importances_", "forest.n_estimators", "NotFittedError"),
    Pair("not-fitted", SKD, "forest.predict_proba(X)", "forest.fit(X, y).predict_proba(X)", "NotFittedError"),
    Pair("not-fitted", SKD, "boost.feature_importances_", "boost.fit(X, y).feature_importances_", "NotFittedError"),
    Pair("not-fitted", SKD, "RandomForestRegressor().predict(X)", "fitted.predict(X)", "NotFittedError"),
    Pair("not-fitted", SKD, "imp = forest.feature_importances_.sum()", "imp = fitted.feature_importances_.sum()",
         "NotFittedError"),
    Pair("not-fitted", SKD, "p = RandomForestClassifier(max_depth=2).predict_proba(X)",
         "p = RandomForestClassifier(max_depth=2).fit(X, y).predict_proba(X)", "NotFittedError"),
    Pair("not-fitted", SKD, "DecisionTreeClassifier().feature_importances_",
         "DecisionTreeClassifier().fit(X, y).feature_importances_", "NotFittedError"),
    Pair("not-fitted", SKD, "forest.predict_log_proba(X)", "forest.n_estimators", "NotFittedError"),
    Pair("not-fitted", SKD, "s = forest.score(X, y)", "s = fitted.score(X, y)", "NotFittedError"),
]

TX = ("import pandas as pd\nimport numpy as np\n"
      "t = pd.DataFrame({'code': ['10', '20', 'x3', '40'], 'pad': [' 7', '8 ', '1_0', '-3'], "
      "'flt': ['1.5', '2', '3', '4'], 'big': ['99999999999999999999', 'x', '1', '2'], 'ok': ['1', '2', '3', '4']})\n"
      "o = pd.DataFrame({'code': pd.Series(['1', 'two', '3'], dtype=object), 'ok': pd.Series(['1', '2', '3'], dtype=object)})\n"
      "f = pd.DataFrame({'sex': ['Male', 'Female', 'Male'], 'num': ['1.5', ' 2 ', '1e3'], 'odd': ['nan', '-Infinity', '1_0'], "
      "'hex': ['0x1A', '1', '2'], 'none': ['1', None, 'x']})")

ASTYPE: List[Pair] = [
    Pair("astype-text", TX, "t['code'].astype(int)", "t['ok'].astype(int)", "ValueError"),
    Pair("astype-text", TX, "c = t['code'].astype('int64')", "c = t['pad'].astype('int64')", "ValueError"),
    Pair("astype-text", TX, "c = t['flt'].astype(int)", "c = t['ok'].astype('int')", "ValueError"),
    Pair("astype-text", TX, "c = o['code'].astype(int)", "c = o['ok'].astype(int)", "ValueError"),
    Pair("astype-text", TX, "c = t['code'].astype(np.int64)", "c = t['ok'].astype(np.int64)", "ValueError"),
    Pair("astype-text", TX, "s = t['code']\nc = s.astype(int)", "s = t['pad']\nc = s.astype(int)", "ValueError"),
    Pair("astype-text", TX, "t2 = t.drop(columns=['ok'])\nc = t['code'].astype('int')",
         "t2 = t.drop(columns=['ok'])\nc = t['ok'].astype('int')", "ValueError"),
    Pair("astype-text", TX, "c = o['code'].astype('int64')", "c = o['ok'].astype('int64')", "ValueError"),
    Pair("astype-text", TX, "n = len(t)\nc = t['flt'].astype(np.int64)", "n = len(t)\nc = t['pad'].astype(np.int64)",
         "ValueError"),
    Pair("astype-text", TX, "c = t['code'].astype(int) + 1", "c = t['ok'].astype(int) + 1", "ValueError"),
    # to floats: a text with a letter no float's spelling has
    Pair("astype-text", TX, "c = f['sex'].astype(float)", "c = f['num'].astype(float)", "ValueError"),
    Pair("astype-text", TX, "c = f['sex'].astype('float64')", "c = f['odd'].astype('float64')", "ValueError"),
    Pair("astype-text", TX, "c = f['hex'].astype(np.float32)", "c = f['num'].astype(np.float32)", "ValueError"),
    Pair("astype-text", TX, "c = o['code'].astype('float')", "c = o['ok'].astype('float')", "ValueError"),
    Pair("astype-text", TX, "s = f['sex']\nc = s.astype(float)", "s = f['odd']\nc = s.astype(float)", "ValueError"),
]

TORCH = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport torch.optim\n"
         "scores = torch.randn(6, 4)\nlabels = torch.zeros(6, dtype=torch.long)\nshort = torch.zeros(5, dtype=torch.long)\n"
         "crit = nn.CrossEntropyLoss()\nsmooth = nn.CrossEntropyLoss(label_smoothing=0.1)\nlayer = nn.Linear(4, 2)\n"
         "net = nn.Sequential(nn.Linear(4, 3), nn.ReLU())\nodd = nn.CrossEntropyLoss()\nodd.ignore_index = 1.5")

TORCH_LOSS: List[Pair] = [
    Pair("cross-entropy", TORCH, "loss = crit(scores, short)", "loss = crit(scores, labels)", "ValueError"),
    Pair("cross-entropy", TORCH, "loss = nn.CrossEntropyLoss()(scores, short)", "loss = nn.CrossEntropyLoss()(scores, labels)",
         "ValueError"),
    Pair("cross-entropy", TORCH, "loss = F.cross_entropy(scores, short)", "loss = F.cross_entropy(scores, labels)",
         "ValueError"),
    Pair("cross-entropy", TORCH, "c = nn.CrossEntropyLoss()\nloss = c(torch.randn(3, 2), short)",
         "c = nn.CrossEntropyLoss()\nloss = c(torch.randn(5, 2), short)", "ValueError"),
    Pair("cross-entropy", TORCH, "loss = crit(torch.randn(2, 5), torch.zeros(3, dtype=torch.long))",
         "loss = crit(torch.randn(3, 5), torch.zeros(3, dtype=torch.long))", "ValueError"),
    Pair("cross-entropy", TORCH, "loss = crit(torch.ones(6, 4), short)", "loss = crit(torch.ones(5, 4), short)", "ValueError"),
    Pair("cross-entropy", TORCH, "loss = crit(torch.rand(1, 9), labels)", "loss = crit(torch.rand(6, 9), labels)", "ValueError"),
    Pair("cross-entropy", TORCH, "loss = F.cross_entropy(torch.zeros(4, 2), torch.ones(2, dtype=torch.int64))",
         "loss = F.cross_entropy(torch.zeros(2, 2), torch.ones(2, dtype=torch.int64))", "ValueError"),
    Pair("cross-entropy", TORCH, "loss = F.cross_entropy(torch.randn(6, 4, dtype=torch.float64), short)",
         "loss = F.cross_entropy(torch.randn(5, 4, dtype=torch.float64), short)", "ValueError"),
    Pair("cross-entropy", TORCH, "out = layer(scores)\nloss = crit(out, short)", "out = layer(scores)\nloss = crit(out, labels)",
         "ValueError"),
    Pair("module-call", TORCH, "opt = torch.optim(layer.parameters())", "opt = torch.optim.SGD(layer.parameters(), lr=0.1)",
         "TypeError"),
    Pair("module-call", TORCH, "opt = torch.optim(net.parameters(), lr=0.01)",
         "opt = torch.optim.Adam(net.parameters(), lr=0.01)", "TypeError"),
    Pair("module-call", TORCH, "ps = layer.parameters()\nopt = torch.optim(ps)", "ps = layer.parameters()\nopt = torch.optim.SGD(ps, lr=0.1)",
         "TypeError"),
]

GB = ("import pandas as pd\nimport numpy as np\n"
      "sales = pd.DataFrame({'region': ['n', 's', 'n', 'w'], 'units': [3, 5, 2, 8], 'price': [2.5, 3.0, 1.0, 4.5], "
      "'code': ['10', '20', 'x3', '40'], 'ok': [True, False, True, True]})\n"
      "dated = pd.DataFrame({'k': [1, 1], 'day': pd.to_datetime(['2024-01-01', '2024-01-02'])})\n"
      "mixed = pd.DataFrame({'k': [1, 1], 'v': pd.Series(['a', 2], dtype=object)})")

GROUPBY_SUM: List[Pair] = [
    Pair("groupby-sum", GB, "sales.groupby('region').sum()\nprint(sale.shape)",
         "sales.groupby('region').sum()\nprint(sales.shape)", "NameError"),
    Pair("groupby-sum", GB, "totals = sales.groupby('region').sum()\nn = len(total)",
         "totals = sales.groupby('region').sum()\nn = 1", "NameError"),
    Pair("groupby-sum", GB, "t = sales.groupby('units').sum()\nprint(regions)", "t = sales.groupby('units').sum()\nprint(1)",
         "NameError"),
    Pair("groupby-sum", GB, "t = sales.groupby('ok').sum()\nz = undefined_thing", "t = sales.groupby('ok').sum()\nz = 0",
         "NameError"),
    Pair("groupby-sum", GB, "t = sales.groupby('region', as_index=False).sum()\nprint(tt)",
         "t = sales.groupby('region', as_index=False).sum()\nprint(2)", "NameError"),
    Pair("groupby-sum", GB, "t = sales.groupby('region', sort=False).sum()\nplot(t)",
         "t = sales.groupby('region', sort=False).sum()\nprint(3)", "NameError"),
    Pair("groupby-sum", GB, "g = sales.groupby('price')\nt = g.sum()\nprint(gg)", "g = sales.groupby('price')\nt = g.sum()\nprint(4)",
         "NameError"),
    Pair("groupby-sum", GB, "sales.groupby('region').sum()\nsales.groupby('units').sum()\ny = salez",
         "sales.groupby('region').sum()\nsales.groupby('units').sum()\ny = sales", "NameError"),
    Pair("groupby-sum", GB, "t = sales.groupby('code').sum()\nfoo()", "t = sales.groupby('code').sum()\nlen(t)",
         "NameError"),
    Pair("groupby-sum", GB, "t = sales.groupby('region').sum()\nsales.groupby('regions')",
         "t = sales.groupby('region').sum()\nsales.groupby('ok')", "KeyError"),
]

NM = ("import numpy as np\nimport pandas as pd\nfrom sklearn.linear_model import LinearRegression, LogisticRegression\n"
      "from sklearn.preprocessing import StandardScaler\nfrom sklearn.ensemble import RandomForestClassifier\n"
      "frame = pd.DataFrame(np.arange(40.0).reshape(10, 4) % 7, columns=['a', 'b', 'c', 'd'])\ny = np.array([0, 1] * 5)\n"
      "reg = LinearRegression().fit(frame, y)\nclf = LogisticRegression().fit(frame, y)\n"
      "sc = StandardScaler().fit(frame)\nrf = RandomForestClassifier(n_estimators=3, random_state=0).fit(frame, y)\n"
      "other = frame.rename(columns={'a': 'A'})\narr = frame.to_numpy()")

FEATURE_NAMES: List[Pair] = [
    Pair("feature-names", NM, "reg.predict(frame[['b', 'a', 'c', 'd']])", "reg.predict(frame[['a', 'b', 'c', 'd']])",
         "ValueError"),
    Pair("feature-names", NM, "p = clf.predict(other)", "p = clf.predict(frame)", "ValueError"),
    Pair("feature-names", NM, "p = clf.predict_proba(frame[['d', 'c', 'b', 'a']])", "p = clf.predict_proba(frame)",
         "ValueError"),
    Pair("feature-names", NM, "z = sc.transform(other)", "z = sc.transform(arr)", "ValueError"),
    Pair("feature-names", NM, "p = rf.predict(other)", "p = rf.predict(frame.copy())", "ValueError"),
    Pair("feature-names", NM, "s = reg.score(frame[['a', 'c', 'b', 'd']], y)", "s = reg.score(frame, y)", "ValueError"),
    Pair("feature-names", NM, "X2 = frame.drop(columns=['d'])\np = reg.predict(X2)", "X2 = frame.drop(columns=['d'])\np = 1",
         "ValueError"),
    Pair("feature-names", NM, "d = clf.decision_function(other)", "d = clf.decision_function(frame)", "ValueError"),
    Pair("feature-names", NM, "X2 = frame.rename(columns={'d': 'e'})\np = rf.predict_proba(X2)",
         "X2 = frame.rename(columns={'d': 'd'})\np = rf.predict_proba(X2)", "ValueError"),
    Pair("feature-names", NM, "z = sc.transform(frame[['a', 'b', 'd', 'c']])", "z = sc.transform(frame)", "ValueError"),
]

PAIRS: List[Pair] = (ILOC + JOIN + CONSTRUCT + ARRAYS + FIT_1D + FIT_DATA + UNFITTED_OWN + ASTYPE
                     + (TORCH_LOSS if HAS_TORCH else []) + (GROUPBY_SUM if PANDAS_3 else []) + FEATURE_NAMES)

NO_CLAIM = [
    # tz-naive joined with tz-aware rows: TypeError, from the indexes, not the shared column
    ("j = naive.join(dated)", FR),
    # an integer index joined with dates: the overlap error is what happens, but the rule leaves such
    # indexes alone
    ("j = other.join(dated)", FR),
    # a Generator's choice takes 2-D arrays; here the draw itself fails: no claim of the legacy rule
    ("r = np.random.default_rng(0).choice(m23, 9, replace=False)", AR),
    # a subclass of DataFrame: its constructor and indexers may be anyone's
    ("class Sub(pd.DataFrame):\n    pass\nd = Sub(m32, columns=['a', 'b', 'c'])", FR),
    ("class Sub(pd.DataFrame):\n    pass\nr = Sub(df).iloc[7]", FR),
    ("class Mine(pd.Series):\n    pass\nr = Mine([1, 2]).iloc[7]", FR),
    # a Series whose length the reading does not know, or keys it does not model
    ("r = df.dropna()['a'].iloc[3]", FR),
    ("r = df['a'].iloc[[5]]", FR),
    ("r = df['a'].iloc[np.int64(5)]", FR),
    # a scaler subclass of the notebook's own
    ("class Mine(StandardScaler):\n    pass\nMine().fit(y)", SK1),
    # label smoothing and class-probability targets take other paths through PyTorch
    ("loss = smooth(scores, short)", TORCH),
    ("loss = crit(scores, torch.zeros(5, 4))", TORCH),
    # an ignore_index that is no integer fails in the binding first (TypeError)
    ("loss = odd(scores, short)", TORCH),
    # a layer whose parameters() is the notebook's own
    ("class L(nn.Linear):\n    def parameters(self):\n        raise KeyError('p')\nopt = torch.optim(L(4, 2).parameters())", TORCH),
    # sums pandas refuses: dates, and an object column mixing text and numbers
    ("dated.groupby('k').sum()\nprint(nope)", GB),
    ("mixed.groupby('k').sum()\nprint(nope)", GB),
    # a pipeline holding the notebook's own estimator: its fit is not asked about
    ("from sklearn.pipeline import make_pipeline\nclass Mine(StandardScaler):\n    pass\n"
     "make_pipeline(Mine()).fit(y)", SK1),
    # column names that are not all text: scikit-learn raises TypeError, not the names ValueError
    ("reg.predict(pd.DataFrame(np.zeros((2, 4)), columns=['a', 'b', 'c', 0]))", NM),
    # a number too large for int64 comes before the text: OverflowError
    ("c = t['big'].astype(int)", TX),
    # a missing value among the texts: the conversion is not read (None fails otherwise, NaN does not)
    ("c = f['none'].astype(float)", TX),
    # text that no float spells but with letters a float may have
    ("c = f['odd'].astype(float)\nd = pd.Series(['nana']).astype(float)", TX),
    # a forest whose base tree is the notebook's own class
    ("class Tree(DecisionTreeClassifier):\n    pass\nforest.estimator = Tree()\nforest.predict(X)", SKD),

]
if not HAS_TORCH:
    NO_CLAIM = [c for c in NO_CLAIM if c[1] is not TORCH]
