"""The replay adapter: the same rules answered from recorded facts (the paper's runtime
information) instead of live objects, including the JunoBench development cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crane_llm.checks import parse_runinfo, run_checks_on_facts
from crane_llm.checks.bound_names import names_bound

JUNO = Path("/work/shared/junobench/dev")

FRAME = {"type": "pandas.core.frame.DataFrame", "shape": (100, 2),
         "per_column": {"age": {"type": "continuous"}, "name": {"type": "categorical"}}}
RUNINFO = """# Executed Cells:
df = load()
# Current relevent runtime information:
{'df': {'execution_cell_source': {'cellno': 1, 'lineno': 1},
        'has_nan': False,
        'per_column': {'age': {'num_unique': 3, 'type': 'continuous', 'value_range': (1, 9)},
                       'name': {'example_values': ['a', 'b'], 'num_unique': 2, 'type': 'categorical'}},
        'dtypes': {'age': dtype('int64')},
        'shape': (100, 2),
        'type': 'pandas.core.frame.DataFrame'},
 '__method__df_drop': {'type': "<class 'method'>"},
 'n': {'type': "<class 'int'>", 'value': 0},
 'weird': {'thing': <tf.Tensor shape=(2,)>}}
# Target Cell:

df.drop(columns=['salary'])
"""


def test_parse_runinfo_reads_facts_and_target():
    pytest.importorskip("pandas")  # method existence comes from the installed, already imported class
    facts, target = parse_runinfo(RUNINFO)
    assert set(facts) == {"df", "n", "weird"}  # `__method__` entries are attribute notes, not names
    assert facts["df"]["shape"] == (100, 2) and list(facts["df"]["per_column"]) == ["age", "name"]
    assert facts["n"]["value"] == 0
    assert target.strip() == "df.drop(columns=['salary'])"
    assert run_checks_on_facts(target, facts).crash.exception == "KeyError"


def test_missing_column_from_recorded_frame():
    o = run_checks_on_facts("df['salary']", {"df": FRAME})
    assert o.crash is not None and o.crash.exception == "KeyError" and o.crash.variables == ["df"]
    assert run_checks_on_facts("df['age']", {"df": FRAME}).crash is None


def test_truncated_columns_are_unknown():
    wide = dict(FRAME, shape=(100, 30))  # only 2 of 30 columns recorded: the rest are unknown
    assert run_checks_on_facts("df['salary']", {"df": wide}).crash is None


def test_recorded_values_drive_operator_rules():
    o = run_checks_on_facts("ratio = 10 / n", {"n": {"type": "<class 'int'>", "value": 0}})
    assert o.crash.exception == "ZeroDivisionError"
    o = run_checks_on_facts("a, b = pair", {"pair": {"type": "<class 'tuple'>", "length": 3}})
    assert o.crash.exception == "ValueError"
    o = run_checks_on_facts("x = arr[7]", {"arr": {"type": "numpy.ndarray", "shape": (5,), "dtype": "float64"}})
    assert o.crash.exception == "IndexError"


def test_names_are_undefined_only_when_the_facts_are_complete():
    assert run_checks_on_facts("print(X)", {}).crash is None
    assert run_checks_on_facts("print(X)", {}, names_complete=True).crash.exception == "NameError"
    assert run_checks_on_facts("print(X)", {}, names_complete=True, maybe_defined={"X"}).crash is None
    assert run_checks_on_facts("display(df)", {"df": FRAME}, names_complete=True).crash is None


def test_missing_attributes_are_never_claimed_from_recorded_facts():
    # The recording came from another library version: only the installed class can say "yes".
    assert run_checks_on_facts("df.append(df)", {"df": FRAME}).crash is None


def test_recorded_estimators():
    pytest.importorskip("sklearn")
    import sklearn.linear_model  # noqa: F401  (the replay adapter only uses classes already imported)

    est = {"type": "<class 'sklearn.linear_model._base.LinearRegression'>", "class_name": "LinearRegression",
           "module": "sklearn.linear_model._base", "is_fitted": False}
    o = run_checks_on_facts("model.predict(X)", {"model": est, "X": {"type": "numpy.ndarray", "shape": (4, 3)}})
    assert o.crash.exception == "NotFittedError"
    fitted = dict(est, is_fitted=True, fitted_attributes={"n_features_in_": 5})
    o = run_checks_on_facts("model.predict(X)", {"model": fitted, "X": {"type": "numpy.ndarray", "shape": (4, 3),
                                                                         "dtype": "float64"}})
    assert o.crash.exception == "ValueError"


def test_names_bound_covers_every_binding_form():
    code = ("import a.b\nfrom c import d as e\nx = 1\nfor i, j in z: pass\nwith q as w: pass\n"
            "def f(): pass\nclass K: pass\n(y := 2)\ntry:\n    pass\nexcept E as err:\n    pass\ndel x\n")
    assert {"a", "e", "x", "i", "j", "w", "f", "K", "y", "err"} <= names_bound(code)
    assert "zz" in names_bound("def broken(:\n zz = 1")  # unparsable: every identifier counts


@pytest.mark.skipif(not JUNO.exists(), reason="JunoBench development cases not present")
def test_junobench_dev_no_false_claims():
    import sklearn.ensemble  # noqa: F401
    import sklearn.linear_model  # noqa: F401
    import sklearn.tree  # noqa: F401

    index = json.loads((JUNO / "index.json").read_text())
    caught, false = [], []
    for rec in index:
        case = rec["case"]
        for kind, folder in (("reproduced", "input_nb_buggy_processed"), ("fixed", "input_nb_fixed_processed")):
            facts, target = parse_runinfo((JUNO / case / "crane_llm_executed_code_runinfo" /
                                           f"{case}_{kind}.txt").read_text())
            executed = json.loads((JUNO / case / folder / f"{case}.json").read_text())["executed"]
            maybe = set()
            for cell in executed:
                maybe |= names_bound(cell["code"])
            o = run_checks_on_facts(target, facts, names_complete=True, maybe_defined=maybe)
            if o.crash is None:
                continue
            if kind == "fixed" or o.crash.exception != rec["ename"]:
                false.append((case, kind, o.crash.to_json()))
            else:
                caught.append(case)
    assert not false, false
    assert len(caught) >= 5, caught


def _days(**column):
    col = dict({"num_unique": 7, "type": "categorical_numeric", "value_range": (0, 6)}, **column)
    return {"data": {"type": "pandas.core.frame.DataFrame", "shape": (500, 2), "has_nan": False,
                     "per_column": {"PDweek": col, "Duration": {"type": "continuous", "value_range": (1.0, 9.5)}}},
            "pd": {"type": "<class 'module'>"}}


CATEGORICAL_CELL = ("data1 = pd.Categorical(data['PDweek'], categories=range(7), ordered=True)\n"
                    "data1.cat.rename_categories(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])")
_IMPORTS = ["import pandas as pd\ndata = load()"]


def test_categorical_of_recorded_integer_column_has_no_cat():
    pd = pytest.importorskip("pandas")
    o = run_checks_on_facts(CATEGORICAL_CELL, _days(), executed=_IMPORTS)
    assert o.crash is not None and o.crash.exception == "AttributeError" and o.crash.line == 2
    c = pd.Categorical(pd.Series([0, 6, 3]), categories=range(7), ordered=True)  # what it does for real
    with pytest.raises(AttributeError):
        c.cat  # noqa: B018


@pytest.mark.parametrize("facts", [
    _days(value_range=(0.0, 6.0)),  # floats: values may fall outside the categories
    _days(value_range=(0, 9)),  # values outside range(7): pandas warns now, raises later
    _days(dtype="object"),
    dict(_days(), data=dict(_days()["data"], has_nan=True)),  # NaN somewhere in the frame
])
def test_categorical_from_uncertain_recorded_facts_is_unknown(facts):
    pytest.importorskip("pandas")
    assert run_checks_on_facts(CATEGORICAL_CELL, facts, executed=_IMPORTS).crash is None


def test_builtins_ipython_swaps_while_a_cell_runs_are_never_judged():
    # IPython's builtin trap gives the cell `get_ipython` even once the namespace lost its own, and
    # takes `exit` away: neither is judged from the builtins as the check reads them.
    for cell in ("del get_ipython\nget_ipython().user_ns", "get_ipython().user_ns", "del exit\nexit.nope"):
        facts = {"get_ipython": {"type": "<class 'method'>"}, "exit": {"type": "<class 'int'>", "value": 3}}
        out = run_checks_on_facts(cell, facts if cell.startswith("del") else {}, names_complete=True)
        assert out.crash is None, (cell, out.crash)
    out = run_checks_on_facts("x = 1\ndel x\nx", {}, names_complete=True)
    assert out.crash is not None and out.crash.exception == "NameError"
