"""The model call through LiteLLM's proxy in front of llama-server: the Responses API behind a
base_url, with the verdict's schema enforced (LiteLLM turns `text.format` into the backend's
`response_format`), streaming, the output limit and usage."""

import pytest

from crane_llm.provider import call_model

from .test_llama_provider import PROMPT

pytestmark = pytest.mark.real_model


def test_responses_through_litellm_stream_a_schema_bound_answer_and_report_usage(litellm_proxy):
    chunks = []
    before = litellm_proxy.requests_to("/v1/responses")
    result = call_model(PROMPT, model=litellm_proxy.model, api_kind="responses", base_url=litellm_proxy.base_url,
                        api_key=litellm_proxy.api_key, max_retries=1, max_output_tokens=32, timeout=600,
                        on_text=chunks.append)
    assert litellm_proxy.requests_to("/v1/responses") == before + 1
    assert result["problem"] is None
    assert result["structuredFallback"] is False  # LiteLLM took text.format
    body = result["requestBody"]
    assert body["text"]["format"]["type"] == "json_schema" and body["max_output_tokens"] == 32
    assert len(chunks) > 1 and "".join(chunks) == result["raw"]
    # Enforced: llama-server alone ignores text.format on /v1/responses and answers free text.
    assert result["raw"].lstrip().startswith("{"), result["raw"]
    if result["cutAtLimit"] is None:
        assert result["parsed"]["kind"] in ("predicted-crash", "no-crash"), result["raw"]
    else:  # LiteLLM reports a cut answer as an incomplete response, so the cut is seen here
        assert result["cutAtLimit"] == 32 and result["parsed"]["kind"] == "unreadable"
        assert "cut at the output limit of 32 tokens" in result["parsed"]["explanation"]
    assert result["usage"]["input_tokens"] > 20 and result["usage"]["output_tokens"] >= 1
