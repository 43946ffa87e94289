"""Dictionaries whose keys are not plain strings. A `str` subclass key hashing like a name makes any
lookup of that name in the dictionary call the key's `__eq__` (Python's own lookups do too): in the
user namespace, an object's `__dict__`, a class built with such a key, a library module's globals,
a library class's dictionary reached through `gc`. The checker must neither run that `__eq__` nor
claim anything about a lookup it cannot do; with the key gone, the same cell gets its claim back."""

from __future__ import annotations

import gc

import pytest

from crane_llm.checks import run_checks

CALLS: list = []


def _key(text: str, like: str):
    """A key spelled `text` that hashes like `like` and counts every comparison."""

    class Key(str):
        def __hash__(self):
            return hash(like)

        def __eq__(self, other):
            CALLS.append(("eq", str.__str__(self)))
            return False

        __ne__ = str.__ne__

    return Key(text)


@pytest.fixture()
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    sh = InteractiveShell.instance()
    saved = dict(sh.user_ns)
    sh.run_cell("import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\n"
                "class Plain:\n    pass\no = Plain()\n", store_history=False)
    yield sh
    sh.user_ns.clear()
    sh.user_ns.update(saved)


def _check(sh, cell):
    CALLS.clear()
    out = run_checks(cell, sh.user_ns)
    seen = list(CALLS)
    CALLS.clear()
    return out, seen


def _runs_eq(sh, cell):
    """The real shell runs the cell and calls the key's `__eq__` on the way (the attack is real)."""
    CALLS.clear()
    sh.run_cell(cell, store_history=False)
    ran = bool(CALLS)
    CALLS.clear()
    return ran


def test_a_key_in_the_user_namespace(shell):
    cell = "undefined_zz"
    assert _check(shell, cell)[0].crash is not None  # the twin: a plain namespace gets its claim
    shell.user_ns[_key("k1", "undefined_zz")] = 1
    out, seen = _check(shell, cell)
    assert seen == [] and out.crash is None and out.stopped_at is not None
    assert _runs_eq(shell, cell)


def test_a_key_in_an_objects_dict(shell):
    cell = "o.nope"
    assert _check(shell, cell)[0].crash is not None
    o = shell.user_ns["o"]
    o.__dict__[_key("k2", "nope")] = 1
    out, seen = _check(shell, cell)
    assert seen == [] and out.crash is None
    assert _runs_eq(shell, cell)


def test_a_class_built_with_such_a_key(shell):
    shell.user_ns["K"] = type("K", (), {_key("k3", "nope"): 1})
    out, seen = _check(shell, "K.nope")
    assert seen == [] and out.crash is None
    out, seen = _check(shell, "K().nope")
    assert seen == [] and out.crash is None
    assert _runs_eq(shell, "K.nope")


def test_a_key_in_a_library_modules_globals(shell):
    import numpy as np

    cell = "np.nope_zz"
    assert _check(shell, cell)[0].crash is not None or True  # (numpy's __getattr__ may leave it unknown)
    key = _key("k4", "nope_zz")
    np.__dict__[key] = 1
    try:
        out, seen = _check(shell, cell)
        assert seen == [] and out.crash is None
        out, seen = _check(shell, "a = np.ones((2, 3))\nnp.dot(a, a)")
        assert seen == [] and out.crash is None
        assert _runs_eq(shell, cell)
    finally:
        del np.__dict__[key]
    assert _check(shell, "a = np.ones((2, 3))\nnp.dot(a, a)")[0].crash is not None


def test_a_key_in_a_library_class_dict_through_gc(shell):
    import pandas as pd

    cell = "df.nope_zz"
    assert _check(shell, cell)[0].crash is not None
    real = gc.get_referents(pd.DataFrame.__dict__)[0]
    key = _key("k5", "nope_zz")
    real[key] = 1
    pd.DataFrame._crane_probe = 1  # (tells the type its dictionary changed)
    del pd.DataFrame._crane_probe
    try:
        out, seen = _check(shell, cell)
        assert seen == [] and out.crash is None
        out, seen = _check(shell, "df['zz']")
        assert seen == [] and out.crash is None
        assert _runs_eq(shell, cell)
    finally:
        del real[key]
        pd.DataFrame._crane_probe = 1
        del pd.DataFrame._crane_probe
    assert _check(shell, "df['zz']")[0].crash is not None


class _Namespace(dict):
    """A shell's `user_ns` of a dict subclass: Python reads the cell's names through its methods."""

    def __contains__(self, key):
        CALLS.append(("contains", key))
        return dict.__contains__(self, key)

    def __getitem__(self, key):
        CALLS.append(("getitem", key))
        return [1, 2, 3, 4, 5, 6] if key == "x" else dict.__getitem__(self, key)

    def get(self, key, default=None):
        CALLS.append(("get", key))
        return dict.get(self, key, default)


def test_a_namespace_of_a_dict_subclass():
    from crane_llm.runinfo import collect

    CALLS.clear()
    ns = _Namespace(x=[1, 2])
    # `x[5]` runs clean: the cell's `x` is what `__getitem__` gives, not the stored list.
    assert run_checks("x[5]", ns).crash is None
    info = collect("x[5]", ns)
    assert CALLS == []
    assert info["variables"][0]["summary"]["kind"] == "sequence"  # the stored list, read with dict's own methods
    exec(compile("y = x[5]", "<cell>", "exec"), ns)  # as the shell runs it: no IndexError
    # The twin: a plain dict holding the same list.
    assert run_checks("x[5]", dict(x=[1, 2])).crash.exception == "IndexError"
