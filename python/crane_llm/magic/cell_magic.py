"""`%%crane_llm`: check the cell body for a crash against the live namespace, without running it."""

from __future__ import annotations

import sys
from typing import Any, Optional

from .flow import Check
from .live_output import LiveOutput, tracker
from .options import USAGE, UsageError, parse_options

MAGIC_NAME = "crane_llm"


def crane_llm(line: str, cell: Optional[str] = None, shell: Any = None, wiring: Any = None) -> None:
    """The cell magic. Returns nothing, so the cell has no Out[] value: the display is the output."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    try:
        options = parse_options(line)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return None
    if options.help:
        print(USAGE)
        return None
    if cell is None or not cell.strip():
        print("%%%%crane_llm checks the code written below it; this cell has none.\n\n%s" % USAGE, file=sys.stderr)
        return None
    output = LiveOutput(options.to_json(), live_updates=not is_terminal(shell))
    check = Check(cell, options, shell, emit=lambda s: output.render(s, check.notes), wiring=wiring)
    tracker(shell).watch(output)
    check.run()
    return None


def is_terminal(shell: Any) -> bool:
    """IPython in a terminal prints each display update anew instead of replacing it."""
    return type(shell).__name__ == "TerminalInteractiveShell"


def register(shell: Any) -> None:
    """Register `%%crane_llm` (registering again replaces it: loading twice is harmless)."""
    def magic(line: str, cell: Optional[str] = None) -> None:
        return crane_llm(line, cell, shell=shell)

    magic.__doc__ = USAGE
    shell.register_magic_function(magic, magic_kind="cell", magic_name=MAGIC_NAME)
    tracker(shell)


def unregister(shell: Any) -> None:
    from .live_output import untrack

    magics = getattr(getattr(shell, "magics_manager", None), "magics", {}).get("cell", {})
    magics.pop(MAGIC_NAME, None)
    untrack(shell)
