"""Provider failures become one clear sentence naming the host and what to do (twin of errors.ts).

Pure: the transport layers (the Python SDK here, the npm SDK in the browser) reduce a failure to a
plain dict, and `describe_failure` turns that into the message the verdict area shows. The golden
vectors in libs/prompt/fixtures/errors/ hold both implementations to the same words.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Optional
from urllib.parse import urlsplit

from ..settings import is_local_url

_CONTEXT = re.compile(
    r"context[ _-]?length|context window|maximum context|too many tokens|prompt is too long|reduce the length|input is too long",
    re.I,
)
# Also Gemini's wording, which names the translated fields (response_schema, additionalProperties):
# a wrong guess costs one extra request, a missed one costs the verdict.
_FORMAT = re.compile(
    r"response_format|json_schema|response_schema|text\.format|structured output|\bformat\b|\bschema\b|additionalProperties",
    re.I,
)


def is_context_length(status: Optional[int], code: Optional[str], message: str) -> bool:
    if code == "context_length_exceeded":
        return True
    return status in (400, 413, 422) and bool(_CONTEXT.search(message or ""))


# Checked before _FORMAT: a refusal of these names is about them, whatever else it says.
_LIMIT = re.compile(r"max_completion_tokens", re.I)
_STREAM_USAGE = re.compile(r"stream_options|include_usage", re.I)


def rejected_parameter(status: Optional[int], code: Optional[str], message: str) -> Optional[str]:
    """Which optional request parameter a 400/422 refuses, each worth one retry without it:
    "limit" (max_completion_tokens: retry with max_tokens), "stream-usage" (stream_options),
    "format" (structured output), or None."""
    if status not in (400, 422) or is_context_length(status, code, message):
        return None
    text = message or ""
    if _LIMIT.search(text):
        return "limit"
    if _STREAM_USAGE.search(text):
        return "stream-usage"
    if _FORMAT.search(text):
        return "format"
    return None


def is_format_rejection(status: Optional[int], code: Optional[str], message: str) -> bool:
    """A 400/422 that names the structured-output parameter: worth one retry without it."""
    return rejected_parameter(status, code, message) == "format"


def _clip(text: str, limit: int = 300) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_failure(failure: Dict[str, Any]) -> Dict[str, Any]:
    """failure: {"status": int|None, "code": str|None, "message": str, "transport": "timeout" |
    "connection" | None, "host", "model", "keyFound", "retries", "timeoutSeconds", "baseUrl" (optional:
    the configured base_url, None for OpenAI)}.
    Returns {"kind", "message"}."""
    status = failure.get("status")
    code = failure.get("code")
    provider_message = failure.get("message") or ""
    host = failure.get("host") or "the provider"
    model = failure.get("model") or ""
    retries = failure.get("retries", 0)
    transport = failure.get("transport")
    if transport == "timeout":
        seconds = failure.get("timeoutSeconds")
        return {
            "kind": "timeout",
            "message": "%s did not answer within %s seconds. Try again, or allow more time with the timeout setting."
            % (host, _seconds(seconds)),
        }
    if transport == "connection":
        return {
            "kind": "unreachable",
            "message": "Could not connect to %s. Check the base_url, and that the server is running and reachable from here."
            % host,
        }
    if status == 401:
        if not failure.get("keyFound", True):
            return {
                "kind": "auth",
                "message": 'No API key was found for %s (HTTP 401). Set one with crane_llm.set_api_key("...") or the CRANE_LLM_API_KEY variable.'
                % host,
            }
        # The provider's own text is left out on purpose: it can quote part of the key.
        return {
            "kind": "auth",
            "message": '%s refused the API key (HTTP 401). Set a valid key with crane_llm.set_api_key("...") or the CRANE_LLM_API_KEY variable.'
            % host,
        }
    if status == 403:
        return {
            "kind": "auth",
            "message": '%s refused access (HTTP 403): this key may not use the model "%s". Check the key\'s permissions, or choose another model.'
            % (host, model),
        }
    if is_context_length(status, code, provider_message):
        return {
            "kind": "context-length",
            "message": 'The prompt is too long for the model "%s" at %s. Lower the prompt size limit, turn runtime information off, or use a model with a longer context.'
            % (model, host),
        }
    if status == 404 and _lacks_v1(failure.get("baseUrl")):
        base = str(failure.get("baseUrl")).rstrip("/")
        return {
            "kind": "model-not-found",
            "message": '%s answered 404 at %s. Local servers (Ollama, llama.cpp, vLLM, LM Studio) serve the OpenAI API under /v1: try base_url="%s/v1".'
            % (host, base, base),
        }
    if status == 404:
        return {
            "kind": "model-not-found",
            "message": '%s answered 404 for the model "%s": the model does not exist there, or the base_url is wrong. Check both with crane_llm.set_api_key(base_url=..., model=...).'
            % (host, model),
        }
    if status == 429:
        return {
            "kind": "rate-limit",
            "message": "%s is limiting requests (HTTP 429), still after %d retries. Wait a minute and try again, or check your plan's limits."
            % (host, retries),
        }
    if isinstance(status, int) and 300 <= status < 400:
        # (neither path follows one: it would carry the prompt, and the key, to another address)
        return {
            "kind": "other",
            "message": "%s answered with a redirect (HTTP %d), which CRANE-LLM does not follow: check the base_url."
            % (host, status),
        }
    if isinstance(status, int) and status >= 500:
        return {
            "kind": "server",
            "message": "%s had a server error (HTTP %d), still after %d retries. Try again later."
            % (host, status, retries),
        }
    if isinstance(status, int):
        return {
            "kind": "bad-request",
            "message": "%s rejected the request (HTTP %d): %s"
            % (host, status, _clip(provider_message) or "no reason given."),
        }
    return {
        "kind": "other",
        "message": "The call to %s failed: %s" % (host, _clip(provider_message) or "no reason given."),
    }


def _lacks_v1(base_url: Any) -> bool:
    """A local server's base_url without a /v1 segment: the usual reason it answers 404."""
    if not isinstance(base_url, str) or not is_local_url(base_url):
        return False
    return "/v1" not in (urlsplit(base_url).path or "")


def _seconds(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        return str(int(value))
    return str(value)
