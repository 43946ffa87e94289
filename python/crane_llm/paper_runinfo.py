"""The paper's runtime-information files, read safely: the one reader, for the replay adapter of
the built-in checks (checks/replay.py) and for the benchmark (bench/junobench).

Each `crane_llm_executed_code_runinfo/*.txt` of JunoBench is the paper's prompt input: the executed
cells, then, after the line `# Current relevent runtime information:`, a Python-literal dict of
per-variable facts, then the target cell. Most facts are plain literals (`ast.literal_eval` reads
them); some contain reprs that are not, such as `dtype('<U32')`, `torch.Size([3, 64, 64])`,
`defaultdict(<class 'set'>, {...})` or `<Precision name=precision>`. Those are read by walking the
parse tree ourselves: a call becomes {"__call__": name, "args": [...]}, an angle-bracket repr
becomes its text. Nothing is evaluated.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any, Dict, List, Optional, Tuple

_CELL_HEADER = re.compile(r"^## Cell (\d+):[ \t]*$", re.M)

MARKER = "# Current relevent runtime information:"
TARGET_MARKER = "# Target Cell:"
METHOD_PREFIX = "__method__"


class RecordedFactsError(ValueError):
    pass


def facts_text(prompt_text: str) -> str:
    if MARKER not in prompt_text:
        raise RecordedFactsError("no %r line" % MARKER)
    body = prompt_text.split(MARKER, 1)[1]
    return body.split(TARGET_MARKER, 1)[0].strip()


def parse_facts(prompt_text: str) -> Dict[str, Any]:
    """The recorded dict of one runinfo file; RecordedFactsError when it cannot be read."""
    text = facts_text(prompt_text)
    if not text:
        return {}
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = _tolerant_literal(text)
    if not isinstance(value, dict):
        raise RecordedFactsError("the recorded runtime information is not a dict")
    return value


# -- tolerant reading ------------------------------------------------------------------------------

def _quote_angle_reprs(text: str) -> str:
    """`<...>` outside string literals becomes a string literal of its text (nesting respected)."""
    out: List[str] = []
    i, n = 0, len(text)
    quote: Optional[str] = None
    while i < n:
        c = text[i]
        if quote:
            if c == "\\":
                out.append(text[i:i + 2])
                i += 2
                continue
            if text.startswith(quote, i):
                out.append(quote)
                i += len(quote)
                quote = None
                continue
            out.append(c)
            i += 1
            continue
        if c in "'\"":
            quote = c * 3 if text.startswith(c * 3, i) else c
            out.append(quote)
            i += len(quote)
            continue
        if c == "<":
            depth, j = 0, i
            while j < n:
                if text[j] == "<":
                    depth += 1
                elif text[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j < n:
                out.append(f"{_SHOWN}({text[i:j + 1]!r})")
                i = j + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


_NAMES = {"None": None, "True": True, "False": False, "nan": math.nan, "inf": math.inf, "NaN": math.nan}
_SHOWN = "__crane_shown__"


class Shown(str):
    """Text the recording only showed, not a `str` it held: an angle-bracket repr, a call's repr
    (`Timestamp('2020-01-01 00:00:00')` as a column label), a bare name. Compares as its text, but
    `type(x) is str` tells it apart, so no rule takes it for the label or value it names."""


def _dotted(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:
        return "?"


def _walk(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                continue
            key = _walk(k)
            try:
                hash(key)
            except TypeError:
                key = Shown(_dotted(k))
            out[key] = _walk(v)
        return out
    if isinstance(node, ast.List):
        return [_walk(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_walk(e) for e in node.elts)
    if isinstance(node, ast.Set):
        items = [_walk(e) for e in node.elts]
        try:
            return set(items)
        except TypeError:
            return items
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _walk(node.operand)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Name):
        return _NAMES[node.id] if node.id in _NAMES else Shown(node.id)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == _SHOWN and len(node.args) == 1 and \
                isinstance(node.args[0], ast.Constant) and type(node.args[0].value) is str:
            return Shown(node.args[0].value)
        return {"__call__": _dotted(node.func), "args": [_walk(a) for a in node.args],
                "kwargs": {kw.arg or "**": _walk(kw.value) for kw in node.keywords}}
    return Shown(_dotted(node))


def _tolerant_literal(text: str) -> Any:
    try:
        tree = ast.parse(_quote_angle_reprs(text), mode="eval")
    except SyntaxError as exc:
        raise RecordedFactsError("the recorded runtime information is not a Python literal: %s" % exc)
    return _walk(tree.body)


def split_prompt_file(text: str) -> Tuple[List[str], str]:
    """The executed cells and the target cell of a runinfo file (the paper's own prompt input)."""
    head, _, rest = text.partition(MARKER)
    if not rest:
        raise RecordedFactsError("no %r line" % MARKER)
    head = head.split("# Executed Cells:", 1)[-1]
    parts = _CELL_HEADER.split(head)
    cells = [parts[i].strip("\n") for i in range(2, len(parts), 2)]
    target = rest.split(TARGET_MARKER, 1)[1] if TARGET_MARKER in rest else ""
    return [c for c in cells if c.strip()], target.strip("\n").rstrip()
