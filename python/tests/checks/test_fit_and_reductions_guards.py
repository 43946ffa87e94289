"""What would change the outcome of the fit-parameter probe and the NumPy reductions: the kernel's
warning filters, NumPy's floating-point error modes, patched or user-defined classes. Each case runs
the cell for real under the same conditions and checks the checker does not claim what is not so."""

from __future__ import annotations

import warnings

import pytest

from crane_llm.checks import run_checks

np = pytest.importorskip("numpy")
sklearn_linear = pytest.importorskip("sklearn.linear_model")


def _raised(cell, ns):
    try:
        exec(compile(cell, "<cell>", "exec"), ns)
    except BaseException as exc:  # noqa: BLE001 (warnings raised as errors included)
        return type(exc).__name__
    return None


def _ns():
    return {"np": np, "LogisticRegression": sklearn_linear.LogisticRegression,
            "X": np.arange(20.0).reshape(10, 2), "y": np.array([0, 1] * 5), "v3": np.arange(3.0)}


def test_the_fit_probe_obeys_the_kernels_warning_filters():
    cell = "LogisticRegression(solver='liblinear', penalty='elasticnet').fit(X, y)"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert run_checks(cell, _ns()).crash.exception == "ValueError"
        assert _raised(cell, _ns()) == "ValueError"
    with warnings.catch_warnings():
        # scikit-learn 1.8+ warns that `penalty` is deprecated before it checks the pair: as an
        # error, that warning is what the cell raises, so ValueError must not be claimed.
        warnings.simplefilter("error")
        raised = _raised(cell, _ns())
        claim = run_checks(cell, _ns()).crash
        assert claim is None or claim.exception == raised


def test_a_user_subclass_is_not_probed():
    ns = _ns()
    exec("class Mine(LogisticRegression):\n    def fit(self, X, y):\n        return self\n", ns)
    cell = "Mine(solver='liblinear', penalty='elasticnet').fit(X, y)"
    assert _raised(cell, dict(ns)) is None
    assert run_checks(cell, ns).crash is None


def test_a_patched_fit_is_not_probed():
    cls = sklearn_linear.LogisticRegression
    original = cls.__dict__["fit"]
    cell = "LogisticRegression(solver='liblinear', penalty='elasticnet').fit(X, y)"
    try:
        cls.fit = lambda self, X, y: self
        assert _raised(cell, _ns()) is None
        assert run_checks(cell, _ns()).crash is None
    finally:
        cls.fit = original


def test_reductions_stop_when_numpy_raises_on_overflow():
    ns = dict(_ns(), big=np.full(3, 1e308))
    cell = "s = np.sum(big)\ns + v3"
    with np.errstate(over="raise"):
        assert _raised(cell, dict(ns)) == "FloatingPointError"
        assert run_checks(cell, ns).crash is None
    assert run_checks("s = np.sum(big)\nbig + np.zeros(4)", ns).crash.exception == "ValueError"


def test_reductions_stop_when_warnings_are_errors():
    ns = dict(_ns(), big=np.full(3, 1e308))
    cell = "s = sum(big * 10.0)\nv3 + np.zeros(4)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _raised(cell, dict(ns)) == "RuntimeWarning"  # overflow warned, raised as an error
        assert run_checks(cell, ns).crash is None


def test_a_patched_numpy_function_is_not_followed():
    ns = _ns()
    original = np.mean
    try:
        np.mean = lambda a: 1 / 0
        assert _raised("m = np.mean(v3)\nv3 + np.zeros(4)", dict(ns)) == "ZeroDivisionError"
        assert run_checks("m = np.mean(v3)\nv3 + np.zeros(4)", ns).crash is None
    finally:
        np.mean = original


# Calls the reading goes on past: each changes no variable and no object a later line could read.
# Proven on the real call: the namespace, pickled value by value, is the same before and after.
GOES_PAST = ["np.mean(v3)", "np.sum(m)", "sum(v3)", "sum(m)", "m ** 2", "v3 ** 0.5", "len(v3)"]


@pytest.mark.parametrize("call", GOES_PAST)
def test_calls_gone_past_change_nothing(call):
    import pickle

    ns = dict(_ns(), m=np.arange(6.0).reshape(3, 2))
    data = [k for k in ns if k not in ("np", "LogisticRegression")]
    before = {k: pickle.dumps(ns[k]) for k in data}
    exec(compile(f"_result = {call}", "<cell>", "exec"), ns)
    after = {k: pickle.dumps(ns[k]) for k in data}
    assert set(ns) == set(data) | {"np", "LogisticRegression", "_result", "__builtins__"}
    assert before == after
    # ... and the checker does go past it, to the clash on the next line.
    claim = run_checks(f"r = {call}\nv3 + np.zeros(4)", dict(_ns(), m=np.arange(6.0).reshape(3, 2))).crash
    assert claim is not None and claim.line == 2 and claim.exception == "ValueError"


def test_the_length_claim_says_what_scikit_learn_names_first():
    # X holding infinity: scikit-learn reports that before the lengths, with ValueError too
    ns = dict(_ns(), Xinf=np.array([[1.0, np.inf]] * 10), Xint=np.arange(20).reshape(10, 2))
    lin = {"LinearRegression": sklearn_linear.LinearRegression}
    for cell, named_first in (("LinearRegression().fit(Xinf, y[:7])", True), ("LinearRegression().fit(X, y[:7])", True),
                              ("LinearRegression().fit(Xint, y[:7])", False)):
        crash = run_checks(cell, dict(ns, **lin)).crash
        assert crash is not None and crash.exception == "ValueError", cell
        assert ("NaN or infinity" in crash.message) is named_first, crash.message
        assert _raised(cell, dict(ns, **lin)) == "ValueError"
