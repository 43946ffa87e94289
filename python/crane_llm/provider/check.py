"""A check's model call in the kernel (the cell magic): the prompt, then the call, with resolved settings.

Twin of the JupyterLab check's model step (buildPrompt and callModel in libs/prompt, used by
apps/jlab/src/model-effects.ts), minus the proxy: the kernel holds the key itself.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from ..prompt.build import build_prompt
from ..prompt.parse import to_verdict
from ..prompt.request import request_body
from .call import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECONDS, call_model, settings_call_args


def check_with_model(
    executed: Sequence[Dict[str, Any]],
    runtime_info_text: Optional[str],
    target: str,
    settings: Any,
    *,
    on_text: Optional[Callable[[str], None]] = None,
    budget_tokens: Optional[int] = None,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    max_retries: int = DEFAULT_MAX_RETRIES,
    checker_ran_first: bool = True,
    disclosure: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """settings: a crane_llm.settings.Settings (from resolve_settings).

    Returns {"verdict" (libs/core Verdict dict, None on failure), "parsed", "raw", "prompt",
    "problem" ({"kind", "message"} or None), "structuredFallback", "requestBody"}. `disclosure`
    (what prompt_input_from_check held back) is passed through as "disclosure".
    """
    prompt = build_prompt(executed, runtime_info_text, target, budget_tokens)
    model = settings.model.value
    if not model:
        return {
            "verdict": None,
            "parsed": None,
            "raw": "",
            "prompt": prompt,
            "problem": {
                "kind": "other",
                "message": 'No model is set for %s. Set one with crane_llm.set_api_key(model="...") or CRANE_LLM_MODEL.'
                % settings.provider_host,
            },
            "structuredFallback": False,
            "disclosure": disclosure,
            "requestBody": request_body(settings.api_kind, prompt, "", True, settings.max_output_tokens.value),
        }
    result = call_model(
        prompt, model=model, on_text=on_text, timeout=timeout, max_retries=max_retries, **settings_call_args(settings)
    )
    parsed = result["parsed"]
    result["verdict"] = to_verdict(parsed, model, checker_ran_first) if parsed is not None else None
    result["prompt"] = prompt
    result["disclosure"] = disclosure
    return result
