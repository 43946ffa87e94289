"""What the magic tells the user about a request: what it holds back, and with --preview, all of it.

The words match apps/jlab's step detail and "Ask before sending" dialog.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..policy import SET_BY_ADMINISTRATOR
from ..settings import is_local_url

STAYS_HERE = "stays on this machine"
LEAVES = "leaves this machine"


def disclosure_text(d: Dict[str, Any]) -> str:
    """"2 secrets masked; data values left out"."""
    parts = ["1 secret masked" if d["masked"] == 1 else "%d secrets masked" % d["masked"]]
    if d.get("runtimeInfoLeftOut"):
        parts.append("runtime information left out")
    elif d.get("valuesLeftOut"):
        parts.append("data values left out")
    return "; ".join(parts)


def policy_note(policy: Optional[str]) -> str:
    what = {
        "no-llm": "nothing is sent to any model",
        "no-runinfo": "the model gets the code alone",
        "no-values": "no data value is sent",
    }.get(policy or "", "")
    return "CRANE_LLM_POLICY is %s (%s): %s." % (policy, SET_BY_ADMINISTRATOR, what)


def where(url: Optional[str]) -> str:
    return STAYS_HERE if is_local_url(url) else LEAVES


def preview_text(settings: Any, prompt: Dict[str, Any], disclosure: Dict[str, Any]) -> str:
    """The request as it would be sent (the key aside), for --preview. settings: crane_llm.settings.Settings."""
    api = "Chat Completions" if settings.api_kind == "chat" else "Responses API"
    lines = [
        "CRANE-LLM --preview: this is the request a check would send. Nothing was sent.",
        "Host:    %s (%s)" % (settings.provider_host, where(settings.endpoint)),
        "Model:   %s" % settings.model.value,
        "API:     %s" % api,
        "Size:    about %d tokens" % prompt["estimatedTokens"],
        "Held back: %s" % disclosure_text(disclosure),
        "",
        "----- prompt -----",
        prompt["text"],
        "----- end of prompt -----",
    ]
    return "\n".join(lines)
