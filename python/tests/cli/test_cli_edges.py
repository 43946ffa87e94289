"""`crane-llm check` at its edges: a bad --timeout, an nbformat 3 notebook, Ctrl-C in a real
subprocess (one line, exit 130, no kernel process left behind)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from crane_llm.cli import EXIT_INTERRUPTED, main

SOURCE = str(Path(__file__).resolve().parents[2])


@pytest.mark.parametrize("value, said", [("0", "positive"), ("-5", "positive"), ("soon", "not a whole number")])
def test_timeout_must_be_positive(tmp_path, capsys, value, said):
    with pytest.raises(SystemExit) as exit_:
        main(["check", str(tmp_path / "n.ipynb"), "--cell", "1", "--timeout", value])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "--timeout" in err and said in err and "Traceback" not in err


@pytest.mark.parametrize("version", [3, 3.0])
def test_an_nbformat_3_notebook_says_how_to_convert_it(tmp_path, capsys, version):
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps({"nbformat": version, "nbformat_minor": 0, "metadata": {}, "worksheets": [
        {"cells": [{"cell_type": "code", "input": "x = 1", "language": "python", "outputs": []}]}]}))
    code = main(["check", str(path), "--cell", "1", "--no-llm"])
    err = capsys.readouterr().err
    assert code == 2 and "nbformat 3" in err
    assert "convert it with `jupyter nbconvert --to notebook %s`" % path in err and "old.nbconvert.ipynb" in err


def _processes_with(marker: bytes):
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                with open("/proc/%s/environ" % pid, "rb") as fh:
                    if marker in fh.read():
                        found.append(int(pid))
            except OSError:
                pass
    return found


def _start_slow_check(tmp_path, seconds):
    """`crane-llm check` of a notebook whose first cell sleeps: (process, the marker in its and its
    kernel's environment, the file its stderr goes to)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import time\ntime.sleep(%d)" % seconds), nbformat.v4.new_code_cell("x")]
    nbformat.write(nb, str(tmp_path / "slow.ipynb"))
    marker = "crane-ctrl-c-%s" % uuid.uuid4().hex
    env = dict(os.environ, CRANE_TEST_MARKER=marker, PYTHONPATH=SOURCE)
    err_path = tmp_path / "stderr.txt"
    with open(err_path, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "crane_llm.cli", "check", "slow.ipynb", "--cell", "2", "--no-llm"],
                                cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=err, start_new_session=True)
    return proc, marker, err_path


def _interrupted(proc, err_path, whole_group):
    """Ctrl-C the check (its whole group, as a terminal does, or the command alone): (stdout, stderr),
    once it ended with one line and exit code 130."""
    try:
        if whole_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    err_text = err_path.read_text()
    assert proc.returncode == EXIT_INTERRUPTED, err_text
    assert err_text.splitlines()[-1] == "crane-llm: interrupted." and "Traceback" not in err_text, err_text
    return out, err_text


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the kernel through /proc")
@pytest.mark.parametrize("whole_group", [True, False], ids=["terminal", "process"])
def test_ctrl_c_ends_with_one_line_130_and_no_kernel_left(tmp_path, whole_group):
    proc, marker, err_path = _start_slow_check(tmp_path, 120)
    try:
        deadline = time.monotonic() + 90
        while "Running cell 1" not in err_path.read_text() or not _processes_with(marker.encode())[1:]:
            assert proc.poll() is None and time.monotonic() < deadline, err_path.read_text()
            time.sleep(0.2)
        time.sleep(1.0)  # the cell is now sleeping in the kernel
    except BaseException:
        proc.kill()
        raise
    # A terminal's Ctrl-C reaches the whole foreground group (the kernel too); `kill -INT` the command only.
    out, err_text = _interrupted(proc, err_path, whole_group)
    lines = err_text.splitlines()
    assert lines[:-1] == ["Running cell 1 (1 of 1): import time"] and out == b""
    deadline = time.monotonic() + 10
    while _processes_with(marker.encode()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_with(marker.encode()) == []


def test_escape_sequences_in_the_model_answer_never_reach_the_terminal(settings_from_fake, tmp_path, capsys):
    from crane_llm_testing.fake_openai import verdict_text

    hostile = "\x1b[2J\x1b[32mall fine\x1b[0m \x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\\rover"
    settings_from_fake.script({"text": verdict_text(True, hostile, "Type\x1b[1mError", 1, ["x"])})
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("x + 1")]
    nbformat.write(nb, str(tmp_path / "n.ipynb"))
    code = main(["check", str(tmp_path / "n.ipynb"), "--cell", "2"])
    out = capsys.readouterr().out
    assert code == 1 and "all fine here" in out and "over" in out
    assert "\x1b" not in out and "\r" not in out and "evil.example" not in out


def test_an_unusable_base_url_is_said_before_any_kernel_starts(settings_from_fake, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_BASE_URL", "ftp://user:hunter2@host/v1")
    code = main(["check", str(tmp_path / "missing-but-never-read.ipynb"), "--cell", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "crane-llm: No such file" in err  # the file is read first, as before
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1")]
    nbformat.write(nb, str(tmp_path / "n.ipynb"))
    code = main(["check", str(tmp_path / "n.ipynb"), "--cell", "1"])
    err = capsys.readouterr().err
    assert code == 2 and 'The base_url "ftp://***@host/v1" from environment variable CRANE_LLM_BASE_URL' in err
    assert "hunter2" not in err and "Running cell" not in err and settings_from_fake.requests() == []


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the kernel through /proc")
def test_ctrl_c_while_the_kernel_starts_still_interrupts(tmp_path):
    # (the kernel's start-up swallowed the cancel: the run went on to a verdict, exit 1)
    proc, marker, err_path = _start_slow_check(tmp_path, 30)
    try:
        deadline = time.monotonic() + 60
        while not _processes_with(marker.encode())[1:]:  # (the kernel process exists: it is starting)
            assert proc.poll() is None and time.monotonic() < deadline, err_path.read_text()
            time.sleep(0.05)
    except BaseException:
        proc.kill()
        raise
    out, _ = _interrupted(proc, err_path, whole_group=True)
    assert out == b""


def test_a_notebook_path_that_is_no_regular_file_is_refused_at_once(tmp_path, capsys):
    fifo = tmp_path / "fifo.ipynb"
    os.mkfifo(fifo)
    started = time.monotonic()
    for path in (str(fifo), "/dev/zero"):
        code = main(["check", path, "--cell", "1", "--no-llm"])
        err = capsys.readouterr().err
        assert code == 2 and "is not a regular file" in err, err
    assert time.monotonic() - started < 5


def test_progress_lines_never_pass_escape_sequences_to_the_terminal(tmp_path, capsys):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1  # \x1b]0;PWNED\x07\x1b[2J\x1b]52;c;aGk=\x07\u202e"),
                nbformat.v4.new_code_cell("x + undefined_q")]
    nbformat.write(nb, str(tmp_path / "esc.ipynb"))
    code = main(["check", str(tmp_path / "esc.ipynb"), "--cell", "2", "--no-llm", "--json"])
    captured = capsys.readouterr()
    assert code == 1 and "Running cell 1 (1 of 1): x = 1  # " in captured.err, captured.err
    for stream in (captured.err, captured.out):
        assert "\x1b" not in stream and "\x07" not in stream and "\u202e" not in stream
    assert json.loads(captured.out)["verdict"]["exception"] == "NameError"
