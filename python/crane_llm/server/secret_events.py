"""The key masked in a streamed answer whose pieces arrive one per server-sent event.

`SecretStream` masks a key a provider quotes back in a text that arrives in pieces. In an event
stream the pieces are strings inside separate JSON events (`choices[0].delta.content`, a Responses
event's `delta`), so a key split into pieces of fewer than 8 characters shows in no one event, and
the browser joins them. Here each streamed field (per choice, per Responses output item) is one
`SecretStream`: what a piece may continue is held back and handed on in that field's next piece;
before the event that ends the field (a `finish_reason`, a `.done` event, `[DONE]`) it is flushed,
masked, into that event, or into an event of its own made like the field's last one. Every other
string of an event, and any line that is no JSON event, is masked as it stands.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from ..plain_text import SecretStream, _masked, _runs

# The fields whose text continues from one event to the next.
_STREAMED = {"content", "reasoning_content", "reasoning", "refusal", "arguments", "delta"}
Path = Tuple[Any, ...]


class SecretEventStream:
    def __init__(self, secrets: "list[str]") -> None:
        self._secrets = secrets
        self._runs = _runs(secrets)
        self._partial = ""
        self._lines: List[str] = []  # of the event being read (events end at a blank line)
        # (route, path) -> (the field's stream, the last event that fed it)
        self._fields: Dict[Tuple[Any, Path], Tuple[SecretStream, Any]] = {}

    def feed(self, text: str) -> str:
        if not self._runs:
            return text
        *lines, self._partial = (self._partial + text).split("\n")
        out = []
        for line in lines:
            if line.strip("\r"):
                self._lines.append(line)
            else:
                out.append(self._event(self._lines) + line + "\n")
                self._lines = []
        return "".join(out)

    def end(self) -> str:
        if not self._runs:
            return ""
        lines, self._lines = self._lines + ([self._partial] if self._partial else []), []
        self._partial = ""
        return (self._event(lines) if lines else "") + self._flush(lambda key: True)

    def _event(self, lines: List[str]) -> str:
        """One event's lines, scrubbed, after the events that flush what it ends."""
        data = [line for line in lines if line.startswith("data:")]
        if len(data) != 1:
            return "".join(_masked(line, self._runs) + "\n" for line in lines)
        payload = data[0][len("data:"):].strip()
        event = _json(payload)
        if payload == "[DONE]":
            before, scrubbed = self._flush(lambda key: True), data[0]
        elif type(event) is not dict:
            before, scrubbed = "", _masked(data[0], self._runs)
        else:
            ending = _ended_routes(event)
            fed = self._walk(event, event, _route(event), (), ending)
            before = self._flush(lambda key: _ends(key, ending))
            scrubbed = "data: " + json.dumps(fed)
        return before + "".join((scrubbed if line is data[0] else _masked(line, self._runs)) + "\n" for line in lines)

    def _walk(self, value: Any, event: dict, route: Any, path: Path, ending: set) -> Any:
        if type(value) is str:
            if not _streamed(path):
                return _masked(value, self._runs)
            key = (route, path)
            stream = self._fields.get(key, (SecretStream(self._secrets), None))[0]
            out = stream.feed(value)
            if _ends(key, ending):
                out += stream.end()
                self._fields.pop(key, None)
            else:
                self._fields[key] = (stream, event)
            return out
        if type(value) is dict:
            return {k: self._walk(v, event, route, path + (k,), ending) for k, v in value.items()}
        if type(value) is list:
            return [self._walk(v, event, route, path + (i,), ending) for i, v in enumerate(value)]
        return value

    def _flush(self, chosen) -> str:
        out: List[str] = []
        for key in [k for k in self._fields if chosen(k)]:
            stream, template = self._fields.pop(key)
            held = stream.end()
            if held:
                kind = template.get("type")
                named = "event: %s\n" % kind if type(kind) is str and kind.isprintable() else ""
                out.append(named + "data: " + json.dumps(_with_only(template, key[1], held)) + "\n\n")
        return "".join(out)


def _streamed(path: Path) -> bool:
    return bool(path) and path[-1] in _STREAMED and "delta" in path


def _route(event: dict) -> Any:
    """Which output a Responses event's `delta` belongs to (None for a Chat chunk: its choices are in the path)."""
    kind = event.get("type")
    if type(kind) is not str:
        return None
    base = kind.rsplit(".", 1)[0] if kind.endswith((".delta", ".done")) else kind
    return (base, str(event.get("item_id")), str(event.get("output_index")), str(event.get("content_index")))


def _ended_routes(event: dict) -> set:
    """The outputs this event ends: a Responses `.done` event's, a Chat choice given a finish_reason."""
    ended = set()
    kind = event.get("type")
    if type(kind) is str and kind.endswith(".done"):
        ended.add(_route(event))
    choices = event.get("choices")
    if type(choices) is list:
        for i, choice in enumerate(choices):
            if type(choice) is dict and choice.get("finish_reason") is not None:
                ended.add(("choice", i))
    return ended


def _ends(key: Tuple[Any, Path], ending: set) -> bool:
    """The field `key` (route, path) belongs to an output `ending` holds: a Responses route, or a Chat choice."""
    route, path = key
    return route in ending or (len(path) > 1 and path[0] == "choices" and ("choice", path[1]) in ending)


def _json(payload: str) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None


def _with_only(template: Any, path: Path, text: str) -> Any:
    """The field's last event again, carrying `text` at `path` and no other streamed text (built
    anew: the template's containers are left as they are)."""

    def blank(value: Any, at: Path) -> Any:
        if type(value) is str and _streamed(at):
            return ""
        if type(value) is dict:
            return {k: blank(v, at + (k,)) for k, v in value.items() if k != "finish_reason"}
        if type(value) is list:
            return [blank(v, at + (i,)) for i, v in enumerate(value)]
        return value

    event = blank(template, ())
    target = event
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = text
    return event
