"""The soundness corpus (soundness_corpus.py): every tricky cell is checked in a real
InteractiveShell and then really run there (the `python -O` ones in a `python -O` process); no
claim may differ from what the shell raised, and the checker never changes the namespace."""

from __future__ import annotations

from collections import Counter

from fuzzgen import verdict
from harness import run_parallel
from soundness_corpus import corpus


def _run_all():
    cases = corpus()
    plain = [c for c in cases if not c.get("optimize")]
    optimized = [c for c in cases if c.get("optimize")]
    results = run_parallel(plain) + run_parallel(optimized, optimize=True)
    return plain + optimized, results


def test_no_false_claim_on_the_soundness_corpus():
    cases, results = _run_all()
    assert len(cases) >= 300
    tally = Counter()
    bad = []
    for case, r in zip(cases, results):
        v = verdict(r)
        tally[v] += 1
        if v in ("false-claim", "broken") or r["mutated"]:
            bad.append((case, r))
    assert not bad, bad[:5]
    # The corpus is made of real crashes and clean twins, and the checker still proves some of them.
    assert tally["caught"] >= 60 and tally["missed"] >= 60 and tally["clean"] >= 40, tally
