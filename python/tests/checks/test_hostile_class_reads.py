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


def _claimed_class(label: str, claimed: type) -> property:
    """A `__class__` property that counts each read and names another class."""
    def read(self):
        CALLS.append(label)
        return claimed
    return property(read)


def _counted(label: str, answer):
    def hook(self):
        CALLS.append(label)
        return answer
    return hook


class Masked:
    """Says it is a type when asked for its `__class__`."""

    __class__ = _claimed_class("__class__", type)


class LibraryNamed(datetime.date):
    __module__ = "datetime"

    __class__ = _claimed_class("date.__class__", datetime.date)
    __str__ = _counted("date.__str__", "d")
    __hash__ = _counted("date.__hash__", 1)


def _numpy_named():
    np = pytest.importorskip("numpy")

    class Scalar(np.float64):
        __module__ = "numpy"

        __class__ = _claimed_class("scalar.__class__", np.bool_)
        __bool__ = _counted("scalar.__bool__", True)

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


def _notebook_array_frame():
    """A DataFrame and a Series holding an ExtensionArray the notebook defined (on pandas' own
    test array), whose every hook counts."""
    pd = pytest.importorskip("pandas")
    decimal_array = pytest.importorskip("pandas.tests.extension.decimal.array")
    import decimal

    class LoudDtype(decimal_array.DecimalDtype):
        name = "loud"

        @property
        def kind(self):
            CALLS.append("dtype.kind")
            return "f"

        def __str__(self):
            CALLS.append("dtype.__str__")
            return "loud"

        __repr__ = __str__

        @classmethod
        def construct_array_type(cls):
            return LoudArray

    class LoudArray(decimal_array.DecimalArray):
        @property
        def dtype(self):
            return LoudDtype()

        def isna(self):
            CALLS.append("isna")
            return super().isna()

        def min(self, *args, **kwargs):
            CALLS.append("min")
            return decimal.Decimal(1)

        max = min

        def __len__(self):
            CALLS.append("__len__")
            return super().__len__()

    def values():
        return LoudArray([decimal.Decimal(1), decimal.Decimal(2)])

    return {"df": pd.DataFrame({"a": values(), "b": [1, 2]}), "s": pd.Series(values()),
            "rows": pd.DataFrame({"a": [1, 2]}, index=pd.Index(values())),
            "cols": pd.DataFrame([[1, 2]], columns=pd.Index(values())),
            "levels": pd.DataFrame({"a": [1, 2]}, index=pd.MultiIndex.from_arrays([values(), [1, 2]])),
            "labelled": pd.Series([1, 2], index=pd.Index(values()))}


def test_a_column_or_label_in_the_notebooks_own_array_type_is_not_read():
    frames = _notebook_array_frame()
    ns = {"__name__": "__main__", "__builtins__": builtins, **frames}
    cells = ["df['zz']", "df.a", "s.nope", "df.b.mean()", "print(df)", "print(s)", "s + 1"]
    for name in ("rows", "cols", "levels", "labelled"):
        cells += [f"{name}['zz']", f"{name}.nope", f"print({name})", f"{name}.loc['zz']", f"{name}.sort_values('zz')"]
    CALLS.clear()
    for cell in cells:
        run_checks(cell, ns)
        info = collect(cell, ns)
        assert all(v["summary"]["kind"] == "unavailable" for v in info["variables"] if v["name"] in frames), cell
    assert CALLS == [], sorted(set(CALLS))


def test_frames_of_pandas_own_arrays_are_still_read_and_claimed():
    """The twin: text, nullable integers, categories and dates in pandas' own arrays keep their
    summary and their claim, and the claimed KeyError really happens."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"t": pd.array(["x", "y"], dtype="string"), "n": pd.array([1, None], dtype="Int64"),
                          "c": pd.Categorical(["a", "b"]), "d": pd.date_range("2020-01-01", periods=2, tz="UTC"),
                          "f": [1.5, 2.5]})
    ns = {"__name__": "__main__", "__builtins__": builtins, "df": frame}
    crash = run_checks("df['zz']", ns).crash
    assert crash is not None and crash.exception == "KeyError"
    with pytest.raises(KeyError):
        exec("df['zz']", ns)
    summary = collect("df['zz']", ns)["variables"][0]["summary"]
    assert summary["kind"] != "unavailable" and len(summary["columns"]) == 5, summary
    # Row labels in a MultiIndex and a RangeIndex are pandas' own too (and in a DatetimeIndex, whose
    # frames pandas 2 leaves unmodelled: read, not claimed there).
    for index in (pd.MultiIndex.from_arrays([[1, 2], ["a", "b"]]), pd.RangeIndex(2)):
        ns["df"] = pd.DataFrame({"a": [1, 2]}, index=index)
        crash = run_checks("df['zz']", ns).crash
        assert crash is not None and crash.exception == "KeyError", index
        assert collect("df['zz']", ns)["variables"][0]["summary"]["kind"] != "unavailable"
    ns["df"] = pd.DataFrame({"a": [1, 2]}, index=pd.date_range("2020-01-01", periods=2))
    assert collect("df['zz']", ns)["variables"][0]["summary"]["kind"] != "unavailable"


def test_a_patched_pandas_method_never_runs_in_a_summary():
    """`pd.Series.to_numpy = ...` (or `_ixs`, `unique`): the runtime information reads no frame or
    series while pandas' own classes are changed, and reads them again once they are put back."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    ns = {"__name__": "__main__", "__builtins__": builtins, "df": frame, "s": frame["a"]}
    for cls, name in ((pd.Series, "to_numpy"), (pd.DataFrame, "_ixs"), (pd.Series, "unique")):
        original, own = getattr(cls, name), cls.__dict__.get(name)

        def loud(self, *args, _original=original, _name=name, **kwargs):
            CALLS.append(_name)
            return _original(self, *args, **kwargs)

        CALLS.clear()
        setattr(cls, name, loud)
        try:
            info = collect("df['a'] + s", ns)
        finally:
            if own is None:
                delattr(cls, name)
            else:
                setattr(cls, name, own)
        assert CALLS == [], (name, CALLS)
        assert [v["summary"]["kind"] for v in info["variables"]] == ["unavailable", "unavailable"], name
    info = collect("df['a'] + s", ns)
    assert all(v["summary"]["kind"] != "unavailable" for v in info["variables"]), info
