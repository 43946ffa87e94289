"""The request bodies for both APIs, exactly as sent (twin of libs/prompt/src/request.ts).

No base_url: the OpenAI Responses API, as the paper's experiments used. A base_url: Chat
Completions, which compatible servers implement. Each asks for the verdict JSON the way its API
supports structured output; `BodyOptions.structured=False` is the retry for servers that reject that.

Every request carries an output limit (a runaway answer from a small model once took 6,000
tokens and two minutes). Chat Completions names it `max_completion_tokens` (OpenAI's current
name) and asks for token usage on the stream; `limit_field="max_tokens"` and `stream_usage=False`
(both `BodyOptions`) are the retries for servers that refuse those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional

# The default output limit is the max_output_tokens setting's default: one number for both.
from ..settings.table import DEFAULT_MAX_OUTPUT_TOKENS

SCHEMA_NAME = "crane_llm_verdict"
CHAT_LIMIT_FIELDS = ("max_completion_tokens", "max_tokens")

# Explanation comes first so that a model without hidden reasoning writes its diagnosis before
# committing to the boolean; strict mode needs every property required and nullables as type lists.
VERDICT_SCHEMA: Dict[str, Any] = {
    "type": "object",
    "properties": {
        "explanation": {"type": "string"},
        "crash": {"type": "boolean"},
        "exception": {"type": ["string", "null"]},
        "line": {"type": ["integer", "null"]},
        "variables": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["explanation", "crash", "exception", "line", "variables"],
    "additionalProperties": False,
}
# The product prompt's answer: the paper's fields, then the fixed cell.
FIX_VERDICT_SCHEMA: Dict[str, Any] = {
    **VERDICT_SCHEMA,
    "properties": {**VERDICT_SCHEMA["properties"], "fix": {"type": ["string", "null"]}},
    "required": VERDICT_SCHEMA["required"] + ["fix"],
}


def _answer_schema(prompt: Dict[str, Any]) -> Dict[str, Any]:
    return VERDICT_SCHEMA if prompt.get("style") == "paper" else FIX_VERDICT_SCHEMA


@dataclass(frozen=True)
class BodyOptions:
    """The optional parts of a request (twin of request.ts's BodyOptions): the provider call
    changes one at a time (a new BodyOptions) when a server refuses it."""

    structured: bool = True
    max_output_tokens: Optional[int] = DEFAULT_MAX_OUTPUT_TOKENS  # None: no limit sent
    limit_field: str = "max_completion_tokens"  # Chat Completions only
    stream_usage: bool = True  # Chat Completions only

    def __post_init__(self) -> None:
        if self.limit_field not in CHAT_LIMIT_FIELDS:
            raise ValueError("limit_field must be one of %s, not %r" % (CHAT_LIMIT_FIELDS, self.limit_field))


def responses_body(prompt: Dict[str, Any], model: str, options: BodyOptions = BodyOptions()) -> Dict[str, Any]:
    body: Dict[str, Any] = {
        "model": model,
        "instructions": prompt["instructions"],
        "input": prompt["input"],
    }
    if options.structured:
        body["text"] = {
            "format": {"type": "json_schema", "name": SCHEMA_NAME, "schema": _answer_schema(prompt), "strict": True}
        }
    if options.max_output_tokens:
        body["max_output_tokens"] = options.max_output_tokens
    body["stream"] = True
    return body


def chat_body(prompt: Dict[str, Any], model: str, options: BodyOptions = BodyOptions()) -> Dict[str, Any]:
    body: Dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": prompt["instructions"]},
            {"role": "user", "content": prompt["input"]},
        ],
    }
    if options.structured:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "schema": _answer_schema(prompt), "strict": True},
        }
    if options.max_output_tokens:
        body[options.limit_field] = options.max_output_tokens
    body["stream"] = True
    if options.stream_usage:
        body["stream_options"] = {"include_usage": True}
    return body


def request_body(api_kind: str, prompt: Dict[str, Any], model: str,
                 options: BodyOptions = BodyOptions()) -> Dict[str, Any]:
    if api_kind == "responses":
        return responses_body(prompt, model, options)
    if api_kind == "chat":
        return chat_body(prompt, model, options)
    raise ValueError("api_kind must be 'responses' or 'chat', not %r" % (api_kind,))
