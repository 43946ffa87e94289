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
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Dict, List, Optional

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "llama-server.sh"
MODEL_ALIAS = "smollm2"
BUILD_TIMEOUT_SECONDS = 3 * 3600  # a first build on a busy 2-core machine


class LlamaUnavailable(RuntimeError):
    """The server could not be built, fetched or started; the message says why."""


def cached_build(timeout: float = BUILD_TIMEOUT_SECONDS) -> Dict[str, str]:
    """{"LLAMA_SERVER": binary, "LLAMA_MODEL": gguf}, building or fetching what is missing."""
    if not SCRIPT.is_file():
        raise LlamaUnavailable("%s is missing" % SCRIPT)
    try:
        done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LlamaUnavailable("scripts/llama-server.sh did not finish within %d s" % timeout) from None
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise LlamaUnavailable("scripts/llama-server.sh failed (exit %d):\n%s" % (done.returncode, tail))
    paths = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if not {"LLAMA_SERVER", "LLAMA_MODEL"} <= set(paths):
        raise LlamaUnavailable("scripts/llama-server.sh printed no paths: %r" % done.stdout[-500:])
    return paths


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """>>> with LlamaServer() as llama: ...  # llama.base_url ends in /v1; the model is "smollm2"."""

    def __init__(self, port: Optional[int] = None, context: int = 4096, threads: int = 2) -> None:
        self.port = port or _free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.base_url = self.url + "/v1"
        self.model = MODEL_ALIAS
        self.context = context
        self.threads = threads
        self.process: Optional[subprocess.Popen] = None
        self.log_path: Optional[Path] = None

    def command(self, paths: Dict[str, str]) -> List[str]:
        # A fixed seed, so a run on an idle machine answers the same way twice.
        return [paths["LLAMA_SERVER"], "-m", paths["LLAMA_MODEL"], "--alias", MODEL_ALIAS,
                "--host", "127.0.0.1", "--port", str(self.port), "-c", str(self.context),
                "-t", str(self.threads), "--seed", "1"]

    def start(self, ready_timeout: float = 120.0) -> "LlamaServer":
        paths = cached_build()
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / ("crane-llama-server-%d.log" % self.port)
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(self.command(paths), stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LlamaUnavailable("llama-server exited with %s:\n%s" % (self.process.returncode, self.log_tail()))
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise LlamaUnavailable("llama-server was not healthy within %d s:\n%s" % (ready_timeout, self.log_tail()))

    def log_tail(self, lines: int = 20) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def __enter__(self) -> "LlamaServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


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
