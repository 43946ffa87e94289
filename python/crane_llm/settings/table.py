"""Every model setting CRANE-LLM reads, in one table. Adding a setting is adding one Spec here;
`resolve.py` resolves each entry the same way (see Spec for the order)."""

from __future__ import annotations

from typing import Mapping, Optional, Tuple

from .records import Setting, Spec
from .urls import base_url_problem, without_credentials

DEFAULT_MODEL = "gpt-5"  # the paper's model; used only with OpenAI itself (no base_url)


def _parse_base_url(text: str) -> str:
    problem = base_url_problem(text)
    if problem:
        raise ValueError(problem)
    return text


def _default_model(resolved: Mapping[str, Setting]) -> Optional[Setting]:
    # With a base_url the provider is not OpenAI, and only the user knows its model names.
    if resolved["base_url"].value:
        return None
    return Setting(DEFAULT_MODEL, "default", None, "default (%s)" % DEFAULT_MODEL)


SPECS: Tuple[Spec, ...] = (
    Spec("api_key", "apiKey", ("CRANE_LLM_API_KEY", "OPENAI_API_KEY"), secret=True),
    Spec("base_url", "baseUrl", ("CRANE_LLM_BASE_URL", "OPENAI_BASE_URL"), parse=_parse_base_url,
         show=lambda url: without_credentials(url) if url else url),
    Spec("model", "model", ("CRANE_LLM_MODEL",), default=_default_model),
)
