"""Whether writing to `sys.stdout` runs only code that cannot raise (print, `df.info()`)."""

from __future__ import annotations

import io
import sys

from ..provenance import audit, class_module, plain_class


def stdout_is_plain() -> bool:
    """print() writes to sys.stdout: only a stream of a known kind is trusted not to raise."""
    out = sys.stdout
    if out is None:
        return True
    t = type(out)
    if t is io.TextIOWrapper:
        # Down to the file: a text stream over a buffer or raw stream of the notebook's own would
        # run its `write` (at a newline when line-buffered, or on a flush).
        buffer = out.buffer
        raw = buffer.raw if type(buffer) in (io.BufferedWriter, io.BufferedRandom) else buffer
        return type(raw) is io.FileIO
    if t is io.StringIO:
        return True
    return plain_class(t) and class_module(t) == "ipykernel.iostream" and audit().pristine(t, "ipykernel")
