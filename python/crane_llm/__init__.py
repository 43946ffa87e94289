"""CRANE-LLM: predict whether a notebook cell will crash, before it runs.

Importing this package must stay cheap and must not import JupyterLab or jupyter_server: the
cell magic runs in kernels (Colab, Kaggle, VS Code) where neither exists.
"""

__version__ = "0.1.0"


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "crane-llm-jlab"}]


def _jupyter_server_extension_points():
    return [{"module": "crane_llm.server"}]


def load_ipython_extension(ipython):
    """`%load_ext crane_llm`: start recording executions and register `%%crane_llm`."""
    from .kernel import session

    session.install(ipython)


def unload_ipython_extension(ipython):
    from .kernel import session

    session.uninstall(ipython)
