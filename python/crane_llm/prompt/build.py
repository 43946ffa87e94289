"""The prompt: executed cells in the order they ran, the runtime information, the target cell.

The Python twin of libs/prompt/src/build.ts; both must produce the same text for the same input
(libs/prompt/fixtures/prompt/*.json hold them to it). The layout follows the paper's prompt input.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

DEFAULT_BUDGET_TOKENS = 24000

_HEAD_LINES = """You check cells of machine-learning notebooks for crashes before they run.
You are given:
"""
_CELLS_ITEM = """- [Executed Cells]: the cells that have already run, in the order they ran; they all finished without error,
"""
# In JupyterLab, and with `crane-llm check --keep-going`, the log can hold cells that raised.
_CELLS_ITEM_SOME_RAISED = """- [Executed Cells]: the cells that have already run, in the order they ran; each finished without error unless its heading says it raised,
"""
# With `--context slice`, the cells are only those the target depends on, and lines inside them it
# does not depend on are replaced by a marker (python/crane_llm/lineage/slice.py).
_CELLS_RAN = "the cells that have already run, in the order they ran;"
_CELLS_RAN_SLICE = "the cells already run that the target depends on, in the order they ran (`# ...` marks lines left out);"
_SHARED_HEAD = _HEAD_LINES + _CELLS_ITEM
_RUNINFO_ITEM = """- [Current relevant runtime information]: facts about the live objects the target cell uses (types, shapes, dtypes, columns, fitted state, values), read from the running kernel just now,
"""
_SHARED_TAIL = """- [Target Cell]: the cell about to run. It has not run yet.

