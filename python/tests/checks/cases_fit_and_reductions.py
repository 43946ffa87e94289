"""Pairs for `.fit()` rejecting its own parameters, `train_test_split` of 0 samples, the NumPy
reductions the reading goes on past (`np.mean`, `np.sum`, builtin `sum`, `a ** k`) to reach a
shape error further down, and calls whose arguments a plain function's parameters cannot take.
Same form as cases.py; the harness runs every cell for real."""

from __future__ import annotations

import inspect
from typing import List

import matplotlib

from cases import DF, NP, SK, Pair

matplotlib.use("agg")
import matplotlib.pyplot as _plt  # noqa: E402

MARKER_POSITIONAL = inspect.signature(_plt.scatter).parameters["marker"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD

MPL = ("import numpy as np\nimport matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"
       "chw = np.zeros((3, 8, 8), dtype=np.float32)\nhwc = np.zeros((8, 8, 3))\nflat = np.arange(16.0)\n"
       "batch = np.zeros((2, 8, 8, 3))\nimg2 = np.ones((4, 5))\nv3 = np.arange(3)\nv4 = np.arange(4)")

FIT_PARAMETERS: List[Pair] = [
    Pair("sklearn", SK, "LogisticRegression(solver='liblinear', penalty='elasticnet').fit(X, y)",
         "LogisticRegression(solver='saga', penalty='elasticnet', l1_ratio=0.5, max_iter=5000).fit(X, y)",
         "ValueError"),
    Pair("sklearn", SK, "m = LogisticRegression(max_iter=1000, solver='lbfgs', penalty='l1')\nm.fit(X, y)",
         "m = LogisticRegression(max_iter=1000, solver='liblinear', penalty='l1')\nm.fit(X, y)", "ValueError"),
    Pair("sklearn", SK, "LogisticRegression(solver='newton-cg', penalty='l1').fit(Xdf, y)",
         "LogisticRegression(solver='newton-cg').fit(Xdf, y)", "ValueError"),
    Pair("sklearn", SK, "LogisticRegression(C=-1.0).fit(X, y)", "LogisticRegression(C=1.0).fit(X, y)",
         "InvalidParameterError"),
    Pair("sklearn", SK, "KMeans(n_clusters=0).fit(X)", "KMeans(n_clusters=2, n_init=1).fit(X)",
         "InvalidParameterError"),
    Pair("sklearn", SK, "DecisionTreeClassifier(max_depth=-1).fit(X, y)",
         "DecisionTreeClassifier(max_depth=1).fit(X, y)", "InvalidParameterError"),
    Pair("sklearn", SK, "StandardScaler(with_mean='yes').fit(X)", "StandardScaler(with_mean=True).fit(X)",
         "InvalidParameterError"),
    Pair("sklearn", SK, "LinearRegression().fit(X)", "LinearRegression().fit(X, y)", "TypeError"),
    Pair("sklearn", SK, "PCA(n_components='many').fit(X)", "PCA(n_components=2).fit(X)", "InvalidParameterError"),
    Pair("sklearn", SK, "est = LinearRegression(fit_intercept='no')\nest.fit(X, y)",
         "est = LinearRegression(fit_intercept=False)\nest.fit(X, y)", "InvalidParameterError"),
]

EMPTY_SPLIT: List[Pair] = [
    Pair("sklearn", SK, "train_test_split(np.zeros((0, 2)), np.zeros(0), test_size=0.2, random_state=2)",
         "train_test_split(np.zeros((5, 2)), np.zeros(5), test_size=0.2, random_state=2)", "ValueError"),
    Pair("sklearn", SK, "x0 = np.zeros((0, 1))\ntrain_test_split(x0, x0)", "x0 = np.zeros((4, 1))\ntrain_test_split(x0, x0)",
         "ValueError"),
    Pair("sklearn", SK, "train_test_split(X[:0], y[:0])", "train_test_split(X[:4], y[:4])", "ValueError"),
]

_FIT = NP + "\ny_fit = np.arange(12.0)\ny_obs = np.arange(3.0)"

REDUCTIONS: List[Pair] = [
    Pair("array-shapes", _FIT, "m = np.mean(y_obs)\nsst = sum((y_obs - m) ** 2)\nsse = sum((y_obs - y_fit) ** 2)",
         "m = np.mean(y_obs)\nsst = sum((y_obs - m) ** 2)\nsse = sum((y_obs - y_obs[::-1]) ** 2)", "ValueError"),
    Pair("array-shapes", NP, "s = sum(a)\ns + v3", "s = sum(a)\ns + v2", "ValueError"),
    Pair("array-shapes", NP, "t = np.sum(a)\nr = a ** 2\nr + b", "t = np.sum(a)\nr = a ** 2\nr + a", "ValueError"),
    Pair("array-shapes", NP, "c = np.mean(v2) * v2\nc + v3", "c = np.mean(v2) * v2\nc + v2", "ValueError"),
    Pair("array-shapes", NP, "half = v2 ** 0.5\nhalf @ a", "half = v2 ** 0.5\na @ half", "ValueError"),
]

_CALL = ("import pandas as pd\ndf1 = pd.DataFrame({'a': [1, 2]})\n"
         "def f(a, b=1, *, c=0):\n    return a\ndef g(x, /, y):\n    return x\n"
         "def h(*args, **kwargs):\n    return args")

_CW = (NP + "\nimport types\nfrom sklearn.utils.class_weight import compute_class_weight as cw\n"
       "from sklearn.metrics import accuracy_score\ny01 = np.array([0, 1, 1])")
# `np.unique` of labels, the argument such calls are usually given: sorting them cannot fail.
_UNIQUE = (_CW + "\nimport pandas as pd\nys = pd.Series([2, 0, 2, 1])\nyb = pd.Series([True, False, True])\n"
           "yf = np.array([0.5, np.nan, 0.5])\nyt = np.array(['cat', 'dog', 'cat'])\n"
           "yd = np.array(['2024-01-02', 'NaT'], dtype='datetime64[D]')\n"
           "yo = np.array([1, 'a', None], dtype=object)\nyn = pd.Series([1, None, 2], dtype='Int64')\n"
           "class Odd:\n    def __lt__(self, other):\n        raise ValueError('no order')\n"
           "yodd = np.array([Odd(), Odd()], dtype=object)\nframe = pd.DataFrame({'y': [0, 1, 1]})")

CALL_ARGUMENTS: List[Pair] = [
    # scikit-learn 1.0 made these keyword-only; its validation wrapper matches them first
    Pair("call-arguments", _CW, "cw('balanced', np.array([0, 1]), y01)", "cw('balanced', classes=np.array([0, 1]), y=y01)",
         "TypeError"),
    Pair("call-arguments", _CW, "w = cw('balanced', np.array([0, 1]), y=y01)", "w = cw(None, classes=np.array([0, 1]), y=y01)",
         "TypeError"),
    Pair("call-arguments", _CW, "accuracy_score(y01)", "accuracy_score(y01, y01)", "TypeError"),
    Pair("call-arguments", _CW, "accuracy_score(y01, y01, normalise=False)", "accuracy_score(y01, y01, normalize=False)",
         "TypeError"),
    Pair("call-arguments", _UNIQUE, "w = cw('balanced', np.unique(y01), y01)",
         "w = cw('balanced', classes=np.unique(y01), y=y01)", "TypeError"),
    Pair("call-arguments", _UNIQUE, "w = cw('balanced', np.unique(ys), ys)",
         "w = cw('balanced', classes=np.unique(ys), y=ys)", "TypeError"),
    Pair("call-arguments", _UNIQUE, "cw('balanced', np.unique(yb), yb)", "cw('balanced', classes=np.unique(yb), y=yb)",
         "TypeError"),
    Pair("call-arguments", _UNIQUE, "cw('balanced', np.unique(yt), yt)", "cw('balanced', classes=np.unique(yt), y=yt)",
         "TypeError"),
    Pair("call-arguments", _UNIQUE, "cw('balanced', np.unique(frame['y']), frame['y'])",
         "cw('balanced', classes=np.unique(frame['y']), y=frame['y'])", "TypeError"),
    Pair("call-arguments", _UNIQUE, "u = np.unique(yf)\nk = np.unique(yd)\ncw('balanced', u, yf)",
         "u = np.unique(yf)\nk = np.unique(yd)\ncw('balanced', classes=np.unique(y01), y=y01)", "TypeError"),
    Pair("call-arguments", _CALL, "pd.concat([df1], [df1])", "pd.concat([df1, df1])", "TypeError"),
    Pair("call-arguments", _CALL, "pd.melt(df1, ['a'], ['a'], None, 'v', None, True, 'extra')",
         "pd.melt(df1, ['a'])", "TypeError"),
    Pair("call-arguments", _CALL, "pd.to_numeric(df1['a'], erors='coerce')", "pd.to_numeric(df1['a'], errors='coerce')",
         "TypeError"),
    Pair("call-arguments", _CALL, "pd.get_dummies(df1, data=df1)", "pd.get_dummies(data=df1)", "TypeError"),
    Pair("call-arguments", _CALL, "pd.isna()", "pd.isna(df1)", "TypeError"),
    Pair("call-arguments", _CALL, "f(1, 2, 3)", "f(1, 2)", "TypeError"),
    Pair("call-arguments", _CALL, "f(1, a=2)", "f(1, b=2)", "TypeError"),
    Pair("call-arguments", _CALL, "f(1, d=3)", "f(1, c=3)", "TypeError"),
    Pair("call-arguments", _CALL, "g(x=1, y=2)", "g(1, y=2)", "TypeError"),
    Pair("call-arguments", _CALL, "total = 1\nf()", "total = 1\nf(total)", "TypeError"),
    Pair("call-arguments", _CALL, "g(1)", "g(1, 2)", "TypeError"),
    Pair("call-arguments", _CALL, "k = lambda v: v\nr = f(*[1, 2, 3])", "k = lambda v: v\nr = f(*[1, 2])", "TypeError"),
]

PAIRS: List[Pair] = FIT_PARAMETERS + EMPTY_SPLIT + REDUCTIONS + CALL_ARGUMENTS

# These crash for real, but not certainly from what the checker sees: it must stay silent.
# (NumPy told to raise on overflow is tested in-process: np.seterr would outlive its case here.)
NO_CLAIM = [
    # Categoricals the checker does not build: strings, floats, categories that miss values.
    ("c = pd.Categorical(data['name'])\nc.cat", "import pandas as pd\ndata = pd.DataFrame({'name': ['a', 'b']})"),
    ("c = pd.Categorical(data['x'])\nc.cat", "import pandas as pd\ndata = pd.DataFrame({'x': [0.5, 1.5]})"),
    ("c = pd.Categorical(data['d'], categories=range(3))\nc.cat",
     "import pandas as pd\ndata = pd.DataFrame({'d': [0, 5]})"),
    # Loops: `if`, `break` and `continue` end the reading; an array's rows are not listed.
    ("for i in range(3):\n    if i == 2:\n        v3 + v4", NP),
    ("for k in [0, 1]:\n    continue\nv3 + v4", NP),
    ("for k in [0, 1]:\n    break\nv3 + v4", NP),
    ("for row in a:\n    row + v4", NP),
    # An object array fails imshow's dtype check, not its shape check: not a modelled case.
    ("plt.imshow(np.zeros((3, 4, 4), dtype=object))", MPL),
    # A title with mathtext may fail when drawn: the reading stops at it.
    ("plt.title('$x^')\nv3 + v4", MPL),
    # scikit-learn's parameter-validation wrapper, rebuilt around other globals or another wrapped
    # function: what runs before the arguments are matched is not scikit-learn's, and raises first.
    ("ccw = types.FunctionType(cw.__code__, {**cw.__globals__, 'get_config': lambda: 1 / 0}, 'compute_class_weight',\n"
     "                         None, cw.__closure__)\nccw('balanced', np.array([0, 1]), np.array([0, 1]))", _CW),
    ("cells = tuple(types.CellType(c.cell_contents if n != 'func' else (lambda *a, **k: 1 / 0))\n"
     "              for n, c in zip(cw.__code__.co_freevars, cw.__closure__))\n"
     "ccw = types.FunctionType(cw.__code__, cw.__globals__, 'compute_class_weight', None, cells)\n"
     "ccw('balanced', np.array([0, 1]), np.array([0, 1]))", _CW),
    ("def w(*args, **kwargs):\n    return args[5]\nw(1, 2, key=3)", NP),
    # `np.unique` of values whose sorting compares Python objects (which may raise, or run a
    # notebook's `__lt__`), or a nullable column (pd.NA has no order): it may raise before the call.
    ("cw('balanced', np.unique(yo), yo)", _UNIQUE),
    ("cw('balanced', np.unique(yodd), yodd)", _UNIQUE),
    ("cw('balanced', np.unique(yn), yn)", _UNIQUE),
    ("cw('balanced', ys.unique(), ys)", _UNIQUE),  # (pandas' hash tables: not modelled)
    # NumPy reads the array protocol off the Series itself: an index label pandas hands out as an
    # attribute, or the Series' own dict (red team, 6 Dec)
    ("cw('balanced', np.unique(yl), yl)", _UNIQUE + "\nyl = pd.Series([0, 1, 1], index=['__array_interface__', 'b', 'c'])"),
    ("u = np.unique(yl)\nundefined_u", _UNIQUE + "\nyl = pd.Series([0, 1, 1], index=['__array_struct__', 'b', 'c'])"),
    ("cw('balanced', np.unique(fl['y']), fl['y'])",
     _UNIQUE + "\nfl = pd.DataFrame({'y': [0, 1, 1]}, index=['__array_interface__', 'b', 'c'])"),
    ("u = np.unique(ys3)\nundefined_u", _UNIQUE + "\nys3 = pd.Series([0, 1])\nys3.__dict__['__array_interface__'] = 1"),
    ("cw('balanced', np.unique(ys4), ys4)", _UNIQUE + "\nys4 = pd.Series([0, 1])\nys4.__dict__['__array__'] = lambda *a, **k: 1 / 0"),
    ("u = np.unique(ys5)\nundefined_u",
     _UNIQUE + "\nys5 = pd.Series([0, 1])\nys5.__dict__['__array__'] = lambda *a, **k: np.array([1, 'a'], dtype=object)"),
    ("cw('balanced', np.unique(y01, return_counts=True), y01)", _UNIQUE),
    # `sum` of an empty array gives back the int 0: not followed.
    ("e = sum(np.zeros(0))\ne + undefined_later", NP),
]

# pyplot: drawing calls the reading goes on past, and `plt.imshow` of an array of no image shape.
IMAGE_SHAPE: List[Pair] = [
    Pair("image-shape", MPL, "plt.imshow(chw)", "plt.imshow(hwc)", "TypeError"),
    Pair("image-shape", MPL, "plt.imshow(flat)", "plt.imshow(flat.reshape(4, 4))", "TypeError"),
    Pair("image-shape", MPL, "plt.imshow(batch)", "plt.imshow(batch[0])", "TypeError"),
    Pair("image-shape", MPL, "plt.figure(figsize=(6, 4))\nplt.imshow(chw)\nplt.show()",
         "plt.figure(figsize=(6, 4))\nplt.imshow(chw.transpose(1, 2, 0))\nplt.show()", "TypeError"),
    Pair("image-shape", MPL, "plt.title('channels')\nplt.axis('off')\nplt.imshow(chw)",
         "plt.title('channels')\nplt.axis('off')\nplt.imshow(img2)", "TypeError"),
    Pair("image-shape", MPL, "x = np.zeros((2, 2, 2))\nplt.imshow(x)", "x = np.zeros((2, 2, 4))\nplt.imshow(x)",
         "TypeError"),
    Pair("image-shape", MPL, "plt.imshow(np.zeros((5, 6, 2)))", "plt.imshow(np.zeros((5, 6, 1)))", "TypeError"),
    Pair("image-shape", MPL, "plt.imshow(np.ones(7))", "plt.imshow(np.ones((7, 1)))", "TypeError"),
    Pair("image-shape", MPL, "plt.xlabel('x', fontsize=12)\nplt.imshow(flat)",
         "plt.xlabel('x', fontsize=12)\nplt.imshow(img2)", "TypeError"),
    Pair("image-shape", MPL, "plt.grid(True)\nplt.imshow(np.zeros((3, 4, 4, 4)))",
         "plt.grid(True)\nplt.imshow(np.zeros((4, 4, 4)))", "TypeError"),
]

# Past the drawing catalogue to a shape error further down.
DRAWING_PAST: List[Pair] = [
    Pair("array-shapes", MPL, "plt.figure(figsize=(10, 6))\nplt.title('t')\nplt.xlabel('a')\nplt.ylabel('b')\n"
         "plt.legend()\nplt.axis('off')\nplt.close()\nv3 + v4",
         "plt.figure(figsize=(10, 6))\nplt.title('t')\nplt.xlabel('a')\nplt.ylabel('b')\n"
         "plt.legend()\nplt.axis('off')\nplt.close()\nv3 + v3", "ValueError"),
    Pair("array-shapes", MPL, "plt.figure()\nplt.suptitle('s', fontsize=9)\nplt.grid()\nplt.close()\nimg2 @ v4",
         "plt.figure()\nplt.suptitle('s', fontsize=9)\nplt.grid()\nplt.close()\nimg2 @ np.ones(5)", "ValueError"),
]

# pyplot.scatter: x, y, s, c given twice (by position and by keyword) is a TypeError in every
# matplotlib; a scatter of integer points is passed over.
SCAT = MPL + ("\nxi = np.arange(20)\nyi = np.arange(20) * 2\nsi = np.arange(20) + 1\nci = np.arange(20) % 3\n"
              "cent = np.arange(9.0).reshape(3, 3)")
SCATTER: List[Pair] = [
    Pair("scatter", SCAT, "plt.scatter(cent[:,0], cent[:,1], cent[:,2], marker='X', s=200, c='red')",
         "plt.scatter(cent[:,0], cent[:,1], marker='X', s=200, c='red')", "TypeError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, si, c=ci, cmap='viridis')\n"
         "plt.scatter(cent[:,0], cent[:,1], cent[:,2], marker='X', s=200, c='red')\nplt.title('K-Means')",
         "plt.scatter(xi, yi, si, c=ci, cmap='viridis')\n"
         "plt.scatter(cent[:,0], cent[:,1], marker='X', s=200, c='red')\nplt.title('K-Means')", "TypeError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, 5, s=10)", "plt.scatter(xi, yi, s=10)", "TypeError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, si, 'red', c='blue')", "plt.scatter(xi, yi, si, 'red')", "TypeError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, x=xi)", "plt.scatter(xi, y=yi)", "TypeError"),
    Pair("scatter", SCAT, "plt.figure(figsize=(6, 4))\nplt.scatter(xi, yi, c=ci)\nplt.scatter(xi, yi, si, s=si)",
         "plt.figure(figsize=(6, 4))\nplt.scatter(xi, yi, c=ci)\nplt.scatter(xi, yi, s=si)", "TypeError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, si, c=ci, marker='o', alpha=0.5)\nplt.scatter(xi, yi, si, ci, c=ci)",
         "plt.scatter(xi, yi, si, c=ci, marker='o', alpha=0.5)\nplt.scatter(xi, yi, si, ci)", "TypeError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, si)\nv3 + v4", "plt.scatter(xi, yi, si)\nv3 + v3", "ValueError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, c='k', marker='x')\nv3 + v4",
         "plt.scatter(xi, yi, c='k', marker='x')\nv3 + v3", "ValueError"),
    Pair("scatter", SCAT, "plt.scatter(xi, yi, si, c=ci, cmap='coolwarm')\nimg2 @ v4",
         "plt.scatter(xi, yi, si, c=ci, cmap='coolwarm')\nimg2 @ np.ones(5)", "ValueError"),
]
NO_CLAIM += [
    # scatter raises on these itself (lengths that differ, an unknown colormap): the reading stops there
    ("plt.scatter(xi, yi[:5])\nv3 + v4", SCAT),
    ("plt.scatter(xi, yi, c=np.arange(7))\nv3 + v4", SCAT),
    ("plt.scatter(xi, yi, si[:4])\nv3 + v4", SCAT),
    ("plt.scatter(xi, yi, c=ci, cmap='no_such_map')\nv3 + v4", SCAT),
]
if not MARKER_POSITIONAL:
    # from the fifth positional on, versions differ (matplotlib 3.11 warns about `marker` first);
    # where `marker` is still the fifth positional (3.9), the binding's TypeError is certain
    NO_CLAIM.append(("plt.scatter(xi, yi, si, ci, 'o', marker='x')", SCAT))

PAIRS += IMAGE_SHAPE + DRAWING_PAST + SCATTER

# A list, tuple or str indexed by an array with a dimension: NumPy's __index__ takes 0-d arrays only.
_IDX = NP + "\nnames = ['a', 'b', 'c']\nlab = np.array([[1], [0], [2]])\nk1 = np.array([2])\nk0 = np.array(2)"

ARRAY_AS_INDEX: List[Pair] = [
    Pair("array-as-index", _IDX, "names[lab[0]]", "names[lab[0][0]]", "TypeError"),
    Pair("array-as-index", _IDX, "names[k1]", "names[k0]", "TypeError"),
    Pair("array-as-index", _IDX, "x = names[v3]", "x = names[2]", "TypeError"),
    Pair("array-as-index", _IDX, "('p', 'q')[k1]", "('p', 'q')[1]", "TypeError"),
    Pair("array-as-index", _IDX, "'xyz'[lab[1]]", "'xyz'[lab[1][0]]", "TypeError"),
    Pair("array-as-index", _IDX, "t = lab[2]\nnames[t]", "t = lab[2]\nnames[t[0]]", "TypeError"),
    Pair("array-as-index", _IDX, "names[v3[:1]]", "names[v3.shape[0] - 1]", "TypeError"),
    Pair("array-as-index", _IDX, "names[m6.reshape(2, 3)]", "names[-1]", "TypeError"),
    Pair("array-as-index", _IDX, "sel = a[0]\nnames[sel]", "sel = 1\nnames[sel]", "TypeError"),
    Pair("array-as-index", _IDX, "names[lab.astype('int64')[0]]", "names[0]", "TypeError"),
]

# A loop over known items runs once per item, then its `else`, and the reading goes on after it.
LOOPS: List[Pair] = [
    Pair("column", DF, "for c in ['a', 'b', 'zz']:\n    col = df[c]",
         "for c in ['a', 'b', 'c']:\n    col = df[c]", "KeyError"),
    Pair("column", DF, "for c in ('a', 'b'):\n    df[c + '_2'] = 0\ndf['c_2']",
         "for c in ('a', 'c'):\n    df[c + '_2'] = 0\ndf['c_2']", "KeyError"),
    Pair("name", NP, "for i in range(3):\n    last = v3[i]\nelse:\n    undefined_after_loop",
         "for i in range(3):\n    last = v3[i]\nelse:\n    last", "NameError"),
    Pair("name", NP, "for i in []:\n    pass\ni", "for i in [0]:\n    pass\ni", "NameError"),
    Pair("index", NP, "for i in range(4):\n    v3[i]", "for i in range(3):\n    v3[i]", "IndexError"),
    Pair("array-shapes", NP, "for k in 'ab':\n    r = v3\nr + v4", "for k in 'ab':\n    r = v4\nr + v4", "ValueError"),
    Pair("name", NP, "for i in range(2):\n    undefined_in_loop", "for i in range(2):\n    v3", "NameError"),
    Pair("array-as-index", _IDX, "for i in range(3):\n    print(names[lab[i]])",
         "for i in range(3):\n    print(names[lab[i][0]])", "TypeError"),
    Pair("array-shapes", NP, "for k in [1, 2]:\n    r = v3 * k\n    r + v4", "for k in [1, 2]:\n    r = v3 * k\n    r + v3",
         "ValueError"),
    Pair("image-shape", MPL, "plt.figure(figsize=(8, 8))\nfor i in range(4):\n    plt.subplot(2, 2, i + 1)\n"
         "    plt.imshow(chw)\n    plt.axis('off')",
         "plt.figure(figsize=(8, 8))\nfor i in range(2):\n    plt.subplot(2, 2, i + 1)\n"
         "    plt.imshow(batch[i].astype('uint8'))\n    plt.axis('off')", "TypeError"),
    Pair("array-as-index", MPL + "\nlabels = np.array([[1], [0]])\nnames = 'cat dog'.split()",
         "for i in range(2):\n    plt.subplot(1, 2, i + 1)\n    plt.imshow(batch[i].astype('uint8'))\n"
         "    plt.title(names[labels[i]])",
         "for i in range(2):\n    plt.subplot(1, 2, i + 1)\n    plt.imshow(batch[i].astype('uint8'))\n"
         "    plt.title(names[labels[i][0]])", "TypeError"),
]

PAIRS += ARRAY_AS_INDEX + LOOPS

# A Categorical built from a column of integers has only its class's attributes (`.cat` is a Series'
# accessor); building it cannot fail when the categories hold every value.
_CAT = ("import pandas as pd\nimport numpy as np\n"
        "data = pd.DataFrame({'day': [0, 3, 6, 2], 'dur': [1.5, 2.0, 3.0, 0.5], 'name': ['a', 'b', 'c', 'd']})")

CATEGORICAL: List[Pair] = [
    Pair("attribute", _CAT, "d1 = pd.Categorical(data['day'], categories=range(7), ordered=True)\n"
         "d1.cat.rename_categories(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])",
         "d1 = pd.Categorical(data['day'], categories=range(7), ordered=True)\n"
         "d1 = d1.rename_categories(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])", "AttributeError"),
    Pair("attribute", _CAT, "c = pd.Categorical(data['day'])\nc.cat.codes", "c = pd.Categorical(data['day'])\nc.codes",
         "AttributeError"),
    Pair("attribute", _CAT, "c = pd.Categorical(data['day'], categories=[0, 1, 2, 3, 4, 5, 6])\nc.str",
         "c = pd.Categorical(data['day'], categories=[0, 1, 2, 3, 4, 5, 6])\nc.categories", "AttributeError"),
    Pair("attribute", _CAT, "pd.Categorical(data['day'], ordered=False).dt",
         "pd.Categorical(data['day'], ordered=False).ordered", "AttributeError"),
]

PAIRS += CATEGORICAL


# A scaler fitted in the cell on bools and integers (no value can make that fit fail), then given
# another number of columns: the reading goes on past the fit to the transform that raises.
_SCALE = ("import numpy as np\nimport pandas as pd\n"
          "from sklearn.preprocessing import StandardScaler, MinMaxScaler, MaxAbsScaler, RobustScaler\n"
          "train = pd.get_dummies(pd.DataFrame({'a': list('xyzxy'), 'b': list('ppqqp')}), columns=['a', 'b'])\n"
          "test = pd.get_dummies(pd.DataFrame({'a': list('xy'), 'b': list('pp')}), columns=['a', 'b'])\n"
          "test_full = train.iloc[:2]\ncounts = np.arange(12).reshape(4, 3)\nwide = np.arange(8).reshape(2, 4)\n"
          "floats = pd.DataFrame({'u': [1.0, np.inf], 'v': [0.5, 2.0]})\nmixed = pd.DataFrame({0: [1, 2], 'v': [3, 4]})\n"
          "flags = np.array([[True, False], [False, False], [True, True]])\nsmall = np.zeros((3, 2), dtype=np.uint8)\n"
          "ages = pd.DataFrame({'age': np.array([30, 40, 50], dtype=np.int32), 'kids': [0, 1, 2]})\n"
          "by_position = pd.DataFrame({0: [1, 2, 3], 1: [4, 5, 6]})\nkept = StandardScaler()")

FIT_THEN_TRANSFORM: List[Pair] = [
    Pair("feature-count", _SCALE, "scaler = StandardScaler()\ntrain_s = scaler.fit_transform(train)\ntest_s = scaler.transform(test)",
         "scaler = StandardScaler()\ntrain_s = scaler.fit_transform(train)\ntest_s = scaler.transform(test_full)",
         "ValueError"),
    Pair("feature-count", _SCALE, "mm = MinMaxScaler()\nmm.fit(counts)\nmm.transform(wide)",
         "mm = MinMaxScaler()\nmm.fit(counts)\nmm.transform(counts)", "ValueError"),
    Pair("feature-count", _SCALE, "MaxAbsScaler().fit(train, [0, 1, 0, 1, 0]).transform(test)",
         "MaxAbsScaler().fit(train, [0, 1, 0, 1, 0]).transform(test_full)", "ValueError"),
    Pair("feature-count", _SCALE, "rs = RobustScaler(quantile_range=(10.0, 90.0))\nrs.fit(counts)\nrs.transform(wide)",
         "rs = RobustScaler(quantile_range=(10.0, 90.0))\nrs.fit(counts)\nrs.transform(counts)", "ValueError"),
    Pair("feature-count", _SCALE, "StandardScaler().fit(flags).transform(counts)",
         "StandardScaler().fit(flags).transform(small)", "ValueError"),
    Pair("feature-count", _SCALE, "sc = StandardScaler()\nout = sc.fit_transform(small)\nsc.transform(wide)",
         "sc = StandardScaler()\nout = sc.fit_transform(small)\nsc.transform(flags)", "ValueError"),
    Pair("feature-count", _SCALE, "kept.fit(ages)\nkept.transform(counts)", "kept.fit(ages)\nkept.transform(ages)",
         "ValueError"),
    Pair("feature-count", _SCALE, "mm = MinMaxScaler()\nmm.fit(ages, np.zeros(3))\nmm.transform(wide)",
         "mm = MinMaxScaler()\nmm.fit(ages, np.zeros(3))\nmm.transform(flags)", "ValueError"),
    Pair("feature-count", _SCALE, "ma = MaxAbsScaler()\nma.fit(by_position)\nma.transform(counts)",
         "ma = MaxAbsScaler()\nma.fit(by_position)\nma.transform(small)", "ValueError"),
    Pair("feature-count", _SCALE, "rs = RobustScaler()\nscaled = rs.fit_transform(train)\nrs.transform(wide)",
         "rs = RobustScaler()\nscaled = rs.fit_transform(train)\nrs.transform(test_full)", "ValueError"),
]
PAIRS += FIT_THEN_TRANSFORM
NO_CLAIM += [
    # The fit itself raises, or may: infinity among floats, names of mixed types (TypeError); the
    # reading stops at the fit.
    ("sc = StandardScaler()\nsc.fit(floats)\nsc.transform(wide)", _SCALE),
    ("sc = StandardScaler()\nsc.fit(mixed)\nsc.transform(wide)", _SCALE),
    # Transformed with names of mixed types: TypeError before the count is compared.
    ("sc = StandardScaler()\nsc.fit(counts)\nsc.transform(mixed)", _SCALE),
]
