"""A class audit passed in one check is remembered for the next (provenance._audited), and what it
read is re-read by identity each time (audit_witness): every way a notebook can change a class
between two checks must make the audit run again.

Two layers: the witness itself, on classes written here (each slot changed, then put back), and
the checker end to end on pandas, in one process (where the memory lives): a check fills it, the
notebook patches pandas, the next check must not claim, and the patched cell really runs clean.
"""

from __future__ import annotations

import builtins
import sys
import types

import pytest

from crane_llm.checks import provenance, run_checks
from crane_llm.checks.audit_witness import witness_of


def _module_of_classes():
    """A module whose classes exercise every slot kind the witness keeps."""
    mod = types.ModuleType("crane_memory_fixture")
    mod.__file__ = "/nonexistent/crane_memory_fixture.py"
    sys.modules[mod.__name__] = mod
    src = (
        "import functools\n"
        "def deco(f):\n"
        "    def wrapper(*a, **k):\n"
        "        return f(*a, **k)\n"
        "    return wrapper\n"
        "class Helper:\n"
        "    def run(self):\n"
        "        return 1\n"
        "class Base:\n"
        "    data = ['a', 'b']\n"
        "    nested = (['x'], 1)\n"
        "    def base(self, x=1, *, y=2):\n"
        "        return x\n"
        "class Other:\n"
        "    pass\n"

        "class C(Base):\n"
        "    helper = Helper()\n"
        "    @deco\n"
        "    def wrapped(self):\n"
        "        return 0\n"
        "    @property\n"
        "    def prop(self):\n"
        "        return 0\n"
        "    @functools.cached_property\n"
        "    def cached(self):\n"
        "        return 0\n"
        "    @staticmethod\n"
        "    def static():\n"
        "        return 0\n"
    )
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    return mod


def _changes(mod):
    """(description, change, undo): each changes one slot an audit reads; undo puts back the very
    object (where the very object cannot be put back, undo is None)."""
    C, Base, Helper = mod.C, mod.Base, mod.Helper
    wrapped = C.__dict__["wrapped"]
    base = Base.__dict__["base"]
    saved = {}

    def swap(obj, attr, value):
        saved[(id(obj), attr)] = getattr(obj, attr)
        setattr(obj, attr, value)

    def back(obj, attr):
        setattr(obj, attr, saved[(id(obj), attr)])

    def other():
        return 5

    def other_base(self, x=1, *, y=2):
        return 7

    return [
        ("a method replaced", lambda: swap(C, "wrapped", lambda self: 1), lambda: back(C, "wrapped")),
        ("a method added", lambda: setattr(C, "extra", lambda self: 1), lambda: delattr(C, "extra")),
        ("a base's method replaced", lambda: swap(Base, "base", lambda self: 1), lambda: back(Base, "base")),
        ("a function's code swapped", lambda: swap(base, "__code__", other_base.__code__),
         lambda: back(base, "__code__")),
        ("a function's defaults replaced", lambda: swap(base, "__defaults__", (2,)), lambda: back(base, "__defaults__")),
        ("a keyword default changed in place", lambda: base.__kwdefaults__.__setitem__("y", 3),
         lambda: base.__kwdefaults__.__setitem__("y", 2)),
        ("a closure cell rewritten", lambda: swap(wrapped.__closure__[0], "cell_contents", other),
         lambda: back(wrapped.__closure__[0], "cell_contents")),
        ("a held instance's class reassigned", lambda: swap(C.__dict__["helper"], "__class__", mod.Other),
         lambda: back(C.__dict__["helper"], "__class__")),
        ("the held instance's class patched", lambda: swap(Helper, "run", lambda self: 2), lambda: back(Helper, "run")),
        ("class data appended to", lambda: Base.data.append("c"), lambda: Base.data.pop()),
        ("a list inside a tuple changed", lambda: Base.nested[0].append("y"), lambda: Base.nested[0].pop()),
        ("the bases reassigned", lambda: swap(C, "__bases__", (mod.Other,)), None),  # (a new MRO tuple after)
        ("the qualname rewritten", lambda: swap(C, "__qualname__", "D"), lambda: back(C, "__qualname__")),
        ("the module's name in its globals", lambda: swap(mod, "__name__", "elsewhere"), lambda: back(mod, "__name__")),
        ("the module's file in its globals", lambda: swap(mod, "__file__", "/elsewhere.py"), lambda: back(mod, "__file__")),
        ("the module replaced in sys.modules", lambda: sys.modules.__setitem__("crane_memory_fixture",
                                                                              types.ModuleType("x")),
         lambda: sys.modules.__setitem__("crane_memory_fixture", mod)),
        ("a cached_property's function replaced", lambda: swap(C.__dict__["cached"], "func", other),
         lambda: back(C.__dict__["cached"], "func")),
        ("a property's getter's code swapped", lambda: swap(C.__dict__["prop"].fget, "__code__", other_base.__code__),
         lambda: back(C.__dict__["prop"].fget, "__code__")),
        ("a staticmethod's function's defaults set", lambda: swap(C.__dict__["static"].__func__, "__defaults__", (1,)),
         lambda: back(C.__dict__["static"].__func__, "__defaults__")),
        ("a cached_property's dictionary replaced", lambda: swap(C.__dict__["cached"], "__dict__",
                                                                 dict(C.__dict__["cached"].__dict__, func=other)),
         lambda: back(C.__dict__["cached"], "__dict__")),
        ("the class renamed", lambda: swap(C, "__name__", "D"), lambda: back(C, "__name__")),
    ]


