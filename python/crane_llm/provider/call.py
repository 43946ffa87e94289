"""The model call from the kernel (the cell magic's path), with the official `openai` SDK.

Streams the answer, sends an output limit, retries once without each optional parameter a server
refuses (structured output, max_completion_tokens -> max_tokens, usage on the stream),
retries 429 / 5xx a bounded number of times (honouring Retry-After) within one overall deadline,
and turns every failure into a message from `describe_failure`. Never raises for a provider problem.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from typing import Any, Callable, Dict, List, Optional

from ..plain_text import SecretStream, strings_without_secrets, without_secrets
from ..prompt.parse import cut_verdict, parse_verdict
from ..prompt.request import DEFAULT_MAX_OUTPUT_TOKENS, BodyOptions, request_body
from ..settings.urls import OPENAI_URL, host_of, url_password
from .errors import describe_failure, rejected_parameter

DEFAULT_TIMEOUT_SECONDS = 300.0  # reasoning models can think for minutes before the first token
DEFAULT_MAX_RETRIES = 3


def provider_host(base_url: Optional[str]) -> str:
    """The host named in messages: never the credentials a base_url may hold."""
    return host_of(base_url)


class _Failure(Exception):
    def __init__(self, info: Dict[str, Any]) -> None:
        super().__init__(info.get("message", ""))
        self.info = info


def _failure_from(exc: BaseException) -> Dict[str, Any]:
    import openai

    if isinstance(exc, _Failure):
        return exc.info
    if isinstance(exc, openai.APITimeoutError):
        return {"transport": "timeout", "status": None, "code": None, "message": str(exc)}
    if isinstance(exc, openai.APIConnectionError):
        return {"transport": "connection", "status": None, "code": None, "message": str(exc)}
    if isinstance(exc, openai.APIStatusError):
        body = exc.body if isinstance(exc.body, dict) else {}
        err = body.get("error") if isinstance(body.get("error"), dict) else body
        message = err.get("message") if isinstance(err.get("message"), str) else exc.message
        code = err.get("code") if isinstance(err.get("code"), str) else None
        return {"transport": None, "status": exc.status_code, "code": code, "message": message or ""}
    return {"transport": None, "status": None, "code": None, "message": "%s: %s" % (type(exc).__name__, exc)}


MAX_RETRY_AFTER_SECONDS = 60.0


def _retry_after(exc: BaseException) -> Optional[float]:
    """The provider's Retry-After (or retry-after-ms), in seconds; None when absent or unreadable."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime

        return parsedate_to_datetime(value).timestamp() - time.time()
    except (TypeError, ValueError, IndexError):
        return None


def _retry_wait(exc: BaseException, info: Dict[str, Any], attempt: int) -> Optional[float]:
    """How long to wait before trying again, or None when retrying would not help.

    429 and 5xx (and 408/409, as the SDKs do) are retried, as is a refused connection; a timeout is
    not, since the deadline is spent. Retry-After is honoured up to a minute; longer is not waited.
    """
    status = info.get("status")
    retryable = (
        info.get("transport") == "connection"
        or status in (408, 409, 429)
        or (isinstance(status, int) and status >= 500)
    )
    if not retryable:
        return None
    after = _retry_after(exc)
    if after is not None and after >= 0:
        return after if after <= MAX_RETRY_AFTER_SECONDS else None
    return min(0.5 * (2**attempt), 8.0) * (1 - 0.25 * random.random())


def _field(obj: Any, name: str) -> Any:
    # Older SDKs sometimes hand the completed response (and what it holds) over as plain dicts.
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _usage_of(obj: Any) -> Optional[Dict[str, Any]]:
    """Token counts as the provider reported them (Responses: input/output_tokens; Chat: prompt/completion_tokens)."""
    usage = _field(obj, "usage")
    if usage is None:
        return None
    dump = getattr(usage, "model_dump", None)
    return dump() if dump else dict(usage)


class _Answer:
    """What one streamed answer gave: the text, the usage, and whether the output limit cut it."""

    def __init__(self) -> None:
        self.chunks: List[str] = []
        self.usage: Optional[Dict[str, Any]] = None
        self.cut = False

    @property
    def text(self) -> str:
        return "".join(self.chunks)


def _stream_failure(event: Any) -> _Failure:
    err = getattr(getattr(event, "response", None), "error", None) or event
    return _Failure(
        {"transport": None, "status": None, "code": getattr(err, "code", None), "message": getattr(err, "message", "") or ""}
    )


