"""The `%%crane_llm` cell magic: the same check as the JupyterLab button, wherever IPython runs.

`register(shell)` is what `%load_ext crane_llm` calls (through crane_llm.load_ipython_extension). The
output is a MIME bundle (`live.bundle`): static HTML, plain text, and MIME_TYPE for
apps/magic-renderer.
"""

from .cell_magic import MAGIC_NAME, register, unregister
from .live_output import MIME_TYPE, bundle
from .options import USAGE, UsageError, parse_options

__all__ = ["MAGIC_NAME", "MIME_TYPE", "USAGE", "UsageError", "bundle", "parse_options", "register", "unregister"]
