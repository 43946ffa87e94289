"""Secrets never leave the machine: the masking step every prompt goes through.

The Python twin of libs/prompt/src/mask.ts; libs/prompt/fixtures/mask/cases.json holds both to
the same output. Two rules, always on:

- a string that has the shape of a known credential (OpenAI/Anthropic ``sk-``, AWS ``AKIA``,
  GitHub, Slack, Google ``AIza``, JWTs, PEM private keys, ``Bearer`` tokens, a URL's
  ``user:password@``), anywhere in the code or in a value;
- the value of a variable, keyword, attribute or dict entry whose name looks like a secret
  (``key``, ``token``, ``secret``, ``password``, ``passwd``, ``credential``, ``auth`` as a word
  part of the name, in any case).

Either becomes ``<masked: N chars>``. The regular expressions use only syntax that JavaScript and
Python read the same way (no ``\\s``, no ``$``), so the twins cannot drift on a corner of the
engines.
"""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Tuple

from .runinfo_text import float_text

_TOKEN_PREFIXES = r"(?:sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|AIza|eyJ)"
CREDENTIAL = re.compile(
    "|".join(
        [
            # A value cut short by the runtime information ("sk-proj-abcd…") still gives a prefix away.
            r"(?<![A-Za-z0-9])" + _TOKEN_PREFIXES + r"[A-Za-z0-9_.-]{4,}\u2026",
            r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}",
            r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}",
            r"(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}",
            r"(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}",
            r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}",
            r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{30,}",
            r"(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
            # Up to its END line, or to the closing quote of the literal that holds it.
            r"-----BEGIN[A-Z ]*PRIVATE KEY-----(?:[^-\"']|-(?!----END))*(?:-----END[A-Z ]*PRIVATE KEY-----)?",
            r"[Bb]earer [A-Za-z0-9._~+/=-]{16,}",
            r"(?<=://)[^/:@ \"'\n]+:[^/@ \"'\n]+(?=@)",
        ]
    )
)

SECRET_WORDS = frozenset(
    ["key", "apikey", "token", "secret", "secrets", "password", "passwd", "credential", "credentials", "auth"]
)
_NAME_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def placeholder(text: str) -> str:
    return "<masked: %d chars>" % len(text)


def looks_secret(name: str) -> bool:
    """True when a word part of the name (split at _, digits and camelCase) is a secret word."""
    return any(part.lower() in SECRET_WORDS for part in _NAME_PART.findall(name))


def mask_text(text: str) -> Tuple[str, int]:
    """Credential-shaped parts of a text replaced; (text, how many)."""
    count = [0]

    def replace(match: "re.Match[str]") -> str:
        count[0] += 1
        return placeholder(match.group(0))

    return CREDENTIAL.sub(replace, text), count[0]


# --- code: one small lexer, written out the same way in both languages -------------------------

_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")  # ASCII, as the twin's [A-Za-z_]
_IDENT_CHAR = _IDENT_START | frozenset("0123456789")
_STRING_PREFIXES = frozenset(["r", "u", "b", "f", "br", "rb", "fr", "rf"])


def _secret_context(tokens: List[Tuple[str, str]]) -> bool:
    """Does the literal that follows these tokens give a value to a secret-looking name?

    ``password = "..."``, ``api_key="..."`` (a keyword), ``cfg.token = "..."``, ``{"secret": "..."}``,
    ``os.environ["API_KEY"] = "..."``, ``password := "..."``.
    """
    if len(tokens) < 2 or tokens[-1] not in (("op", "="), ("op", ":"), ("op", ":=")):
        return False
    kind, text = tokens[-2]
    if kind == "op" and text == "]" and len(tokens) >= 3:
        kind, text = tokens[-3]
    return kind in ("name", "string") and looks_secret(text)


def _string_end(code: str, start: int, quote: str) -> Tuple[int, int]:
    """(end of the body, end of the literal): at the closing quote, or where an unterminated one stops."""
    i, n = start, len(code)
    triple = len(quote) == 3
    while i < n:
        ch = code[i]
        if ch == "\\":
            i += 2
            continue
        if not triple and ch == "\n":
            return i, i
        if code.startswith(quote, i):
            return i, i + len(quote)
        i += 1
    return n, n


