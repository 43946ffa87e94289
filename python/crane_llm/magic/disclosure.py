"""What the magic tells the user about a request: what it holds back, and with --preview, all of it.

The words come from crane_llm.prompt.preview, the twin of what JupyterLab's step detail and
"Ask before sending" dialog show.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..policy import SET_BY_ADMINISTRATOR
from ..prompt.preview import disclosure_text, preview_rows, request_preview

__all__ = ["disclosure_text", "policy_note", "preview_text"]


def policy_note(policy: Optional[str]) -> str:
    what = {
        "no-llm": "nothing is sent to any model",
        "no-runinfo": "the model gets the code alone",
        "no-values": "no data value is sent",
    }.get(policy or "", "")
    return "CRANE_LLM_POLICY is %s (%s): %s." % (policy, SET_BY_ADMINISTRATOR, what)


def preview_text(settings: Any, prompt: Dict[str, Any], disclosure: Dict[str, Any]) -> str:
    """The request as it would be sent (the key aside), for --preview. settings: crane_llm.settings.Settings."""
    provider = {"providerHost": settings.provider_host, "providerLocal": settings.provider_local,
                "model": settings.model.value, "apiKind": settings.api_kind}
    preview = request_preview(provider, prompt, disclosure)
    lines = ["CRANE-LLM --preview: this is the request a check would send. Nothing was sent."]
    lines += ["%-8s %s" % (label + ":", value) for label, value in preview_rows(preview)]
    lines += ["", "----- prompt -----", preview["prompt"], "----- end of prompt -----"]
    return "\n".join(lines)
