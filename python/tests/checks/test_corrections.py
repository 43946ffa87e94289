"""A correction ("Replace `dff` with `df`") is a claim too: the corrected cell must not raise that
crash. Each case is checked, corrected as the JupyterLab action does (the first whole occurrence of
the old text on its line), then both versions really run."""

from __future__ import annotations

import re

import pytest

from crane_llm.checks import run_checks

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")


def namespace():
    return {"pd": pd, "np": np, "df": pd.DataFrame({"Pclass": [1, 2], "Fare": [3.0, 4.0]}), "total_sales": 2}


def apply(source: str, correction: dict) -> str:
    lines = source.split("\n")
    old = correction["old"]
    before = r"(?<![A-Za-z0-9_])" if re.match(r"\w", old[0]) else ""
    after = r"(?![A-Za-z0-9_])" if re.match(r"\w", old[-1]) else ""
    at = correction["line"] - 1
    lines[at], n = re.subn(before + re.escape(old) + after, lambda _: correction["new"], lines[at], count=1)
    assert n == 1, "the line does not hold the text to replace"
    return "\n".join(lines)


CASES = [
    ("dff.head()", "NameError", {"old": "dff", "new": "df", "line": 1}),
    ("x = 1\nprint(total_sale + x)", "NameError", {"old": "total_sale", "new": "total_sales", "line": 2}),
    ("df['Pclas'].mean()", "KeyError", {"old": "'Pclas'", "new": "'Pclass'", "line": 1}),
    ("df.groupby('fare').size()", "KeyError", {"old": "'fare'", "new": "'Fare'", "line": 1}),
    ("df.hed(2)", "AttributeError", {"old": ".hed", "new": ".head", "line": 1}),
]


@pytest.mark.parametrize("source,exception,correction", CASES, ids=[c[0] for c in CASES])
def test_the_correction_is_offered_and_the_corrected_cell_runs(source, exception, correction):
    crash = run_checks(source, namespace()).crash
    assert crash is not None and crash.exception == exception
    assert crash.to_json()["correction"] == correction
    with pytest.raises(Exception) as raised:
        exec(compile(source, "<cell>", "exec"), namespace())
    assert type(raised.value).__name__ == exception
    exec(compile(apply(source, correction), "<cell>", "exec"), namespace())  # runs clean


@pytest.mark.parametrize("source", ["zzzzqq.head()", "df['Nothing_like_it']", "df.qqqqzz()"])
def test_no_close_match_no_correction(source):
    crash = run_checks(source, namespace()).crash
    assert crash is not None and "correction" not in crash.to_json()
