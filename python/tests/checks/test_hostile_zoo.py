"""The hostile-object zoo: objects whose every special method and property counts, raises or sleeps,
placed everywhere a check looks (variables, classes, DataFrame column and row labels, cell values,
Series names, dict keys, list items, estimator parameters, module attributes, replaced builtins,
`__builtins__`, sys.stdout). The checker reads them in every cell form it handles, in a real
InteractiveShell's namespace: the count of user-code calls stays 0, and no check waits on a hook."""

from __future__ import annotations

import builtins
import sys
import time
import types

import pytest

from crane_llm.checks import run_checks

CALLS: list = []
SLEEP = 5.0  # a hook that ran would hold a check this long; checks take milliseconds
_MODE = ["count"]

# Every special method a check could reach, one way or another.
DUNDERS = [
    "__getattr__", "__setattr__", "__delattr__", "__dir__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
    "__ge__", "__hash__", "__bool__", "__len__", "__length_hint__", "__iter__", "__next__", "__reversed__",
    "__contains__", "__getitem__", "__setitem__", "__delitem__", "__missing__", "__call__", "__repr__", "__str__",
    "__format__", "__bytes__", "__int__", "__float__", "__complex__", "__index__", "__round__", "__trunc__",
    "__floor__", "__ceil__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__floordiv__", "__mod__", "__rmod__", "__pow__", "__matmul__", "__rmatmul__", "__and__",
    "__or__", "__xor__", "__lshift__", "__neg__", "__pos__", "__abs__", "__invert__", "__iadd__", "__enter__",
    "__exit__", "__sizeof__", "__reduce__", "__reduce_ex__", "__getstate__", "__copy__", "__deepcopy__",
    "__array__", "__array_ufunc__", "__array_function__", "__dataframe__", "_repr_html_", "__sklearn_tags__",
    "__sklearn_is_fitted__", "__get__", "__set__", "__fspath__", "__instancecheck__", "__subclasscheck__",
    "__init_subclass__", "__class_getitem__", "__mro_entries__", "__set_name__", "__buffer__",
]
PROPERTIES = ["__class__", "__dict__", "__wrapped__",
              "__array_interface__", "__array_priority__", "shape", "columns", "index", "dtype", "dtypes", "values",
              "fit", "predict", "transform", "get_params", "coef_", "n_features_in_", "name", "names", "T", "loc",
              "iloc", "ndim", "size", "nope"]


def _act(name: str):
    CALLS.append(name)
    if _MODE[0] == "raise":
        raise RuntimeError(f"hostile {name}")
    if _MODE[0] == "sleep":
        time.sleep(SLEEP)


_RETURNS = {"__hash__": 1, "__len__": 0, "__bool__": True, "__repr__": "h", "__str__": "h", "__format__": "h",
            "__eq__": False, "__ne__": True, "__index__": 0, "__int__": 0, "__float__": 0.0, "__contains__": False,
            "__sizeof__": 0, "__dir__": [], "__instancecheck__": False, "__subclasscheck__": False}


def _method(name):
    def hook(self, *args, **kwargs):
        _act(name)
        if name == "__iter__":
            return iter(())
        if name == "__getattr__":
            raise AttributeError(args[0] if args else name)
        return _RETURNS.get(name, NotImplemented)
    hook.__name__ = name
    return hook


def _prop(name):
    return property(lambda self: _act(name), lambda self, v: _act(name + "="))


def _make_classes():
    body = {n: _method(n) for n in DUNDERS}
    body.update({n: _prop(n) for n in PROPERTIES})

    def getattribute(self, name):
        if name in ("__class__", "__dict__") or not name.startswith("__"):
            _act("__getattribute__:" + name)
        return object.__getattribute__(self, name)

    body["__getattribute__"] = getattribute
    meta_body = {n: _method(n) for n in ("__eq__", "__ne__", "__hash__", "__repr__", "__call__", "__iter__",
                                         "__len__", "__getitem__", "__instancecheck__", "__subclasscheck__",
                                         "__or__", "__getattr__", "__dir__", "__bool__")}

    def meta_getattribute(cls, name):
        if not name.startswith("__") or name in ("__mro__", "__dict__", "__name__", "__module__", "__qualname__",
                                                 "__class__", "__bases__"):
            _act("meta.__getattribute__:" + name)
        return type.__getattribute__(cls, name)

    meta_body["__getattribute__"] = meta_getattribute
    meta = type("HookMeta", (type,), meta_body)
    plain = type("Hook", (), dict(body))
    metad = meta("MetaHook", (), dict(body))
    return plain, metad


Hook, MetaHook = _make_classes()