def _stream_text(
    client: Any, api_kind: str, body: Dict[str, Any], on_text: Callable[[str], None], deadline: float
) -> _Answer:
    answer = _Answer()
    if api_kind == "responses":
        stream = client.responses.create(**body)
    else:
        stream = client.chat.completions.create(**body)
    media = _media_type(getattr(getattr(stream, "response", None), "headers", {}).get("content-type"))
    if media not in ("text/event-stream", "application/json", ""):
        # (a login page or a proxy's error page: nothing a model said, so not blamed on the model)
        _close_quietly(stream)
        raise _Failure({"transport": None, "status": None, "code": None,
                        "message": "it answered with %s instead of a model's stream: check the base_url" % media})
    # A provider that trickles bytes (keep-alive comments, half lines) yields no event to check the
    # deadline at, and each read stays within its own timeout: closing the stream at the deadline
    # ends the read that waits.
    watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), _close_quietly, (stream,))
    watchdog.daemon = True
    watchdog.start()
    try:
        for event in _until_closed(stream, watchdog, deadline):
            piece = None
            if api_kind == "responses":
                kind = getattr(event, "type", "")
                if kind == "response.output_text.delta":
                    piece = event.delta
                elif kind in ("response.completed", "response.incomplete"):
                    response = _field(event, "response")
                    answer.usage = _usage_of(response)
                    answer.cut = _field(_field(response, "incomplete_details"), "reason") == "max_output_tokens"
                elif kind in ("response.failed", "error"):
                    raise _stream_failure(event)
            else:
                choices = getattr(event, "choices", None) or []
                if choices and choices[0].delta is not None:
                    piece = choices[0].delta.content
                if choices and getattr(choices[0], "finish_reason", None) == "length":
                    answer.cut = True
                # With stream_options.include_usage the usage comes in a last chunk without choices.
                answer.usage = _usage_of(event) or answer.usage
            if piece:
                answer.chunks.append(piece)
                on_text(piece)
    finally:
        watchdog.cancel()
        _close_quietly(stream)
    return answer


def _until_closed(stream: Any, watchdog: threading.Timer, deadline: float) -> Any:
    """The stream's events, up to the deadline: past it, or once the watchdog closed the stream
    under a waiting read, a timeout failure."""
    try:
        for event in stream:
            if time.monotonic() > deadline:
                break
            yield event
        else:
            if not watchdog.finished.is_set() or time.monotonic() <= deadline:
                return
    except Exception:
        if time.monotonic() <= deadline:
            raise
    raise _Failure({"transport": "timeout", "status": None, "code": None, "message": ""})


def _media_type(header: Any) -> str:
    return header.split(";", 1)[0].strip().lower() if isinstance(header, str) else ""


def _close_quietly(stream: Any) -> None:
    close = getattr(stream, "close", None)
    try:
        if close:
            close()
    except Exception:  # (closing twice, or under a read the watchdog already ended)
        pass


def _adapted(options: BodyOptions, api_kind: str, info: Dict[str, Any]) -> Optional[BodyOptions]:
    """The request's optional parts without the one a server refused, once each; None when the
    refusal is about nothing left to change."""
    refused = rejected_parameter(info.get("status"), info.get("code"), info.get("message") or "")
    if refused == "format" and options.structured:
        return replace(options, structured=False)
    if refused == "limit" and api_kind == "chat" and options.limit_field == "max_completion_tokens":
        return replace(options, limit_field="max_tokens")
    if refused == "stream-usage" and api_kind == "chat" and options.stream_usage:
        return replace(options, stream_usage=False)
    return None


def settings_call_args(settings: Any) -> Dict[str, Any]:
    """call_model's arguments that come from resolved settings (crane_llm.settings.Settings): the
    API, where requests go, the key, the output limit, and what error messages name."""
    return {
        "api_kind": settings.api_kind,
        "base_url": settings.endpoint,
        "api_key": settings.api_key.value,
        "max_output_tokens": settings.max_output_tokens.value,
        "key_found": bool(settings.api_key.value) or not settings.key_required,
        # The host requests really reach (the base_url, or OpenAI's address: tests move it).
        "host": provider_host(settings.endpoint),
        "configured_base_url": settings.base_url.value,
    }


