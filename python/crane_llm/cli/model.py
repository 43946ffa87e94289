"""The model path outside the kernel, shared by `crane-llm check` and the benchmark.

It does what the cell magic does after the facts are in: settings, the prompt, the call, the
verdict. Each step calls the module that owns it (crane_llm.settings, crane_llm.prompt,
crane_llm.provider); nothing here decides what the prompt says or how a provider is reached.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from ..policy import SwitchValues, capped, current_policy
from ..prompt import build_prompt, prompt_input_from_check, to_verdict
from ..provider import call_model, settings_call_args
# The one settings type and resolution, shared with the server extension and the magic.
from ..settings import Settings, resolve_settings  # noqa: F401


def settings_problem(settings: Settings) -> Optional[str]:
    """Why no model can be called with these settings, or None."""
    if settings.problem:
        return settings.problem
    if not settings.model.value:
        return ("No model is configured. Pass --model NAME, set CRANE_LLM_MODEL, or run "
                "crane_llm.set_api_key(..., model=...); or use --no-llm for the built-in checks only.")
    if not settings.api_key.value and settings.key_required:
        return ("No API key was found for %s. Set CRANE_LLM_API_KEY or run crane_llm.set_api_key(\"...\"); "
                "or use --no-llm for the built-in checks only." % settings.provider_host)
    return None


def make_prompt(executed: List[Dict[str, Any]], runtime_info: Optional[Dict[str, Any]], target: str,
                include_runtime_info: bool, include_values: bool = True, style: str = "product",
                context: str = "all") -> Dict[str, Any]:
    """The built prompt, secrets masked (and data values left out when asked), as every host does,
    under the administrator's ceiling (CRANE_LLM_POLICY)."""
    _, include_runtime_info, include_values = capped(SwitchValues(True, include_runtime_info, include_values), current_policy())
    # The reply carries the executed cells inside its log; a list of cells reads the same way.
    check = {"log": {"runs": executed}, "runtimeInfo": (runtime_info or {"variables": []}) if include_runtime_info else None}
    parts = prompt_input_from_check(check, target, include_values=include_values)
    return build_prompt(parts["executed"], parts["runtime_info_text"], parts["target"], style=style, context=context)


def ask_model(prompt: Dict[str, Any], settings: Settings, checker_ran_first: bool,
              on_text: Optional[Callable[[str], None]] = None, timeout: Optional[float] = None) -> Dict[str, Any]:
    """{"verdict" (libs/core Verdict or None), "raw", "problem", "usage" (when reported), "cutAtLimit"}."""
    if current_policy() == "no-llm":
        return {"verdict": None, "raw": "", "usage": None, "problem": {
            "kind": "policy", "message": "CRANE_LLM_POLICY is no-llm (set by your administrator): nothing is sent to any model."}}
    model = settings.model.value or ""
    limits = {"timeout": timeout} if timeout else {}
    result = call_model(prompt, model=model, on_text=on_text, **limits, **settings_call_args(settings))
    verdict = None
    if result.get("parsed") is not None:
        verdict = to_verdict(result["parsed"], model, checker_ran_first)
    return {"verdict": verdict, "raw": result.get("raw", ""), "problem": result.get("problem"),
            "usage": result.get("usage"), "cutAtLimit": result.get("cutAtLimit")}
