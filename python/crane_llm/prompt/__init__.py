"""Prompt assembly, request bodies and verdict parsing: the Python twin of libs/prompt."""

from .build import DEFAULT_BUDGET_TOKENS, build_prompt, estimate_tokens
from .from_check import executed_cells, prompt_input_from_check
from .parse import UNREADABLE_EXPLANATION, cut_verdict, parse_verdict, to_verdict
from .request import DEFAULT_MAX_OUTPUT_TOKENS, BodyOptions, FIX_VERDICT_SCHEMA, SCHEMA_NAME, VERDICT_SCHEMA, chat_body, request_body, responses_body

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "DEFAULT_MAX_OUTPUT_TOKENS",
    "SCHEMA_NAME",
    "UNREADABLE_EXPLANATION",
    "FIX_VERDICT_SCHEMA",
    "VERDICT_SCHEMA",
    "build_prompt",
    "BodyOptions",
    "chat_body",
    "cut_verdict",
    "estimate_tokens",
    "parse_verdict",
    "executed_cells",
    "prompt_input_from_check",
    "request_body",
    "responses_body",
    "to_verdict",
]
