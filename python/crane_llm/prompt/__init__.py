"""Prompt assembly, request bodies and verdict parsing: the Python twin of libs/prompt."""

from .build import DEFAULT_BUDGET_TOKENS, build_prompt, estimate_tokens
from .from_check import executed_cells, prompt_input_from_check
from .parse import UNREADABLE_EXPLANATION, parse_verdict, to_verdict
from .request import SCHEMA_NAME, VERDICT_SCHEMA, chat_body, request_body, responses_body

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "SCHEMA_NAME",
    "UNREADABLE_EXPLANATION",
    "VERDICT_SCHEMA",
    "build_prompt",
    "chat_body",
    "estimate_tokens",
    "parse_verdict",
    "executed_cells",
    "prompt_input_from_check",
    "request_body",
    "responses_body",
    "to_verdict",
]