def mask_code(code: str) -> Tuple[str, int]:
    """The cell's code with secrets masked: literals given to secret names, then credential shapes."""
    out: List[str] = []
    tokens: List[Tuple[str, str]] = []
    masked = 0
    i, n, copied = 0, len(code), 0
    while i < n:
        ch = code[i]
        if ch == "#":
            end = code.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch in " \t\r\n\\":
            i += 1
            continue
        prefix_end = i
        if ch in _IDENT_START:
            j = i + 1
            while j < n and code[j] in _IDENT_CHAR:
                j += 1
            word = code[i:j]
            if not (j < n and code[j] in "'\"" and word.lower() in _STRING_PREFIXES):
                tokens.append(("name", word))
                i = j
                continue
            prefix_end = j
        if code[prefix_end] in "'\"":
            q = code[prefix_end]
            quote = q * 3 if code.startswith(q * 3, prefix_end) else q
            body_start = prefix_end + len(quote)
            body_end, end = _string_end(code, body_start, quote)
            body_end = min(body_end, n)
            body = code[body_start:body_end]
            if body and _secret_context(tokens):
                out.append(code[copied:body_start])
                out.append(placeholder(body))
                copied = body_end
                masked += 1
            tokens.append(("string", body))
            i = end
            continue
        two = code[i:i + 2]
        if two in ("==", "!=", "<=", ">=", ":=", "->", "**", "//"):
            tokens.append(("op", two))
            i += 2
            continue
        tokens.append(("op", ch))
        i += 1
    out.append(code[copied:])
    text, shaped = mask_text("".join(out))
    return text, masked + shaped


# --- runtime information ------------------------------------------------------------------------

def _masked_value(summary: Dict[str, Any], rendered: str) -> int:
    summary["value"] = placeholder(rendered)
    return 1


def _mask_scalar_list(values: List[Any]) -> int:
    count = 0
    for i, v in enumerate(values):
        if isinstance(v, str):
            values[i], c = mask_text(v)
            count += c
    return count


def _mask_value_summary(v: Dict[str, Any]) -> int:
    count = _mask_scalar_list(v["values"]) if isinstance(v.get("values"), list) else 0
    for key in ("min", "max"):
        if isinstance(v.get(key), str):
            v[key], c = mask_text(v[key])
            count += c
    return count


def _mask_strings(values: List[str]) -> int:
    count = 0
    for i, v in enumerate(values):
        values[i], c = mask_text(v)
        count += c
    return count


def _mask_summary(s: Dict[str, Any], secret: bool, include_values: bool) -> int:
    """Masks one summary in place; only the fields the prompt will show are touched and counted."""
    kind = s["kind"]
    count = 0
    if kind == "str" and include_values:
        if secret:
            count = _masked_value(s, s["value"])
        else:
            s["value"], count = mask_text(s["value"])
        if count:  # the length shown is the masked text's, so it does not read as cut short
            s["length"] = len(s["value"])
    elif kind == "int" and include_values and secret:
        return _masked_value(s, s["value"])
    elif kind == "float" and include_values and secret:
        return _masked_value(s, float_text(s["value"]))
    elif kind in ("sequence", "ndarray", "series"):
        if kind == "series" and "name" in s:
            s["name"], count = mask_text(s["name"])
        if include_values:
            if secret and "values" in s:
                del s["values"]
                count += 1
            elif "values" in s:
                count += _mask_value_summary(s["values"])
            if kind == "ndarray":
                count += _mask_value_summary(s)
    elif kind == "dict":
        for entry in s["entries"]:
            entry["key"], c = mask_text(entry["key"])
            count += c
            if include_values:
                if secret or looks_secret(entry["key"]):
                    entry["value"] = placeholder(entry["value"])
                    count += 1
                else:
                    entry["value"], c = mask_text(entry["value"])
                    count += c
    elif kind in ("dict-dataset", "dict-numbers"):
        count += _mask_strings(s["keys"])
    elif kind == "dict-history":
        count += _mask_strings(s["metrics"])
    elif kind == "dataframe":
        for column in s["columns"]:
            column["name"], c = mask_text(column["name"])
            count += c
            if include_values:
                count += _mask_value_summary(column)
    return count


def mask_runtime_info(info: Dict[str, Any], include_values: bool = True) -> Tuple[Dict[str, Any], int]:
    """A masked copy of the runtime information, and how many values were masked.

    With data values left out, only what the prompt still shows (names, keys, column names) is
    scanned, so the count says what masking kept from leaving, not what was never going to.
    """
    masked_info = json.loads(json.dumps(info))  # a plain-JSON copy: far cheaper than deepcopy
    count = 0
    for variable in masked_info["variables"]:
        count += _mask_summary(variable["summary"], looks_secret(variable["name"]), include_values)
    return masked_info, count


def mask_executed(executed: List[Dict[str, Any]]) -> Tuple[List[Dict[str, Any]], int]:
    cells, count = [], 0
    for cell in executed:
        code, c = mask_code(cell.get("code") or "")
        cells.append(dict(cell, code=code))
        count += c
    return cells, count

