"""Library functions moved, renamed or re-dated in place, and library class data changed in place:
each attack is really run in a real IPython shell after the check, and the checker makes no false
claim on it (it stops); its twin, the same cell on the library as shipped, still gets its claim.

- a method given another class's place by rewriting its code's `co_qualname` (code equality
  ignores it) and its `__qualname__`;
- a module function swapped for another whose `__name__` was rewritten (`np.dot = np.vdot`,
  `np.mean = np.take`), a decorated method or another class's method moved to another key;
- a computed default (`np.dtype('object')`) replaced by another C object;
- a C method or slot wrapper of another class (`object.__eq__`, `dict.get`) put in a method's place;
- class data pandas reads (`_AXIS_TO_AXIS_NUMBER`) changed in place.
"""

from __future__ import annotations

import pytest

from fuzzgen import verdict
from harness import run_parallel
from soundness_corpus import DF

GETITEM = "_orig = pd.DataFrame.__dict__['__getitem__']\n"
ATTACKS = [
    # (twin cell, attack setup, teardown)
    ("df['zz']", GETITEM + "import types\n_s = pd.Series.__dict__['__getitem__']\n"
                 "_g = types.FunctionType(_s.__code__.replace(co_qualname='DataFrame.__getitem__') if "
                 "hasattr(_s.__code__, 'co_qualname') else _s.__code__, _s.__globals__, '__getitem__', "
                 "_s.__defaults__, _s.__closure__)\n_g.__qualname__ = 'DataFrame.__getitem__'\n"
                 "pd.DataFrame.__getitem__ = _g\n", "pd.DataFrame.__getitem__ = _orig\n"),
    ("df.drop(columns=['zz'])", "_od = pd.DataFrame.__dict__['drop']\npd.DataFrame.drop = pd.DataFrame.rename\n",
     "pd.DataFrame.drop = _od\n"),
    ("df.drop(columns=['zz'])", "_od = pd.DataFrame.__dict__['drop']\npd.DataFrame.drop = pd.DataFrame.reindex\n",
     "pd.DataFrame.drop = _od\n"),
    ("df.drop(columns=['zz'])", "_od = pd.DataFrame.__dict__['drop']\npd.DataFrame.drop = pd.DataFrame.__dict__['max']\n",
     "pd.DataFrame.drop = _od\n"),
    ("df.drop(columns=['zz'])", "_od = pd.DataFrame.__dict__['drop']\npd.DataFrame.drop = pd.Series.__dict__['drop']\n",
     "pd.DataFrame.drop = _od\n"),
    ("df['zz']", "_gl = pd.Index.__dict__['get_loc']\npd.Index.get_loc = pd.core.common.maybe_iterable_to_list\n",
     "pd.Index.get_loc = _gl\n"),
    ("df['zz']", "_gl = pd.Index.__dict__['get_loc']\npd.Index.get_loc = pd.Index.__iadd__\n",
     "pd.Index.get_loc = _gl\n"),
    ("a = np.ones((2, 3))\nnp.dot(a, a)", "_d = np.dot\n_vn = np.vdot.__name__\nnp.vdot.__name__ = 'dot'\n"
                                         "np.dot = np.vdot\n", "np.dot = _d\nnp.vdot.__name__ = _vn\n"),
    ("a = np.ones((2, 3))\nnp.mean(a, axis=2)", "_m = np.mean\n_n = np.take.__name__\nnp.take.__name__ = 'mean'\n"
                                               "np.mean = np.take\n", "np.mean = _m\nnp.take.__name__ = _n\n"),
    # C methods and slot wrappers of other classes put in a pandas class's place: `object.__eq__`
    # answers NotImplemented (the cell runs clean), the others raise something else
    ("df['zz']", GETITEM + "pd.DataFrame.__getitem__ = object.__eq__\n", "pd.DataFrame.__getitem__ = _orig\n"),
    ("df['zz']", GETITEM + "pd.DataFrame.__getitem__ = object.__ne__\n", "pd.DataFrame.__getitem__ = _orig\n"),
    ("df['zz']", GETITEM + "pd.DataFrame.__getitem__ = dict.get\n", "pd.DataFrame.__getitem__ = _orig\n"),
    ("df['zz']", "_gl = pd.Index.__dict__['get_loc']\npd.Index.get_loc = object.__eq__\n", "pd.Index.get_loc = _gl\n"),
    ("df.drop(0, axis=1)", "pd.DataFrame._AXIS_TO_AXIS_NUMBER[1] = 0\n", "pd.DataFrame._AXIS_TO_AXIS_NUMBER[1] = 1\n"),
    ("df.drop(0, axis=1)", "_ax = pd.DataFrame._AXIS_TO_AXIS_NUMBER\n"
                           "pd.DataFrame._AXIS_TO_AXIS_NUMBER = {0: 0, 'index': 0, 'rows': 0, 1: 0, 'columns': 0}\n",
     "pd.DataFrame._AXIS_TO_AXIS_NUMBER = _ax\n"),
]


