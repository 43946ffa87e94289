"""Classification metrics given a continuous target, judged from recorded facts (the paper's
runtime information, recorded from the real objects) as well as live, each cell then run for real."""

from __future__ import annotations

from cases_metrics import CLASSIFIER_TARGETS, CMD, CONTINUOUS_TARGETS, NO_CLAIM
from exec_runner import run_batch
from harness import assert_no_false_claim

from crane_llm.checks import run_checks_on_facts

# Crash cells the recording alone proves: an array's or a Series' recorded range holds a fraction
# (a literal list is no recorded value, `y_test[:4]` is a slice the replay does not follow, and a
# recorded array of several columns may be a multilabel target by labels its dtype caches).
REPLAY_PROVES = [p.crash for p in CONTINUOUS_TARGETS
                 if "[0.5" not in p.crash and "[:4]" not in p.safe and "probs2" not in p.crash]


def _replay_claims(cells):
    """Run each (setup, cell) for real and through the replay (the setup read as executed cells):
    no false claim either way; the cells the replay claimed."""
    results = run_batch([{"setup": s, "cell": c, "replay": True, "replay_executed": True} for s, c in cells])
    claimed = []
    for (setup, cell), r in zip(cells, results):
        assert_no_false_claim(r, cell)
        if r["replay_claim"] is not None:
            raised = r["raised"]
            assert raised is not None and (r["replay_claim"]["exception"], r["replay_claim"]["line"]) == \
                (raised["exception"], raised["line"]), (cell, r)
            claimed.append(cell)
    return claimed


def test_the_replay_claims_what_the_recording_proves_and_nothing_else():
    cells = [(CMD, p.crash) for p in CONTINUOUS_TARGETS] + [(CMD, p.safe) for p in CONTINUOUS_TARGETS] + \
        [(setup, cell) for cell, setup in NO_CLAIM]
    claimed = _replay_claims(cells)
    assert len(REPLAY_PROVES) >= 8 and set(REPLAY_PROVES) <= set(claimed), set(REPLAY_PROVES) - set(claimed)


# A classifier the cell builds, fitted on a recorded array of numbers and a recorded target whose
# range holds a fraction (a frame's dtypes and an estimator the kernel holds are not recorded).
FIT_REPLAY_PROVES = [p.crash for p in CLASSIFIER_TARGETS if p.crash.split("(")[0] in (
    "LogisticRegression", "SVC", "KNeighborsClassifier", "RandomForestClassifier") and "[0.5" not in p.crash]


def test_the_replay_claims_a_classifier_fitted_on_a_continuous_target():
    claimed = _replay_claims([(p.setup, p.crash) for p in CLASSIFIER_TARGETS] +
                             [(p.setup, p.safe) for p in CLASSIFIER_TARGETS])
    assert len(FIT_REPLAY_PROVES) >= 5 and set(FIT_REPLAY_PROVES) <= set(claimed), set(FIT_REPLAY_PROVES) - set(claimed)


SERIES_BINARY = {"type": "<class 'pandas.core.series.Series'>",
                 "value_info": {"value_type": "binary", "unique_values": [0, 1]}}
PREDICTED = {"type": "numpy.ndarray", "dtype": "float32", "shape": (68,), "has_nan": False,
             "value_range": (0.016891976, 0.9752808)}
CELL = "from sklearn.metrics import accuracy_score\naccuracy_score(y_test, y_pred)"


def _claim(facts, cell=CELL):
    import sklearn.metrics  # noqa: F401  (the replay takes the recorded kernel's libraries as loaded)

    return run_checks_on_facts(cell, facts).crash


def test_a_recorded_range_with_a_fraction_is_a_continuous_target():
    c = _claim({"y_test": SERIES_BINARY, "y_pred": PREDICTED})
    assert c is not None and (c.exception, c.line, c.rule) == ("ValueError", 2, "continuous-target")
    assert "0.016891976" in c.message and c.variables == ["y_test", "y_pred"]


def test_what_the_recording_leaves_open_is_not_claimed():
    whole = dict(PREDICTED, value_range=(0.0, 1.0))
    assert _claim({"y_test": SERIES_BINARY, "y_pred": whole}) is None
    # Text the recording summarised with NaN dropped: sorting it may raise TypeError first.
    text = {"type": "<class 'pandas.core.series.Series'>",
            "value_info": {"value_type": "categorical or object", "num_unique": 2, "unique_values": ["No", "Yes"]}}
    assert _claim({"y_test": text, "y_pred": PREDICTED}) is None
    # A Series whose values were not summarised, and an integer array's range.
    assert _claim({"y_test": {"type": "<class 'pandas.core.series.Series'>"}, "y_pred": PREDICTED}) is None
    ints = dict(PREDICTED, dtype="int64", value_range=(0, 3))
    assert _claim({"y_test": SERIES_BINARY, "y_pred": ints}) is None
    # An object array recorded with a fraction in its range is no float array.
    objs = dict(PREDICTED, dtype="object")
    assert _claim({"y_test": SERIES_BINARY, "y_pred": objs}) is None


def test_a_recorded_nan_is_refused_as_well():
    nan = dict(PREDICTED, value_range=(0.0, 1.0), has_nan=True)
    c = _claim({"y_test": SERIES_BINARY, "y_pred": nan})
    assert c is not None and "NaN" in c.message
