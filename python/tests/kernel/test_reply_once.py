"""The kernel reply does each thing once: one parse of the cell, one search for its reads, the
executed cells sent once (inside the log), the reply serialised once."""

import ast
import builtins

import pytest
from IPython.core.interactiveshell import InteractiveShell

from crane_llm import checks, stdlib_untouched
from crane_llm.checks import shell_source
from crane_llm.kernel import entry
from crane_llm.lineage import recorder
from crane_llm.runinfo import names


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    recorder.install(sh)
    sh.run_cell("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})", store_history=True)
    yield sh
    recorder.uninstall(sh)


def request(source, use_llm=True):
    return {"protocol": 1, "source": source, "cellId": None, "useLlm": use_llm, "includeRuntimeInfo": True}


@pytest.mark.parametrize("source", ["df['a'].sum()", "dff.head()"])
def test_one_parse_and_one_read_per_check(shell, monkeypatch, source):
    calls = {"parse": 0, "reads": 0}
    real_parse, real_reads = ast.parse, names.cell_reads

    def counting_compile(source, filename, mode, flags=0, *args, **kwargs):
        if flags & ast.PyCF_ONLY_AST:  # a parse
            calls["parse"] += 1
        return builtins.compile(source, filename, mode, flags, *args, **kwargs)

    def counting_parse(*args, **kwargs):
        calls["parse"] += 1
        return real_parse(*args, **kwargs)

    def counting_reads(*args, **kwargs):
        calls["reads"] += 1
        return real_reads(*args, **kwargs)

    entry.gather(request(source), shell.user_ns, shell)  # warm: the log's effects are resolved once
    # Every place that parses a cell, without replacing a builtin (the checks would rightly stop).
    for module in (checks, shell_source):
        monkeypatch.setattr(module, "compile", counting_compile, raising=False)
    monkeypatch.setattr(ast, "parse", counting_parse)
    # (a notebook's replacement of `ast.parse` makes the checks stand aside: this one is the test's)
    monkeypatch.setattr(stdlib_untouched, "changed", lambda: None)
    monkeypatch.setattr(names, "cell_reads", counting_reads)
    result = entry.gather(request(source), shell.user_ns, shell)
    assert calls == {"parse": 1, "reads": 1}
    assert result["usedNames"] == (["df"] if source.startswith("df[") else [])
    # The runtime information (collected for the cell without a certain crash) reused the reads.
    if result["checks"]["crash"] is None:
        assert [v["name"] for v in result["runtimeInfo"]["variables"]] == ["df"]


def test_executed_cells_travel_once_inside_the_log(shell):
    result = entry.gather(request("df.head()"), shell.user_ns, shell)
    assert "executed" not in result
    codes = [run["code"] for run in result["log"]["runs"]]
    assert codes[-1] == "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})"


def test_the_reply_is_formatted_as_json_only(shell):
    data, _ = shell.display_formatter.format(entry.check('{"protocol": 1, "source": "dff", "cellId": null}'))
    assert data["application/json"]["checks"]["crash"]["exception"] == "NameError"
    # text/plain is always produced by IPython: a short label, not the reply a second time.
    assert len(data["text/plain"]) < 40
