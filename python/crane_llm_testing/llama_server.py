"""llama.cpp's llama-server with SmolLM2-135M-Instruct: a real OpenAI-compatible server with a
real (tiny) instruction model, for the tests that must meet a server nobody here wrote.

`scripts/llama-server.sh` builds the binary once per machine and fetches the model, both cached
under ~/.cache/crane-llm/; this module asks it for their paths (building on a first run), starts
the server on a free port, waits for /health, and stops it. A failure raises LlamaUnavailable with
the script's own reason, so the test run fails saying why instead of skipping.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Dict, List, Optional

from .local_server import LocalServer, run_setup_script

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "llama-server.sh"
MODEL_ALIAS = "smollm2"
BUILD_TIMEOUT_SECONDS = 3 * 3600  # a first build on a busy 2-core machine


class LlamaUnavailable(RuntimeError):
    """The server could not be built, fetched or started; the message says why."""


def cached_build(timeout: float = BUILD_TIMEOUT_SECONDS) -> Dict[str, str]:
    """{"LLAMA_SERVER": binary, "LLAMA_MODEL": gguf}, building or fetching what is missing."""
    printed = run_setup_script(SCRIPT, timeout, LlamaUnavailable)
    paths = dict(line.split("=", 1) for line in printed.splitlines() if "=" in line)
    if not {"LLAMA_SERVER", "LLAMA_MODEL"} <= set(paths):
        raise LlamaUnavailable("scripts/llama-server.sh printed no paths: %r" % printed[-500:])
    return paths


class LlamaServer(LocalServer):
    """>>> with LlamaServer() as llama: ...  # llama.base_url ends in /v1; the model is "smollm2"."""

    name = "llama-server"
    unavailable = LlamaUnavailable
    health_path = "/health"
    ready_timeout = 120.0

    # One thread: two threads meet at a barrier after every operation, so whenever another process
    # (the browser, a kernel, the test run) holds one of the two cores, each barrier waits for the
    # scheduler and an answer that takes 1 s can take minutes. Measured here with one core busy:
    # repeated 16-token answers took 0.8-2.2 s with one thread, 1.4-26 s with two.
    def __init__(self, port: Optional[int] = None, context: int = 4096, threads: int = 1) -> None:
        super().__init__(port)
        self.model = MODEL_ALIAS
        self.context = context
        self.threads = threads

    def command(self, paths: Dict[str, str]) -> List[str]:
        # A fixed seed, so a run on an idle machine answers the same way twice.
        return [paths["LLAMA_SERVER"], "-m", paths["LLAMA_MODEL"], "--alias", MODEL_ALIAS,
                "--host", "127.0.0.1", "--port", str(self.port), "-c", str(self.context),
                "-t", str(self.threads), "--seed", "1"]

    def launch(self) -> None:
        paths = cached_build()
        self.spawn(self.command(paths), Path(os.environ.get("TMPDIR", "/tmp")) / ("crane-llama-server-%d.log" % self.port))


def main() -> int:
    """`python -m crane_llm_testing.llama_server`: start one for another harness (the e2e tests).

    Prints `BASE_URL <url ending in /v1>` once healthy, then serves until its stdin closes or it
    is terminated. A failure prints `FAILED <reason>` and exits 1: the caller fails, saying why.
    """
    server = LlamaServer()
    try:
        server.start()
    except LlamaUnavailable as exc:
        print("FAILED %s" % str(exc).replace("\n", " | "), flush=True)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        print("BASE_URL %s" % server.base_url, flush=True)
        sys.stdin.read()  # the caller keeps the pipe open for as long as it needs the server
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
