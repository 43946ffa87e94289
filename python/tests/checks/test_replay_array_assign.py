"""Assigning into a recorded array in the replay, each cell run for real: a value that cannot
broadcast into the selection is a ValueError whether or not the array is writeable (NumPy refuses a
read-only destination first, with ValueError too), so it is claimed though the recording does not
show the array's flags; an index out of bounds is not (a read-only array raises ValueError instead
of IndexError)."""

from __future__ import annotations

from exec_runner import run_batch
from fuzzgen import verdict

SETUP = ("import numpy as np\ngrid = np.zeros((4, 3))\ncol3 = np.ones(3)\ncol4 = np.ones(4)\n"
         "ro = np.broadcast_to(np.zeros(3), (4, 3))\nflat = np.arange(6.0)")

CAUGHT = [  # (crashing cell, its clean twin)
    ("grid[:, 0] = col3", "grid[:, 0] = col4"),
    ("grid[1:3] = col4", "grid[1:3] = col3"),
    ("sub = grid[:2]\nsub[:, 1] = col3", "sub = grid[:2]\nsub[:, 1] = col3[:2]"),
    ("flat[:4] = col3", "flat[:3] = col3"),
    ("ro[:, 0] = col3", "w = ro.copy()\nw[:, 0] = col4"),  # read-only: ValueError all the same
]
# They raise, but what the recording shows cannot say which exception first.
NOT_CLAIMED = ["ro[9, 0] = 1.0", "ro[0, 0] = 1.0", "grid[9, 0] = 1.0"]


def test_a_value_that_cannot_broadcast_is_claimed_and_bounds_are_left_alone():
    cases = [c for pair in CAUGHT for c in pair] + NOT_CLAIMED
    # (each case its own setup: the runner restores a repeated one from a pickle, which makes `ro` writeable)
    results = run_batch([{"setup": SETUP + f"\ncase = {i}", "cell": c, "replay": True, "replay_executed": True}
                         for i, c in enumerate(cases)])
    for i, (cell, r) in enumerate(zip(cases, results)):
        assert r["setup_error"] is None and r["checker_error"] is None, (cell, r)
        if i < 2 * len(CAUGHT) and i % 2 == 0:
            assert r["raised"]["exception"] == "ValueError", (cell, r["raised"])
            assert verdict(r, key="replay_claim") == "caught", (cell, r["replay_claim"], r.get("replay_stop"))
        elif i < 2 * len(CAUGHT):
            assert r["raised"] is None and r["replay_claim"] is None, (cell, r)
        else:
            assert r["raised"] is not None and r["replay_claim"] is None, (cell, r)
            assert verdict(r) != "false-claim", (cell, r["claim"])