def _zoo():
    """The namespace: hostile objects in every place a check reads."""
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LinearRegression

    h, m = Hook(), MetaHook()
    label = Hook()
    ns = {
        "h": h, "m": m, "Hook": Hook, "MetaHook": MetaHook, "np": np, "pd": pd, "LinearRegression": LinearRegression,
        "lst": [h, m, 1], "tup": (h, 1), "d": {h: 1, "a": 2}, "dm": {m: 1}, "X": np.ones((4, 3)), "y": np.zeros(4),
        "arr_obj": np.empty(2, dtype=object),
        "est": LinearRegression(fit_intercept=h), "est_m": LinearRegression(n_jobs=m),
        "mod": types.ModuleType("hostile_module"),
    }
    ns["arr_obj"][0] = h
    ns["mod"].__getattr__ = lambda name: _act("module.__getattr__:" + name)
    ns["df_cols"] = pd.DataFrame([[1, 2]], columns=pd.Index([label, "a"], dtype=object))
    ns["df_rows"] = pd.DataFrame({"a": [1, 2]}, index=pd.Index([label, "b"], dtype=object))
    ns["df_vals"] = pd.DataFrame({"a": [h, m]})
    ns["ser"] = pd.Series([1, 2], name=h)
    ns["df_idxname"] = pd.DataFrame({"a": [1]}, index=pd.Index([0], name=h))
    ns["est_coef"] = LinearRegression()
    ns["est_coef"].__dict__["coef_"] = h
    return ns


CELLS = [
    # variables and classes
    "h", "m", "Hook", "MetaHook", "h.nope", "h.x + 1", "m.nope", "Hook.nope", "MetaHook.nope", "MetaHook.x",
    "h['k']", "h[0]", "m[0]", "h + 1", "1 + h", "h - 1", "h * 2", "h / 0", "h @ X", "X @ h", "X + h", "h + X",
    "-h", "not h", "h and 1", "h or 1", "h == 1", "h != 1", "h < 1", "h is None", "h in lst", "1 in h",
    "len(h)", "len(m)", "print(h)", "print(m)", "f'{h}'", "f'{h!r:>3}'", "str(h)", "repr(h)", "int(h)",
    "float(h)", "bool(h)", "abs(h)", "round(h)", "hash(h)", "sorted(h)", "sorted([h, 1])", "max(h, 1)",
    "sum([h])", "list(h)", "tuple(h)", "set([h])", "type(h)", "type(m)", "type(h) == int", "type(m) == int",
    "isinstance(h, int)", "isinstance(m, int)", "isinstance(1, Hook)", "isinstance(1, MetaHook)", "h()",
    "m()", "Hook()", "MetaHook()", "a, b = h", "a, b = m", "[v for v in h]", "[v for v in lst]", "{h: 1}",
    "{m: 1}", "{h}", "[h][0].nope", "(h,)[0].x", "x = h\nx.nope", "del h\nh", "h += 1", "h.x = 1",
    "h[0] = 1", "del h[0]", "with h:\n    pass", "for v in h:\n    pass", "if h:\n    pass",
    "h.nope\nundefined_after", "isinstance(h, int)\nundefined_after", "print(h)\nundefined_after",
    "class K(Hook):\n    pass", "@h\ndef f():\n    pass", "def f(a=h):\n    pass", "lambda a=h: a",
    "x: h = 1", "x: m = 1", "import math\nh.x", "lst[h]", "lst[m]", "lst[0].nope", "lst[1].nope", "lst[5]",
    "tup[h]", "tup[5]", "d['a']", "d['zz']", "d[h]", "dm['a']", "d.keys()", "len(d)", "[k for k in d]",
    "arr_obj + 1", "arr_obj[0].x", "arr_obj[5]", "arr_obj.reshape(3)", "np.vstack([arr_obj, arr_obj])",
    "np.array([h])", "np.array(lst)", "np.ones(h)", "np.dot(h, X)", "X[h]", "X[0, h]", "mod.nope",
    "mod.x + 1", "import hostile_module",
    # pandas with hostile labels, values, names
    "df_cols['zz']", "df_cols['a']", "df_cols[['a', 'zz']]", "df_cols.drop(columns=['zz'])", "df_cols.nope",
    "df_cols.columns", "len(df_cols)", "df_cols.groupby('zz')", "df_cols.sort_values('zz')", "df_cols.set_index('zz')",
    "df_cols.loc[:, 'zz']", "df_cols['e'] = [1]", "del df_cols['zz']", "df_cols.pop('zz')", "print(df_cols)",
    "df_cols.rename(columns={'a': 'b'})", "[c for c in df_cols.columns]", "df_cols.columns = ['x', 'y', 'z']",
    "df_rows.drop(['zz'])", "df_rows.drop('b')", "df_rows.loc['zz', 'a']", "df_rows['zz']", "print(df_rows)",
    "df_vals['zz']", "df_vals['a']", "print(df_vals)", "df_vals.nope", "df_vals.a", "df_vals['a'] == 1",
    "ser.name", "ser.nope", "ser == 1", "print(ser)", "df_idxname.groupby('zz')", "df_idxname.sort_values('zz')",
    # scikit-learn with hostile parameters and attributes
    "est.predict(X)", "est.fit(X, y[:2])", "est.transform(X)", "est.score(X, y)", "est_m.predict(X)",
    "est_m.fit(X, y[:2])", "est_coef.predict(X)", "est_coef.coef_", "est_coef.coef_.nope",
    "LinearRegression(fit_intercept=h)", "LinearRegression(h)", "LinearRegression(n_jobs=m).predict(X)",
    "from sklearn.model_selection import train_test_split\ntrain_test_split(h, y)",
    "from sklearn.model_selection import train_test_split\ntrain_test_split(X, h)",
    # scikit-learn's confusion matrix and its display, with hostile labels and matrices
    "from sklearn.metrics import confusion_matrix as cmf, ConfusionMatrixDisplay as CMD\n"
    "CMD(cmf(arr_obj, arr_obj), display_labels=['a']).plot()",
    "from sklearn.metrics import confusion_matrix as cmf\ncmf(df_vals['a'], df_vals['a'])\nh.nope",
    "from sklearn.metrics import ConfusionMatrixDisplay as CMD\nCMD(arr_obj, display_labels=['a']).plot()",
    "from sklearn.metrics import ConfusionMatrixDisplay as CMD\nCMD(h, display_labels=[h]).plot()",
    "from sklearn.metrics import ConfusionMatrixDisplay as CMD\nCMD(X[:3], display_labels=lst).plot()",
    # classification metrics given hostile targets beside a continuous one
    "from sklearn.metrics import accuracy_score as acc\nacc(arr_obj, y + 0.5)",
    "from sklearn.metrics import accuracy_score as acc\nacc(y + 0.5, df_vals['a'])",
    "from sklearn.metrics import f1_score\nf1_score(lst, [0.5, 1.5, 1])", "from sklearn.metrics import f1_score\nf1_score(h, X)",
    "from sklearn.metrics import accuracy_score as acc\nacc(ser, y + 0.5)\nh.nope",
    # IPython syntax around them
    "h?", "!echo hi\nh.nope", "%time h", "x = %pwd\nh.nope", "In [1]: h.nope",
]


