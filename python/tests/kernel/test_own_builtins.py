"""A check runs on the interpreter's own builtins (kernel/own_builtins.py): a builtin the notebook
replaced is never called while the kernel entry reads the request, runs the checks, summarises
the variables and builds the reply; the cell is still judged by the notebook's builtins (which it
will run with), and the notebook's builtins are back in place afterwards."""

import builtins
import json

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.checks.provenance import NOTEBOOK_BUILTINS
from crane_llm.kernel import entry
from crane_llm.lineage import recorder

SETUP = ("import numpy as np\nimport pandas as pd\n"
         "df = pd.DataFrame({'a': [1, 2, 3], 'b': ['x', 'y', 'z']})\nlst = [1, 2, 3]\narr = np.zeros((2, 3))")
# Each with the claim it gets while the builtins are the interpreter's own.
CELLS = {"df['zz']": "KeyError", "lst[5]": "IndexError", "df.head()\nundefined_q": "NameError",
         "arr @ arr": "ValueError"}
REPLACED = ("len", "isinstance", "issubclass", "getattr", "hasattr", "setattr", "iter", "next", "sorted", "repr",
            "id", "hash", "min", "max", "any", "all", "sum", "callable", "vars", "dir", "print", "__import__",
            "__build_class__")


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    recorder.install(sh)
    sh.run_cell(SETUP, store_history=True)
    yield sh
    recorder.uninstall(sh)


def request(source, use_llm):
    # Made before any builtin is replaced: json.dumps calls them.
    return json.dumps({"protocol": 1, "source": source, "cellId": None, "useLlm": use_llm, "includeRuntimeInfo": True})


def reply(source, use_llm):
    return entry.check(request(source, use_llm))._repr_json_()


class Replaced:
    """The notebook's builtins, each a function of its own that counts its calls."""

    def __init__(self, names, body=None):
        self.calls = []
        self.saved = {name: builtins.__dict__[name] for name in names}
        self.mine = {name: self._counting(name, real, body) for name, real in self.saved.items()}

    def _counting(self, name, real, body):
        calls = self.calls

        def notebooks(*args, **kwargs):
            calls.append(name)
            return body(*args) if body is not None else real(*args, **kwargs)

        return notebooks

    def __enter__(self):
        builtins.__dict__.update(self.mine)
        return self

    def __exit__(self, *exc):
        builtins.__dict__.update(self.saved)


@pytest.mark.parametrize("use_llm", [True, False])
def test_a_replaced_builtin_is_never_called_by_a_check(shell, use_llm):
    requests = [(cell, request(cell, use_llm)) for cell in CELLS]
    with Replaced(REPLACED) as notebook:
        answers = {cell: entry.check(text)._repr_json_() for cell, text in requests}
        calls = list(notebook.calls)
        # The notebook's builtins are back once each check ended.
        assert all(builtins.__dict__[name] is fn for name, fn in notebook.mine.items())
    assert calls == []
    assert NOTEBOOK_BUILTINS == []
    for cell, answer in answers.items():
        assert answer["problem"] is None, cell
        # The cell runs with the notebook's builtins, and library code it calls would call them: no claim.
        assert answer["checks"]["crash"] is None, cell
        assert "builtin was replaced" in answer["checks"]["stoppedAt"]["reason"], cell
    if use_llm:  # the summaries are still made, on the interpreter's builtins
        summarised = {v["name"] for a in answers.values() for v in a["runtimeInfo"]["variables"]}
        assert {"df", "lst", "arr"} <= summarised


def test_with_the_builtins_genuine_the_same_cells_are_claimed(shell):
    for cell, exception in CELLS.items():
        crash = reply(cell, use_llm=False)["checks"]["crash"]
        assert crash is not None and crash["exception"] == exception, cell


def test_the_cell_is_judged_by_the_notebooks_builtins(shell):
    """`len(5)` raises TypeError with Python's len; with the notebook's it runs clean, and the check
    (which runs on Python's len itself) claims nothing."""
    assert reply("len(5)", use_llm=False)["checks"]["crash"]["exception"] == "TypeError"
    text = request("len(5)", use_llm=False)
    real_len = builtins.len
    with Replaced(("len",), body=lambda obj: 0 if type(obj) is int else real_len(obj)) as notebook:
        answer = entry.check(text)._repr_json_()
        assert notebook.calls == []
        ran = shell.run_cell("len(5)")
        assert "len" in notebook.calls
    assert answer["checks"]["crash"] is None
    assert ran.error_in_exec is None


def test_a_removed_builtin_stays_removed(shell):
    saved = builtins.sorted
    del builtins.sorted
    try:
        answer = reply("sorted(lst)\nundefined_q", use_llm=True)
        assert "sorted" not in builtins.__dict__
        ran = shell.run_cell("sorted(lst)")
    finally:
        builtins.sorted = saved
    assert answer["problem"] is None and answer["checks"]["crash"] is None
    assert type(ran.error_in_exec) is NameError


def test_the_magics_gather_inside_a_check_keeps_the_notebooks_view(shell):
    """The magic's flow calls gather, which swaps again only when no check is already running: the
    nested call must not take the swapped builtins for the notebook's."""
    with Replaced(("len",)) as notebook:
        with entry.interpreters_builtins():
            facts = entry.gather({"protocol": 1, "source": "lst[5]", "useLlm": False, "includeRuntimeInfo": True},
                                 shell.user_ns, shell)
            assert builtins.len is notebook.saved["len"]
        assert builtins.len is notebook.mine["len"]
    assert notebook.calls == []
    assert facts["checks"]["crash"] is None
