"""`crane-llm check` through LiteLLM's proxy with api=responses: the Responses API behind a
base_url, a real kernel, a real (tiny) model behind the proxy; the verdict is a product state."""

import json

import pytest

from .test_check import run, write_notebook
from .test_check_llama import assert_a_product_report

pytestmark = pytest.mark.real_model


def test_check_over_the_responses_api_reports_a_product_state(settings_from_litellm, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_API", "responses")
    before = settings_from_litellm.requests_to("/v1/responses")
    nb = write_notebook(tmp_path / "n.ipynb", ["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})",
                                               "for c in ['a', 'b']:\n    print(df[c].sum())"])
    code, out, err = run(capsys, "check", nb, "--cell", "2", "--json")
    report = json.loads(out)
    assert report.get("problem") is None, report.get("problem")
    assert settings_from_litellm.requests_to("/v1/responses") == before + 1
    assert_a_product_report(report, code)
    assert settings_from_litellm.api_key not in out + err
