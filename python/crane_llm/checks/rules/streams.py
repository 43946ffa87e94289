"""Whether writing to `sys.stdout` (print, `df.info()`) or `sys.stderr` (a warning shown) runs only
code that cannot raise."""

from __future__ import annotations

import io
import os
import stat
import sys

from ..provenance import audit, class_module, instance_dict, lookup_static, mro, plain_class

# Taken at import: the notebook's `os.fstat = ...` must not be what the check calls.
_fstat, _isatty, _IS_FIFO, _IS_REG, _IS_CHR = os.fstat, os.isatty, stat.S_ISFIFO, stat.S_ISREG, stat.S_ISCHR
try:
    _DEVNULL = os.stat(os.devnull)
except OSError:
    _DEVNULL = None


def stdout_is_plain() -> bool:
    """print() writes to sys.stdout: only a stream of a known kind is trusted not to raise."""
    return _plain_stream(sys.stdout)


def stderr_is_plain() -> bool:
    """A warning shown is written to sys.stderr, and only an OSError from the write is swallowed
    (a closed StringIO raises ValueError on the line that warned)."""
    return _plain_stream(sys.stderr)


# What writing through a text stream reaches: a subclass that leaves these to io's own C code
# writes as io.TextIOWrapper does (pytest's capture, `EncodedFile`, only adds `name` and `mode`).
_WRITING = ("write", "writelines", "flush", "buffer", "closed", "__getattribute__", "__getattr__")


def _text_stream(t: type) -> bool:
    if t is io.TextIOWrapper:
        return True
    if not plain_class(t) or not any(k is io.TextIOWrapper for k in mro(t)):
        return False
    return all(lookup_static(t, name, None) is lookup_static(io.TextIOWrapper, name, None) for name in _WRITING)


def _plain_stream(out) -> bool:
    if out is None:
        return True
    t = type(out)
    if _text_stream(t):
        if out.closed:
            return False
        # Down to the file: a text stream over a buffer or raw stream of the notebook's own would
        # run its `write` (at a newline when line-buffered, or on a flush).
        buffer = out.buffer
        raw = buffer.raw if type(buffer) in (io.BufferedWriter, io.BufferedRandom) else buffer
        if type(raw) is io.BytesIO:
            return not raw.closed  # (in memory: pytest's capsys, a notebook's own capture)
        return type(raw) is io.FileIO and not raw.closed and _writes_reliably(raw.fileno())
    if t is io.StringIO:
        return not out.closed
    if not (plain_class(t) and class_module(t) == "ipykernel.iostream" and audit().pristine(t, "ipykernel")):
        return False
    # A kernel's stream raises once closed (`sys.stdout.close()`), and first writes to its `echo`.
    own = instance_dict(out, None)
    if type(own) is not dict or own.get("pub_thread") is None:
        return False
    echo = own.get("echo")
    return echo is None or (echo is not out and _plain_stream(echo))


def _writes_reliably(fd: int) -> bool:
    """A terminal, a pipe, a regular file or /dev/null: not a device such as /dev/full, whose every write fails
    once the buffer is flushed (a loop of prints reaches that on a later pass)."""
    try:
        st = _fstat(fd)
        mode = st.st_mode
        null = _DEVNULL is not None and (st.st_rdev, st.st_dev, st.st_ino) == (
            _DEVNULL.st_rdev, _DEVNULL.st_dev, _DEVNULL.st_ino)
        return _IS_FIFO(mode) or _IS_REG(mode) or (_IS_CHR(mode) and (null or _isatty(fd)))
    except OSError:
        return False
