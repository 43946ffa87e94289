"""What the real third-party servers of the tests (llama-server, LiteLLM's proxy) have in common:
a setup script that prints where things are, a process on a free local port writing to a log,
a health URL polled until it answers, and a stop that does not leave the process behind.

A failure raises the server's own `unavailable` error with the reason (the script's or the log's
last lines), so the test run fails saying why instead of skipping.
"""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Dict, List, Optional, Type

LOG_TAIL_LINES = 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_setup_script(script: Path, timeout: float, unavailable: Type[Exception]) -> str:
    """The stdout of `bash script` (it installs or builds what is missing, then prints paths)."""
    if not script.is_file():
        raise unavailable("%s is missing" % script)
    name = "scripts/" + script.name
    try:
        done = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise unavailable("%s did not finish within %d s" % (name, timeout)) from None
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise unavailable("%s failed (exit %d):\n%s" % (name, done.returncode, tail))
    return done.stdout


class LocalServer:
    """A server process on 127.0.0.1: `with Server(...) as server: ...` starts it and stops it.

    A subclass names itself (`name`, for messages), its error (`unavailable`) and its health
    path, and starts its process in `launch` (with `spawn`); `start` then waits until it is healthy.
    """

    name = "server"
    unavailable: Type[Exception] = RuntimeError
    health_path = "/health"
    poll_seconds = 0.2
    ready_timeout = 120.0
    stop_grace_seconds = 10.0

    def __init__(self, port: Optional[int] = None) -> None:
        self.port = port or free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.base_url = self.url + "/v1"
        self.process: Optional[subprocess.Popen] = None
        self.log_path: Optional[Path] = None

    def launch(self) -> None:
        """Prepares what the server needs and spawns its process."""
        raise NotImplementedError

    def spawn(self, command: List[str], log_path: Path, env: Optional[Dict[str, str]] = None,
              cwd: Optional[str] = None) -> None:
        self.log_path = log_path
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd)

    def start(self, ready_timeout: Optional[float] = None):
        """Launches the server and returns it once its health URL answers 200; raises `unavailable`
        if the process exits first or the time runs out (then the process is stopped)."""
        self.launch()
        ready_timeout = ready_timeout or self.ready_timeout
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise self.unavailable("%s exited with %s:\n%s" % (self.name, self.process.returncode, self.log_tail()))
            try:
                with urllib.request.urlopen(self.url + self.health_path, timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(self.poll_seconds)
        self.stop()
        raise self.unavailable("%s was not healthy within %d s:\n%s" % (self.name, ready_timeout, self.log_tail()))

    def log_text(self) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(self.stop_grace_seconds)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
