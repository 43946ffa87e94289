"""The warning state the checker reads before modelling library calls, under attack: a filter whose
action is a `str` subclass (its `__eq__` says 'default' while the warnings machinery, comparing in
C, reads 'error'), and a replaced `showwarning` that claims to be the standard library's by its
`__module__`. Each attack cell is checked and then really run in a real IPython shell: no false
claim; its twin, the same cell with the warnings as shipped, keeps its claim."""

from __future__ import annotations

import pytest

from fuzzgen import verdict
from harness import run_parallel
from soundness_corpus import DF

STR_ACTION = ("import warnings as _w\nclass _S(str):\n    def __eq__(self, o):\n        return o == 'default' or "
              "str.__eq__(self, o)\n    __hash__ = str.__hash__\n_w.filters.insert(0, (_S('error'), None, Warning, "
              "None, 0))\n", "del _w.filters[0]\n")
SPOOFED = ("import warnings as _w\n_sw = _w.showwarning\ndef _raiser(*a, **k):\n    raise RuntimeError('w')\n"
           "_raiser.__module__ = 'warnings'\n_w.showwarning = _raiser\n", "_w.showwarning = _sw\n")
CELLS = ["b = np.ones(3) / 0\nb + np.ones(4)", "b = np.ones(3) / 0\nundefined_name"]


@pytest.fixture(scope="module")
def results():
    cases = []
    for cell in CELLS:
        for setup, teardown in (STR_ACTION, SPOOFED):
            cases.append({"setup": DF + setup, "cell": cell, "teardown": teardown})
        cases.append({"setup": DF, "cell": cell})
    return run_parallel(cases)


@pytest.mark.parametrize("i", range(len(CELLS)))
def test_a_disguised_warning_state_gets_no_claim_and_the_twin_its_claim(results, i):
    str_action, spoofed, twin = results[3 * i:3 * i + 3]
    assert str_action["raised"]["exception"] == "RuntimeWarning", str_action  # the filter is 'error' for real
    for r in (str_action, spoofed):
        assert r["setup_error"] is None and r["checker_error"] is None, r
        assert r["claim"] is None and verdict(r) != "false-claim", r
    assert verdict(twin) == "caught", twin
