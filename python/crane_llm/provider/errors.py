"""Provider failures become one clear sentence naming the host and what to do (twin of errors.ts).

Pure: the transport layers (the Python SDK here, the npm SDK in the browser) reduce a failure to a
plain dict, and `describe_failure` turns that into the message the verdict area shows. The golden
vectors in libs/prompt/fixtures/errors/ hold both implementations to the same words.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Optional

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


def is_format_rejection(status: Optional[int], code: Optional[str], message: str) -> bool:
    """A 400/422 that names the structured-output parameter: worth one retry without it."""
    if status not in (400, 422) or is_context_length(status, code, message):
        return False
    return bool(_FORMAT.search(message or ""))


def _clip(text: str, limit: int = 300) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_failure(failure: Dict[str, Any]) -> Dict[str, Any]:
    """failure: {"status": int|None, "code": str|None, "message": str, "transport": "timeout" |
    "connection" | None, "host", "model", "keyFound", "retries", "timeoutSeconds"}.
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


def _seconds(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        return str(int(value))
    return str(value)