@pytest.fixture(scope="module")
def results():
    cases = []
    for cell, setup, teardown in ATTACKS:
        cases.append({"cell": cell, "setup": DF + setup, "teardown": teardown})
        cases.append({"cell": cell, "setup": DF})
    return cases, run_parallel(cases)


@pytest.mark.parametrize("i", range(len(ATTACKS)))
def test_an_attack_gets_no_false_claim_and_its_twin_its_claim(results, i):
    cases, rs = results
    attack, twin = rs[2 * i], rs[2 * i + 1]
    assert attack["setup_error"] is None and attack["checker_error"] is None, attack
    assert verdict(attack) != "false-claim", (ATTACKS[i], attack)
    assert attack["claim"] is None, attack  # (the attack always changes what the cell does)
    assert verdict(twin) == "caught", (ATTACKS[i][0], twin)


def test_a_computed_default_replaced_by_another_c_object():
    """`Categorical._str_map(..., dtype=np.dtype('object'))`: the default is built again from the
    source's literal and compared; another dtype in its place is not the library's."""
    import numpy as np
    import pandas as pd

    from crane_llm.checks import library_code, provenance

    fn = pd.Categorical.__dict__["_str_map"]
    saved = fn.__defaults__
    assert library_code.genuine(fn) and provenance.own_type(pd.Categorical, "pandas")
    try:
        fn.__defaults__ = tuple(np.dtype("int64") if type(d) is type(np.dtype("O")) else d for d in saved)
        assert not library_code.genuine(fn)
        assert not provenance.own_type(pd.Categorical, "pandas")
    finally:
        fn.__defaults__ = saved
    assert library_code.genuine(fn)


def test_a_class_body_alias_repointed():
    """`__add__ = __iadd__ = union` in FrozenList's body: `__add__` may hold `union`, not `_disabled`."""
    from pandas.core.indexes.frozen import FrozenList

    from crane_llm.checks import provenance

    assert provenance.own_type(FrozenList, "pandas")
    saved = FrozenList.__dict__["__add__"]
    try:
        FrozenList.__add__ = FrozenList.__dict__["_disabled"]
        assert not provenance.own_type(FrozenList, "pandas")
    finally:
        FrozenList.__add__ = saved
    assert provenance.own_type(FrozenList, "pandas")


def test_own_call_is_the_library_function_or_nothing():
    """`own_call` gives `numpy.geterr` while it is NumPy's own, nothing once a notebook puts a
    function of its own (even one named `geterr`) there, and nothing for a module not loaded."""
    import numpy as np

    from crane_llm.checks import provenance

    saved = np.geterr
    assert provenance.own_call("numpy", "geterr", "numpy") is saved
    try:
        def geterr():
            return {"over": "raise"}

        np.geterr = geterr
        assert provenance.own_call("numpy", "geterr", "numpy") is None
    finally:
        np.geterr = saved
    assert provenance.own_call("numpy", "geterr", "numpy") is saved
    assert provenance.own_call("numpy", "no_such_function", "numpy") is None
    assert provenance.own_call("crane_llm_no_such_module", "geterr", "numpy") is None
