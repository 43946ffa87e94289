"""The recorder on real executions in an IPython shell."""

import contextlib
import io
import json
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm.kernel import entry, history
from crane_llm.lineage import recorder
from crane_llm.lineage.origin import origin
from crane_llm.prompt import executed_cells


@pytest.fixture
def shell():
    sh = InteractiveShell()
    yield sh
    recorder.uninstall(sh)


def run(sh, code, cell_id=None, **kwargs):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return sh.run_cell(code, store_history=kwargs.pop("store_history", True), cell_id=cell_id, **kwargs)


def runs(sh):
    return recorder.current(sh).to_json()["runs"]


def runs_log(sh):
    return recorder.current(sh).to_json()


def effects_of(run_json, name=None):
    return [(e["name"], e["line"], e["op"], e["how"], e["status"]) for e in run_json["effects"]
            if name is None or e["name"] == name]


def test_not_installed_means_no_log_and_history_falls_back(shell):
    assert recorder.current(shell) is None
    run(shell, "a = 1")
    log = history.execution_log(shell).to_json()
    assert executed_cells({"log": log}) == [{"executionCount": 1, "cellId": None, "code": "a = 1"}]
    assert log["runs"][0]["recorded"] is False


def test_records_cell_id_count_and_source_in_order(shell):
    recorder.install(shell)
    run(shell, "x = 1", "id-a")
    run(shell, "y = x + 1", "id-b")
    run(shell, "x = 5", "id-a")
    cells = executed_cells({"log": runs_log(shell)})
    assert cells == [
        {"executionCount": 1, "cellId": "id-a", "code": "x = 1"},
        {"executionCount": 2, "cellId": "id-b", "code": "y = x + 1"},
        {"executionCount": 3, "cellId": "id-a", "code": "x = 5"},
    ]
    assert executed_cells({"log": history.execution_log(shell).to_json()}) == cells  # what the prompt reads


def test_silent_executions_are_not_recorded(shell):
    recorder.install(shell)
    run(shell, "x = 1", "a")
    run(shell, "y = 2", silent=True)
    run(shell, "   ")
    assert [r["code"] for r in runs(shell)] == ["x = 1"]


def test_cell_that_raises_midway(shell):
    recorder.install(shell)
    run(shell, "a = 1\nb = [0][3]\nc = 2\nd = 3", "cell")
    [r] = runs(shell)
    assert r["raised"] == {"exception": "IndexError", "line": 2, "beforeExecution": False}
    assert effects_of(r) == [
        ("a", 1, "assign", "assign", "done"),
        ("b", 2, "assign", "assign", "skipped"),
        ("c", 3, "assign", "assign", "skipped"),
        ("d", 4, "assign", "assign", "skipped"),
    ]
    assert "a" in shell.user_ns and "c" not in shell.user_ns  # the log agrees with the kernel


def test_raise_inside_a_function_defined_in_the_same_cell_points_at_the_call(shell):
    recorder.install(shell)
    run(shell, "def f():\n    return 1 / 0\n\nz = 1\nw = f()\nv = 2")
    [r] = runs(shell)
    assert r["raised"]["line"] == 5 and r["raised"]["exception"] == "ZeroDivisionError"
    assert effects_of(r, "z")[0][-1] == "done"
    assert effects_of(r, "w")[0][-1] == "skipped" and effects_of(r, "v")[0][-1] == "skipped"


def test_raise_inside_a_loop_leaves_earlier_iterations_possible(shell):
    recorder.install(shell)
    run(shell, "acc = []\nfor i in range(5):\n    acc.append(i)\n    if i == 2:\n        raise ValueError\ndone = 1")
    [r] = runs(shell)
    assert r["raised"]["line"] == 5
    assert effects_of(r, "acc") == [("acc", 1, "assign", "assign", "done"), ("acc", 3, "modify", "method", "maybe")]
    assert effects_of(r, "done")[0][-1] == "skipped"


def test_syntax_error_ran_nothing(shell):
    recorder.install(shell)
    run(shell, "q = 1\nr = (", "s")
    [r] = runs(shell)
    assert r["raised"]["beforeExecution"] is True and r["raised"]["exception"] == "SyntaxError"
    assert {e["status"] for e in r["effects"]} == {"skipped"}
    assert "q" not in shell.user_ns


