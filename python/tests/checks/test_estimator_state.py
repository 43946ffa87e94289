"""scikit-learn state the estimator rules' probes read besides the class's code: its class data
(`_parameter_constraints`), its configuration (`set_config`), and the estimator's own attributes
shadowing what its class defines. Each attack is really run in a real IPython shell after the
check: no false claim, and no user code runs during the check (the namespace is unchanged); its
twin, the same cell with nothing changed, still gets its claim.

Several attacks first check the twin's cell in their setup, so the probe's remembered answer
exists before the state changes (a notebook checks a cell, changes the state, checks it again).
"""

from __future__ import annotations

import pytest

from fuzzgen import verdict
from harness import run_parallel
from soundness_corpus import DF

CHECK_FIRST = "from crane_llm.checks import run_checks as _rc\n_rc(CELL, globals())\n"
BAD = "m = LogisticRegression(warm_start='yes')\n"
PC = "_pc = LogisticRegression.__dict__['_parameter_constraints']\n"
NAMED = ("lf = LinearRegression().fit(pd.DataFrame(X, columns=['a', 'b', 'c']), y)\n"
         "Z = pd.DataFrame(X, columns=['a', 'b', 'd'])\n")
SPY = ("from sklearn.utils._param_validation import Interval\nfrom numbers import Real\nran = []\n"
       "class Spy(Interval):\n    def is_satisfied_by(self, v):\n        ran.append(1)\n        return True\n")

ATTACKS = [
    # (twin setup, cell, attack setup, teardown)
    # class data emptied after a check: validation is off, the remembered answer was not
    (BAD, "m.fit(X, y)", CHECK_FIRST + PC + "LogisticRegression._parameter_constraints = {}\n",
     "LogisticRegression._parameter_constraints = _pc\n"),
    # ... or changed in place
    (BAD, "m.fit(X, y)", CHECK_FIRST + "_w = LogisticRegression._parameter_constraints.pop('warm_start')\n",
     "LogisticRegression._parameter_constraints['warm_start'] = _w\n"),
    # scikit-learn's configuration after a check
    (BAD, "m.fit(X, y)", CHECK_FIRST + "import sklearn\nsklearn.set_config(skip_parameter_validation=True)\n",
     "sklearn.set_config(skip_parameter_validation=False)\n"),
    # the estimator's own attributes shadow its class's data and methods
    (BAD, "m.fit(X, y)", "m._parameter_constraints = {}\n", ""),
    (BAD, "m.fit(X, y)", "m._validate_params = lambda: None\n", ""),
    (NAMED, "lf.predict(Z)", "lf._decision_function = lambda Z: Z.to_numpy().sum(axis=1)\n", ""),
]

# User code the probes would have run during the check (the namespace's `ran` would change).
QUIET = [
    (BAD.replace("'yes'", "'yes', tol=0.5"), "m.fit(X, y)", SPY + PC + "LogisticRegression._parameter_constraints = dict(_pc, C=[Spy(Real, None, None, "
                                    "closed='neither')])\n", "LogisticRegression._parameter_constraints = _pc\n"),
    ("m2 = LinearRegression()\n", "m2.predict(X)", "ran = []\nm2.__sklearn_is_fitted__ = lambda: ran.append(1)\n", ""),
]


@pytest.fixture(scope="module")
def results():
    cases = []
    for twin, cell, attack, teardown in ATTACKS + QUIET:
        cases.append({"cell": cell, "setup": DF + twin + attack.replace("CELL", repr(cell)), "teardown": teardown})
        cases.append({"cell": cell, "setup": DF + twin})
    return cases, run_parallel(cases)


@pytest.mark.parametrize("i", range(len(ATTACKS)))
def test_a_changed_state_gets_no_false_claim_and_its_twin_its_claim(results, i):
    cases, rs = results
    attack, twin = rs[2 * i], rs[2 * i + 1]
    assert attack["setup_error"] is None and attack["checker_error"] is None, attack
    assert attack["raised"] is None, attack  # the attack really changes what the cell does
    assert attack["claim"] is None, (ATTACKS[i], attack)
    assert verdict(twin) == "caught", (ATTACKS[i][1], twin)


@pytest.mark.parametrize("i", range(len(QUIET)))
def test_user_code_in_class_data_or_instance_hooks_never_runs(results, i):
    cases, rs = results
    attack = rs[2 * (len(ATTACKS) + i)]
    assert attack["setup_error"] is None and attack["checker_error"] is None, attack
    assert not attack["mutated"], (QUIET[i], attack)
    assert verdict(attack) != "false-claim", attack


def test_the_state_token_sees_class_data_and_config_change():
    import sklearn
    from sklearn.linear_model import LogisticRegression

    from crane_llm.checks.probe_state import probe_state

    before = probe_state(LogisticRegression)
    assert before is not None
    constraints = LogisticRegression._parameter_constraints
    saved = dict(constraints)
    constraints.pop("tol")
    try:
        assert probe_state(LogisticRegression) != before
    finally:
        constraints.clear()
        constraints.update(saved)
    assert probe_state(LogisticRegression) == before
    sklearn.set_config(assume_finite=True)
    try:
        assert probe_state(LogisticRegression) != before
    finally:
        sklearn.set_config(assume_finite=False)
    assert probe_state(LogisticRegression) == before
