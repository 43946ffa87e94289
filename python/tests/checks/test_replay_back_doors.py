"""The replay against executed cells that reach the namespace, the builtins, objects' methods or the
recorded facts' meaning by back doors. Each executed cell runs for real through IPython (the
`shell` part of a case), the facts are recorded from the namespace it leaves, and the target then
runs for real: it runs clean, and the replay claims nothing. Twins without the back door keep the
claim, and really raise it."""

from __future__ import annotations

import pprint

import pytest

from crane_llm.checks import run_checks_on_facts
from crane_llm.checks.recorded_kernel import read_executed
from crane_llm.checks.replay import parse_runinfo
from exec_runner import CELL_BREAK, run_batch

PD = "import pandas as pd\nimport numpy as np\n"
SK = PD + "from sklearn.linear_model import LogisticRegression\nX = np.ones((4, 3))\n"

# (setup, executed through the shell, target): the target runs clean; the replay must not claim.
BACK_DOORS = [
    # names put into the builtins, or magics the shell then runs, out of the parser's sight
    ("", "get_ipython().builtin_trap.auto_builtins['y'] = 1", "print(y)"),
    ("", "import inspect\ndict(inspect.getmembers(print))['__se' + 'lf__'].y = 1", "print(y)"),
    ("", "ga = getattr\nga(print, '__se' + 'lf__').y = 1", "print(y)"),
    ("", "import functools\nfunctools.reduce(getattr, ['__se' + 'lf__'], print).y = 1", "print(y)"),
    ("", "import inspect\ninspect.getargvalues(inspect.currentframe()).locals['__buil' + 'tins__'].y = 1",
     "print(y)"),
    ("", "get_ipython().alias_manager.define_alias('showme', 'echo hi')", "showme"),
    ("", "get_ipython().register_magic_function(lambda line: None, 'line', 'hello')", "hello"),
    # a literal list changed through the shell's own tables
    ("lst = [0, 1]", "get_ipython().all_ns_refs[0]['lst'][0] = 5", "1 / lst[0]"),
    ("lst = [0, 1]", "get_ipython().Completer.namespace['lst'][0] = 5", "1 / lst[0]"),
    ("lst = [0, 1]", "import inspect\ninspect.getargvalues(inspect.currentframe()).locals['lst'][0] = 5",
     "1 / lst[0]"),
    # methods replaced on the recorded object itself
    (PD + "df = pd.DataFrame({'a': [1, 2]})", "df.drop = lambda *a, **k: pd.DataFrame({'zz': [0]})",
     "df.drop(columns=['zz'])"),
    (PD + "df = pd.DataFrame({'a': [1, 2]})", "df.head = lambda *a, **k: pd.DataFrame({'zz': [0]})",
     "df.head()['zz']"),
    (SK + "lr = LogisticRegression()", "lr.predict = lambda X: X", "lr.predict(X)"),
    # an automagic line whose argument IPython evaluates (`{...}` is expanded, quotes or not)
    ("lst = [0, 1]", "pwd [\"{lst.__setitem__(0, 5)}\"]", "1 / lst[0]"),
    # a property written through: the facts are read after it
    (PD + "df = pd.DataFrame({'a': [1, 2]})", "df.columns = ['zz']", "cols = df.columns\ndf['zz']"),
    (SK + "lr = LogisticRegression()", "import functools\nclass Pre:\n    def predict(X):\n        return X\n"
                                       "functools.update_wrapper(lr, Pre)", "lr.predict(X)"),
]

TWINS = [
    ("", "z = 1", "print(y)", "NameError", 1),
    ("lst = [0, 1]", "print(len(lst))", "1 / lst[0]", "ZeroDivisionError", 1),
    (PD + "df = pd.DataFrame({'a': [1, 2]})", "x = 1", "df.drop(columns=['zz'])", "KeyError", 1),
    (SK + "lr = LogisticRegression()", "x = 1", "lr.predict(X)", "NotFittedError", 1),
    # `.columns` written (on another frame) is pandas' property, which no write shadows
    (PD + "df = pd.DataFrame({'a': [1, 2]})\nd2 = pd.DataFrame({'b': [1]})", "d2.columns = ['c']",
     "cols = df.columns\ndf['zz']", "KeyError", 2),
]


def _cases(rows):
    return [{"setup": setup, "shell": shell, "cell": target, "replay": True, "replay_executed": True}
            for setup, shell, target, *_ in rows]


def test_back_doors_leave_the_replay_without_a_claim():
    for row, r in zip(BACK_DOORS, run_batch(_cases(BACK_DOORS))):
        assert r.get("setup_error") is None, (row, r)
        assert r.get("raised") is None, (row, r)
        assert r["replay_claim"] is None, (row, r)