@pytest.fixture(scope="module")
def shell_ns():
    pytest.importorskip("sklearn")
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    saved = dict(shell.user_ns)
    shell.user_ns.update(_zoo())
    yield shell.user_ns
    shell.user_ns.clear()
    shell.user_ns.update(saved)


@pytest.mark.parametrize("mode", ["count", "raise"])
def test_no_user_code_runs_in_any_cell_form(shell_ns, mode):
    _MODE[0] = mode
    try:
        CALLS.clear()
        for cell in CELLS:
            run_checks(cell, shell_ns)
        assert CALLS == [], sorted(set(CALLS))
    finally:
        _MODE[0] = "count"


def test_sleeping_hooks_never_hold_a_check(shell_ns):
    _MODE[0] = "sleep"
    try:
        CALLS.clear()
        for cell in CELLS:
            started = time.perf_counter()
            run_checks(cell, shell_ns)
            assert time.perf_counter() - started < SLEEP / 2, cell
        assert CALLS == []
    finally:
        _MODE[0] = "count"


@pytest.mark.parametrize("place", ["builtins.len", "builtins.print", "builtins.__import__", "__builtins__",
                                   "sys.stdout", "namespace.len"])
def test_hooks_in_the_process_state_are_never_called(shell_ns, place):
    counting = Hook()
    ns = dict(shell_ns)
    saved_len, saved_print, saved_import, saved_stdout = builtins.len, builtins.print, builtins.__import__, sys.stdout
    try:
        if place == "builtins.len":
            builtins.len = counting
        elif place == "builtins.print":
            builtins.print = counting
        elif place == "builtins.__import__":
            builtins.__import__ = counting
        elif place == "__builtins__":
            ns["__builtins__"] = counting
        elif place == "sys.stdout":
            sys.stdout = counting
        else:
            ns["len"] = counting
        CALLS.clear()
        for cell in ["len(5)", "print(1)\nundefined_x", "import math\nmath.nope", "len([1])\nh.x", "x = 1\nx.nope"]:
            run_checks(cell, ns)
    finally:
        builtins.len, builtins.print, builtins.__import__, sys.stdout = (saved_len, saved_print, saved_import,
                                                                          saved_stdout)
    assert CALLS == [], sorted(set(CALLS))


def test_plain_values_are_still_judged(shell_ns):
    """The zoo's precautions do not blind the checker to the plain values next to the hostile ones."""
    claims = {cell: run_checks(cell, shell_ns).crash for cell in ["lst[5]", "tup[5]", "undefined_x", "X[9]"]}
    assert all(c is not None for c in claims.values()), claims
