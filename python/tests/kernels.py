"""A real ipykernel for the tests that must cross the kernel protocol, started on the source tree."""

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

PYTHON_DIR = str(Path(__file__).resolve().parents[1])


@contextmanager
def running_kernel(env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None) -> Iterator[Tuple[object, object]]:
    """(KernelManager, client) of a fresh python3 kernel whose path starts with python/; shut down after."""
    from jupyter_client.manager import KernelManager

    environ = dict(os.environ if env is None else env)
    environ["PYTHONPATH"] = os.pathsep.join(p for p in (PYTHON_DIR, environ.get("PYTHONPATH", "")) if p)
    km = KernelManager(kernel_name="python3")
    km.start_kernel(env=environ, cwd=cwd or PYTHON_DIR)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
