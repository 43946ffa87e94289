"""The audit-hook sentinel, each case in a fresh interpreter (the sentinel is the process's own)."""

import subprocess
import sys
from pathlib import Path

import pytest

PYTHON_DIR = str(Path(__file__).resolve().parents[2])


def flag_after(code: str) -> str:
    program = ("import sys\nsys.path.insert(0, %r)\nfrom crane_llm import audit_sentinel\n"
               "audit_sentinel.install()\n%s\nprint(audit_sentinel.notebook_hook_added())\n") % (PYTHON_DIR, code)
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_a_hook_the_notebook_adds_is_seen_and_none_is_not():
    assert flag_after("pass") == "False"
    assert flag_after("sys.addaudithook(lambda event, args: None)") == "True"
    assert flag_after("def add(h):\n    sys.addaudithook(h)\nadd(print)") == "True"


@pytest.mark.skipif(sys.version_info < (3, 12), reason="filelock adds its hook on Python 3.12 and later")
def test_filelocks_own_hook_does_not_count_and_a_replaced_one_does():
    pytest.importorskip("filelock")
    assert flag_after("import filelock\nfrom filelock._core import _fork\n_fork._register_fork_hooks()") == "False"
    assert flag_after("import filelock\nfrom filelock._core import _fork\n"
                      "_fork._audit_fork_safety = lambda e, a: None\n_fork._register_fork_hooks()") == "True"
