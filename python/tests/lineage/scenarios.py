"""Notebook sessions played in a real IPython shell with the recorder installed.

Each scenario yields a golden vector for libs/lineage/fixtures: the recorder's real log, the
crash's variables, the notebook's cells as they are at the end, and the origin entries. The
entries were reviewed by hand when written; `python -m tests.lineage.scenarios --write` (from
python/) regenerates the files, and test_golden.py fails when the recorder's log for a scenario
no longer matches its fixture.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

FIXTURES = Path(__file__).resolve().parents[3] / "libs" / "lineage" / "fixtures"


def new_shell():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell()
    shell.colors = "nocolor"
    return shell


class Notebook:
    """A notebook's cells and a kernel that runs them, as JupyterLab would."""

    def __init__(self, shell: Any, sources: List[str]):
        self.shell = shell
        self.cells = [{"cellId": "cell-%d" % (i + 1), "index": i, "source": s} for i, s in enumerate(sources)]

    def run(self, number: int, send_id: bool = True) -> Any:
        cell = self.cells[number - 1]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return self.shell.run_cell(cell["source"], store_history=True, cell_id=cell["cellId"] if send_id else None)

    def edit(self, number: int, source: str) -> None:
        self.cells[number - 1]["source"] = source


def _defined(shell: Any, variables: List[str]) -> List[str]:
    return [v for v in variables if v in shell.user_ns]


def _vector(description: str, nb: Notebook, variables: List[str], target: Optional[int], with_cells: bool = True) -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    log = recorder.current(nb.shell).to_json()
    return {
        "description": description,
        "input": {
            "log": log,
            "variables": variables,
            "defined": _defined(nb.shell, variables),
            "cells": [dict(c) for c in nb.cells] if with_cells else None,
            "targetCellId": nb.cells[target - 1]["cellId"] if target and with_cells else None,
        },
    }


def scenario_drop_in_place() -> Dict[str, Any]:
    """The README's example ("Origin of the crash"): load in cell 1, drop a column in place in cell 3, read it in 5."""
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "import pandas as pd\ndf = pd.DataFrame({'price': [1.0, 2.0], 'rooms': [3, 4]})",
        "df.head()",
        "# the price leaks the target\ndf.drop(columns=['price'], inplace=True)",
        "n = len(df)",
        "df['price'].mean()",
    ])
    for i in (1, 2, 3, 4):
        nb.run(i)
    return _vector("df loaded in cell 1, a column dropped in place in cell 3, read in cell 5", nb, ["df"], 5)


def scenario_rerun_drop() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "import pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [2], 'c': [3]})",
        "df['b'] *= 2",
        "df.drop('a', axis=1, inplace=True)\ndf['total'] = df['b'] + df['c']",
        "df[['a', 'b']]",
    ])
    nb.run(1)
    nb.run(2)
    nb.run(2)
    nb.run(3)
    nb.run(3)  # the second run raises KeyError at line 1: 'a' is already gone
    return _vector("cells re-run: an update applied twice, a drop whose second run raised", nb, ["df"], 4)


def scenario_not_run_out_of_order() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    sources = ["docs = ['a b', 'b c']", "from sklearn.feature_extraction.text import TfidfVectorizer"]
    sources += ["x%d = %d" % (i, i) for i in range(3, 12)]
    sources += ["tf_idf = TfidfVectorizer()\nX = tf_idf.fit_transform(docs)"]
    nb = Notebook(shell, sources[:5] + ["X.shape, tf_idf.vocabulary_"] + sources[5:])
    for i in (1, 2, 3):
        nb.run(i)
    return _vector("`tf_idf` is defined in a cell below the crashing one that never ran", nb, ["tf_idf", "X"], 6)


def scenario_raised_before_assignment() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "import numpy as np\nX = np.zeros((4, 3))",
        "X_scaled = X / X.std(axis=0)\nbad = X[10]\nfeatures = X_scaled[:, :2]",
        "features.shape",
    ])
    nb.run(1)
    nb.run(2)
    return _vector("the defining cell raised IndexError at line 2, before the assignment at line 3", nb, ["features", "X_scaled"], 3)


def scenario_user_function_mutates_globals() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "history = []\nconfig = {'lr': 0.1}",
        "def train(step):\n    global best\n    history.append(step)\n    config['lr'] /= 2\n    if step > 5:\n        best = step",
        "for s in range(3):\n    train(s)",
        "history[3], best",
    ])
    for i in (1, 2, 3):
        nb.run(i)
    return _vector("a user function appends to a global list and may assign another: maybe, never certain", nb,
                   ["history", "best", "config"], 4)


def scenario_cell_magic_path() -> Dict[str, Any]:
    """No notebook cells (the %%crane_llm magic): deletions and a %reset, from the log alone."""
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "a = [1, 2]\nb = {'k': 1}\nc = 3",
        "a.extend([3])\ndel b['k']\ndel c",
        "%reset -f",
        "a = 5",
    ])
    for i in (1, 2, 3, 4):
        nb.run(i, send_id=False)
    return _vector("cell magic: no cell ids, no notebook; del and %reset explain missing names", nb,
                   ["a", "b", "c"], None, with_cells=False)


