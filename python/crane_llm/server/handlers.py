"""Handlers under <base_url>crane-llm/: GET settings, and the OpenAI-shaped proxy at v1/<path>.

Both are authenticated and XSRF-checked like every Jupyter API handler (APIHandler plus
@tornado.web.authenticated). The proxy forwards only the OpenAI paths CRANE-LLM uses, only to the
resolved provider, never follows redirects, replaces whatever Authorization the browser sent with
the resolved key, refuses bodies over MAX_BODY_BYTES, passes back only JSON and event streams, and
streams the answer back chunk by chunk. When the browser goes away (the user cancelled, or closed
the page) the upstream connection is closed at once, so the provider stops generating. Settings that cannot be used (a base_url that is not an
http(s) address) are a 400 whose message names the setting and where it came from.
"""

from __future__ import annotations

import codecs
import json
import os
from typing import Any, Dict, List, Optional

import tornado.web
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.httputil import HTTPHeaders

from ..plain_text import SecretStream, strings_without_secrets, without_secrets
from .secret_events import SecretEventStream
from ..settings import Settings, resolve_settings
from ..settings.urls import url_password
from .upstream import UpstreamClient

# The only upstream paths the proxy serves: the two APIs a check uses, and the model list.
ALLOWED_PATHS = {"responses", "chat/completions", "models"}
# Provider headers the SDK in the browser needs (Retry-After for its backoff); nothing else leaks.
PASSED_BACK = ("content-type", "retry-after", "retry-after-ms", "x-request-id")
DEFAULT_PROXY_TIMEOUT = 600.0  # longer than the browser's own deadline, so the browser decides
# A check's request is a prompt within the token budget: well under a megabyte. Anything near this
# is not a check, and the proxy will not hand it to the provider at the user's expense.
MAX_BODY_BYTES = 8 * 1024 * 1024
# What a provider's answer may be to reach the browser: JSON and server-sent events, nothing a
# page could render (an HTML login page of a captive portal, a script).
PASSED_CONTENT_TYPES = ("application/json", "text/event-stream")
MAX_ERROR_BYTES = 64 * 1024  # of a provider's error answer: its message, not a page


def _proxy_timeout() -> float:
    try:
        return float(os.environ.get("CRANE_LLM_PROXY_TIMEOUT", DEFAULT_PROXY_TIMEOUT))
    except ValueError:
        return DEFAULT_PROXY_TIMEOUT


def _resolve(handler: APIHandler, explicit_model: Optional[str] = None, explicit_api: Optional[str] = None) -> Settings:
    settings = resolve_settings(
        explicit_model=explicit_model,
        cwd=handler.settings.get("crane_llm_start_dir"),
        arguments={"api": explicit_api} if explicit_api else None,
    )
    for warning in settings.warnings:
        handler.log.warning("CRANE-LLM: %s", warning)
    return settings


def _media_type(content_type: Optional[str]) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


class SettingsHandler(APIHandler):
    """GET: {model, baseUrl, api, maxOutputTokens, apiKind, providerHost, keyFound, keyRequired, sources}; never the key,
    never the credentials a base_url holds. Settings that cannot be used: 400 {"message"}.

    ?model=<name> and ?api=auto|responses|chat are the extension's own settings, ranked first and
    reported as source "argument".
    """

    @tornado.web.authenticated
    def get(self) -> None:
        settings = _resolve(self, self.get_argument("model", None), self.get_argument("api", None))
        if settings.problem:
            self.set_status(400)
            self.finish(json.dumps({"message": settings.problem}))
            return
        self.finish(json.dumps(settings.public_json()))