def test_reruns_of_the_same_cell_are_separate_runs(shell):
    recorder.install(shell)
    run(shell, "items = []", "c1")
    run(shell, "items.append(1)", "c2")
    run(shell, "items.append(1)", "c2")
    r = runs(shell)
    assert [(x["cellId"], x["executionCount"]) for x in r] == [("c1", 1), ("c2", 2), ("c2", 3)]
    entries = origin(recorder.current(shell).to_json(), ["items"], list(shell.user_ns))
    assert [e["kind"] for e in entries] == ["assigned", "modified", "modified"]
    assert entries[2]["sentence"] == "In [3], line 1, appended to `items`, again."


def test_in_place_modifications_are_recorded(shell):
    pytest.importorskip("pandas")
    pytest.importorskip("sklearn")
    recorder.install(shell)
    run(shell, "import numpy as np, pandas as pd\nfrom sklearn.preprocessing import StandardScaler\n"
               "df = pd.DataFrame({'a': [1.0, None], 'b': [1, 2]})\narr = np.zeros(3)\nd = {}\nsc = StandardScaler()")
    code = ("df.dropna(inplace=True)\n"
            "df['c'] = 1\n"
            "df.b += 1\n"
            "del df['c']\n"
            "arr *= 2\n"
            "np.multiply(arr, 3, out=arr)\n"
            "d.update(k=1)\n"
            "sc.fit(df)\n"
            "arr2 = arr.copy()\n"
            "df2 = df.dropna(inplace=True)")
    run(shell, code, "m")
    r = runs(shell)[1]
    got = [(e["name"], e["line"], e["op"], e["how"], e["detail"], e["status"]) for e in r["effects"]]
    assert got == [
        ("df", 1, "modify", "inplace", "dropna", "done"),
        ("df", 2, "modify", "item-store", None, "done"),
        ("df", 3, "modify", "augmented", "+=", "done"),
        ("df", 4, "modify", "item-delete", None, "done"),
        ("arr", 5, "modify", "augmented", "*=", "done"),
        ("arr", 6, "modify", "out", "np.multiply", "done"),
        ("d", 7, "modify", "method", "update", "done"),
        ("sc", 8, "modify", "fit", "fit", "done"),
        ("arr2", 9, "assign", "assign", None, "done"),
        ("df", 10, "modify", "inplace", "dropna", "done"),
        ("df2", 10, "assign", "assign-none", "dropna", "done"),
    ]


def test_functions_mutating_globals_are_unknown_never_certain(shell):
    recorder.install(shell)
    run(shell, "data = [1]\nstats = {}\ntotal = 0", "c1")
    run(shell, "def helper():\n    stats['n'] = len(data)\n\n"
               "def bump(xs):\n    global total\n    total += 1\n    xs.append(2)\n    helper()", "c2")
    run(shell, "bump(data)", "c3")
    r3 = runs(shell)[2]
    got = {(e["name"], e["op"]): e for e in r3["effects"]}
    assert {k for k in got} == {("data", "modify"), ("total", "modify"), ("stats", "modify")}
    assert all(e["status"] == "maybe" and e["how"] == "call" and e["detail"] == "bump" for e in got.values())
    # and the lineage says "may", never that it did
    entries = origin(recorder.current(shell).to_json(), ["data", "stats", "total"], list(shell.user_ns))
    maybes = [e for e in entries if e["executionCount"] == 3]
    assert [e["kind"] for e in maybes] == ["maybe", "maybe", "maybe"]
    assert maybes[0]["sentence"] == "In [3], line 1, called `bump`, which may modify `data`."


def test_redefined_function_is_no_longer_a_user_function(shell):
    recorder.install(shell)
    run(shell, "xs = []\ndef f(a):\n    a.append(1)")
    run(shell, "f = len")
    run(shell, "f(xs)")
    assert runs(shell)[2]["effects"] == []