def scenario_recording_began_late() -> Dict[str, Any]:
    """`%load_ext crane_llm` in the third cell: the first two are known from their code only."""
    from crane_llm.lineage import recorder

    shell = new_shell()
    nb = Notebook(shell, [
        "import numpy as np\nweights = np.ones(3)",
        "weights *= 2",
        "%load_ext crane_llm",
        "np.add(weights, 1, out=weights)",
        "weights.reshape(2, 2)",
    ])
    nb.run(1, send_id=False)
    nb.run(2, send_id=False)
    nb.run(3)
    nb.run(4)
    assert recorder.current(shell) is not None
    return _vector("cells run before %load_ext are matched to notebook cells by their code and marked", nb,
                   ["weights"], 5)


def scenario_edited_since_run() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "import pandas as pd\nraw = pd.DataFrame({'y': [0, 1]})",
        "labels = raw['y']",
        "clean = raw.dropna()",
        "clean.shape, labels.sum(), feature",
        "raw.head()",
    ])
    nb.run(1)
    nb.run(2)
    nb.run(3)
    nb.run(5)
    nb.edit(5, "feature = raw['y'] * 2")
    shell.run_cell("del clean", store_history=True)  # an unsaved scratch cell
    nb.edit(2, "labels = raw['y']\nlabels.name = 'target'")
    nb.edit(3, "x = 1")
    return _vector("cells edited after they ran are flagged; a deleted variable's definer was edited away", nb,
                   ["labels", "clean", "feature"], 4)


def scenario_conditional_and_syntax() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "debug = False\nif debug:\n    sample = 10",
        "limit = (\n",
        "sample + limit",
    ])
    nb.run(1)
    nb.run(2)
    return _vector("an assignment in an if branch not taken, and a SyntaxError cell", nb, ["sample", "limit"], 3)


def scenario_model_fit_and_run_script() -> Dict[str, Any]:
    from crane_llm.lineage import recorder

    shell = new_shell()
    recorder.install(shell)
    nb = Notebook(shell, [
        "%run prepare.py",
        "from sklearn.linear_model import LogisticRegression\nmodel = LogisticRegression()",
        "model.fit(X_train, y_train)",
        "model.predict(X_train[:, :1])",
    ])
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "prepare.py").write_text(
            "import numpy as np\nX_train = np.arange(8.0).reshape(4, 2)\ny_train = np.array([0, 1, 0, 1])\n"
        )
        os.chdir(tmp)
        try:
            for i in (1, 2, 3):
                nb.run(i)
        finally:
            os.chdir(here)
    return _vector("%run of a script assigns X_train; a model fitted in a later cell", nb, ["model", "X_train"], 4)


def scenario_inferred_existence() -> Dict[str, Any]:
    """`defined` unknown (null): existence judged from the log."""
    vector = scenario_cell_magic_path()
    vector["description"] = "existence judged from the log alone when the caller does not say"
    vector["input"]["defined"] = None
    return vector


SCENARIOS = {
    "drop-in-place": scenario_drop_in_place,
    "rerun-drop": scenario_rerun_drop,
    "not-run-out-of-order": scenario_not_run_out_of_order,
    "raised-before-assignment": scenario_raised_before_assignment,
    "user-function-globals": scenario_user_function_mutates_globals,
    "cell-magic-path": scenario_cell_magic_path,
    "recording-began-late": scenario_recording_began_late,
    "edited-since-run": scenario_edited_since_run,
    "conditional-and-syntax": scenario_conditional_and_syntax,
    "fit-and-run-script": scenario_model_fit_and_run_script,
    "inferred-existence": scenario_inferred_existence,
}


def build(name: str) -> Dict[str, Any]:
    from crane_llm.lineage.origin import origin

    vector = SCENARIOS[name]()
    i = vector["input"]
    vector["expected"] = origin(i["log"], i["variables"], i["defined"], i["cells"], i["targetCellId"])
    return vector


DEFINES_CASES = [
    "import numpy as np, pandas as pd\nfrom sklearn.x import (A, B as C)",
    "# tf_idf = 1\ns = \"tf_idf = 2\"\n'''\nz = 3\n'''",
    "def f(a):\n    tf = 3\n    return a\nclass K:\n    z = 1\nafter = 2",
    "for i, (j, k) in enumerate(x): pass\nwith open(p) as fh, open(q) as g:\n    w = 1",
    "if a == b: u = 2\nx += 1\ny: int = 4\na = b = c\nd[0] = 1\nd.attr = 2",
    "t = (\n  v := 5)\n(w := 6)\ntry:\n    m = 1\nexcept E as err:\n    pass",
    "%time q = 1\n!ls\nr = 1; s = 2\nx == 3",
    "async def g():\n    pass\nlambda_ = lambda k=1: k",
]


def write() -> None:
    from crane_llm.lineage.defines import binding_lines

    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name in SCENARIOS:
        text = json.dumps(build(name), indent=2, ensure_ascii=False) + "\n"
        (FIXTURES / (name + ".json")).write_text(text, encoding="utf-8")
    cases = [{"source": s, "bindings": [list(b) for b in binding_lines(s)]} for s in DEFINES_CASES]
    (FIXTURES / "defines.json").write_text(json.dumps(cases, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    if "--write" in sys.argv:
        write()
    else:
        for name in SCENARIOS:
            print(json.dumps(build(name)["expected"], indent=1))
