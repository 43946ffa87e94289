"""SecretEventStream on event streams cut anywhere: the key, split over events and over network
reads, never shows; the text the client joins is the answer with the key masked."""

import json

import pytest

from crane_llm.server.secret_events import SecretEventStream

KEY = "sk-proj-Zq81nB0xT7yW3kLm"


def _chunk(content=None, finish=None, index=0, args=None):
    delta = {} if content is None else {"content": content}
    if args is not None:
        delta["tool_calls"] = [{"index": 0, "id": "call_1", "function": {"name": "verdict", "arguments": args}}]
    return {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


def _sse(events, newline="\n"):
    return "".join("data: " + (e if isinstance(e, str) else json.dumps(e)) + newline + newline for e in events)


def _run(text, cut):
    s = SecretEventStream([KEY])
    return "".join(s.feed(text[i:i + cut]) for i in range(0, len(text), cut)) + s.end()


def _joined(out, field=("content",)):
    parts = []
    for line in out.splitlines():
        if line.startswith("data: {"):
            delta = json.loads(line[6:])["choices"][0]["delta"]
            value = delta.get("content") if field == ("content",) else \
                (delta.get("tool_calls") or [{"function": {}}])[0]["function"].get("arguments")
            parts.append(value or "")
    return "".join(parts)


@pytest.mark.parametrize("cut", [1, 3, 7, 1000])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_key_in_pieces_of_three_is_masked_wherever_the_reads_cut(cut, newline):
    said = f"the key is {KEY}, done"
    events = [_chunk(said[i:i + 3]) for i in range(0, len(said), 3)] + [_chunk(finish="stop"), "[DONE]"]
    out = _run(_sse(events, newline), cut)
    assert KEY[:8] not in out and KEY[5:13] not in out
    assert _joined(out) == "the key is ***, done"
    assert out.rstrip().endswith("data: [DONE]")


def test_what_an_event_ends_is_flushed_into_it_and_tool_arguments_are_masked_too():
    events = [_chunk(args='{"x": "' + KEY[:6]), _chunk(args=KEY[6:] + '"}'), _chunk("ok", finish="stop")]
    out = _run(_sse(events), 1000)
    assert KEY[:8] not in out and _joined(out, ("arguments",)) == '{"x": "***"}'
    assert _joined(out) == "ok"


def test_a_stream_that_stops_mid_key_ends_masked_and_non_json_lines_are_masked_whole():
    out = _run(": keepalive " + KEY + "\n\n" + _sse([_chunk(KEY[:5]), _chunk(KEY[5:])]), 4)
    assert KEY[:8] not in out and KEY[-8:] not in out and ": keepalive ***" in out


def test_without_a_key_the_stream_passes_as_it_came():
    text = _sse([_chunk("a b"), "[DONE]"])
    s = SecretEventStream([""])
    assert s.feed(text) + s.end() == text
