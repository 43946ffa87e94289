"""The base_url: is it usable, and how it may be shown (never with the credentials it may hold)."""

from __future__ import annotations

import ipaddress
import re
from typing import Optional
from urllib.parse import urlsplit

OPENAI_URL = "https://api.openai.com/v1"

# "scheme:" and its slashes, however many (a malformed `http:/user:pw@host` is still shown masked);
# without a slash after it, `user:pw@host` has no scheme, only user-info.
_SCHEME = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.\-]*:/+|/+)?")


def without_credentials(url: str) -> str:
    """`http://user:secret@host/v1` -> `http://***@host/v1`: what may be shown to people.

    Works on malformed text too (no scheme, spaces, a secret holding `/`, `?` or `#`), since that
    is when a message quotes it: everything up to the last `@` may be user-info, so it is hidden.
    """
    scheme = _SCHEME.match(url).group(0)
    rest = url[len(scheme):]
    if "@" not in rest:
        return url
    return scheme + "***@" + rest.rpartition("@")[2]


def url_password(url: Optional[str]) -> str:
    """The user-info of a base_url (`user:secret` of `http://user:secret@host`), "" when none: what
    no message may quote back."""
    scheme = _SCHEME.match(url or "").group(0)
    rest = (url or "")[len(scheme):]
    return rest.rpartition("@")[0] if "@" in rest else ""


def host_of(url: Optional[str]) -> str:
    """Host and port of a base_url (OpenAI without one), never the user-info, never raising."""
    url = without_credentials(url or OPENAI_URL)  # (parsed after masking: a secret may hold a `/`)
    try:
        netloc = urlsplit(url).netloc
    except ValueError:  # an invalid IPv6 literal
        netloc = ""
    return netloc.rpartition("@")[2] or url


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
    except ValueError:  # (urlsplit itself refuses only unbalanced or invalid IPv6 brackets)
        return "its host is not a valid IPv6 address (write one in brackets, e.g. http://[::1]:8000/v1)"
    try:
        port = parts.port  # raises on a port that is not a number in range
    except ValueError:
        return "its port is not a number from 1 to 65535"
    if port == 0:
        return "its port is not a number from 1 to 65535"
    if not parts.hostname:
        return "it names no host, e.g. https://openrouter.ai/api/v1"
    for endpoint in ("/chat/completions", "/responses"):
        if parts.path.rstrip("/").endswith(endpoint):
            return ("it ends with %s, which CRANE-LLM adds itself: leave it out, e.g. %s"
                    % (endpoint, without_credentials(url).rstrip("/")[: -len(endpoint)]))
    if "[" in parts.netloc and not _is_ipv6(parts.hostname):  # Python < 3.11 does not check brackets
        return "its host is not a valid IPv6 address (write one in brackets, e.g. http://[::1]:8000/v1)"
    return None


def _is_ipv6(host: str) -> bool:
    try:
        ipaddress.IPv6Address(host.split("%", 1)[0])  # a zone (fe80::1%eth0) is allowed
    except ValueError:
        return False
    return True
