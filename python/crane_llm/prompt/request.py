"""The request bodies for both APIs, exactly as sent (twin of libs/prompt/src/request.ts).

No base_url: the OpenAI Responses API, as the paper's experiments used. A base_url: Chat
Completions, which compatible servers implement. Each asks for the verdict JSON the way its API
supports structured output; `structured=False` is the retry for servers that reject that.
"""

from __future__ import annotations

from typing import Any, Dict

SCHEMA_NAME = "crane_llm_verdict"

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


def responses_body(prompt: Dict[str, Any], model: str, structured: bool = True) -> Dict[str, Any]:
    body: Dict[str, Any] = {
        "model": model,
        "instructions": prompt["instructions"],
        "input": prompt["input"],
    }
    if structured:
        body["text"] = {
            "format": {"type": "json_schema", "name": SCHEMA_NAME, "schema": VERDICT_SCHEMA, "strict": True}
        }
    body["stream"] = True
    return body


def chat_body(prompt: Dict[str, Any], model: str, structured: bool = True) -> Dict[str, Any]:
    body: Dict[str, Any] = {
        "model": model,
        "messages": [
            {"role": "system", "content": prompt["instructions"]},
            {"role": "user", "content": prompt["input"]},
        ],
    }
    if structured:
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "schema": VERDICT_SCHEMA, "strict": True},
        }
    body["stream"] = True
    return body


def request_body(api_kind: str, prompt: Dict[str, Any], model: str, structured: bool = True) -> Dict[str, Any]:
    if api_kind == "responses":
        return responses_body(prompt, model, structured)
    if api_kind == "chat":
        return chat_body(prompt, model, structured)
    raise ValueError("api_kind must be 'responses' or 'chat', not %r" % (api_kind,))