def test_a_keras_named_class_whose_members_come_as_keywords_gets_no_claim():
    pytest.importorskip("keras")
    r, = run_batch(_cases([("import keras\nSeq = type('Sequential', (keras.Sequential,), dict("
                            "__module__='keras.src.models.sequential', load=lambda self: 0))\nmodel = Seq()",
                            "x = 1", "model.load()")]))
    assert r.get("setup_error") is None and r.get("raised") is None and r["replay_claim"] is None, r


def test_a_one_line_cell_run_as_a_magic_leaves_names_unknown():
    # (red team, 3 Dec) IPython runs `rehashx` as `%rehashx`, which makes an alias of every program
    r, = run_batch(_cases([("x = 1", "rehashx", "grep")]))
    if r.get("setup_error"):
        pytest.skip(f"this IPython's %rehashx fails here: {r['setup_error']}")
    assert r.get("raised") is None and r["replay_claim"] is None, r


def test_without_the_back_door_the_replay_claims():
    for row, r in zip(TWINS, run_batch(_cases(TWINS))):
        exception, line = row[3], row[4]
        assert r.get("setup_error") is None, (row, r)
        assert r["raised"]["exception"] == exception and r["raised"]["line"] == line, (row, r)
        assert r["replay_claim"]["exception"] == exception and r["replay_claim"]["line"] == line, (row, r)


def test_a_class_passing_itself_off_as_a_keras_model_leaves_its_attributes_unknown():
    cell = "class Sequential:\n    __module__ = 'keras.src.models.sequential'\n    def predict_classes(self, x):\n" \
           "        return 0\nmodel = Sequential()"
    assert read_executed([cell]).written is None
    facts = {"model": {"type": "<class 'keras.src.models.sequential.Sequential'>"}}
    assert run_checks_on_facts("model.predict_classes(1)", facts, executed=[cell]).crash is None


def test_a_last_drop_on_an_index_of_intervals_is_not_read_as_removing_the_row():
    import pandas as pd

    df = pd.DataFrame({"a": range(10)})
    df.index = pd.IntervalIndex.from_tuples([(i, i + 6) for i in range(10)])
    for _ in range(2):  # the executed cell and the target: neither raises KeyError
        with pytest.raises(Exception) as raised:
            df.drop([5], inplace=True)
        assert not isinstance(raised.value, KeyError)
    cells = ["import pandas as pd\ndf = pd.DataFrame({'a': range(10)})\n"
             "df.index = pd.IntervalIndex.from_tuples([(i, i + 6) for i in range(10)])", "df.drop([5], inplace=True)"]
    assert read_executed(cells).dropped_row is None
    assert read_executed([cells[0].split("\ndf.index")[0], cells[1]]).dropped_row == ("df", 5)


def _through_text(facts):
    """The facts as a JunoBench runinfo file holds them: printed by pprint (dicts sorted, labels shown
    by their reprs), then read back."""
    text = "# Current relevent runtime information:\n" + pprint.pformat(facts) + "\n# Target Cell:\n\nx\n"
    return parse_runinfo(text)[0]


@pytest.mark.parametrize("labels,target", [
    ("pd.to_datetime(['2020-01-01', '2020-01-02'])", "df['2020-01-01']"),
    ("pd.to_timedelta(['1 day', '2 days'])", "df['1 day']"),
    ("pd.period_range('2020-01', periods=2, freq='M')", "df['2020-01']"),
])
def test_labels_the_recording_only_showed_are_not_strings(labels, target):
    import numpy as np
    import pandas as pd

    df = pd.DataFrame(np.zeros((2, 2)), columns=eval(labels, {"pd": pd}))
    df[target[4:-2]]  # the label the cell names finds its column: the cell runs clean
    facts = _through_text({"df": {"type": "pandas.core.frame.DataFrame", "shape": (2, 2),
                                  "per_column": {c: {"type": "continuous"} for c in df.columns}}})
    assert run_checks_on_facts(target, facts, executed=["import pandas as pd\ndf = None"]).crash is None


def test_the_order_of_recorded_columns_is_not_taken_for_theirs():
    # pprint sorts: {'b': .., 'a': ..} comes back as a, b, while the frame's first column is 'b'
    facts = _through_text({"df": {"type": "pandas.core.frame.DataFrame", "shape": (1, 2),
                                  "per_column": {"b": {}, "a": {}}}})
    target = "first, second = df.columns\n{'b': 0}[first]"
    assert run_checks_on_facts(target, facts, executed=["import pandas as pd\ndf = pd.DataFrame({'b': [1], 'a': [2]})"]).crash is None
    assert run_checks_on_facts("df['zz']", facts, executed=["import pandas as pd\ndf = None"]).crash.exception == "KeyError"
