"""CRANE-LLM: predict whether a notebook cell will crash, before it runs.

Importing this package must stay cheap and must not import JupyterLab or jupyter_server: the
cell magic runs in kernels (Colab, Kaggle, VS Code) where neither exists.
"""

from .version import __version__  # noqa: F401  (one place, so modules need not import the package root)


def set_api_key(key=None, base_url=None, model=None, *, api=None, max_output_tokens=None):
    """Remember the model settings in ~/.crane_llm/config.json (0600), across sessions.

    crane_llm.set_api_key("sk-...");  crane_llm.set_api_key("sk-or-...", base_url="https://openrouter.ai/api/v1",
    model="anthropic/claude-sonnet-4.5");  crane_llm.set_api_key(base_url="http://localhost:11434/v1",
    model="qwen2.5-coder:32b") (a local server needs no key). api="auto" | "responses" | "chat"
    chooses the API (auto: Responses without a base_url, Chat Completions with one);
    max_output_tokens bounds the answer (default 8000). Only the fields given change. Prints
    where it wrote, never the key. See crane_llm.settings.set_api_key.
    """
    from .settings import set_api_key as save  # imported on use: `import crane_llm` stays cheap

    return save(key, base_url, model, api=api, max_output_tokens=max_output_tokens)


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "crane-llm-jlab"}]


def _jupyter_server_extension_points():
    return [{"module": "crane_llm.server"}]


def load_ipython_extension(ipython):
    """`%load_ext crane_llm` and JupyterLab's silent start-up: start recording executions and
    register `%%crane_llm`. Idempotent: JupyterLab calls it at every kernel start."""
    from .kernel import session
    from .magic import register

    session.install(ipython)
    if ipython is not None and hasattr(ipython, "register_magic_function"):
        register(ipython)


def unload_ipython_extension(ipython):
    from .kernel import session
    from .magic import unregister

    session.uninstall(ipython)
    if ipython is not None and hasattr(ipython, "register_magic_function"):
        unregister(ipython)
