import sys
from pathlib import Path

import pytest

# Tests run against the source tree, whether or not the package is installed; shared test helpers
# (kernels.py) import from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


try:  # the server extension's tests need jupyter_server and its pytest plugin (the [lab] extra)
    import pytest_jupyter.jupyter_server  # noqa: F401
except ImportError:
    collect_ignore = ["server"]


def pytest_collection_modifyitems(config, items):
    # Server-extension tests need the [lab] extra; the Python 3.9/3.13 kernel-side runs deselect
    # them with -m "not server".
    for item in items:
        if "server" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.server)
