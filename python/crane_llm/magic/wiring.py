"""The magic's connections to the other parts of crane_llm, in one place.

Each function calls the module that owns the logic (settings resolution, the runtime-information
text of the prompt, the origin of the crash). The magic never decides these itself; when a piece
is missing from this installation, the function says so in its result instead of guessing.
"""

from __future__ import annotations

from typing import Any, Dict, List

# The one settings resolution (argument, environment, .env, config file, Kaggle/Colab secret),
# reached through the wiring so a test can replace it like the other connections.
from ..settings import resolve_settings  # noqa: F401


def prompt_input(facts: Dict[str, Any], target: str, include_runtime_info: bool, include_values: bool) -> Dict[str, Any]:
    """The prompt's parts, secrets masked and values left out as asked (libs/prompt's from-check twin)."""
    from ..prompt.from_check import prompt_input_from_check

    check = {"log": facts.get("log"), "runtimeInfo": facts.get("runtimeInfo") if include_runtime_info else None}
    return prompt_input_from_check(check, target, include_values=include_values)


def origin_items(facts: Dict[str, Any], verdict: Dict[str, Any], shell: Any) -> List[Dict[str, Any]]:
    """Origin of the crash entries from the lineage twin, without the notebook's cells: the magic
    cannot see the notebook, so the "not run yet" entries (which need it) never appear."""
    from ..lineage.origin import origin, root_of

    log = facts.get("log")
    if log is None:  # a kernel side whose gather() does not return the log yet: read it directly
        from ..lineage import recorder

        live = recorder.current(shell)
        if live is None:
            return []
        log = live.to_json()
    variables = list(verdict.get("variables") or [])
    namespace = getattr(shell, "user_ns", {}) or {}
    defined = [root_of(v) for v in variables if root_of(v) in namespace]
    items = []
    for entry in origin(log, variables, defined=defined, cells=None):
        items.append({
            "cellId": entry.get("cellId"),
            "variable": entry["variable"],
            "note": entry.get("note") or "",
            "line": entry.get("line"),
            "codeOnly": not entry.get("recorded", True),
            "editedSinceRun": bool(entry.get("edited")),
            # The magic has no notebook to point into: it names the run and says what happened.
            "executionCount": entry.get("executionCount"),
            "sentence": entry.get("sentence") or "",
            "kind": entry.get("kind"),
        })
    return items


