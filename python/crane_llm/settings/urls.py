"""The base_url: is it usable, and how it may be shown (never with the credentials it may hold)."""

from __future__ import annotations

import ipaddress
import re
from typing import Optional
from urllib.parse import urlsplit

OPENAI_URL = "https://api.openai.com/v1"

# "scheme://" (or a scheme-relative "//"), then the authority (up to the first / ? or #), whose user-info part ends at its last "@".
_AUTHORITY = re.compile(r"^(?P<scheme>(?:[A-Za-z][A-Za-z0-9+.\-]*:)?//)?(?P<authority>[^/?#]*)")


def without_credentials(url: str) -> str:
    """`http://user:secret@host/v1` -> `http://***@host/v1`: what may be shown to people.

    Works on malformed text too (no scheme, spaces), since that is when a message quotes it.
    """
    match = _AUTHORITY.match(url)
    if match is None or "@" not in match.group("authority"):
        return url
    hidden = "***@" + match.group("authority").rpartition("@")[2]
    return (match.group("scheme") or "") + hidden + url[match.end():]


def host_of(url: Optional[str]) -> str:
    """Host and port of a base_url (OpenAI without one), never the user-info, never raising."""
    url = url or OPENAI_URL
    try:
        netloc = urlsplit(url).netloc
    except ValueError:  # an invalid IPv6 literal
        netloc = ""
    return netloc.rpartition("@")[2] or without_credentials(url)


def is_local_url(url: Optional[str]) -> bool:
    if not url:
        return False
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if parts.scheme == "unix" or parts.scheme.endswith("+unix"):  # a unix socket never leaves the machine
        return True
    return host in ("localhost", "::1", "0.0.0.0") or host.startswith("127.") or host.endswith(".localhost")


def base_url_problem(url: str) -> Optional[str]:
    """Why this base_url cannot be used, said for people, or None when it can."""
    if any(ch.isspace() for ch in url):
        return "it contains a space; write the address without spaces, e.g. https://openrouter.ai/api/v1"
    scheme, sep, _ = url.partition("://")
    if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]*", scheme):
        return "it does not start with http:// or https://, e.g. http://localhost:11434/v1"
    if scheme.lower() not in ("http", "https"):
        return "CRANE-LLM speaks HTTP only, so it must start with http:// or https://, not %s://" % scheme
    try:
        parts = urlsplit(url)
        parts.port  # raises on a port that is not a number in range
    except ValueError as exc:
        if "IPv6" in str(exc) or "[" in url or "]" in url:
            return "its host is not a valid IPv6 address (write one in brackets, e.g. http://[::1]:8000/v1)"
        return "its port is not a number from 1 to 65535"
    if not parts.hostname:
        return "it names no host, e.g. https://openrouter.ai/api/v1"
    if "[" in parts.netloc and not _is_ipv6(parts.hostname):  # Python < 3.11 does not check brackets
        return "its host is not a valid IPv6 address (write one in brackets, e.g. http://[::1]:8000/v1)"
    return None


def _is_ipv6(host: str) -> bool:
    try:
        ipaddress.IPv6Address(host.split("%", 1)[0])  # a zone (fe80::1%eth0) is allowed
    except ValueError:
        return False
    return True
