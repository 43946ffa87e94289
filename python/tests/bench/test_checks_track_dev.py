"""The checks track on the whole JunoBench dev half: no claim on a fixed cell, figures printed."""

from __future__ import annotations

import json
import os

import pytest

from crane_llm.bench.junobench.cases import load_cases
from crane_llm.bench.junobench.checks_track import run_checks_track
from crane_llm.bench.junobench.metrics import checks_figures
from crane_llm.bench.junobench.report import checks_markdown

DEV = "/work/shared/junobench/dev"


@pytest.mark.skipif(not os.path.isdir(DEV), reason="the JunoBench dev half is not on this machine")
def test_checks_track_on_the_dev_half(capsys):
    cases = load_cases(DEV)
    assert len(cases) == 59
    records = run_checks_track(cases)
    figures = checks_figures(records)
    with capsys.disabled():
        print("\n" + checks_markdown(figures, records))
        print("checks-track figures: " + json.dumps({k: v for k, v in figures.items() if k != "byException"}))
    assert figures["errors"] == 0
    assert figures["claimsOnFixed"] == 0, [(r["case"], r["fixed"]) for r in records if r["fixed"]]
    # Every claim made on a crashing cell names the exception that cell really raised.
    assert figures["rightType"] == figures["claimsOnCrashing"]
    assert figures["claimsOnCrashing"] >= 17  # 5 NameErrors, 3 missing columns, a re-run row drop, fit parameters,
    # empty split, shapes, imshow, an array as a list index, `.cat`, a scatter given `s` twice, a Keras model's `.load`


def test_the_code_comes_from_the_runinfo_files_where_it_compiles():
    from IPython.core.inputtransformer2 import TransformerManager

    if not os.path.isdir(DEV):
        pytest.skip("the JunoBench dev half is not on this machine")
    transform = TransformerManager().transform_cell
    for case in load_cases(DEV):
        for version in case.versions.values():
            assert version.runinfo_path is not None
            compile(transform(version.target), case.name, "exec")
            for cell in version.executed:
                compile(transform(cell["code"]), case.name, "exec")
