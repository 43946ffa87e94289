"""`crane-llm check` end to end: real kernels (nbclient), the real local OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema
import nbformat
import pytest

from crane_llm.cli import main
from crane_llm_testing.fake_openai import verdict_text


def write_notebook(path, cells):
    """cells: strings are code cells; ("md", text) is a markdown cell."""
    nb = nbformat.v4.new_notebook()
    for cell in cells:
        if isinstance(cell, tuple):
            nb.cells.append(nbformat.v4.new_markdown_cell(cell[1]))
        else:
            nb.cells.append(nbformat.v4.new_code_cell(cell))
    nbformat.write(nb, str(path))
    return str(path)


# `--json` answers in the shape the MCP tool and the JupyterLab command share.
ANSWER_SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "crane_llm" / "schema" / "check-answer.json").read_text())


def json_report(out: str) -> dict:
    report = json.loads(out)
    jsonschema.validate(report, ANSWER_SCHEMA)
    return report


FRAME = "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2, 3]})"


@pytest.fixture
def fake(settings_from_fake):
    return settings_from_fake


@pytest.fixture
def env(settings_from_fake):
    """A clean settings environment pointing at the local server; the tests run in tmp_path."""
    return settings_from_fake


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_certain_crash_needs_no_model_and_exits_1(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", [("md", "# title"), FRAME, "df['nope']"])
    code, out, err = run(capsys, "check", nb, "--cell", "2", "--no-llm")
    assert code == 1
    assert "Cell 2: This cell will crash: KeyError at line 1" in out
    assert "Built-in check · certain" in out
    assert "Origin of the crash:\n    - Cell 1 (In [1]), line 2, assigned `df`." in out
    assert "Running cell 1 (1 of 1)" in err  # the progress line
    assert env.requests() == []


def test_json_report_of_a_certain_crash(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", [("md", "# Title"), FRAME, "df['nope']"])
    code, out, _ = run(capsys, "check", nb, "--cell", "2", "--json")
    report = json_report(out)
    assert code == report["exitCode"] == 1
    assert (report["cell"], report["cellIndex"]) == (2, 2)  # 2nd code cell, 3rd cell of all
    assert report["verdict"]["kind"] == "certain-crash"
    assert report["verdict"]["exception"] == "KeyError"
    assert report["checks"]["crash"]["rule"]
    assert env.requests() == []  # certain: the model is not asked, even with the LLM on


def test_crash_predicted_by_the_model_without_running_the_cell(env, tmp_path, capsys):
    env.script({"text": verdict_text(True, "the sum of a string column fails", "TypeError", 2, ["df"])})
    target = "open('target-ran.txt', 'w').write('x')\ntotal = df['a'].sum()"
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, target])
    code, out, _err = run(capsys, "check", nb, "--cell", "2")
    assert code == 1
    assert "Crash predicted: TypeError at line 2" in out
    assert "LLM prediction · fake-model" in out
    assert "The built-in checker ran first and found no certain crash." in out
    assert re.search(r"^  Tokens: 100 in, \d+ out$", out, re.M), out  # what the fake server reported
    assert not (tmp_path / "target-ran.txt").exists()  # the target cell never ran
    (request,) = env.requests()
    prompt = request["body"]["messages"][1]["content"]
    assert "# Current relevant runtime information:" in prompt
    assert "df (pandas.DataFrame): shape (3, 1)" in prompt
    assert prompt.rstrip().endswith(target)
    assert "## Cell 1:\n" + FRAME in prompt


def test_no_crash_predicted_exits_0(env, tmp_path, capsys):
    env.script({"text": verdict_text(False, "df has column a")})
    # The cells run in the notebook's own directory, wherever the command is started from.
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "data.txt").write_text("a")
    nb = write_notebook(folder / "n.ipynb", [FRAME + "\ncolumn = open('data.txt').read()", "total = df[column].sum()"])
    code, out, _ = run(capsys, "check", nb, "--cell", "2", "--model", "other-model")
    assert code == 0
    assert "Cell 2: No crash predicted  [LLM prediction · other-model]" in out
    assert env.requests()[0]["body"]["model"] == "other-model"


def test_unreadable_answer_exits_2_and_shows_it(env, tmp_path, capsys):
    env.script({"text": "I think it is probably fine."})
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, "total = df['a'].sum()"])
    code, out, _ = run(capsys, "check", nb, "--cell", "2")
    assert code == 2
    assert "could not be read as a verdict" in out
    assert "I think it is probably fine." in out


def test_no_runinfo_sends_the_code_alone(env, tmp_path, capsys):
    env.script({"text": verdict_text(False, "fine")})
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, "df['nope']"])
    code, _out, _ = run(capsys, "check", nb, "--cell", "2", "--no-runinfo")
    # The checks read live state, so with runtime information off they do not run: the model decides.
    assert code == 0
    prompt = env.requests()[0]["body"]["messages"][1]["content"]
    assert "runtime information" not in prompt
    assert "df['nope']" in prompt


def test_an_earlier_cell_that_fails_stops_the_check(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, "1 / 0", "x = 1", "df['nope']"])
    code, out, err = run(capsys, "check", nb, "--cell", "4", "--no-llm")
    assert code == 2
    assert out == ""
    assert "Stopped: Cell 2 raised ZeroDivisionError: division by zero, so cell 4 was not checked" in err
    assert "--keep-going" in err
    assert "Running cell 3" not in err
    code, out, _ = run(capsys, "check", nb, "--cell", "4", "--no-llm", "--json")
    report = json_report(out)
    assert code == report["exitCode"] == 2
    assert report["problem"]["kind"] == "earlier-cell"
    assert report["failedCells"] == [{"cell": 2, "ename": "ZeroDivisionError", "evalue": "division by zero"}]


def test_keep_going_runs_the_rest_and_says_which_cell_failed(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, "1 / 0", "df['nope']"])
    code, out, err = run(capsys, "check", nb, "--cell", "3", "--no-llm", "--keep-going")
    assert code == 1
    assert "KeyError" in out
    assert "Note: cell 2 raised ZeroDivisionError" in out
    assert "Warning: Cell 2 raised ZeroDivisionError" in err


def test_keep_going_tells_the_model_which_executed_cell_raised(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, "x = 1\ny = x / 0", "z = df['a'].sum()"])
    run(capsys, "check", nb, "--cell", "3", "--keep-going")
    (request,) = env.requests()
    prompt = request["body"]["messages"][1]["content"]
    system = request["body"]["messages"][0]["content"]
    assert "## Cell 2 (it raised ZeroDivisionError at line 2):\nx = 1\ny = x / 0" in prompt
    assert "## Cell 1:\n" in prompt
    assert "each finished without error unless its heading says it raised" in system


def test_order_and_cell_id(env, tmp_path, capsys):
    nb_path = write_notebook(tmp_path / "n.ipynb", ["x = 1", "x = None", "y = x + 1"])
    # Notebook order leaves x None: a certain TypeError.
    code, out, _ = run(capsys, "check", nb_path, "--cell", "3", "--no-llm")
    assert code == 1 and "TypeError" in out
    # Run 2 then 1: x is 1, nothing certain. The target is chosen by its id this time.
    cell_id = nbformat.read(nb_path, as_version=4).cells[2]["id"]
    code, out, _ = run(capsys, "check", nb_path, "--cell-id", cell_id, "--order", "2,1", "--no-llm")
    assert code == 0
    assert "Cell 3: The built-in checks found no certain crash" in out


def test_missing_file(env, tmp_path, capsys):
    code, _out, err = run(capsys, "check", str(tmp_path / "nope.ipynb"), "--cell", "1", "--no-llm")
    assert code == 2
    assert "crane-llm: No such file: " in err and "nope.ipynb" in err


def test_not_a_notebook(env, tmp_path, capsys):
    script = tmp_path / "script.py"
    script.write_text("print('hello')\n")
    code, _, err = run(capsys, "check", str(script), "--cell", "1", "--no-llm")
    assert code == 2
    assert "is not a Jupyter notebook: it is not JSON" in err
    other = tmp_path / "data.json"
    other.write_text('{"rows": []}')
    code, _, err = run(capsys, "check", str(other), "--cell", "1", "--no-llm")
    assert code == 2
    assert "is not a Jupyter notebook" in err


def test_cell_out_of_range(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", [("md", "text"), "x = 1", "y = 2"])
    for number in ("3", "0"):
        code, _, err = run(capsys, "check", nb, "--cell", number, "--no-llm")
        assert code == 2
        assert "Cell %s is out of range: the notebook has 2 code cells (numbered 1 to 2)." % number in err
    code, _, err = run(capsys, "check", nb, "--cell-id", "no-such-id", "--no-llm")
    assert code == 2 and "No code cell has the id 'no-such-id'." in err


def test_no_model_configured_is_said_before_any_kernel_starts(env, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CRANE_LLM_MODEL")
    nb = write_notebook(tmp_path / "n.ipynb", ["x = 1", "x"])
    code, _, err = run(capsys, "check", nb, "--cell", "2")
    assert code == 2
    assert "No model is configured" in err and "--no-llm" in err
    assert "Running cell" not in err


def test_console_script_entry_point_is_main():
    text = open(os.path.join(os.path.dirname(__file__), "..", "..", "pyproject.toml")).read()
    assert 'crane-llm = "crane_llm.cli:main"' in text


def test_a_kernel_that_dies_is_an_error_not_a_traceback(env, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", ["import os\nos._exit(3)", "x = 1"])
    code, out, err = run(capsys, "check", nb, "--cell", "2", "--no-llm")
    assert code == 2
    assert out == ""
    assert "Running cell 1 (1 of 1)" in err
    assert "crane-llm: The kernel failed: DeadKernelError" in err
    assert "Traceback" not in err and "Kernel died while waiting" not in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check", "n.ipynb"])  # neither --cell nor --cell-id
    assert exc.value.code == 2
    assert "one of the arguments --cell --cell-id is required" in capsys.readouterr().err
    assert main([]) == 2
    assert main(["bench"]) == 2


def test_a_provider_failure_exits_2_with_its_message(env, tmp_path, capsys):
    env.script({"preset": "model_not_found"})
    nb = write_notebook(tmp_path / "n.ipynb", ["x = 1", "y = x.bit_length()"])
    code, out, _err = run(capsys, "check", nb, "--cell", "2", "--json")
    report = json_report(out)
    assert code == report["exitCode"] == 2
    assert report["problem"]["kind"] == "provider:model-not-found"
    assert "404" in report["problem"]["message"] and "fake-model" in report["problem"]["message"]


def test_a_predicted_crash_carries_the_models_fix(env, tmp_path, capsys):
    answer = {"explanation": "df has no column b", "crash": True, "exception": "KeyError", "line": 1,
              "variables": ["df"], "fix": "total = df['a'].sum()"}
    env.script({"text": json.dumps(answer)}, {"text": json.dumps(answer)})
    nb = write_notebook(tmp_path / "n.ipynb", [FRAME, "total = (lambda d: d['b'].sum())(df)"])  # beyond the checks
    code, out, _ = run(capsys, "check", nb, "--cell", "2")
    assert code == 1
    assert "Suggested fix (the whole cell):\n    total = df['a'].sum()\n" in out
    # The product prompt asks for it; --json hands it on in the verdict.
    assert '"fix": string or null' in env.requests()[0]["body"]["messages"][0]["content"]
    code, out, _ = run(capsys, "check", nb, "--cell", "2", "--json")
    assert json_report(out)["verdict"]["fix"] == "total = df['a'].sum()"


def test_context_slice_sends_only_the_cells_the_target_depends_on(env, tmp_path, capsys):
    cells = [FRAME, "unrelated = [1, 2, 3]", "print(unrelated)", "df['b'] = df['a'] * 2", "total = df['b'].sum()"]
    nb = write_notebook(tmp_path / "n.ipynb", cells)
    env.script({"text": verdict_text(False, "fine")}, {"text": verdict_text(False, "fine")})
    assert run(capsys, "check", nb, "--cell", "5")[0] == 0
    assert run(capsys, "check", nb, "--cell", "5", "--context", "slice")[0] == 0
    everything, sliced = [r["body"]["messages"][1]["content"] for r in env.requests()]
    assert "unrelated = [1, 2, 3]" in everything and "print(unrelated)" in everything
    assert "unrelated" not in sliced
    assert "import pandas as pd" in sliced and "df['b'] = df['a'] * 2" in sliced
