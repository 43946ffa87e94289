"""A provider that misbehaves on purpose, on a real local socket: it answers every request in one
of these ways (the `mode`):

- "trickle": 200 with an event-stream, then one SSE comment byte a tenth of a second, never an event;
- "echo": 400 whose error message quotes the Authorization header it was sent;
- "echo-ok": 200 with an event-stream whose one answer quotes the Authorization header, sent in
  two writes that split the key (a gateway that echoes what it was sent);
- "echo-events": 200 with an event-stream of Chat chunks that quote the Authorization header five
  characters per event, then a Responses-style event doing the same four per event;
- "html": 200 with a login page;
- "redirect": 307 to `elsewhere` (another address, which a client that follows would post the
  prompt to).

`requests` counts the requests it read, `bodies` holds their bodies.
"""

from __future__ import annotations

import json
import socket
import threading
import time


class MisbehavingProvider:
    def __init__(self, mode: str, elsewhere: str = "") -> None:
        self.mode = mode
        self.elsewhere = elsewhere
        self.requests = 0
        self.bodies: list = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base_url = "http://127.0.0.1:%d/v1" % self.listener.getsockname()[1]
        self._stopped = False
        # (joined on stop: a thread of this file left running would read, to a later test's
        # checker, as the notebook's own thread)
        self._threads = [threading.Thread(target=self._serve, daemon=True)]
        self._threads[0].start()

    def _serve(self) -> None:
        self.listener.settimeout(0.1)  # (closing a socket does not wake a thread blocked in accept)
        while not self._stopped:
            try:
                conn, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            conn.settimeout(None)
            answer = threading.Thread(target=self._answer, args=(conn,), daemon=True)
            self._threads.append(answer)
            answer.start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            received = b""
            while b"\r\n\r\n" not in received:
                data = conn.recv(65536)
                if not data:
                    return
                received += data
            head, body = received.split(b"\r\n\r\n", 1)
            lines = head.decode("latin-1").split("\r\n")
            fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
            while len(body) < int(fields.get("content-length", "0")):
                body += conn.recv(65536)
            self.requests += 1
            self.bodies.append(body)
            try:
                if self.mode == "trickle":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                    for _ in range(600):
                        if self._stopped:
                            return
                        conn.sendall(b":")
                        time.sleep(0.1)
                elif self.mode == "echo-ok":
                    verdict = json.dumps({"crash": False, "explanation": "echo: " + fields.get("authorization", ""),
                                          "exception": None, "line": None, "variables": []})
                    event = b"data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": verdict}}]}).encode()
                    half = event.index(b"Bearer ") + 14
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                    conn.sendall(event[:half])
                    time.sleep(0.05)
                    conn.sendall(event[half:] + b"\n\ndata: [DONE]\n\n")
                elif self.mode == "echo-events":
                    said = "echo: " + fields.get("authorization", "") + " end"
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
                    for i in range(0, len(said), 5):
                        chunk = {"id": "c1", "object": "chat.completion.chunk",
                                 "choices": [{"index": 0, "delta": {"content": said[i:i + 5]}, "finish_reason": None}]}
                        conn.sendall(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    last = {"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                    conn.sendall(b"data: " + json.dumps(last).encode() + b"\n\n")
                    for i in range(0, len(said), 4):
                        event = {"type": "response.output_text.delta", "item_id": "m1", "output_index": 0,
                                 "content_index": 0, "delta": said[i:i + 4]}
                        conn.sendall(b"event: response.output_text.delta\ndata: " + json.dumps(event).encode() + b"\n\n")
                    conn.sendall(b"data: [DONE]\n\n")
                elif self.mode == "html":
                    page = b"<html><body>Please sign in</body></html>"
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n"
                                 b"Connection: close\r\n\r\n" % len(page) + page)
                elif self.mode == "redirect":
                    conn.sendall(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: %s\r\nContent-Length: 0\r\n"
                                 b"Connection: close\r\n\r\n" % self.elsewhere.encode())
                else:
                    said = json.dumps({"error": {"message": "bad request, you sent " + fields.get("authorization", ""),
                                                 "type": "invalid_request_error", "code": None}}).encode()
                    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                                 b"Connection: close\r\n\r\n" % len(said) + said)
            except OSError:
                return  # (the client closed: what a timeout does)

    def stop(self) -> None:
        self._stopped = True
        for thread in list(self._threads):
            thread.join(timeout=5)
        self.listener.close()
