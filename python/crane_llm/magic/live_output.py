"""The magic's output in the notebook: one display per check, updated in place by its display id.

Updates carry the whole MIME bundle each time (static HTML, plain text and the renderer's JSON), so
every front end redraws the same state: steps while waiting, then the verdict, then grey once
another cell has run. Staleness is tracked per shell by one post_run_cell callback.
"""

from __future__ import annotations

import uuid
from typing import Any, Dict, List, Optional

from ..prompt.build import is_crane_llm_cell
from . import state as st
from .html_view import render_html
from .text_view import render_text

MIME_TYPE = "application/vnd.crane-llm.verdict+json"
DOCUMENT_VERSION = 1
_TRACKER_ATTRIBUTE = "_crane_llm_magic_tracker"


def bundle(doc: Dict[str, Any]) -> Dict[str, Any]:
    return {"text/plain": render_text(doc), "text/html": render_html(doc), MIME_TYPE: doc}


class LiveOutput:
    """One check's display. `show` the first state, `update` each later one."""

    def __init__(self, options: Dict[str, Any], display_id: Optional[str] = None, live_updates: bool = True):
        # A terminal prints every update anew, so there only the finished check is shown.
        self.live_updates = live_updates
        self.display_id = display_id or "crane-llm-" + uuid.uuid4().hex
        self.doc: Dict[str, Any] = {
            "version": DOCUMENT_VERSION,
            "displayId": self.display_id,
            "options": options,
            "notes": [],
            "state": st.started(),
        }
        self._shown = False

    def render(self, state: st.State, notes: Optional[List[str]] = None) -> None:
        self.doc = dict(self.doc, state=state)
        if notes is not None:
            self.doc["notes"] = list(notes)
        if not self.live_updates and (state["phase"] == "running" or self._shown):
            return  # a terminal shows the finished check once
        from IPython.display import display, update_display

        shown = self.doc
        if state["phase"] == "running" and state.get("prompt") is not None:
            # The running view does not show the prompt, and it can be large: leave it out of the
            # several updates a second that the streamed answer causes; the final bundle has it.
            shown = dict(self.doc, state=dict(state, prompt=None))
        if self._shown:
            update_display(bundle(shown), raw=True, display_id=self.display_id)
        else:
            display(bundle(shown), raw=True, display_id=self.display_id)
            self._shown = True

    @property
    def state(self) -> st.State:
        return self.doc["state"]

    def make_stale(self, reason: str) -> bool:
        new = st.made_stale(self.state, reason)
        if new is self.state:
            return False
        self.render(new)
        return True


class StaleTracker:
    """Turns every fresh verdict grey when any cell other than a `%%crane_llm` one runs."""

    def __init__(self) -> None:
        self.live: List[LiveOutput] = []

    def watch(self, output: LiveOutput) -> None:
        self.live.append(output)

    def post_run_cell(self, result: Any = None) -> None:
        info = getattr(result, "info", None)
        raw = getattr(info, "raw_cell", None) or ""
        if is_crane_llm_cell(raw):
            return  # nothing was executed, so the state the verdicts read is unchanged
        waiting, self.live = self.live, []
        for output in waiting:
            try:
                if not output.make_stale("other-cell-ran") and output.state["phase"] == "running":
                    self.live.append(output)
            except Exception:  # a display that cannot be updated must not disturb the user's cell
                pass


def tracker(shell: Any) -> StaleTracker:
    """The shell's tracker, created and hooked once however often the extension is loaded."""
    existing = getattr(shell, _TRACKER_ATTRIBUTE, None)
    if isinstance(existing, StaleTracker):
        return existing
    created = StaleTracker()
    setattr(shell, _TRACKER_ATTRIBUTE, created)
    shell.events.register("post_run_cell", created.post_run_cell)
    return created


def untrack(shell: Any) -> None:
    existing = getattr(shell, _TRACKER_ATTRIBUTE, None)
    if isinstance(existing, StaleTracker):
        try:
            shell.events.unregister("post_run_cell", existing.post_run_cell)
        except ValueError:
            pass
        delattr(shell, _TRACKER_ATTRIBUTE)
