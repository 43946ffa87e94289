"""Pairs for pandas accessors on the wrong dtype, NumPy reductions along an axis the array does not
have, and math's functions outside their domain. Same form as cases.py; the harness runs every cell
for real."""

from __future__ import annotations

from typing import List

from cases import NP, Pair

FR = ("import pandas as pd\nimport numpy as np\n"
      "df = pd.DataFrame({'n': [1, 2, 3], 'f': [0.5, 1.5, 2.5], 's': pd.array(['a', 'b', 'c'], dtype='string'), 'ok': [True, False, True],\n"
      "                   'd': pd.to_datetime(['2024-01-01', '2024-02-01', '2024-03-01']),\n"
      "                   'o': pd.Series(['x', 1, None], dtype=object), 'c': pd.Categorical(['u', 'v', 'u'])})\n"
      "nums = df['n']\nwords = df['s']\nwhen = df['d']")

ACCESSORS: List[Pair] = [
    Pair("accessor-dtype", FR, "df['n'].str.upper()", "df['s'].str.upper()", "AttributeError"),
    Pair("accessor-dtype", FR, "df['f'].str.len()", "df['s'].str.len()", "AttributeError"),
    Pair("accessor-dtype", FR, "nums.str.zfill(3)", "words.str.zfill(3)", "AttributeError"),
    Pair("accessor-dtype", FR, "df['d'].str.contains('2024')", "df['s'].str.contains('a')", "AttributeError"),
    Pair("accessor-dtype", FR, "df['s'].dt.year", "df['d'].dt.year", "AttributeError"),
    Pair("accessor-dtype", FR, "df['n'].dt.month", "when.dt.month", "AttributeError"),
    Pair("accessor-dtype", FR, "words.dt.day", "pd.to_datetime(words, errors='coerce').dt.day", "AttributeError"),
    Pair("accessor-dtype", FR, "df['ok'].dt.year", "df['d'].dt.year", "AttributeError"),
    Pair("accessor-dtype", FR, "df['s'].cat.categories", "df['c'].cat.categories", "AttributeError"),
    Pair("accessor-dtype", FR, "df['o'].cat.codes", "df['c'].cat.codes", "AttributeError"),
    Pair("accessor-dtype", FR, "nums.cat.codes", "df['c'].cat.codes", "AttributeError"),
    Pair("accessor-dtype", FR, "x = 1\ndf['ok'].str.lower()", "x = 1\ndf['s'].str.lower()", "AttributeError"),
]

AXES: List[Pair] = [
    Pair("array-axis", NP, "a.sum(axis=2)", "a.sum(axis=1)", "AxisError"),
    Pair("array-axis", NP, "a.mean(axis=-3)", "a.mean(axis=-2)", "AxisError"),
    Pair("array-axis", NP, "v3.max(1)", "v3.max(0)", "AxisError"),
    Pair("array-axis", NP, "m6.argmax(axis=1)", "m6.argmax(axis=0)", "AxisError"),
    Pair("array-axis", NP, "np.mean(a, axis=2)", "np.mean(a, axis=0)", "AxisError"),
    Pair("array-axis", NP, "np.sum(b, 5)", "np.sum(b, 1)", "AxisError"),
    Pair("array-axis", NP, "np.std(v4, axis=1)", "np.std(v4, axis=0)", "AxisError"),
    Pair("array-axis", NP, "np.argmin(a, axis=-3)", "np.argmin(a, axis=-1)", "AxisError"),
    Pair("array-axis", NP, "np.cumsum(v2, axis=1)", "np.cumsum(v2, axis=0)", "AxisError"),
    Pair("array-axis", NP, "z = np.ones((2, 2))\nz.prod(axis=2)", "z = np.ones((2, 2))\nz.prod(axis=1)", "AxisError"),
]

MATH: List[Pair] = [
    Pair("math", NP, "import math\nmath.sqrt(-4)", "import math\nmath.sqrt(4)", "ValueError"),
    Pair("math", NP, "import math\nmath.log(0)", "import math\nmath.log(1)", "ValueError"),
    Pair("math", NP, "import math\nmath.log(-1.5, 10)", "import math\nmath.log(1.5, 10)", "ValueError"),
    Pair("math", NP, "import math\nmath.acos(2)", "import math\nmath.acos(0.5)", "ValueError"),
    Pair("math", NP, "import math\nmath.exp(1000)", "import math\nmath.exp(10)", "OverflowError"),
    Pair("math", NP, "import math\nmath.pow(10.0, 400)", "import math\nmath.pow(10.0, 4)", "OverflowError"),
    Pair("math", NP, "import math\nmath.isqrt(-1)", "import math\nmath.isqrt(16)", "ValueError"),
    Pair("math", NP, "import math\nmath.floor('2.5')", "import math\nmath.floor(2.5)", "TypeError"),
    Pair("math", NP, "from math import sqrt\nsqrt(-0.1)", "from math import sqrt\nsqrt(0.1)", "ValueError"),
    Pair("math", NP, "import math\nmath.fmod(1, 0)", "import math\nmath.fmod(1, 3)", "ValueError"),
]

METHOD_ARGUMENTS: List[Pair] = [
    Pair("method-arguments", FR, "df.head(2, 3)", "df.head(2)", "TypeError"),
    Pair("method-arguments", FR, "df.sort_values(by='n', asc=False)", "df.sort_values(by='n', ascending=False)",
         "TypeError"),
    Pair("method-arguments", FR, "df.merge()", "df.merge(df, on='n')", "TypeError"),
    Pair("method-arguments", FR, "nums.head(1, 2)", "nums.head(1)", "TypeError"),
    Pair("method-arguments", FR, "df[['n', 'f']].tail(1, 2)", "df[['n', 'f']].tail(1)", "TypeError"),
    Pair("method-arguments", FR, "nums.sort_values(ascending=False, order='x')", "nums.sort_values(ascending=False)",
         "TypeError"),
    Pair("method-arguments", FR, "df.rename({'n': 'm'}, colums={'f': 'g'})", "df.rename(columns={'f': 'g'})",
         "TypeError"),
    Pair("method-arguments", FR, "df.head(n=2, m=3)", "df.head(n=2)", "TypeError"),
    Pair("method-arguments", NP + "\nfrom sklearn.linear_model import LinearRegression\nlr = LinearRegression()",
         "lr.predict()", "lr.get_params()", "TypeError"),
    Pair("method-arguments", NP + "\nfrom sklearn.preprocessing import StandardScaler\nsc = StandardScaler().fit(a)",
         "sc.get_params(True, 1)", "sc.get_params(True)", "TypeError"),
]

PAIRS = ACCESSORS + AXES + MATH + METHOD_ARGUMENTS

NO_CLAIM: list = []  # the registered-accessor case patches pandas: test_accessor_guard.py runs it in-process
