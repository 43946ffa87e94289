"""Names CPython binds with no assignment in sight, and what compiling a cell shows the notebook
(fifth red team, 7 Dec): an annotation stores into `__annotations__` (and makes it anew after a
`del`), a string statement alone is the docstring IPython's one-statement module stores in
`__doc__`, a class body gets `__doc__` from its first string and `__module__` from whatever the
global `__name__` holds, a class statement calls the namespace's own `__build_class__`, and a
compile-time warning (`x is 5`, an invalid escape) reaches the notebook's warning handlers before
the first line runs. Each cell really runs after the check, live and by the replay: none may be
claimed but as it raised, and no code of the notebook's may run during the check (a bound method
or a weak proxy hands attribute reads on to the object it wraps). Each plain twin keeps its claim."""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim_either

SANDBOX = "import builtins\n_d = dict(builtins.__dict__)\ndel _d['__build_class__']\n__builtins__ = _d"
LOGGED = ("import logging, warnings\nd = {}\nclass H(logging.Handler):\n    def emit(self, record):\n"
          "        d['zz'] = 1.0\nlogging.captureWarnings(True)\nlogging.getLogger().addHandler(H())\n"
          "warnings.simplefilter('always')")
UNLOG = ("logging.captureWarnings(False)\nlogging.getLogger().handlers[:] = "
         "[h for h in logging.getLogger().handlers if type(h).__name__ != 'H']\nwarnings.resetwarnings()")
TRACER = ("import types, weakref\nhits = []\nclass Model:\n    def __call__(self, *a):\n        return 1\n"
          "    def __getattr__(self, name):\n        hits.append(name)\n        raise AttributeError(name)\n")

UNSEEN = [
    # (setup, cell, teardown)
    # (each setup its own: the runner restores a repeated setup from a copy, not by running it)
    ("a: int = 1", "b: str = 'x'\nt = __annotations__['b']", ""),
    ("a1: int = 1", "for i in range(2):\n    c: int = i\nx = __annotations__['c']", ""),
    ("a2: int = 1", "b: int = 2\nk1, k2 = __annotations__", ""),
    ("a3: int = 1", "del __annotations__\nx: int = 1\nt = __annotations__['x']", ""),
    ("", "__annotations__ = {}\nx: int = 1\nt = __annotations__['x']", ""),
    ("", '"""Notebook: experiment 3"""\nexp_id = int(__doc__.split()[-1])', ""),
    ("", 'x = 1\n"7"\ny = int(__doc__)', ""),
    ("", 'class Config:\n    """lr=0.01"""\n    lr = float(__doc__.split("=")[1])', ""),
    ("", 'class Cfg:\n    "12"\n    n = int(__doc__)', ""),
    ("__name__ = 5", "class A:\n    m = __module__ + 1", "__name__ = '__main__'"),
    (SANDBOX, "class A:\n    pass\nx = 1/0", "__builtins__ = builtins"),
    (SANDBOX, "class Point:\n    pass\nd = {}\nv = d['k']", "__builtins__ = builtins"),
    (LOGGED, "flag = 1 is 1\nd['zz']", UNLOG),
    (LOGGED, "p = '\\d'\nd['zz']", UNLOG),
]
TWINS = [
    ("a4: int = 1", "t = __annotations__['b']", "KeyError", 1),
    ("", "del __annotations__", "NameError", 1),
    ("", "exp_id = int(__doc__.split()[-1])", "ValueError", 1),
    ("", "class Cfg:\n    n = int('x')", "ValueError", 2),
    ("", "class A:\n    pass\nx = 1/0", "ZeroDivisionError", 3),
    ("d = {}", "flag = 1 == 1\nd['zz']", "KeyError", 2),
]


@pytest.fixture(scope="module")
def results():
    cases = [dict(setup=s, cell=c, teardown=t, replay=True, replay_executed=True) for s, c, t in UNSEEN] + \
            [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c, _, _ in TWINS]
    return run_batch(cases)


@pytest.mark.parametrize("i", range(len(UNSEEN)), ids=[repr(c[1])[:40] for c in UNSEEN])
def test_no_claim_where_python_binds_a_name_unseen(results, i):
    r = results[i]
    assert_no_false_claim_either(r, UNSEEN[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(UNSEEN) + i], exception, line)


def test_a_call_through_a_bound_method_or_a_weak_proxy_reads_nothing_of_the_wrapped_object():
    """(in-process: the runner's own fingerprint pickles a bound method, which reads its object)"""
    from crane_llm.checks import run_checks
    for make in ("m = types.MethodType(Model(), 5)", "_keep = Model()\nm = weakref.proxy(_keep)"):
        ns: dict = {}
        exec(TRACER + make, ns)
        outcome = run_checks("r = m(1)\nx = 1/0", ns)
        assert outcome.crash is None and ns["hits"] == [], (make, outcome, ns["hits"])


def test_a_compile_warning_stops_the_check_before_any_handler_runs():
    """The checker's own compile of `x is 5` warns: kept from the notebook's handlers, and said."""
    r = run_batch([dict(setup=LOGGED, cell="flag = 1 is 1\nd['zz']", teardown=UNLOG)])[0]
    assert r["claim"] is None and "compiling this cell warns" in r["stop"]["reason"], r
    assert not r["mutated"]


def test_the_replay_knows_pythons_own_aliases_of_builtins():
    """`IOError` and `EnvironmentError` are `OSError` under other names: builtins in every Python 3."""
    from crane_llm.checks import run_checks_on_facts

    cell = "RETRYABLE = (IOError, ConnectionError)\nkind = EnvironmentError\nundefined_q"
    outcome = run_checks_on_facts(cell, {}, names_complete=True)
    assert outcome.crash is not None and (outcome.crash.exception, outcome.crash.line) == ("NameError", 3), outcome
