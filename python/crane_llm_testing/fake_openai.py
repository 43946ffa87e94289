"""A real local HTTP server that speaks the OpenAI APIs, scripted per test, recording every request.

No model provider is reachable from the test machines, and a mocked client object would hide
wire-format bugs, so pytest, vitest and the Playwright e2e all talk to this server over HTTP.

Endpoints (any path prefix works, so a base_url of `http://127.0.0.1:<port>/v1` or
`http://127.0.0.1:<port>/api/v1` both reach them):

    POST .../responses           the Responses API (streaming SSE when the body has "stream": true)
    POST .../chat/completions    Chat Completions (streaming chunks + "data: [DONE]" when streaming)
    GET  .../models              a model list

Run as a process (for vitest and e2e):

    python -m crane_llm_testing.fake_openai --port 0      # prints "PORT <n>" on stdout, then serves

Control API (plain JSON over HTTP on the same port):

    POST /_script    {"replies": [<reply>, ...]}   append replies to the queue (one per model request)
                     {"default": <reply>}          the reply used whenever the queue is empty
    GET  /_requests  {"requests": [{"method", "path", "headers", "body", "time"}, ...]}
                     every model request received (not control requests), oldest first; "headers" (names
                     lower-cased) keeps every header as sent, authorization included; "body" is the JSON
                     (null when the body was not JSON); "closedAt" (time.time()) when the client closed
                     the connection before a streamed answer ended (seen within 50 ms while
                     "chunk_delay" waits, as a provider sees a cancel)
    POST /_reset     empty the queue and the record, restore the default reply, release hung requests
    GET  /_health    {"ok": true}

A reply is a JSON object; every field is optional:

    "text":         the model's answer text (default: a valid no-crash verdict)
    "status":       an HTTP status; >= 400 answers with an OpenAI-shaped error body
    "error":        {"message", "type", "code"} for that error body
    "body":         with "status": this JSON body exactly, instead of the OpenAI-shaped error
                    (e.g. what a Jupyter server answers itself: {"message": "Forbidden", "reason": null})
    "headers":      extra response headers, e.g. {"Retry-After": "1"}
    "delay":        seconds to wait before answering
    "chunk_delay":  seconds to wait between streamed chunks
    "chunk_size":   characters per streamed delta (default 7)
    "hang":         true: never answer (until /_reset or the server stops)
    "redirect":     a URL: answer 307 with that Location
    "page":         text: answer it as is, with "content_type" (default text/html) and "status"
                    (default 200), like a captive portal's login page or a gateway's error page
    "reject_format": true: if the request asks for structured output (Chat "response_format" or
                    Responses "text.format"), answer 400 naming that parameter WITHOUT consuming
                    this reply; otherwise answer "text" and consume it (a server without
                    structured-output support)
    "refuse":       a list of request fields, e.g. ["max_completion_tokens", "stream_options"]: a request
                    carrying one answers 400 naming it WITHOUT consuming this reply (a server that
                    does not know that parameter)
    "cut":          true: the answer ends at the output limit (Chat finish_reason "length";
                    Responses "response.incomplete" with reason "max_output_tokens")
    "preset":       a named error, filling status/error/headers:
                    "unauthorized" (401), "forbidden" (403), "model_not_found" (404),
                    "rate_limited" (429, Retry-After from "retry_after", default 1),
                    "server_error" (500), "overloaded" (503), "context_length" (400,
                    code context_length_exceeded), "reject_format" (400 naming response_format)
"""

from __future__ import annotations

import argparse
import json
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional

DEFAULT_TEXT = json.dumps(
    {
        "explanation": "The fake server had no scripted reply, so it answered its default: no crash.",
        "crash": False,
        "exception": None,
        "line": None,
        "variables": [],
    }
)


def verdict_text(
    crash: bool,
    explanation: str = "",
    exception: Optional[str] = None,
    line: Optional[int] = None,
    variables: Optional[List[str]] = None,
) -> str:
    """A model answer in the JSON shape the prompt asks for."""
    return json.dumps(
        {
            "explanation": explanation,
            "crash": crash,
            "exception": exception,
            "line": line,
            "variables": variables or [],
        }
    )


