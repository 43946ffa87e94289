"""Pairs for positional `.iloc` past the ends, `.join` of frames with shared column names,
`pd.DataFrame(array, columns=...)` with the wrong number of names, assignment into an array
selection that the value cannot broadcast into, a float used as an array index, and
`np.random.choice` of a 2-D array. Same form as cases.py; the harness runs every cell for real.
The NO_CLAIM cells crash, but in a way the rules must not vouch for."""

from __future__ import annotations

from typing import List

from cases import Pair

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

PAIRS: List[Pair] = ILOC + JOIN + CONSTRUCT + ARRAYS + FIT_1D

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
    # a scaler subclass of the notebook's own
    ("class Mine(StandardScaler):\n    pass\nMine().fit(y)", SK1),
]
