"""Ways a notebook's code could run, or a check hang, while the facts are gathered (third red team,
3 Dec): a FIFO where the settings file should be, `os.environ`'s class patched, garbage-collector
callbacks, import finders asked for CRANE-LLM's own modules, standard-library code replaced, a
cell of hundreds of `!` lines, row labels made to share a hash, `set()` of such ints. Each test
gathers for real (`entry.gather`, as the kernel does) and looks at what ran."""

from __future__ import annotations

import ast
import gc
import os
import sys
import time

import numpy as np
import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm import stdlib_untouched
from crane_llm.checks.abstract_values import _member
from crane_llm.kernel import entry
from crane_llm.settings.sources import ConfigUnreadable, read_config


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    sh.run_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nd = {'k': 1}")
    return sh


def gather(shell, source):
    return entry.gather({"protocol": 1, "source": source, "useLlm": True, "includeRuntimeInfo": True},
                        shell.user_ns, shell)


def test_a_fifo_in_place_of_the_settings_file_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(ConfigUnreadable, match="not a regular file"):
        read_config(fifo)
    assert time.monotonic() - started < 1


def test_the_environment_is_read_without_os_environs_methods(shell, monkeypatch):
    calls = []
    for name in ("get", "__getitem__", "__iter__", "__contains__"):
        real = getattr(type(os.environ), name)
        monkeypatch.setattr(type(os.environ), name,
                            lambda self, *a, _real=real, _name=name: calls.append(_name) or _real(self, *a))
    monkeypatch.setenv("CRANE_LLM_CHECK_BUDGET", "3")
    calls.clear()
    reply = gather(shell, "d['zz']")
    assert calls == [] and reply["budget"]["seconds"] == 3.0, calls
    assert reply["checks"]["crash"]["exception"] == "KeyError"


def _our_frames(frame):
    """The frames of crane_llm's own code on the stack from `frame` out."""
    package = os.path.dirname(entry.__file__).rsplit(os.sep, 1)[0] + os.sep
    ours = []
    while frame is not None:
        if frame.f_code.co_filename.startswith(package):
            ours.append(os.path.basename(frame.f_code.co_filename) + ":" + frame.f_code.co_name)
        frame = frame.f_back
    return ours


def test_no_garbage_collector_callback_runs_while_the_facts_are_gathered(shell):
    """With a threshold of 1 a collection may start as the test itself builds the request: what
    counts is that none starts inside the gathering."""
    hits = []
    callback = lambda phase, info: hits.append(_our_frames(sys._getframe(1)))  # noqa: E731
    threshold = gc.get_threshold()
    gc.callbacks.append(callback)
    gc.set_threshold(1)
    try:
        reply = gather(shell, "x = [[1], [2]]\nd['zz']")
    finally:
        gc.callbacks.remove(callback)
        gc.set_threshold(*threshold)
    assert [ours for ours in hits if ours] == []
    assert reply["checks"]["crash"] is None and "garbage-collector" in reply["checks"]["stoppedAt"]["reason"]
    assert gather(shell, "x = [[1], [2]]\nd['zz']")["checks"]["crash"]["exception"] == "KeyError"  # the twin


def test_no_import_finder_is_asked_for_crane_llms_own_modules(shell):
    asked = []

    class Finder:
        def find_spec(self, name, path=None, target=None):
            asked.append(name)
            return None

    sys.meta_path.insert(0, Finder())
    try:
        gather(shell, "df.head()\nd['k']")
    finally:
        del sys.meta_path[0]
    assert [name for name in asked if name.startswith("crane_llm")] == []


def test_replaced_standard_library_code_makes_the_gathering_stand_aside(shell, monkeypatch):
    visits = []
    real = ast.NodeVisitor.visit
    monkeypatch.setattr(ast.NodeVisitor, "visit", lambda self, node: visits.append(1) or real(self, node))
    reply = gather(shell, "d['zz']")
    assert visits == [] and reply["runtimeInfo"] is None and reply["checks"]["crash"] is None
    assert "ast.NodeVisitor.visit" in reply["checks"]["stoppedAt"]["reason"]
    monkeypatch.undo()
    assert stdlib_untouched.changed() is None
    assert gather(shell, "d['zz']")["checks"]["crash"]["exception"] == "KeyError"


