"""A read-only array refuses any assignment before NumPy looks at the index or the shapes, so the
assignment rules must say nothing there. (The suite's harness copies its setup values, which makes
them writeable again: this one runs in-process, the cell for real on the same object.)"""

from __future__ import annotations

import pytest

from crane_llm.checks import run_checks

np = pytest.importorskip("numpy")


def _raised(cell, ns):
    try:
        exec(compile(cell, "<cell>", "exec"), ns)
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__, str(exc)
    return None


@pytest.mark.parametrize("cell", ["ro[9, 0] = v4", "ro[:, 0] = v3", "ro[1.0] = v4"])
def test_no_claim_on_a_read_only_destination(cell):
    ro = np.zeros((4, 4))
    ro.flags.writeable = False
    ns = {"np": np, "ro": ro, "v3": np.arange(3.0), "v4": np.arange(4.0)}
    assert run_checks(cell, ns).crash is None
    assert _raised(cell, ns) == ("ValueError", "assignment destination is read-only")


@pytest.mark.parametrize("cell,exc", [("w[9, 0] = v4", "IndexError"), ("w[:, 0] = v3", "ValueError")])
def test_the_same_cells_are_claimed_on_a_writeable_array(cell, exc):
    ns = {"np": np, "w": np.zeros((4, 4)), "v3": np.arange(3.0), "v4": np.arange(4.0)}
    assert run_checks(cell, ns).crash.exception == exc
    assert _raised(cell, ns)[0] == exc
