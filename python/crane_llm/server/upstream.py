"""An HTTP client for one proxied request that can drop its upstream connection at any moment.

Tornado's client has no way to abandon a fetch: a stream the browser no longer reads would stay
open until the provider's next chunk (or its end), and the provider would go on generating tokens
the user pays for. This client keeps the sockets it opens, so `abort()` closes them at once; the
pending fetch then ends with a closed-stream error (599) that the proxy expects.
"""

from __future__ import annotations

from typing import Any, List

from tornado.iostream import IOStream
from tornado.simple_httpclient import SimpleAsyncHTTPClient
from tornado.tcpclient import TCPClient


class _RecordingTCPClient(TCPClient):
    def __init__(self, owner: "UpstreamClient", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._owner = owner

    async def connect(self, *args: Any, **kwargs: Any) -> IOStream:
        stream = await super().connect(*args, **kwargs)
        self._owner.opened.append(stream)
        if self._owner.aborted:  # the browser left while this connection was being made
            stream.close()
        return stream


class UpstreamClient(SimpleAsyncHTTPClient):
    """>>> client = UpstreamClient(force_instance=True); ...; client.abort(); client.close()"""

    def initialize(self, **kwargs: Any) -> None:  # type: ignore[override]
        super().initialize(**kwargs)
        self.opened: List[IOStream] = []
        self.aborted = False
        self.tcp_client = _RecordingTCPClient(self, resolver=self.resolver)

    def abort(self) -> None:
        self.aborted = True
        for stream in self.opened:
            stream.close()
