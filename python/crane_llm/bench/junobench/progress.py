"""A progress bar on stderr: redrawn in place on a terminal, a line every 10% otherwise."""

from __future__ import annotations

import threading
import time
from typing import TextIO


class ProgressBar:
    def __init__(self, total: int, label: str, stream: TextIO, enabled: bool = True, width: int = 30):
        self.total = total
        self.label = label
        self.stream = stream
        self.enabled = enabled and total > 0
        self.width = width
        self.done = self.cached = self.failed = 0
        self.started = time.monotonic()
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self._lock = threading.Lock()
        self._last_decile = -1

    def text(self) -> str:
        filled = int(self.width * self.done / self.total) if self.total else self.width
        elapsed = time.monotonic() - self.started
        return "%s [%s%s] %d/%d  cached %d  failed %d  %.0fs" % (
            self.label, "#" * filled, "." * (self.width - filled), self.done, self.total, self.cached, self.failed, elapsed)

    def advance(self, cached: bool = False, failed: bool = False) -> None:
        with self._lock:
            self.done += 1
            self.cached += cached
            self.failed += failed
            if not self.enabled:
                return
            if self.tty:
                self.stream.write("\r" + self.text())
            else:
                decile = self.done * 10 // self.total
                if decile == self._last_decile and self.done != self.total:
                    return
                self._last_decile = decile
                self.stream.write(self.text() + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()
