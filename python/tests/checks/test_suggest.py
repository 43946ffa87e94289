"""Did-you-mean in claims: the same suggestion Python itself prints for the real crash (NameError,
AttributeError), and the closest column for a missing-column KeyError."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from crane_llm.checks import run_checks, run_checks_on_facts
from crane_llm.checks.suggest import closest

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")


def _namespace():
    return {"np": np, "pd": pd, "model_one": 1, "total_sales": 2, "tfidf": 3,
            "df": pd.DataFrame({"price": [1.0], "total": [2]}), "arr": np.ones(3)}


_SETUP = ("import numpy as np\nimport pandas as pd\nmodel_one = 1\ntotal_sales = 2\ntfidf = 3\n"
          "df = pd.DataFrame({'price': [1.0], 'total': [2]})\narr = np.ones(3)\n")


def _python_suggestion(cell):
    """What Python itself prints under the traceback of the real crash, or None (run as a script,
    so the interpreter's own error display, which makes the suggestion, is what prints it)."""
    proc = subprocess.run([sys.executable, "-c", _SETUP + cell], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0, "the cell did not crash"
    m = re.search(r"Did you mean:? '?([A-Za-z_][A-Za-z0-9_]*)'?\??", proc.stderr.strip().splitlines()[-1])
    return m.group(1) if m else None


def _our_suggestion(message):
    m = re.search(r"Did you mean `([^`]+)`\?", message)
    return m.group(1) if m else None


@pytest.mark.skipif(sys.version_info < (3, 10), reason="Python prints its own suggestions from 3.10 on")
@pytest.mark.parametrize("cell", ["print(modle_one)", "total_sale + 1", "x = tf_idf", "print(arr.shap)",
                                  "np.arnge(3)", "print(zzqqxx)", "arr.totally_unlike_anything",
                                  "df.sort_value('price')", "print(src_images)\nsrc_img = 1",
                                  "src_img = 1\nprint(src_images)", "print(df.Price)", "df.totl.sum()"])
def test_the_suggestion_is_the_one_python_prints(cell):
    ns = _namespace()
    claim = run_checks(cell, ns).crash
    assert claim is not None and claim.exception in ("NameError", "AttributeError")
    assert _our_suggestion(claim.message) == _python_suggestion(cell)


def test_missing_columns_name_the_closest_column():
    claim = run_checks("df['prcie']", _namespace()).crash
    assert claim.exception == "KeyError" and claim.message.endswith("Did you mean 'price'?")
    assert "Did you mean" not in run_checks("df['zzz']", _namespace()).crash.message


def test_replay_suggests_names_the_executed_cells_bind():
    claim = run_checks_on_facts("print(tf_idf)", {}, executed=["tfidf = 1"]).crash
    assert claim.exception == "NameError" and claim.message.endswith("Did you mean `tfidf`?")


def test_closest_compares_strings_only():
    class Hostile:
        def __eq__(self, other):
            raise AssertionError("user code ran")

        __hash__ = None

    assert closest("prcie", [Hostile(), 3, "price"]) == "price"
    assert closest("a", ["b", "c"]) is None


@pytest.mark.parametrize("cell,says", [("df.append(df)", "pd.concat"), ("df.iteritems()", ".items()"),
                                       ("np.float(3)", "builtin `float`"), ("np.object", "builtin `object`")])
def test_a_removed_api_is_said_removed_not_corrected(cell, says):
    ns = _namespace()
    claim = run_checks(cell, ns).crash
    assert claim is not None and claim.exception == "AttributeError"
    assert "removed" in claim.message and says in claim.message and "Did you mean" not in claim.message
    assert getattr(claim, "correction", None) is None
    with pytest.raises(AttributeError):
        exec(cell, dict(ns))  # the real cell raises it


def test_a_misspelt_attribute_still_gets_its_near_name():
    claim = run_checks("df.appendd(df)", _namespace()).crash
    assert claim is not None and "removed" not in claim.message