def test_percent_run_of_a_file(shell, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("prep.py").write_text("import math\nrate = 0.5\n\ndef scale(v):\n    return v * rate\n")
    recorder.install(shell)
    run(shell, "%run prep.py", "r1")
    run(shell, "y = scale(2)", "r2")
    Path("prep.py").write_text("changed = 1\n")  # the log keeps the text that ran
    r = runs(shell)
    got = [(e["name"], e["line"], e["how"], e["via"], e["status"]) for e in r[0]["effects"]]
    assert got == [
        ("math", 1, "run", "prep.py:1", "done"),
        ("rate", 1, "run", "prep.py:2", "done"),
        ("scale", 1, "run", "prep.py:4", "done"),
    ]
    assert shell.user_ns["y"] == 1.0
    entries = origin(recorder.current(shell).to_json(), ["rate"], list(shell.user_ns))
    assert entries[0]["sentence"] == "In [1], line 1, assigned `rate` by running prep.py:2."


def test_percent_run_that_raises_leaves_its_names_possible(shell, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.py").write_text("first = 1\nraise RuntimeError('x')\nsecond = 2\n")
    recorder.install(shell)
    run(shell, "before = 0\n%run bad.py\nafter = 1")
    [r] = runs(shell)
    assert r["raised"] is None  # %run shows the script's exception itself; the cell goes on
    status = {e["name"]: (e["status"], e["why"]) for e in r["effects"]}
    assert status == {"before": ("done", None), "first": ("done", None), "second": ("maybe", "script-raised"),
                      "after": ("done", None)}
    assert "first" in shell.user_ns and "second" not in shell.user_ns and "after" in shell.user_ns
    [entry_] = origin(recorder.current(shell).to_json(), ["second"], list(shell.user_ns))
    assert entry_["kind"] == "conditional"
    assert entry_["sentence"] == ("In [1] assigns `second` at line 2 in a script that raised before it finished; "
                                  "it did not, since `second` is not defined now.")


def test_line_and_cell_magics(shell):
    recorder.install(shell)
    run(shell, "%time t = 1\nu = 2")
    run(shell, "%%capture out\nv = 3\nw = [v]")
    run(shell, "%%time\nz = 9")
    r = runs(shell)
    assert [(e["name"], e["line"]) for e in r[0]["effects"]] == [("t", 1), ("u", 2)]
    assert [(e["name"], e["line"], e["how"]) for e in r[1]["effects"]] == [
        ("out", 1, "magic"), ("v", 2, "assign"), ("w", 3, "assign")]
    assert [(e["name"], e["line"]) for e in r[2]["effects"]] == [("z", 2)]
    assert len(r) == 3  # %%capture's inner run_cell is part of its cell, not a run of its own
    assert shell.user_ns["w"] == [3]


def test_reset_and_del(shell):
    recorder.install(shell)
    run(shell, "a = 1\nb = 2")
    run(shell, "del a")
    run(shell, "%reset -f")
    assert recorder.current(shell) is not None  # the recorder survives %reset: it is not in user_ns
    run(shell, "c = 3")
    r = runs(shell)
    assert effects_of(r[1]) == [("a", 1, "delete", "del", "done")]
    assert effects_of(r[2]) == [("*", 1, "delete", "reset", "done")]
    entries = origin(recorder.current(shell).to_json(), ["b"], list(shell.user_ns))
    assert [e["kind"] for e in entries] == ["assigned", "deleted"]
    assert entries[1]["sentence"] == "In [3], line 1, deleted every variable with %reset."


def test_install_is_idempotent_and_reinstall_resumes(shell):
    log = recorder.install(shell)
    assert recorder.install(shell) is log
    callbacks = [c for c in shell.events.callbacks["post_run_cell"] if getattr(c, "__self__", None) is not None]
    assert len(callbacks) == 1
    run(shell, "a = 1")
    recorder.uninstall(shell)
    assert recorder.current(shell) is None
    run(shell, "b = 2")  # not recorded: uninstalled
    assert recorder.install(shell) is log
    run(shell, "%reset -f")
    recorder.install(shell)  # the front end re-installs on every kernel start; harmless here
    run(shell, "c = 3")
    assert [r["code"] for r in log.to_json()["runs"]] == ["a = 1", "%reset -f", "c = 3"]


def test_kernel_restart_is_a_new_shell_with_a_new_log():
    first = InteractiveShell()
    recorder.install(first)
    run(first, "a = 1")
    second = InteractiveShell()  # a restarted kernel: a new process, a new shell
    log = recorder.install(second)
    assert log.to_json()["runs"] == []
    run(second, "b = 2")
    assert [r["code"] for r in log.to_json()["runs"]] == ["b = 2"]
    recorder.uninstall(first)
    recorder.uninstall(second)


def test_load_ext_marks_earlier_cells_known_from_code_only(shell):
    run(shell, "a = 1")
    run(shell, "b = a + 1")
    run(shell, "%load_ext crane_llm", "c3")
    run(shell, "c = b", "c4")
    r = runs(shell)
    assert [(x["executionCount"], x["recorded"], x["cellId"]) for x in r] == [
        (1, False, None), (2, False, None), (3, True, "c3"), (4, True, "c4")]


def test_check_result_carries_the_log_and_validates(shell):
    jsonschema = pytest.importorskip("jsonschema")
    recorder.install(shell)
    run(shell, "import pandas as pd\ndf = pd.DataFrame({'a': [1]})", "c1")
    run(shell, "df.drop(columns=['a'], inplace=True)", "c2")
    result = entry.gather({"protocol": 1, "source": "df['a']", "cellId": "c3", "useLlm": False,
                           "includeRuntimeInfo": True}, shell.user_ns, shell)
    schema_dir = Path(entry.__file__).resolve().parents[1] / "schema"
    jsonschema.validate(result, json.loads((schema_dir / "check-result.json").read_text()))
    assert [r["cellId"] for r in result["log"]["runs"]] == ["c1", "c2"]
    variables = (result["checks"]["crash"] or {}).get("variables") or ["df"]
    entries = origin(result["log"], variables, result["usedNames"])
    assert [(e["cellId"], e["kind"], e["line"]) for e in entries] == [("c1", "assigned", 2), ("c2", "modified", 1)]
    problem = entry.problem_reply("internal", "x")
    assert problem["log"] is None


def test_recording_failure_never_reaches_the_user(shell, monkeypatch):
    recorder.install(shell)

    def boom(*a, **k):
        raise RuntimeError("recorder bug")

    monkeypatch.setattr(recorder, "_raised", boom)
    result = run(shell, "x = 1")
    assert result.success and shell.user_ns["x"] == 1


def test_origin_for_the_cell_magic_path(shell):
    assert recorder.origin_for(shell, ["df"]) == []  # not installed: nothing to say
    recorder.install(shell)
    run(shell, "xs = [1]")
    run(shell, "xs.pop()\nys = xs[0]")
    entries = recorder.origin_for(shell, ["xs[0]", "ys"])
    assert [(e["variable"], e["kind"], e["executionCount"], e["line"]) for e in entries] == [
        ("xs", "assigned", 1, 1), ("xs", "modified", 2, 1), ("ys", "raised-before", 2, 2)]
    assert entries[1]["sentence"] == "In [2], line 1, popped from `xs`."
    assert entries[2]["sentence"] == "In [2] raised IndexError at line 2, in the statement that assigns `ys`."


def test_magic_bodies_that_raise_are_never_certain(shell):
    recorder.install(shell)
    run(shell, "%%time\na = 1\nb = [][1]\nc = 2")  # the error propagates out of %%time
    run(shell, "%%capture out\nd = 1\ne = [][1]\nf = 2")  # %%capture shows it and the cell goes on
    run(shell, "%%capture\nh = 1")
    r = runs(shell)
    # IPython 9's %%time lets the error out of the cell; 8.x shows it and the cell goes on
    assert r[0]["raised"] is None or r[0]["raised"]["exception"] == "IndexError"
    assert {(e["name"], e["status"]) for e in r[0]["effects"]} == {("a", "maybe"), ("b", "maybe"), ("c", "maybe")}
    assert r[1]["raised"] is None
    assert [(e["name"], e["status"], e["why"]) for e in r[1]["effects"]] == [
        ("out", "done", None), ("d", "maybe", "magic-raised"), ("e", "maybe", "magic-raised"), ("f", "maybe", "magic-raised")]
    assert [(e["name"], e["status"]) for e in r[2]["effects"]] == [("h", "done")]
    assert "a" in shell.user_ns and "d" in shell.user_ns and "f" not in shell.user_ns


def test_executed_cells_say_which_raised_and_where(shell):
    from crane_llm.prompt.from_check import executed_cells

    recorder.install(shell)
    run(shell, "a = 1")
    run(shell, "b = a\nc = b / 0")
    run(shell, "d = 2")
    cells = executed_cells({"log": recorder.current(shell).to_json()})
    assert "raised" not in cells[0] and "raised" not in cells[2]
    assert cells[1]["raised"] == {"exception": "ZeroDivisionError", "line": 2}


def test_history_lists_the_notebook_replaced_are_not_indexed_when_recording_starts(shell):
    """The cells run before recording are read from the history manager's lists; a notebook that
    put a list subclass there would have its `__getitem__` run by slicing: those are skipped."""
    run(shell, "x = 1")
    run(shell, "class Spy(list):\n    def __getitem__(self, i):\n        raise RuntimeError('ran')\n"
               "    def __iter__(self):\n        raise RuntimeError('ran')\n"
               "get_ipython().history_manager.input_hist_raw = Spy(get_ipython().history_manager.input_hist_raw)")
    recorder.install(shell)
    assert recorder.current(shell).to_json()["runs"] == []
    run(shell, "y = 2")
    assert [r["code"] for r in runs(shell)] == ["y = 2"]


def test_the_cells_run_before_recording_are_taken_from_the_plain_history(shell):
    run(shell, "x = 1")
    run(shell, "y = x + 1")
    recorder.install(shell)
    assert [(r["code"], r["recorded"]) for r in runs(shell)] == [("x = 1", False), ("y = x + 1", False)]