N_CHANGES = 21


def test_the_list_of_changes_is_whole():
    assert len(_changes(_module_of_classes())) == N_CHANGES


@pytest.mark.parametrize("i", range(N_CHANGES))
def test_every_slot_an_audit_reads_is_seen_changed(i):
    mod = _module_of_classes()
    try:
        what, change, undo = _changes(mod)[i]
        w = witness_of(mod.C)
        assert w is not None and w.holds(), what
        change()
        assert not w.holds(), what
        if undo is not None:
            undo()
            assert w.holds(), what  # the very objects back: the audit's reading holds again
    finally:
        sys.modules.pop("crane_memory_fixture", None)


def test_a_key_that_is_not_a_string_in_a_module_s_globals_is_seen():
    mod = _module_of_classes()
    try:
        w = witness_of(mod.C)
        assert w.holds()

        class K(str):
            pass

        mod.__dict__[K("k")] = 1
        assert not w.holds()
    finally:
        sys.modules.pop("crane_memory_fixture", None)


def _namespace():
    import numpy as np
    import pandas as pd

    ns = {"__name__": "__main__", "__builtins__": builtins, "pd": pd, "np": np,
          "df": pd.DataFrame({"a": [1, 2], "b": [3, 4]})}
    return ns


def _claim(cell, ns):
    out = run_checks(cell, ns)
    return out.crash.exception if out.crash is not None else None


def _runs_clean(cell, ns):
    exec(compile(cell, "<cell>", "exec"), dict(ns))


PANDAS_PATCHES = [
    # (cell, patch, undo): each patch makes the cell run clean
    ("df['zz']", "pd.Index.get_loc = lambda self, key: 0", "pd.Index.get_loc = _saved"),
    ("df['zz']", "pd.DataFrame.__getitem__ = lambda self, key: 0", "pd.DataFrame.__getitem__ = _saved"),
    ("df['zz']", "pd.core.generic.NDFrame.__finalize__ = lambda self, *a, **k: 0\n"
                 "pd.DataFrame.__getitem__ = lambda self, key: 0", None),
    ("df['zz']", "pd.Index.get_loc.__code__ = (lambda self, key: 0).__code__", None),
]
_SAVED = {0: "pd.Index.__dict__['get_loc']", 1: "pd.DataFrame.__dict__['__getitem__']"}


@pytest.mark.parametrize("i", range(len(PANDAS_PATCHES)))
def test_a_library_patched_after_a_check_is_seen_by_the_next(i):
    """The first check passes the audits and fills the memory; after the patch the cell runs clean
    for real, and the next check claims nothing."""
    import pandas as pd

    cell, patch, undo = PANDAS_PATCHES[i]
    ns = _namespace()
    assert _claim(cell, ns) == "KeyError"
    with pytest.raises(KeyError):
        _runs_clean(cell, ns)
    assert provenance._PASSED, "the passed audits are remembered"
    saved_getitem = pd.DataFrame.__dict__["__getitem__"]
    saved_get_loc = pd.Index.__dict__["get_loc"]
    saved_code = saved_get_loc.__code__
    saved_finalize = pd.core.generic.NDFrame.__dict__["__finalize__"]
    ns["_saved"] = eval(_SAVED.get(i, "None"), ns)
    try:
        exec(patch, ns)
        _runs_clean(cell, ns)  # the patched cell really runs clean
        assert _claim(cell, ns) is None
        if undo is not None:
            exec(undo, ns)
            assert _claim(cell, ns) == "KeyError"  # put back: claimed again
    finally:
        pd.DataFrame.__getitem__ = saved_getitem
        saved_get_loc.__code__ = saved_code
        pd.Index.get_loc = saved_get_loc
        pd.core.generic.NDFrame.__finalize__ = saved_finalize
    assert _claim(cell, ns) == "KeyError"
