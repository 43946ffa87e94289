"""Objects that say they are of another class: a `__class__` property (the only hook they have, so
no rule stands aside for a `__getattr__`), a NumPy scalar or a date subclass whose `__module__`
names the library. `isinstance` reads `__class__` when the real type does not match, so the checker
and the runtime information ask the real type; the count of user-code calls stays 0."""

from __future__ import annotations

import builtins
import datetime
import subprocess
import sys

import pytest

from crane_llm.checks import run_checks
from crane_llm.runinfo import collect

CALLS: list = []


class Masked:
    """Says it is a type, or an int, when asked for its `__class__`."""

    @property
    def __class__(self):
        CALLS.append("__class__")
        return type


class LibraryNamed(datetime.date):
    __module__ = "datetime"

    @property
    def __class__(self):
        CALLS.append("date.__class__")
        return datetime.date

    def __str__(self):
        CALLS.append("date.__str__")
        return "d"

    def __hash__(self):
        CALLS.append("date.__hash__")
        return 1


def _numpy_named():
    np = pytest.importorskip("numpy")

    class Scalar(np.float64):
        __module__ = "numpy"

        @property
        def __class__(self):
            CALLS.append("scalar.__class__")
            return np.bool_

        def __bool__(self):
            CALLS.append("scalar.__bool__")
            return True

    return Scalar


def _namespace():
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    scalar = _numpy_named()
    return {"__name__": "__main__", "__builtins__": builtins, "np": np, "pd": pd, "masked": Masked(),
            "x": scalar(1.5), "when": LibraryNamed(2020, 1, 2),
            "col": pd.Series([LibraryNamed(2020, 1, 2), LibraryNamed(2021, 1, 2)], dtype=object),
            "vals": [scalar(1.0), LibraryNamed(2020, 1, 2)]}


CELLS = ["masked.nope", "masked.nope\nundefined_after", "x.nope", "x + 1", "when.nope", "col.nope",
         "col.unique()", "vals[5]", "print(x, when, col, vals)"]


def test_no_user_code_runs_in_checks_or_runtime_information():
    ns = _namespace()
    CALLS.clear()
    for cell in CELLS:
        run_checks(cell, ns)
        collect(cell, ns)
    assert CALLS == [], sorted(set(CALLS))


def test_the_missing_attribute_is_still_claimed_and_really_raised():
    """The claim stands (attribute lookup goes by the real type, whatever `__class__` says), and a
    real run sees that AttributeError; the twin naming an attribute the class has gets no claim."""
    ns = _namespace()
    CALLS.clear()
    crash = run_checks("masked.nope", ns).crash
    assert crash is not None and crash.exception == "AttributeError" and CALLS == []
    assert run_checks("masked.__init__", ns).crash is None
    with pytest.raises(AttributeError):
        exec("masked.nope", ns)
    exec("masked.__init__", ns)


def test_replaced_pyplot_state_is_read_by_real_type():
    """pyplot's figure registry and rcParams replaced by objects that answer `__class__`: the
    drawing rule's guards read the real types and run nothing of theirs (in a process of its own,
    as matplotlib's state is the process's)."""
    pytest.importorskip("matplotlib")
    code = """
import builtins, matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import matplotlib._pylab_helpers as helpers
from crane_llm.checks import run_checks
calls = []
class Masked:
    @property
    def __class__(self):
        calls.append("__class__")
        return type
ns = {"__name__": "__main__", "__builtins__": builtins, "plt": plt}
helpers.Gcf = Masked()
run_checks("plt.title('a')\\nundefined_after", ns)
matplotlib.rcParams = Masked()
run_checks("plt.title('a')\\nundefined_after", ns)
print(calls)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout
