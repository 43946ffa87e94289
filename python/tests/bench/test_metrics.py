"""Detection metrics and the checks figures, against hand computations."""

from __future__ import annotations

import pytest

from crane_llm.bench.junobench.metrics import (
    checks_figures,
    detection,
    grouped,
    majority,
)
from crane_llm.bench.junobench.model_track import usage_totals


def test_majority_vote():
    assert majority([True, True, False]) == {"crash": True, "undecided": False, "crashVotes": 2, "cleanVotes": 1, "unreadable": 0}
    assert majority([True, None, False])["crash"] is False
    assert majority([True, None, False])["undecided"] is True
    assert majority([None, None, None]) == {"crash": False, "undecided": True, "crashVotes": 0, "cleanVotes": 0, "unreadable": 3}
    assert majority([None, True, None])["crash"] is True  # unreadable answers are not votes


def item(truth, predicted, undecided=False, library="x"):
    return {"truth": truth, "predicted": predicted, "undecided": undecided, "library": library}


def test_detection_by_hand():
    items = [item(True, True), item(True, True), item(True, False), item(False, True), item(False, False),
             item(False, False, undecided=True)]
    m = detection(items)
    assert (m["tp"], m["fn"], m["fp"], m["tn"], m["n"], m["undecided"]) == (2, 1, 1, 2, 6, 1)
    assert m["accuracy"] == pytest.approx(4 / 6)
    assert m["precision"] == pytest.approx(2 / 3)
    assert m["recall"] == pytest.approx(2 / 3)
    assert m["f1"] == pytest.approx(2 / 3)


def test_rates_without_a_denominator_are_none():
    m = detection([item(False, False)])
    assert m["precision"] is None and m["recall"] is None and m["f1"] is None and m["accuracy"] == 1.0
    both_wrong = detection([item(True, False), item(False, True)])
    assert (both_wrong["precision"], both_wrong["recall"], both_wrong["f1"]) == (0.0, 0.0, 0.0)


def test_grouped():
    g = grouped([item(True, True, library="a"), item(False, True, library="b"), item(False, False, library="a")], "library")
    assert list(g) == ["a", "b"]
    assert g["a"]["accuracy"] == 1.0 and g["b"]["accuracy"] == 0.0


def test_checks_figures_by_hand():
    claim = lambda exc: {"exception": exc, "line": 1, "message": "m", "rule": "r"}  # noqa: E731
    records = [
        {"ename": "KeyError", "crash": claim("KeyError"), "fixed": None},
        {"ename": "KeyError", "crash": None, "fixed": None},
        {"ename": "TypeError", "crash": claim("ValueError"), "fixed": claim("ValueError")},
        {"ename": "NameError", "crash": None, "fixed": None, "error": "boom"},
    ]
    f = checks_figures(records)
    assert (f["cases"], f["claimsOnCrashing"], f["rightType"], f["claimsOnFixed"], f["errors"]) == (4, 2, 1, 1, 1)
    assert f["recall"] == 0.5
    assert f["byException"]["KeyError"] == {"cases": 2, "claimed": 1, "rightType": 1, "recall": 0.5}
    assert f["byException"]["TypeError"] == {"cases": 1, "claimed": 1, "rightType": 0, "recall": 1.0}
    assert f["byRule"] == {"r": {"claimed": 2, "rightType": 1, "onFixed": 1}}


def test_checks_report_lists_rules_and_the_unclaimed_cells_with_the_stop_reason():
    from crane_llm.bench.junobench.report import checks_markdown

    claim = {"exception": "KeyError", "line": 1, "message": "m", "rule": "missing-column"}
    records = [
        {"case": "a", "ename": "KeyError", "crash": claim, "fixed": None},
        {"case": "b", "ename": "TypeError", "crash": None, "fixed": None,
         "crashStoppedAt": {"line": 3, "reason": "line 3: a for loop"}},
        {"case": "c", "ename": "ValueError", "crash": None, "fixed": None, "crashStoppedAt": None},
    ]
    text = checks_markdown(checks_figures(records), records)
    assert "| missing-column | 1 | 1 | 0 |" in text
    assert "| b | TypeError | line 3: a for loop |" in text
    assert "| c | ValueError | read to the end: nothing certain |" in text
    assert "| a |" not in text.split("not claimed")[1]


def test_usage_totals_and_cost():
    answers = [
        {"usage": {"input_tokens": 1000, "output_tokens": 100}, "estimatedInputTokens": 900},
        {"usage": {"prompt_tokens": 2000, "completion_tokens": 50}, "estimatedInputTokens": 1900},
        {"usage": None, "estimatedInputTokens": 500},
    ]
    u = usage_totals(answers, price_in=1.25, price_out=10.0)
    assert (u["calls"], u["callsWithUsage"], u["inputTokens"], u["outputTokens"], u["estimatedInputTokens"]) == (3, 2, 3000, 150, 3300)
    assert u["costUsd"] == pytest.approx(3000 / 1e6 * 1.25 + 150 / 1e6 * 10.0)
    assert usage_totals(answers, None, None)["costUsd"] is None
