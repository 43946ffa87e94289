"""The Jupyter server extension: the model settings for the UI and a proxy that adds the API key.

The key stays on the server: the browser's `openai` client points its baseURL at
`<server base url>crane-llm/v1` with a placeholder key, and the proxy forwards to the resolved
provider only, with the resolved key. Imported by jupyter_server, never by the kernel side.
"""

import os


def _load_jupyter_server_extension(serverapp):
    from . import check_tool
    from .handlers import setup_handlers

    # "The directory you started Jupyter in" for the .env search: the process's working directory
    # at start-up, which is not necessarily the notebook root (--notebook-dir).
    setup_handlers(serverapp.web_app, start_dir=os.getcwd())
    # The MCP tool (served by jupyter-server-mcp when installed) checks cells of this server's sessions.
    check_tool.attach(serverapp)
    serverapp.log.info("CRANE-LLM server extension loaded: /crane-llm/settings, /crane-llm/v1/")


# jupyter_server < 2 and notebook-style loaders look for the name without the underscore.
load_jupyter_server_extension = _load_jupyter_server_extension