Decide whether running the [Target Cell] now will raise an exception.
Answer with one JSON object and nothing else:
{"explanation": string, "crash": boolean, "exception": string or null, "line": integer or null, "variables": [string]}
- explanation: one or two sentences; if it crashes, the diagnosis (what fails and why), otherwise why it runs.
- crash: true only if you are CERTAIN the [Target Cell] will raise; when you are not certain, false.
- exception: the type name of the exception it raises, such as "KeyError"; null when crash is false.
- line: the 1-based line of the [Target Cell] that raises; null when crash is false or unknown.
- variables: the names of the variables involved in the crash; [] when there are none."""

# The product's answer also carries a fix; the paper's prompt (the benchmark's `--prompt paper`) does not.
_FIX_TAIL = (_SHARED_TAIL.replace('"variables": [string]}', '"variables": [string], "fix": string or null}')
             + "\n- fix: when crash is true, the whole [Target Cell] corrected so that it runs; null when crash is false or you cannot tell.")

INSTRUCTIONS_WITH_RUNINFO = _SHARED_HEAD + _RUNINFO_ITEM + _SHARED_TAIL
INSTRUCTIONS_CODE_ONLY = _SHARED_HEAD + _SHARED_TAIL
PROMPT_STYLES = ("product", "paper")
INSTRUCTIONS = {
    "paper": {"withRuntimeInfo": INSTRUCTIONS_WITH_RUNINFO, "codeOnly": INSTRUCTIONS_CODE_ONLY},
    "product": {"withRuntimeInfo": _SHARED_HEAD + _RUNINFO_ITEM + _FIX_TAIL, "codeOnly": _SHARED_HEAD + _FIX_TAIL},
}


def count_chars(text: str) -> int:
    """Characters as Unicode code points, the unit both implementations agree on (for lengths shown)."""
    return len(text)


def prompt_weight(text: str) -> int:
    """The text's size in quarter tokens, the unit of the token budget: an ASCII character weighs 1,
    any other code point of the Basic Multilingual Plane 4 (one token), one above U+FFFF 8 (two).

    Code and English run about four characters a token, but other scripts (CJK, Cyrillic, Arabic,
    accented text, emoji) run about a token a character or more, so counting characters / 4 would
    let such a prompt overrun the budget several times over. A lone surrogate counts as a BMP code
    point, as in the TypeScript twin; every pass here is in C, so megabyte texts stay cheap.
    """
    n = len(text)
    if text.isascii():
        return n
    ascii_count = len(text.encode("ascii", "ignore"))
    # Code points above U+FFFF take two UTF-16 units; lone surrogates pass through as one.
    supplementary = len(text.encode("utf-16-le", "surrogatepass")) // 2 - n
    return ascii_count + 4 * (n - ascii_count - supplementary) + 8 * supplementary


def estimate_tokens(text: str) -> int:
    # About four characters a token for code and English, but about a token a character for
    # non-Latin text (two for a code point above U+FFFF): see prompt_weight. Cheap, and the same
    # in both languages.
    return -(-prompt_weight(text) // 4)


def _cell_block(position: int, cell: Dict[str, Any]) -> str:
    raised = cell.get("raised")
    if not raised:
        return "## Cell %d:\n%s\n\n" % (position, cell["code"])
    where = " at line %d" % raised["line"] if raised.get("line") is not None else ""
    return "## Cell %d (it raised %s%s):\n%s\n\n" % (position, raised["exception"], where, cell["code"])


def _omitted_note(count: int) -> str:
    if count == 0:
        return ""
    cells = "Cell 1 was" if count == 1 else "Cells 1-%d were" % count
    return "(%s left out to keep the prompt within its size limit.)\n\n" % cells


def _compose(blocks: Sequence[str], dropped: int, runinfo_text: Optional[str], target: str) -> str:
    parts = ["# Executed Cells:\n"]
    if not blocks and dropped == 0:
        parts.append("No cell has been executed.\n\n")
    parts.append(_omitted_note(dropped))
    parts.extend(blocks[dropped:])
    if runinfo_text is not None:
        parts.append("# Current relevant runtime information:\n%s\n\n" % runinfo_text)
    parts.append("# Target Cell:\n%s\n" % target)
    return "".join(parts)


CELL_MAGIC = "%%crane_llm"


def is_crane_llm_cell(code: str) -> bool:
    """A `%%crane_llm` cell analysed its body and never ran it: it changed nothing in the kernel."""
    return code.lstrip().startswith(CELL_MAGIC)


def _runtime_info_cut_note(count: int) -> str:
    return "(%d more line%s of runtime information left out to keep the prompt within its size limit.)" % (
        count, "" if count == 1 else "s")


def fit_runtime_info(text: str, allowance: int) -> Tuple[str, int]:
    """The runtime information cut to `allowance` (a prompt_weight, quarter tokens): whole lines
    from the top, then a note saying how many were left out. Returns the text and the number of
    lines left out."""
    if prompt_weight(text) <= allowance:
        return text, 0
    lines = text.split("\n")
    used = kept = 0
    for k in range(1, len(lines) + 1):
        following = used + prompt_weight(lines[k - 1]) + 1
        if following + prompt_weight(_runtime_info_cut_note(len(lines) - k)) > allowance:
            break
        used, kept = following, k
    cut = len(lines) - kept
    shortened = "\n".join(lines[:kept] + [_runtime_info_cut_note(cut)])
    # When not even the note fits (the target alone is over budget), a shorter original stays.
    return (shortened, cut) if prompt_weight(shortened) < prompt_weight(text) else (text, 0)


def build_prompt(
    executed: Sequence[Dict[str, Any]],
    runtime_info_text: Optional[str],
    target: str,
    budget_tokens: Optional[int] = None,
    style: str = "product",
    context: str = "all",
) -> Dict[str, Any]:
    """The prompt for one check, as the JSON-shaped dict both implementations share.

    style: "product" also asks for the fixed cell; "paper" leaves that out, so the benchmark's
    figures compare with the paper's.

    executed: cells in the order they ran, each {"executionCount", "cellId", "code"} and, when the
    cell raised, "raised": {"exception", "line"} (said in its heading); the
    `%%crane_llm` cells among them are left out (their bodies never ran).
    runtime_info_text: the rendered runtime information, or None when "Include runtime
    information" is off (the section and its mention in the instructions are then left out).
    budget_tokens: drop the oldest executed cells until the estimate fits, then cut the runtime
    information's last lines (with a note); the target cell is never cut, so a huge target can
    still leave the result over budget.
    context: "slice" when `executed` is the target's slice (the instructions then say so).
    """
    budget = DEFAULT_BUDGET_TOKENS if budget_tokens is None else budget_tokens
    executed = [cell for cell in executed if not is_crane_llm_cell(cell["code"])]
    instructions = INSTRUCTIONS[style]["codeOnly" if runtime_info_text is None else "withRuntimeInfo"]
    if any(cell.get("raised") for cell in executed):
        # When the log holds cells that raised, the instruction no longer says they all ran cleanly.
        instructions = instructions.replace(_CELLS_ITEM, _CELLS_ITEM_SOME_RAISED)
    if context == "slice":
        instructions = instructions.replace(_CELLS_RAN, _CELLS_RAN_SLICE)
    blocks = [_cell_block(i + 1, cell) for i, cell in enumerate(executed)]
    # Weights (prompt_weight: quarter tokens) once, then pick the smallest number of dropped cells
    # that fits: linear, not quadratic.
    fixed = prompt_weight(instructions) + 2 + prompt_weight(_compose([], 0, runtime_info_text, target))
    fixed -= prompt_weight("No cell has been executed.\n\n")
    suffix = [0] * (len(blocks) + 1)
    for i in range(len(blocks) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + prompt_weight(blocks[i])
    dropped = 0
    for k in range(len(blocks) + 1):
        dropped = k
        total = fixed + suffix[k] + prompt_weight(_omitted_note(k))
        if k == len(blocks) and k == 0:
            total += prompt_weight("No cell has been executed.\n\n")
        if -(-total // 4) <= budget:
            break
    runtime_info_cut = 0
    if runtime_info_text is not None and dropped == len(blocks):
        # Every executed cell is gone: what the variables hold is cut next, never the target cell.
        others = prompt_weight(instructions) + 2 + prompt_weight(_compose(blocks, dropped, "", target))
        runtime_info_text, runtime_info_cut = fit_runtime_info(runtime_info_text, budget * 4 - others)
    text_input = _compose(blocks, dropped, runtime_info_text, target)
    full = instructions + "\n\n" + text_input
    tokens = estimate_tokens(full)
    return {
        "style": style,
        "instructions": instructions,
        "input": text_input,
        "text": full,
        "dropped": [
            {"position": i + 1, "executionCount": cell.get("executionCount"), "cellId": cell.get("cellId")}
            for i, cell in enumerate(executed[:dropped])
        ],
        "estimatedTokens": tokens,
        "budgetTokens": budget,
        "runtimeInfoCut": runtime_info_cut,
        "overBudget": tokens > budget,
    }
