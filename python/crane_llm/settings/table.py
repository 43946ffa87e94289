"""Every model setting CRANE-LLM reads, in one table. Adding a setting is adding one Spec here;
`resolve.py` resolves each entry the same way (see Spec for the order)."""

from __future__ import annotations

import math
from typing import Any, Mapping, Optional, Tuple

from ..policy import LEVELS, POLICY_VARIABLE, parse_policy
from .records import Setting, Spec
from .urls import base_url_problem, without_credentials

DEFAULT_MODEL = "gpt-5"  # the paper's model; used only with OpenAI itself (no base_url)
# auto: the README's rule (no base_url: the Responses API; a base_url: Chat Completions there).
API_CHOICES = ("auto", "responses", "chat")
# Room for a reasoning model to think before it answers (twin of libs/prompt's request.ts).
DEFAULT_MAX_OUTPUT_TOKENS = 8000


def _parse_base_url(text: str) -> str:
    problem = base_url_problem(text)
    if problem:
        raise ValueError(problem)
    return text


def _parse_api_key(text: str) -> str:
    # (the key travels in an HTTP header, which cannot hold a line break or a non-ASCII character:
    # tornado and httpx would fail with the key in their error text)
    if any(not ("!" <= ch <= "~") for ch in text):
        raise ValueError("it holds a space, a line break or a character outside ASCII, which an HTTP header cannot "
                         "carry; set it again as the provider shows it")
    return text


def _parse_api(text: str) -> str:
    choice = text.strip().lower()
    if choice not in API_CHOICES:
        raise ValueError('it must be "auto", "responses" or "chat"')
    return choice


def _parse_token_count(text: str) -> int:
    try:
        count = int(text.strip())
    except ValueError:
        raise ValueError("it must be a whole number of tokens, such as 8000") from None
    if count < 1:
        raise ValueError("it must be at least 1")
    return count


def _default(value: object, said: str):
    return lambda _resolved: Setting(value, "default", None, "default (%s)" % said)


def _default_model(resolved: Mapping[str, Setting]) -> Optional[Setting]:
    # With a base_url the provider is not OpenAI, and only the user knows its model names.
    if resolved["base_url"].value:
        return None
    return Setting(DEFAULT_MODEL, "default", None, "default (%s)" % DEFAULT_MODEL)


_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")


def _parse_switch(text: str) -> bool:
    word = text.strip().lower()
    if word in _YES or word in _NO:
        return word in _YES
    raise ValueError("it should be one of %s (on) or %s (off)" % ("/".join(_YES), "/".join(_NO)))


def _parse_policy(text: str) -> str:
    level, problem = parse_policy(text)
    if problem:
        raise ValueError("it is none of %s, so nothing is sent to any model until it is fixed" % ", ".join(LEVELS))
    return level or ""


def _default_on(_resolved: Mapping[str, Setting]) -> Setting:
    return Setting(True, "default", None, "default (on)")


SPECS: Tuple[Spec, ...] = (
    Spec("api_key", "apiKey", ("CRANE_LLM_API_KEY", "OPENAI_API_KEY"), parse=_parse_api_key, secret=True),
    Spec("base_url", "baseUrl", ("CRANE_LLM_BASE_URL", "OPENAI_BASE_URL"), parse=_parse_base_url,
         show=lambda url: without_credentials(url) if url else url),
    Spec("model", "model", ("CRANE_LLM_MODEL",), default=_default_model),
    Spec("api", "api", ("CRANE_LLM_API",), parse=_parse_api, default=_default("auto", "auto")),
    Spec("max_output_tokens", "maxOutputTokens", ("CRANE_LLM_MAX_OUTPUT_TOKENS",), parse=_parse_token_count,
         default=_default(DEFAULT_MAX_OUTPUT_TOKENS, "{:,}".format(DEFAULT_MAX_OUTPUT_TOKENS))),
    # "Include data values" (the magic's --no-values and JupyterLab's switch turn it off too).
    Spec("include_values", "includeValues", ("CRANE_LLM_INCLUDE_VALUES",), parse=_parse_switch, default=_default_on),
    # The administrator's ceiling (crane_llm.policy); a value it cannot read is a problem, so nothing is sent.
    Spec("policy", "policy", (POLICY_VARIABLE,), parse=_parse_policy),
)


CHECK_BUDGET_DEFAULT = 2.0  # seconds for one check in the kernel (facts, runtime information, checks)
CHECK_BUDGET_MAX = 600.0


def parse_seconds(text: Any) -> Optional[float]:
    """A positive, finite number of seconds up to CHECK_BUDGET_MAX, or None."""
    if type(text) is bool:
        return None
    try:
        value = float(text.strip() if isinstance(text, str) else text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and 0 < value <= CHECK_BUDGET_MAX else None


def _parse_budget(text: str) -> float:
    seconds = parse_seconds(text)
    if seconds is None:
        raise ValueError("it is not a number of seconds between 0 and %g" % CHECK_BUDGET_MAX)
    return seconds


def _default_budget(resolved: Mapping[str, Setting]) -> Setting:
    return Setting(CHECK_BUDGET_DEFAULT, "default", None, "default (%g s)" % CHECK_BUDGET_DEFAULT)


# Settings only the kernel side reads (the browser never sees them), resolved in the same order.
KERNEL_SPECS: Tuple[Spec, ...] = (
    Spec("check_budget", "checkBudget", ("CRANE_LLM_CHECK_BUDGET",), parse=_parse_budget, default=_default_budget),
)
