"""A notebook that registers its own `.str` accessor decides what `.str` does on numbers: no claim.
(In-process, with pandas' accessor put back afterwards: the runner's world must stay unpatched.)"""

from __future__ import annotations

import warnings

import pandas as pd

from crane_llm.checks import run_checks


def test_own_registered_accessor_gets_no_claim():
    ns = {"s": pd.Series([1, 2, 3])}
    assert run_checks("s.str.upper()", ns).crash is not None  # pandas' own accessor refuses numbers
    original = pd.Series.__dict__["str"]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pandas warns that the name is taken

            @pd.api.extensions.register_series_accessor("str")
            class Mine:
                def __init__(self, s):
                    self.s = s

                def upper(self):
                    return 1

        assert pd.Series([1]).str.upper() == 1
        outcome = run_checks("s.str.upper()", ns)
        assert outcome.crash is None and outcome.stopped_at is not None
    finally:
        pd.Series.str = original
    assert run_checks("s.str.upper()", ns).crash is not None