def _preset(reply: Dict[str, Any], model: str) -> Dict[str, Any]:
    name = reply.get("preset")
    if not name:
        return reply
    retry_after = str(reply.get("retry_after", 1))
    presets: Dict[str, Dict[str, Any]] = {
        "unauthorized": {
            "status": 401,
            "error": {
                "message": "Incorrect API key provided. You can find your API key in your account settings.",
                "type": "invalid_request_error",
                "code": "invalid_api_key",
            },
        },
        "forbidden": {
            "status": 403,
            "error": {"message": "You are not allowed to use this model.", "type": "permission_error", "code": None},
        },
        "model_not_found": {
            "status": 404,
            "error": {
                "message": "The model `%s` does not exist or you do not have access to it." % model,
                "type": "invalid_request_error",
                "code": "model_not_found",
            },
        },
        "rate_limited": {
            "status": 429,
            "headers": {"Retry-After": retry_after},
            "error": {
                "message": "Rate limit reached. Please try again later.",
                "type": "requests",
                "code": "rate_limit_exceeded",
            },
        },
        "server_error": {
            "status": 500,
            "error": {
                "message": "The server had an error while processing your request.",
                "type": "server_error",
                "code": None,
            },
        },
        "overloaded": {
            "status": 503,
            "error": {"message": "The engine is currently overloaded.", "type": "server_error", "code": None},
        },
        "context_length": {
            "status": 400,
            "error": {
                "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 12000 tokens.",
                "type": "invalid_request_error",
                "code": "context_length_exceeded",
            },
        },
        "reject_format": {
            "status": 400,
            "error": {
                "message": "Unsupported parameter: 'response_format' is not supported with this model.",
                "type": "invalid_request_error",
                "code": "unsupported_parameter",
            },
        },
    }
    if name not in presets:
        raise ValueError("unknown preset %r" % name)
    merged = dict(presets[name])
    merged.update({k: v for k, v in reply.items() if k not in ("preset", "retry_after")})
    if "headers" in presets[name] and "headers" in reply:
        merged["headers"] = dict(presets[name]["headers"], **reply["headers"])
    return merged


def _asks_structured_output(body: Any) -> bool:
    if not isinstance(body, dict):
        return False
    if "response_format" in body:
        return True
    text = body.get("text")
    return isinstance(text, dict) and "format" in text


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queue: List[Dict[str, Any]] = []
        self.requests: List[Dict[str, Any]] = []
        self.default: Dict[str, Any] = {"text": DEFAULT_TEXT}
        self.release = threading.Event()

    def reset(self) -> None:
        with self.lock:
            self.queue = []
            self.requests = []
            self.default = {"text": DEFAULT_TEXT}
            old, self.release = self.release, threading.Event()
        old.set()

    def take(self, body: Any) -> Dict[str, Any]:
        """The reply for this request; a reject_format or refuse reply stays queued for the retry."""
        with self.lock:
            reply = self.queue[0] if self.queue else self.default
            if reply.get("reject_format") and _asks_structured_output(body):
                return {"preset": "reject_format"}
            refused = [f for f in reply.get("refuse") or [] if isinstance(body, dict) and f in body]
            if refused:
                return {
                    "status": 400,
                    "error": {
                        "message": "Unsupported parameter: '%s' is not supported by this server." % refused[0],
                        "type": "invalid_request_error",
                        "code": "unsupported_parameter",
                    },
                }
            if self.queue:
                self.queue.pop(0)
            return reply