class ProxyHandler(APIHandler):
    _upstream: Optional[UpstreamClient] = None
    _browser_gone = False

    def on_connection_close(self) -> None:
        # The browser cancelled or left: stop the provider now, not at its next chunk.
        self._browser_gone = True
        if self._upstream is not None:
            self._upstream.abort()
        super().on_connection_close()

    def _error(self, status: int, kind: str, message: str) -> None:
        # OpenAI's error shape, so the browser SDK raises its usual APIError; `type` tells the
        # front end that the proxy, not the provider, is speaking.
        self.set_status(status)
        self.finish(json.dumps({"error": {"message": message, "type": kind, "code": None, "param": None}}))

    @tornado.web.authenticated
    async def post(self, path: str) -> None:
        await self._forward("POST", path)

    @tornado.web.authenticated
    async def get(self, path: str) -> None:
        await self._forward("GET", path)

    async def _forward(self, method: str, path: str) -> None:
        if path not in ALLOWED_PATHS:
            self._error(404, "crane_llm_proxy_path", "The CRANE-LLM proxy does not forward /%s." % path)
            return
        if len(self.request.body or b"") > MAX_BODY_BYTES:
            self._error(413, "crane_llm_proxy_too_large",
                        "The request is larger than the CRANE-LLM proxy forwards (%d MB)." % (MAX_BODY_BYTES // 2**20))
            return
        settings = _resolve(self)
        if settings.problem:
            self._error(400, "crane_llm_settings", settings.problem)
            return
        if settings.policy.value == "no-llm":  # the ceiling holds even for a front end that ignores it
            self._error(403, "crane_llm_policy",
                        "CRANE_LLM_POLICY is no-llm (set by your administrator): nothing is sent to any model.")
            return
        upstream = settings.endpoint.rstrip("/") + "/" + path
        host = settings.provider_host
        headers = {"Content-Type": "application/json", "Accept": self.request.headers.get("Accept", "application/json")}
        if settings.api_key.value:
            headers["Authorization"] = "Bearer " + settings.api_key.value
        secrets = [settings.api_key.value or "", url_password(settings.endpoint)]
        state: Dict[str, Any] = {"status": None, "headers": HTTPHeaders(), "started": False, "redirect": None,
                                 "refused": None}
        # A gateway or an echo service may quote the request's headers back in a 2xx answer too:
        # the browser gets the answer with the key masked, piece by piece (an event stream's pieces
        # field by field, whatever events they come in: secret_events.py).
        state["scrubbed"] = SecretStream(secrets)
        decoder = codecs.getincrementaldecoder("utf-8")("replace")

        def on_header(line: str) -> None:
            if line.startswith("HTTP/"):
                # A new response (e.g. after 100-continue): start over.
                state["status"] = int(line.split(" ", 2)[1])
                state["headers"] = HTTPHeaders()
            elif line.strip():
                state["headers"].parse_line(line)

        def start() -> None:
            if state["started"]:
                return
            state["started"] = True
            status = state["status"] or 502
            if 300 <= status < 400:
                state["redirect"] = state["headers"].get("Location", "")
                return
            media = _media_type(state["headers"].get("Content-Type"))
            if media not in PASSED_CONTENT_TYPES:
                state["refused"] = media or "no content type"
                return
            if media == "text/event-stream":
                state["scrubbed"] = SecretEventStream(secrets)
            self.set_status(status)
            for name in PASSED_BACK:
                value = state["headers"].get(name)
                if value is not None:
                    self.set_header(name, value)

        def on_chunk(chunk: bytes) -> None:
            start()
            if state["redirect"] is not None or state["refused"] is not None:
                return
            if (state["status"] or 502) >= 400:
                # An error is held whole and passed on without the key: a provider may quote it back.
                held = state.setdefault("held", bytearray())
                held.extend(chunk[: max(0, MAX_ERROR_BYTES - len(held))])
                return
            out = state["scrubbed"].feed(decoder.decode(chunk))
            if out:
                self.write(out.encode("utf-8"))
                self.flush()

        request = HTTPRequest(
            upstream,
            method=method,
            headers=headers,
            body=_without_secrets_in_body(self.request.body, secrets) if method == "POST" else None,
            follow_redirects=False,
            connect_timeout=min(30.0, _proxy_timeout()),
            request_timeout=_proxy_timeout(),
            header_callback=on_header,
            streaming_callback=on_chunk,
            decompress_response=True,
        )
        self._upstream = UpstreamClient(force_instance=True)
        if self._browser_gone:  # it left while the settings were being resolved
            self._upstream.abort()
        try:
            await self._upstream.fetch(request, raise_error=False)
        except HTTPClientError as exc:
            if self._upstream.aborted:
                return  # nobody is listening any more
            if state["started"]:
                self._finish_scrubbed(state["scrubbed"], decoder)
                return
            if exc.code == 599 and "timeout" in str(exc).lower():
                self._error(504, "crane_llm_proxy_timeout", "%s did not answer in time." % host)
            else:
                self._error(502, "crane_llm_proxy_unreachable", "Could not connect to %s." % host)
            return
        except OSError:
            if self._upstream.aborted:
                return
            if state["started"]:
                self._finish_scrubbed(state["scrubbed"], decoder)
                return
            self._error(502, "crane_llm_proxy_unreachable", "Could not connect to %s." % host)
            return
        finally:
            self._upstream.close()
        start()
        if state["redirect"] is not None:
            self._error(
                502,
                "crane_llm_proxy_redirect",
                "%s answered with a redirect, which CRANE-LLM does not follow: check the base_url." % host,
            )
            return
        if state["refused"] is not None:
            self._error(
                502,
                "crane_llm_proxy_content_type",
                "%s answered with %s instead of JSON, which CRANE-LLM does not pass on: check the base_url."
                % (host, state["refused"]),
            )
            return
        if "held" in state:
            said = state["held"].decode("utf-8", "replace")
            self.write(without_secrets(said, secrets))
        scrubbed = state["scrubbed"]
        rest = scrubbed.feed(decoder.decode(b"", final=True)) + scrubbed.end()
        if rest:
            self.write(rest.encode("utf-8"))
        self.finish(set_content_type=state["headers"].get("Content-Type"))

    def _finish_scrubbed(self, scrubbed: Any, decoder: Any) -> None:
        rest = scrubbed.feed(decoder.decode(b"", final=True)) + scrubbed.end()
        if rest:
            self.write(rest.encode("utf-8"))
        self.finish()


def _without_secrets_in_body(body: Optional[bytes], secrets: List[str]) -> Optional[bytes]:
    """The request body with the key masked in every text it holds (a variable of the notebook's
    may hold the key itself, whatever its shape or name); a body that is not JSON goes as it is."""
    if not body:
        return body
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return body
    masked = strings_without_secrets(data, secrets)
    return body if masked == data else json.dumps(masked).encode("utf-8")


def setup_handlers(web_app: Any, start_dir: Optional[str] = None) -> None:
    base = web_app.settings["base_url"]
    web_app.settings["crane_llm_start_dir"] = start_dir or os.getcwd()
    web_app.add_handlers(
        ".*$",
        [
            (url_path_join(base, "crane-llm", "settings"), SettingsHandler),
            (url_path_join(base, "crane-llm", "v1", "(.*)"), ProxyHandler),
        ],
    )
