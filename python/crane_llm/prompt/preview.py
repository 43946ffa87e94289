"""The request a check is about to send, described for the user: where it goes, which model and API,
how big it is, what it holds back, and the prompt itself. The magic's --preview prints it; JupyterLab's
"Ask before sending" dialog shows the same (twin: libs/prompt/src/preview.ts, held by
libs/prompt/fixtures/preview/cases.json).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

STAYS_HERE = "stays on this machine"
LEAVES = "leaves this machine"


def disclosure_text(d: Mapping[str, Any]) -> str:
    """"2 secrets masked; data values left out"."""
    parts = ["1 secret masked" if d["masked"] == 1 else "%d secrets masked" % d["masked"]]
    if d.get("runtimeInfoLeftOut"):
        parts.append("runtime information left out")
    elif d.get("valuesLeftOut"):
        parts.append("data values left out")
    return "; ".join(parts)


def request_preview(provider: Mapping[str, Any], prompt: Mapping[str, Any], disclosure: Mapping[str, Any]) -> Dict[str, Any]:
    """provider: {providerHost, providerLocal, model, apiKind} as the server's public settings say them."""
    local = bool(provider["providerLocal"])
    model: Optional[str] = provider.get("model")
    return {
        "host": provider["providerHost"],
        "where": STAYS_HERE if local else LEAVES,
        "local": local,
        "model": model if model else "(no model set)",
        "api": "Chat Completions" if provider["apiKind"] == "chat" else "Responses API",
        "size": "about {:,} tokens".format(prompt["estimatedTokens"]),
        "heldBack": disclosure_text(disclosure),
        "prompt": prompt["text"],
    }


def preview_rows(p: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """The preview's heading lines, label and value, in the order every host shows them."""
    return [
        ("Host", "%s (%s)" % (p["host"], p["where"])),
        ("Model", p["model"]),
        ("API", p["api"]),
        ("Size", p["size"]),
        ("Held back", p["heldBack"]),
    ]
