"""Cancel reaches the provider: when the browser's request goes away mid-stream, the proxy closes
its upstream connection at once instead of at the provider's next chunk.

The provider here streams one chunk (or none: a slow first token) and then nothing for a minute;
it notes, on its own side, the moment its connection is closed.
"""

import asyncio
import json
import select
import socket
import threading
import time

import pytest

CHAT_BODY = {"model": "slow-model", "messages": [{"role": "user", "content": "df['b']"}], "stream": True}
FIRST_CHUNK = b'data: {"choices": [{"index": 0, "delta": {"content": "{"}}]}\n\n'


class SlowProvider:
    """Answers one streamed request: the headers and a first chunk (unless `first_chunk` is false),
    then silence until the peer closes."""

    def __init__(self, first_chunk: bool = True, silence: float = 60.0) -> None:
        self.first_chunk = first_chunk
        self.silence = silence
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base_url = "http://127.0.0.1:%d/v1" % self.listener.getsockname()[1]
        self.request_read = threading.Event()
        self.closed = threading.Event()
        self.closed_at = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            received = b""
            while b"\r\n\r\n" not in received:
                received += conn.recv(65536)
            head, body = received.split(b"\r\n\r\n", 1)
            length = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")]
            while len(body) < (length[0] if length else 0):
                body += conn.recv(65536)
            self.request_read.set()
            if self.first_chunk:
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
                             + FIRST_CHUNK)
            deadline = time.monotonic() + self.silence
            while time.monotonic() < deadline:
                readable, _, _ = select.select([conn], [], [], 0.02)
                if readable:
                    try:
                        data = conn.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        self.closed_at = time.monotonic()
                        self.closed.set()
                        return

    def stop(self) -> None:
        self.listener.close()


@pytest.fixture
def slow_provider(isolated, monkeypatch, jp_serverapp, request):
    provider = SlowProvider(first_chunk=getattr(request, "param", True))
    jp_serverapp.web_app.settings["crane_llm_start_dir"] = str(isolated)
    monkeypatch.setenv("CRANE_LLM_BASE_URL", provider.base_url)
    monkeypatch.setenv("CRANE_LLM_MODEL", "slow-model")
    yield provider
    provider.stop()


async def open_stream(port, base_url, auth_header):
    """The browser's request, on a socket of its own so the test can drop it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = json.dumps(CHAT_BODY).encode()
    headers = "".join("%s: %s\r\n" % kv for kv in dict(auth_header).items())
    writer.write(
        ("POST %scrane-llm/v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
         "Accept: text/event-stream\r\nContent-Length: %d\r\n%s\r\n" % (base_url, len(body), headers)).encode()
        + body
    )
    await writer.drain()
    return reader, writer


async def closed_within(provider, cancelled_at):
    for _ in range(100):
        if provider.closed.is_set():
            break
        await asyncio.sleep(0.05)
    assert provider.closed.is_set(), "the provider's connection stayed open after the browser left"
    return provider.closed_at - cancelled_at


async def test_the_upstream_connection_closes_within_a_second_of_the_browser_leaving(
    slow_provider, jp_fetch, jp_base_url, jp_http_port, jp_auth_header
):
    reader, writer = await open_stream(jp_http_port, jp_base_url, jp_auth_header)
    received = b""
    while FIRST_CHUNK.strip() not in received:  # the stream reached the browser: it is mid-answer
        received += await asyncio.wait_for(reader.read(65536), 30)
    assert received.startswith(b"HTTP/1.1 200")
    cancelled_at = time.monotonic()
    writer.close()  # what the browser does when the user cancels or the page goes away
    assert await closed_within(slow_provider, cancelled_at) < 1.0


@pytest.mark.parametrize("slow_provider", [False], indirect=True)
async def test_a_cancel_before_the_first_token_closes_the_upstream_too(
    slow_provider, jp_fetch, jp_base_url, jp_http_port, jp_auth_header
):
    _, writer = await open_stream(jp_http_port, jp_base_url, jp_auth_header)
    for _ in range(600):  # the request reached the provider, which is still thinking
        if slow_provider.request_read.is_set():
            break
        await asyncio.sleep(0.05)
    assert slow_provider.request_read.is_set()
    await asyncio.sleep(0.2)
    cancelled_at = time.monotonic()
    writer.close()
    assert await closed_within(slow_provider, cancelled_at) < 1.0
