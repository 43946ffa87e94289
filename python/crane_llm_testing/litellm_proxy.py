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
import tempfile
from pathlib import Path
from typing import Optional

from .llama_server import LlamaServer
from .local_server import LocalServer, run_setup_script

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "litellm.sh"
INSTALL_TIMEOUT_SECONDS = 3600  # a first install on a busy 2-core machine


class LiteLLMUnavailable(RuntimeError):
    """LiteLLM could not be installed or started; the message says why."""


def litellm_command(timeout: float = INSTALL_TIMEOUT_SECONDS) -> str:
    """The path of the litellm command, installing it on a first run."""
    printed = run_setup_script(SCRIPT, timeout, LiteLLMUnavailable)
    for line in printed.splitlines():
        if line.startswith("LITELLM="):
            return line.split("=", 1)[1]
    raise LiteLLMUnavailable("scripts/litellm.sh printed no path: %r" % printed[-500:])


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


class LiteLLMProxy(LocalServer):
    """>>> with LiteLLMProxy(llama) as proxy: ...  # base_url ends in /v1; same model name; send api_key."""

    name = "litellm"
    unavailable = LiteLLMUnavailable
    health_path = "/health/liveliness"
    poll_seconds = 0.3
    ready_timeout = 180.0
    stop_grace_seconds = 15.0

    def __init__(self, llama: LlamaServer, port: Optional[int] = None) -> None:
        super().__init__(port)
        self.llama = llama
        self.model = llama.model
        # LiteLLM refuses to start without a master key (every request would be let in): the
        # tests send this one as the API key, as a user of a shared proxy would.
        self.api_key = "sk-crane-test-" + secrets.token_hex(16)

    def launch(self) -> None:
        command = litellm_command()
        workdir = Path(tempfile.mkdtemp(prefix="crane-litellm-"))
        config = workdir / "config.yaml"
        config.write_text(config_for(self.llama))
        env = dict(os.environ)
        # Without it LiteLLM fetches a price list from the internet at start.
        env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
        env["LITELLM_TELEMETRY"] = "False"
        env["LITELLM_MASTER_KEY"] = self.api_key
        env["NO_DOCS"] = "True"
        self.spawn([command, "--config", str(config), "--host", "127.0.0.1", "--port", str(self.port)],
                   workdir / "litellm.log", env=env, cwd=str(workdir))

    def requests_to(self, path: str) -> int:
        """How many requests the proxy answered at path (e.g. "/v1/responses"), from its access log."""
        return self.log_text().count('"POST %s HTTP/1.1"' % path)
