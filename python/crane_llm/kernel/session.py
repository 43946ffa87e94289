"""What a kernel needs before its first check: the execution recorder, and the checker imported.

`%load_ext crane_llm` and JupyterLab's silent start-up both reach this through the extension's
entry point (`crane_llm.load_ipython_extension`), and JupyterLab repeats its call at every kernel
start, so `install` is idempotent: one recorder, one pair of callbacks. The facts layer knows no
host: registering `%%crane_llm` is the entry point's business.
"""

from ..lineage import recorder
from .. import audit_sentinel
from . import channel


def install(ipython) -> None:
    audit_sentinel.install()  # (first: it can only see the hooks added after it)
    recorder.install(ipython)
    channel.install(ipython)  # (the front end asks through it from then on: see channel.py)
    # Importing the checker costs 0.1-0.4 s; pay it here, at kernel start, not in the first check.
    import crane_llm.checks  # noqa: F401


def uninstall(ipython) -> None:
    recorder.uninstall(ipython)
