"""Differential fuzzing (small count; bench/checks runs 10,000+): no claim on a random straight-line
cell may differ from what the cell really raised, whether the checker reads the live values or
facts recorded from them, and the checker never changes the namespace."""

from __future__ import annotations

from collections import Counter

from harness import run_parallel
from fuzzgen import generate_cases, verdict

FUZZ_CELLS = 400


def test_no_false_claims_on_random_cells():
    cases = [dict(c, replay=True) for c in generate_cases(FUZZ_CELLS, seed=20261129)]
    cells = [c["cell"] for c in cases]
    results = run_parallel(cases)
    tally = Counter()
    bad = []
    for cell, r in zip(cells, results):
        v = verdict(r)
        tally[v] += 1
        # The replay adapter, on facts recorded from the same values, must be as careful.
        if v in ("false-claim", "broken") or r["mutated"] or verdict(r, "replay_claim") == "false-claim":
            bad.append((cell, r))
    assert not bad, bad[:3]
    # The generator must produce real crashes, and the checker must catch a good share of them.
    assert tally["caught"] + tally["missed"] > FUZZ_CELLS // 4, tally
    assert tally["caught"] > (tally["caught"] + tally["missed"]) // 4, tally
