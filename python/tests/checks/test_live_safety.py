"""The live adapter reads the kernel without touching it: no user code runs, no iterator is
consumed, no module is imported; and the reading stops, saying where and why, at what it cannot know."""

from __future__ import annotations

import sys

import pytest

from crane_llm.checks import run_checks


class Spy:
    calls = []

    @property
    def prop(self):
        Spy.calls.append("prop")
        return 1

    def __getattr__(self, name):
        Spy.calls.append(name)
        return 2

    def __repr__(self):
        Spy.calls.append("repr")
        return "Spy()"

    def __eq__(self, other):
        Spy.calls.append("eq")
        return False

    __hash__ = object.__hash__


def _ns(**values):
    ns = {"__name__": "__main__"}
    ns.update(values)
    return ns


def test_user_code_never_runs():
    Spy.calls.clear()
    ns = _ns(spy=Spy(), table={Spy(): 1})
    for cell in ["spy.prop", "spy.anything", "print(spy)", "f'{spy}'", "spy == 1", "table[1]", "spy.prop + 1",
                 "x = [spy]\nx[0].prop"]:
        o = run_checks(cell, ns)
        assert o.crash is None, (cell, o)
    assert Spy.calls == []


def test_iterators_are_never_consumed():
    gen = (i for i in range(3))
    it = iter([1, 2])
    ns = _ns(gen=gen, it=it)
    for cell in ["list(gen)", "next(it)", "[x for x in gen]", "a, b, c = gen", "len(gen)", "sorted(it)"]:
        run_checks(cell, ns)
    assert list(gen) == [0, 1, 2] and list(it) == [1, 2]


def test_no_module_is_imported():
    name = "xml.dom.minidom"
    was = name in sys.modules
    o = run_checks(f"import {name}\nundefined_after", _ns())
    assert (name in sys.modules) == was
    if not was:
        assert o.crash is None and "not loaded" in o.stopped_at.reason


def test_stop_reasons_say_where_and_why():
    exec("def prep(d):\n    return d", ns := _ns())
    o = run_checks("x = 1\ny = prep(x)\nundefined_after", ns)
    assert o.crash is None
    assert o.stopped_at.to_json() == {"line": 2, "reason": "line 2: a call to your function `prep`"}
    o = run_checks("a = 1\nfor i in range(3):\n    break", _ns())
    assert o.stopped_at.to_json() == {"line": 3, "reason": "line 3: a break statement"}
    o = run_checks("a = 1\nfor i in 5:\n    pass", _ns())
    assert o.stopped_at.to_json() == {"line": 2, "reason": "line 2: a for loop"}
    o = run_checks("if True:\n    pass", _ns())
    assert o.stopped_at.line == 1 and "if statement" in o.stopped_at.reason
    assert run_checks("x = 1", _ns()).stopped_at is None  # read to the end: nothing stopped it


def test_crash_json_shape():
    o = run_checks("print(nope)", _ns())
    j = o.crash.to_json()
    j.pop("correction", None)  # (a did-you-mean may come with the edit it suggests)
    assert j == {"exception": "NameError", "line": 1, "column": 6, "rule": "undefined-name", "variables": ["nope"],
                 "message": j["message"]}
    assert j["message"].endswith((".", "?")) and "nope" in j["message"]  # (a did-you-mean ends in "?")
    s = run_checks("x = (", _ns()).crash.to_json()
    assert s["exception"] == "SyntaxError" and s["line"] == 1 and isinstance(s["column"], int)


def test_subclasses_and_dynamic_objects_are_unknown():
    pd = pytest.importorskip("pandas")

    class MyFrame(pd.DataFrame):
        pass

    ns = _ns(sub=MyFrame({"a": [1]}), dd=__import__("collections").defaultdict(int))
    for cell in ["sub['nope']", "sub.nope", "dd['missing']"]:
        assert run_checks(cell, ns).crash is None, cell


def test_patched_categorical_is_not_modelled(monkeypatch):
    pd = pytest.importorskip("pandas")
    data = pd.DataFrame({"day": [0, 3, 6]})
    cell = "c = pd.Categorical(data['day'], categories=range(7))\nc.cat"
    assert run_checks(cell, {"pd": pd, "data": data}).crash.exception == "AttributeError"
    monkeypatch.setattr(pd.Categorical, "cat", property(lambda self: self), raising=False)
    exec(cell, {"pd": pd, "data": data})  # a notebook that gave Categorical a `.cat` runs clean
    assert run_checks(cell, {"pd": pd, "data": data}).crash is None
