"""The model call against llama.cpp's llama-server with SmolLM2-135M-Instruct (a server nobody here
wrote): Chat Completions with the enforced schema, streaming, the output limit and usage, and the
Responses API path the same server offers."""

import pytest

from crane_llm.prompt import build_prompt
from crane_llm.provider import call_model

pytestmark = pytest.mark.real_model

PROMPT = build_prompt(
    [{"executionCount": 1, "cellId": "a", "code": "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})"}],
    None,
    "df['b'].sum()",
)


def call(llama, **kw):
    args = dict(model=llama.model, api_kind="chat", base_url=llama.base_url, api_key=None, max_retries=1,
                max_output_tokens=32, timeout=600)
    args.update(kw)
    return call_model(PROMPT, **args)


def test_chat_with_the_enforced_schema_streams_a_json_answer_and_reports_usage(llama_server):
    chunks = []
    result = call(llama_server, on_text=chunks.append)
    assert result["problem"] is None
    assert result["structuredFallback"] is False  # llama-server took response_format json_schema
    assert "response_format" in result["requestBody"] and result["requestBody"]["max_completion_tokens"] == 32
    assert len(chunks) > 1 and "".join(chunks) == result["raw"]
    assert result["raw"].lstrip().startswith("{")
    if result["cutAtLimit"] is None:
        assert result["parsed"]["kind"] in ("predicted-crash", "no-crash"), result["raw"]
    else:
        assert result["parsed"]["kind"] == "unreadable"
    # stream_options.include_usage: llama-server reports the counts in the last chunk.
    assert result["usage"]["completion_tokens"] >= 1 and result["usage"]["prompt_tokens"] > 20


# Only Chat Completions: llama-server's /v1/responses honours max_output_tokens but ends a cut answer
# with "response.completed" and no incomplete_details, so the cut cannot be seen there (it parses
# as an unreadable answer instead).
def test_a_tiny_limit_cuts_the_answer_and_says_so(llama_server):
    result = call(llama_server, api_kind="chat", max_output_tokens=5)
    assert result["problem"] is None
    assert result["cutAtLimit"] == 5
    assert result["parsed"]["kind"] == "unreadable"
    assert "cut at the output limit of 5 tokens" in result["parsed"]["explanation"]