def test_a_cell_of_many_shell_lines_is_not_given_to_ipythons_transformer(shell):
    started = time.monotonic()
    reply = gather(shell, "\n".join(["!true"] * 500))
    assert time.monotonic() - started < 2
    assert "too long" in reply["checks"]["stoppedAt"]["reason"]
    assert gather(shell, "undefined_q\n!true")["checks"]["crash"]["exception"] == "NameError"  # (a few: read)


def test_long_indexes_are_searched_without_a_hash_table_of_labels_made_to_collide():
    big = pd.Index(np.arange(5000, dtype="int64") * 3)
    assert _member(big, 9) is True and _member(big, 10) is False and _member(big, 9.0) is True
    assert _member(big, float("nan")) is None and _member(big, True) is None
    ints = pd.Index([i * (2 ** 61 - 1) for i in range(1, 2500)], dtype=object)
    assert _member(ints, 5) is None  # (Python ints of one hash: pandas' hash table would take seconds)
    assert _member(pd.Index(["a", "b"] * 1500, dtype=object), "a") is True


def test_set_of_many_ints_is_not_built_by_the_checker(shell):
    shell.user_ns["keys"] = [i * (2 ** 61 - 1) for i in range(1, 3000)]
    reply = gather(shell, "s = set(keys)\nd['zz']")
    assert reply["checks"]["crash"] is None and "share a hash" in reply["checks"]["stoppedAt"]["reason"]
    shell.user_ns["keys"] = list(range(100))
    assert gather(shell, "s = set(keys)\nd['zz']")["checks"]["crash"]["exception"] == "KeyError"


@pytest.mark.parametrize("module, name", [("marshal", "loads"), ("math", "isnan"), ("sysconfig", "get_paths"),
                                          ("dis", "get_instructions")])
def test_replaced_standard_library_functions_written_in_c_count_too(shell, monkeypatch, module, name):
    """(fourth red team, 3 Dec) the checker reads compiled library files with `marshal.loads`, compares
    constants with `math.isnan`, finds library roots with `sysconfig.get_paths`."""
    import importlib
    mod = importlib.import_module(module)
    real, calls = getattr(mod, name), []
    monkeypatch.setattr(mod, name, lambda *a, **k: calls.append(1) or real(*a, **k))
    reply = gather(shell, "d['zz']")
    assert calls == [] and module in reply["checks"]["stoppedAt"]["reason"], (calls, reply["checks"])


@pytest.mark.parametrize("builtin", [False, True])
def test_a_notebooks_signal_handler_runs_after_the_gathering_not_during_it(shell, monkeypatch, builtin):
    """A profiler's SIGPROF handler; or `breakpoint` as the handler, which calls `sys.breakpointhook`,
    which may be the notebook's: held back while the facts are gathered. Each time it runs, the
    frames it interrupted say where: only in the place that hands back what was held, never inside
    a step of the gathering (a clock would also count what runs after it, such as freeing memory)."""
    import signal
    interrupted = []

    def note(frame):
        interrupted.append(_our_frames(frame))

    if builtin:
        monkeypatch.setattr(sys, "breakpointhook", lambda signum, frame: note(frame))
        handler = breakpoint
    else:
        def handler(signum, frame):
            note(frame)
    old = signal.signal(signal.SIGPROF, handler)
    signal.setitimer(signal.ITIMER_PROF, 0.0005, 0.0005)
    try:
        gather(shell, "df.describe()\nd['zz']")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    handed_back = ["held_signals.py:held_signals", "entry.py:gather"]
    during = [ours for ours in interrupted if ours and ours != handed_back]
    assert any(ours == handed_back for ours in interrupted), interrupted[:5]
    assert not during, during[:3]