class _Handler(BaseHTTPRequestHandler):
    server_version = "FakeOpenAI/1"
    protocol_version = "HTTP/1.1"
    state: _State  # set on the subclass made per server

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read the record instead
        pass

    # -- plumbing ---------------------------------------------------------------------------------
    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send_json(self, status: int, payload: Any, headers: Optional[Dict[str, str]] = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        self.end_headers()
        self.wfile.write(data)

    # -- routing ----------------------------------------------------------------------------------
    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/_requests":
            with self.state.lock:
                self._send_json(200, {"requests": list(self.state.requests)})
        elif path == "/_health":
            self._send_json(200, {"ok": True})
        elif path.endswith("/models"):
            self._record(b"")
            self._send_json(
                200,
                {
                    "object": "list",
                    "data": [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "crane-llm-tests"}],
                },
            )
        else:
            self._send_json(
                404, {"error": {"message": "no such path %s" % path, "type": "invalid_request_error", "code": None}}
            )

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        raw = self._read_body()
        if path == "/_script":
            payload = json.loads(raw or b"{}")
            with self.state.lock:
                self.state.queue.extend(payload.get("replies", []))
                if "default" in payload:
                    self.state.default = payload["default"]
            self._send_json(200, {"queued": len(self.state.queue)})
        elif path == "/_reset":
            self.state.reset()
            self._send_json(200, {"ok": True})
        elif path.endswith("/responses") or path.endswith("/chat/completions"):
            body = self._record(raw)
            self._answer(path, body)
        else:
            self._send_json(
                404, {"error": {"message": "no such path %s" % path, "type": "invalid_request_error", "code": None}}
            )

    def _record(self, raw: bytes) -> Any:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        entry = {
            "method": self.command,
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": body,
            "time": time.time(),
        }
        with self.state.lock:
            self.state.requests.append(entry)
        self._entry = entry
        return body

    def _client_left(self) -> None:
        with self.state.lock:
            self._entry.setdefault("closedAt", time.time())

    def _wait_watching(self, seconds: float, release: threading.Event) -> bool:
        """Wait between two chunks, noticing at once when the client closes its connection (a
        provider sees a cancel this way, not at its next write). True: stop streaming."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if release.is_set():
                return True
            if left <= 0:
                return False
            readable, _, _ = select.select([self.connection], [], [], min(0.05, left))
            if not readable:
                continue
            try:
                data = self.connection.recv(1, socket.MSG_PEEK)
            except OSError:
                data = b""
            if not data:
                self._client_left()
                return True
            time.sleep(min(0.05, max(0.0, end - time.monotonic())))  # bytes we do not read: not a close

    # -- answers ----------------------------------------------------------------------------------
    def _answer(self, path: str, body: Any) -> None:
        model = body.get("model", "") if isinstance(body, dict) else ""
        release = self.state.release
        reply = _preset(self.state.take(body), model)
        if reply.get("hang"):
            release.wait(600)
            self.close_connection = True
            return
        if reply.get("delay"):
            if release.wait(float(reply["delay"])):
                return
        headers = {k: str(v) for k, v in (reply.get("headers") or {}).items()}
        if reply.get("redirect"):
            self.send_response(307)
            self.send_header("Location", reply["redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        status = int(reply.get("status", 200))
        if "page" in reply:
            data = str(reply["page"]).encode()
            self.send_response(status)
            self.send_header("Content-Type", reply.get("content_type", "text/html; charset=utf-8"))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if status >= 400 and "body" in reply:
            self._send_json(status, reply["body"], headers)
            return
        if status >= 400:
            error = dict(
                {"message": "error %d" % status, "type": "invalid_request_error", "code": None, "param": None},
                **(reply.get("error") or {}),
            )
            self._send_json(status, {"error": error}, headers)
            return
        text = reply.get("text", DEFAULT_TEXT)
        chunk = max(1, int(reply.get("chunk_size", 7)))
        pieces = [text[i : i + chunk] for i in range(0, len(text), chunk)] or [""]
        stream = isinstance(body, dict) and bool(body.get("stream"))
        responses = path.endswith("/responses")
        if not stream:
            obj = _response_object(model, text, "completed") if responses else _chat_completion(model, text)
            self._send_json(200, obj, headers)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.close_connection = True
        cut = bool(reply.get("cut"))
        if responses:
            events = _responses_events(model, text, pieces, cut)
        else:
            options = body.get("stream_options") if isinstance(body, dict) else None
            usage = isinstance(options, dict) and options.get("include_usage") is True
            events = _chat_events(model, pieces, cut, usage)
        delay = float(reply.get("chunk_delay", 0))
        try:
            for i, event in enumerate(events):
                if delay and i and self._wait_watching(delay, release):
                    return
                self.wfile.write(event.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self._client_left()


def _response_object(model: str, text: str, status: str) -> Dict[str, Any]:
    output = []
    if status in ("completed", "incomplete"):
        output = [_message_item(text, "completed")]
    return {
        "id": "resp_fake",
        "object": "response",
        "created_at": int(time.time()),
        "status": status,
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "instructions": None,
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "temperature": 1.0,
        "top_p": 1.0,
        "usage": None
        if status == "in_progress"
        else {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": max(1, len(text) // 4),
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 100 + max(1, len(text) // 4),
        },
        "metadata": {},
    }


def _message_item(text: str, status: str) -> Dict[str, Any]:
    content = (
        [] if status == "in_progress" else [{"type": "output_text", "annotations": [], "logprobs": [], "text": text}]
    )
    return {"id": "msg_fake", "type": "message", "status": status, "role": "assistant", "content": content}


def _sse(event: Optional[str], data: Any) -> str:
    payload = data if isinstance(data, str) else json.dumps(data)
    head = "event: %s\n" % event if event else ""
    return "%sdata: %s\n\n" % (head, payload)


def _responses_events(model: str, text: str, pieces: List[str], cut: bool = False) -> List[str]:
    """The Responses API's event sequence for one text message, as OpenAI sends it."""
    seq = [0]

    def ev(kind: str, **fields: Any) -> str:
        data = dict({"type": kind, "sequence_number": seq[0]}, **fields)
        seq[0] += 1
        return _sse(kind, data)

    loc = {"item_id": "msg_fake", "output_index": 0, "content_index": 0}
    part_empty = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    part_full = dict(part_empty, text=text)
    out = [
        ev("response.created", response=_response_object(model, text, "in_progress")),
        ev("response.in_progress", response=_response_object(model, text, "in_progress")),
        ev("response.output_item.added", output_index=0, item=_message_item("", "in_progress")),
        ev("response.content_part.added", part=part_empty, **loc),
    ]
    out += [ev("response.output_text.delta", delta=p, logprobs=[], **loc) for p in pieces]
    out += [
        ev("response.output_text.done", text=text, logprobs=[], **loc),
        ev("response.content_part.done", part=part_full, **loc),
        ev("response.output_item.done", output_index=0, item=_message_item(text, "completed")),
    ]
    if cut:
        out.append(ev("response.incomplete", response=_response_object(model, text, "incomplete")))
    else:
        out.append(ev("response.completed", response=_response_object(model, text, "completed")))
    return out


