"""Where a notebook cell's current text binds a name at module level: a line scanner.

Twin of libs/lineage/src/defines.ts, held to the same answers by the golden vectors. It is a
scanner rather than a parser because the browser has no Python parser, and both sides must
agree: it reads assignments, `def`/`class`, imports, `for`/`with`/`except ... as` targets and
`:=`, skips strings, comments, magics and the bodies of functions and classes. It serves only
to point at cells that have not run, so an occasional miss costs a hint, never a wrong claim
about what ran.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DEF = re.compile(r"^(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)")
CLASS = re.compile(r"^class\s+([A-Za-z_][A-Za-z0-9_]*)")
IMPORT = re.compile(r"^import\s+(.+)$")
FROM_IMPORT = re.compile(r"^from\s+\S+\s+import\s+(.+)$")
FOR = re.compile(r"^(?:async\s+)?for\s+(.+?)\s+in\b")
AS_TARGET = re.compile(r"\bas\s+([A-Za-z_][A-Za-z0-9_]*)")
WALRUS = re.compile(r"\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*:=")
HEADER = re.compile(r"^(if|elif|else|while|try|finally|for|async\s+for|with|async\s+with|except)\b")
BLOCK = re.compile(r"^(?:async\s+def|def|class)\b")
AUGMENT_CHARS = "+-*/%&|^@<>!=:"


def code_lines(source: str) -> List[str]:
    """Each line with string contents blanked and comments removed; line count preserved."""
    out: List[str] = []
    current: List[str] = []
    quote = ""  # the open string's delimiter: ', ", ''' or \"\"\"
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\n":
            out.append("".join(current))
            current = []
            if len(quote) == 1:
                quote = ""  # an unterminated one-line string ends with its line
            i += 1
            continue
        if quote:
            if ch == "\\":
                i += 2 if i + 1 < n and source[i + 1] != "\n" else 1
                continue
            if source.startswith(quote, i):
                current.append(quote)
                i += len(quote)
                quote = ""
                continue
            i += 1
            continue
        if ch == "#":
            while i < n and source[i] != "\n":
                i += 1
            continue
        if ch in "'\"":
            triple = source[i:i + 3]
            quote = triple if triple in ("'''", '"""') else ch
            current.append(quote)
            i += len(quote)
            continue
        current.append(ch)
        i += 1
    out.append("".join(current))
    return out


def _top_level(text: str, sep: str) -> List[int]:
    """The positions of `sep` outside brackets."""
    found, depth = [], 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            found.append(i)
    return found


def _split_top(text: str, sep: str) -> List[str]:
    """Split at `sep` outside brackets."""
    parts, start = [], 0
    for i in _top_level(text, sep):
        parts.append(text[start:i])
        start = i + 1
    parts.append(text[start:])
    return parts


def _target_names(text: str) -> List[str]:
    names: List[str] = []
    for part in _split_top(text, ","):
        part = part.strip().lstrip("*").strip()
        while part[:1] in ("(", "[") and part[-1:] in (")", "]"):
            inner = part[1:-1]
            names.extend(_target_names(inner))
            part = ""
        if IDENT.match(part):
            names.append(part)
    return names


def _assignment_targets(stmt: str) -> List[str]:
    """Names bound by `a = b = ...`, `a, b = ...`, `a: int = ...`; none for `a += 1` or `a == b`."""
    pieces, start = [], 0
    for i in _top_level(stmt, "="):
        before = stmt[i - 1] if i > 0 else ""
        after = stmt[i + 1] if i + 1 < len(stmt) else ""
        if after == "=" or before in AUGMENT_CHARS:
            return []  # a comparison, or an augmented assignment: no new binding
        pieces.append(stmt[start:i])
        start = i + 1
    names: List[str] = []
    for target in pieces:
        annotated = _split_top(target, ":")
        names.extend(_target_names(annotated[0]))
    return names


def _statement_names(stmt: str) -> List[str]:
    stmt = stmt.strip()
    if not stmt or stmt[0] in "%!?":
        return []
    m = DEF.match(stmt) or CLASS.match(stmt)
    if m:
        return [m.group(1)]
    m = IMPORT.match(stmt)
    if m:
        names = []
        for part in m.group(1).split(","):
            words = part.split()
            if len(words) == 3 and words[1] == "as":
                names.append(words[2])
            elif words:
                names.append(words[0].split(".")[0])
        return [n for n in names if IDENT.match(n)]
    m = FROM_IMPORT.match(stmt)
    if m:
        names = []
        for part in m.group(1).replace("(", " ").replace(")", " ").split(","):
            words = part.split()
            if len(words) == 3 and words[1] == "as":
                names.append(words[2])
            elif len(words) == 1:
                names.append(words[0])
        return [n for n in names if IDENT.match(n)]
    names = [m.group(1) for m in WALRUS.finditer(stmt)]
    header = HEADER.match(stmt)
    if header:
        m = FOR.match(stmt)
        if m:
            names.extend(_target_names(m.group(1)))
        keyword = header.group(1)
        if keyword.endswith("with") or keyword == "except":
            head = _split_top(stmt, ":")[0]
            names.extend(m2.group(1) for m2 in AS_TARGET.finditer(head))
        colon = _split_top(stmt, ":")
        if len(colon) > 1:
            names.extend(_statement_names(":".join(colon[1:])))  # `if x: y = 1`
        return names
    return names + _assignment_targets(stmt)


def binding_lines(source: str) -> List[Tuple[int, str]]:
    """(line, name) for each module-level binding the scanner sees, in order."""
    found: List[Tuple[int, str]] = []
    block_indent: Optional[int] = None  # inside a def/class body deeper than this indent
    depth = 0
    for number, line in enumerate(code_lines(source), start=1):
        stripped = line.strip()
        starts_statement = depth == 0
        for ch in line:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(0, depth - 1)
        if not stripped or not starts_statement:
            continue
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if indent > block_indent:
                continue
            block_indent = None
        if BLOCK.match(stripped):
            block_indent = indent
        for stmt in _split_top(stripped, ";"):
            for name in _statement_names(stmt):
                found.append((number, name))
    return found


def defines_line(source: str, name: str) -> Optional[int]:
    """First line of the cell's text that binds `name` at module level, or None."""
    for number, bound in binding_lines(source):
        if bound == name:
            return number
    return None
