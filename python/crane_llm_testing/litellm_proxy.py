"""LiteLLM's proxy in front of llama-server: a second server nobody here wrote, and the one that
serves the Responses API (with an enforced schema: it turns `text.format` into the backend's
`response_format`) behind a base_url, as Azure OpenAI, OpenRouter and vLLM do.

`scripts/litellm.sh` installs LiteLLM (pinned; in its own virtual environment, cached under
~/.cache/crane-llm/); this module asks it for the command, writes a config naming llama-server as
the only model, starts the proxy on a free port, waits for /health/liveliness, and stops it. A
failure raises LiteLLMUnavailable with the reason, so the test run fails saying why.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional

from .llama_server import LlamaServer, _free_port

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "litellm.sh"
INSTALL_TIMEOUT_SECONDS = 3600  # a first install on a busy 2-core machine


class LiteLLMUnavailable(RuntimeError):
    """LiteLLM could not be installed or started; the message says why."""


def litellm_command(timeout: float = INSTALL_TIMEOUT_SECONDS) -> str:
    """The path of the litellm command, installing it on a first run."""
    if not SCRIPT.is_file():
        raise LiteLLMUnavailable("%s is missing" % SCRIPT)
    try:
        done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LiteLLMUnavailable("scripts/litellm.sh did not finish within %d s" % timeout) from None
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise LiteLLMUnavailable("scripts/litellm.sh failed (exit %d):\n%s" % (done.returncode, tail))
    for line in done.stdout.splitlines():
        if line.startswith("LITELLM="):
            return line.split("=", 1)[1]
    raise LiteLLMUnavailable("scripts/litellm.sh printed no path: %r" % done.stdout[-500:])


def config_for(llama: LlamaServer) -> str:
    """The proxy's config: llama-server's model under the same name. (JSON is YAML.)"""
    return json.dumps({
        "model_list": [{
            "model_name": llama.model,
            # openai/...: an OpenAI-compatible backend. use_chat_completions_api: LiteLLM answers the
            # Responses API itself and asks the backend with Chat Completions, turning text.format
            # into response_format; otherwise it would pass /v1/responses through to llama-server,
            # which ignores text.format (free text instead of the verdict's schema).
            "litellm_params": {"model": "openai/" + llama.model, "api_base": llama.base_url, "api_key": "none",
                               "use_chat_completions_api": True},
        }],
    })


class LiteLLMProxy:
    """>>> with LiteLLMProxy(llama) as proxy: ...  # base_url ends in /v1; same model name; send api_key."""

    def __init__(self, llama: LlamaServer, port: Optional[int] = None) -> None:
        self.llama = llama
        self.port = port or _free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.base_url = self.url + "/v1"
        self.model = llama.model
        # LiteLLM refuses to start without a master key (every request would be let in): the
        # tests send this one as the API key, as a user of a shared proxy would.
        self.api_key = "sk-crane-test-" + secrets.token_hex(16)
        self.process: Optional[subprocess.Popen] = None
        self.workdir: Optional[Path] = None

    def start(self, ready_timeout: float = 180.0) -> "LiteLLMProxy":
        command = litellm_command()
        self.workdir = Path(tempfile.mkdtemp(prefix="crane-litellm-"))
        config = self.workdir / "config.yaml"
        config.write_text(config_for(self.llama))
        env = dict(os.environ)
        # Without it LiteLLM fetches a price list from the internet at start.
        env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        env["LITELLM_TELEMETRY"] = "False"
        env["LITELLM_MASTER_KEY"] = self.api_key
        env["NO_DOCS"] = "True"
        with open(self.workdir / "litellm.log", "wb") as log:
            self.process = subprocess.Popen(
                [command, "--config", str(config), "--host", "127.0.0.1", "--port", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT, env=env, cwd=str(self.workdir))
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise LiteLLMUnavailable("litellm exited with %s:\n%s" % (self.process.returncode, self.log_tail()))
            try:
                with urllib.request.urlopen(self.url + "/health/liveliness", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.3)
        self.stop()
        raise LiteLLMUnavailable("litellm was not healthy within %d s:\n%s" % (ready_timeout, self.log_tail()))

    def requests_to(self, path: str) -> int:
        """How many requests the proxy answered at path (e.g. "/v1/responses"), from its access log."""
        log = self.workdir / "litellm.log" if self.workdir else None
        text = log.read_text(errors="replace") if log and log.exists() else ""
        return text.count('"POST %s HTTP/1.1"' % path)

    def log_tail(self, lines: int = 20) -> str:
        log = self.workdir / "litellm.log" if self.workdir else None
        if not log or not log.exists():
            return ""
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def __enter__(self) -> "LiteLLMProxy":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