def call_model(
    prompt: Dict[str, Any],
    *,
    model: str,
    api_kind: str,
    base_url: Optional[str],
    api_key: Optional[str],
    on_text: Optional[Callable[[str], None]] = None,
    timeout: float = DEFAULT_TIMEOUT_SECONDS,
    max_retries: int = DEFAULT_MAX_RETRIES,
    max_output_tokens: Optional[int] = DEFAULT_MAX_OUTPUT_TOKENS,
    key_found: Optional[bool] = None,
    host: Optional[str] = None,
    configured_base_url: Optional[str] = None,
) -> Dict[str, Any]:
    """Ask the model about one prompt (from `build_prompt`).

    api_kind: "responses" or "chat"; base_url is where the request goes (None: OpenAI).
    max_output_tokens: the answer's limit (None: none sent). key_found / host / configured_base_url:
    what error messages say (default: whether api_key is set; base_url's host; base_url).
    Returns {"raw", "parsed" (parse_verdict's dict, None on failure), "problem" ({"kind", "message"}
    or None), "structuredFallback" (bool), "requestBody", "usage" (the provider's token counts when
    it reported them, else None), "cutAtLimit" (the limit that cut the answer, else None)}.
    """
    import openai

    host = host or provider_host(base_url)
    if not model:  # (twin of callModel in libs/prompt: a request without a model is never sent)
        return {
            "raw": "",
            "parsed": None,
            "problem": {
                "kind": "other",
                "message": 'No model is set for %s. Set one with crane_llm.set_api_key(model="...") or CRANE_LLM_MODEL.'
                % host,
            },
            "structuredFallback": False,
            "requestBody": request_body(api_kind, prompt, "", BodyOptions(max_output_tokens=max_output_tokens)),
            "usage": None,
            "cutAtLimit": None,
        }
    # Retries are done here rather than by the SDK, so that one deadline covers the whole call,
    # retries and streaming included, as in the browser.
    client = openai.OpenAI(
        # Local servers need no key, but the SDK insists on one; it is never a real secret.
        api_key=api_key or "no-key",
        base_url=base_url or OPENAI_URL,
        timeout=timeout,
        max_retries=0,
        # A redirect would carry the prompt (and, to the same host, the key) elsewhere: as the proxy
        # does, it is reported, not followed.
        http_client=openai.DefaultHttpxClient(follow_redirects=False, timeout=timeout),
    )
    # A gateway or an echo service may quote the request's headers back, in an answer as in an
    # error: the key is masked in every piece shown and in the text kept.
    secrets = [api_key or "", url_password(base_url)]
    prompt = strings_without_secrets(prompt, secrets)  # (a variable may hold the key itself)
    scrubbed = SecretStream(secrets)
    shown = on_text or (lambda _piece: None)

    def emit(piece: str) -> None:
        out = scrubbed.feed(piece)
        if out:
            shown(out)

    deadline = time.monotonic() + timeout
    options = BodyOptions(max_output_tokens=max_output_tokens)
    retries = 0
    body = request_body(api_kind, prompt, model, options)
    answer = _Answer()
    while True:
        try:
            remaining = max(0.05, deadline - time.monotonic())
            answer = _stream_text(client.with_options(timeout=remaining), api_kind, body, emit, deadline)
            break
        except Exception as exc:  # every failure becomes a message, never a traceback
            info = _failure_from(exc)
            adapted = _adapted(options, api_kind, info)
            if adapted is not None:
                options = adapted
                body = request_body(api_kind, prompt, model, options)
                continue
            wait = _retry_wait(exc, info, retries)
            if wait is not None and retries < max_retries and time.monotonic() + wait < deadline:
                retries += 1
                time.sleep(wait)
                continue
            # (a provider may quote the key, or the base_url's password, back in its error)
            info["message"] = without_secrets(info.get("message") or "", secrets)
            info.update(
                {
                    "host": host,
                    "model": model,
                    "keyFound": bool(api_key) if key_found is None else key_found,
                    "retries": max_retries,
                    "timeoutSeconds": timeout,
                    "baseUrl": configured_base_url if configured_base_url is not None else base_url,
                }
            )
            return {
                "raw": without_secrets(answer.text, secrets),
                "parsed": None,
                "problem": describe_failure(info),
                "structuredFallback": not options.structured,
                "requestBody": body,
                "usage": None,
                "cutAtLimit": None,
            }
    rest = scrubbed.end()
    if rest:
        shown(rest)
    text = without_secrets(answer.text, secrets)
    cut = options.max_output_tokens if answer.cut else None
    return {
        "raw": text,
        "parsed": cut_verdict(cut) if cut else parse_verdict(text),
        "problem": None,
        "structuredFallback": not options.structured,
        "requestBody": body,
        "usage": answer.usage,
        "cutAtLimit": cut,
    }