def _chat_object(kind: str, model: str, **fields: Any) -> Dict[str, Any]:
    """A Chat Completions object (a completion or a stream chunk): the fields every one carries."""
    return dict({"id": "chatcmpl-fake", "object": kind, "created": int(time.time()), "model": model}, **fields)


def _chat_usage(completion_tokens: int) -> Dict[str, int]:
    return {"prompt_tokens": 100, "completion_tokens": completion_tokens, "total_tokens": 100 + completion_tokens}


def _chat_chunk(model: str, delta: Dict[str, Any], finish: Optional[str]) -> Dict[str, Any]:
    return _chat_object("chat.completion.chunk", model, system_fingerprint=None,
                        choices=[{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}])


def _chat_events(model: str, pieces: List[str], cut: bool = False, usage: bool = False) -> List[str]:
    out = [_sse(None, _chat_chunk(model, {"role": "assistant", "content": ""}, None))]
    out += [_sse(None, _chat_chunk(model, {"content": p}, None)) for p in pieces]
    out.append(_sse(None, _chat_chunk(model, {}, "length" if cut else "stop")))
    if usage:  # as OpenAI sends it with stream_options.include_usage: a last chunk without choices
        out.append(_sse(None, dict(_chat_chunk(model, {}, None), choices=[], usage=_chat_usage(len(pieces)))))
    out.append(_sse(None, "[DONE]"))
    return out


def _chat_completion(model: str, text: str) -> Dict[str, Any]:
    message = {"role": "assistant", "content": text, "refusal": None}
    return _chat_object("chat.completion", model,
                        choices=[{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
                        usage=_chat_usage(max(1, len(text) // 4)))


class FakeOpenAI:
    """The server in a background thread, for in-process use from pytest.

    >>> with FakeOpenAI() as fake:
    ...     fake.script({"text": verdict_text(True, "boom", "KeyError", 2, ["df"])})
    ...     # point a client at fake.base_url, then read fake.requests()
    """

    def __init__(self, port: int = 0) -> None:
        self.state = _State()
        handler = type("Handler", (_Handler,), {"state": self.state})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.base_url = self.url + "/v1"
        self._thread: Optional[threading.Thread] = None

    def start(self) -> "FakeOpenAI":
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.state.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def script(self, *replies: Dict[str, Any]) -> None:
        with self.state.lock:
            self.state.queue.extend(replies)

    def set_default(self, reply: Dict[str, Any]) -> None:
        with self.state.lock:
            self.state.default = reply

    def requests(self) -> List[Dict[str, Any]]:
        with self.state.lock:
            return list(self.state.requests)

    def reset(self) -> None:
        self.state.reset()


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    args = parser.parse_args(argv)
    fake = FakeOpenAI(args.port)
    print("PORT %d" % fake.port, flush=True)
    try:
        fake.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        fake.state.release.set()
        fake.httpd.server_close()


if __name__ == "__main__":
    main(sys.argv[1:])
