"""`crane-llm check` against llama.cpp's llama-server with SmolLM2-135M-Instruct: real kernels,
a real OpenAI-compatible server and model; the verdict is one of the product's states."""

import json

import pytest

from .test_check import run, write_notebook

pytestmark = pytest.mark.real_model


def test_check_reports_a_product_state_from_a_real_model(settings_from_llama, tmp_path, capsys):
    nb = write_notebook(tmp_path / "n.ipynb", ["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})",
                                               "for c in ['a', 'b']:\n    print(df[c].sum())"])
    code, out, _ = run(capsys, "check", nb, "--cell", "2", "--json")
    report = json.loads(out)
    assert report.get("problem") is None, report.get("problem")
    assert_a_product_report(report, code)


def assert_a_product_report(report, code):
    """Whatever the tiny model answers, the report is one of the product's verdicts, with its exit code."""
    verdict = report["verdict"]
    assert verdict["kind"] in ("predicted-crash", "no-crash", "unreadable"), verdict
    assert code == {"predicted-crash": 1, "no-crash": 0}.get(verdict["kind"], code)
    if verdict["kind"] == "unreadable":
        assert report["raw"].strip()
    else:
        assert verdict["source"] == {"type": "llm", "model": "smollm2"}
