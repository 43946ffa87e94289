"""The model call: routing to the Responses API or Chat Completions, retries, clear failures."""

from .call import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, OPENAI_URL, call_model, provider_host, settings_call_args
from .errors import describe_failure, is_context_length, is_format_rejection, rejected_parameter

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT_SECONDS",
    "OPENAI_URL",
    "call_model",
    "describe_failure",
    "is_context_length",
    "is_format_rejection",
    "provider_host",
    "rejected_parameter",
    "settings_call_args",
]
