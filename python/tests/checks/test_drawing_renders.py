"""Drawing a figure runs far more than setting it up (fifth red team, 7 Dec): `plt.tight_layout()`
and `plt.show()` on the inline backend lay out text with FreeType (a dpi of 2, a font size of a
million, a side over Agg's pixel limit, a lone surrogate in a title fail there), call every tick
formatter, and log to the notebook's handlers; making an Axes takes its scale from a registry a
notebook can fill. Rendering calls are not passed over, the classes an Axes is made of are
audited, and the scale registry must hold matplotlib's own linear scale. Each cell really runs
after the check, live and by the replay; no claim may stand but as it raised. Each plain twin
keeps its claim."""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim_either

MPL = "import numpy as np\nimport matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"
SCALE = MPL + ("import matplotlib.scale as mscale\nmade = []\nclass TrackedLinear(mscale.LinearScale):\n"
               "    name = 'linear'\n    def __init__(self, axis):\n        made.append(axis.axis_name)\n"
               "        super().__init__(axis)\nmscale.register_scale(TrackedLinear)\n")
FORMAT = MPL + ("from matplotlib.ticker import ScalarFormatter\n_orig_call = ScalarFormatter.__call__\n"
                "def thousands(self, x, pos=None):\n    return '{:,d}'.format(x)\nScalarFormatter.__call__ = thousands\n")
LOGGED = MPL + ("import logging\nrecords = []\nclass ListHandler(logging.Handler):\n    def emit(self, record):\n"
                "        records.append(record.getMessage())\n_h = ListHandler()\n"
                "logging.getLogger('matplotlib').addHandler(_h)\nplt.rcParams['font.family'] = 'Comic Neue Zz'\n")

RENDERED = [
    # (setup, cell, teardown)
    (LOGGED, "plt.title('t')\nplt.tight_layout()\nprint(records[0])",
     "logging.getLogger('matplotlib').removeHandler(_h)\nplt.rcParams['font.family'] = ['sans-serif']"),
    (MPL + "name = b'caf\\xe9.csv'.decode('utf-8', 'surrogateescape')",
     "plt.figure()\nplt.title(name)\nplt.tight_layout()\nzz", "plt.close('all')"),
    (MPL, "plt.figure(figsize=(10, 6), dpi=2)\nplt.title('tiny')\nplt.tight_layout()\nzz", "plt.close('all')"),
    (MPL, "plt.figure(figsize=(9000, 0.04), dpi=1000)\nplt.tight_layout()\nzz", "plt.close('all')"),
    (FORMAT, "plt.figure(figsize=(10, 4))\nplt.title('Revenue')\nplt.tight_layout()\nzz",
     "ScalarFormatter.__call__ = _orig_call\nplt.close('all')"),
    (SCALE, "plt.title('t')\nmade[0]", "mscale.register_scale(mscale.LinearScale)\nplt.close('all')"),
    (SCALE + "img = np.zeros((4, 4))", "plt.imshow(img)\nmade[0]",
     "mscale.register_scale(mscale.LinearScale)\nplt.close('all')"),
]
TWINS = [
    (MPL, "plt.figure()\nplt.title('ok')\nzz", "NameError", 3),
    (MPL + "img = np.zeros((4, 4))\nmade = []", "plt.imshow(img)\nmade[0]", "IndexError", 2),
]


@pytest.fixture(scope="module")
def results():
    # (the logging case first: matplotlib looks a font family up once a process)
    cases = [dict(setup=s, cell=c, teardown=t, replay=True, replay_executed=True) for s, c, t in RENDERED] + \
            [dict(setup=s, cell=c, teardown="plt.close('all')", replay=True, replay_executed=True)
             for s, c, _, _ in TWINS]
    return run_batch(cases)


@pytest.mark.parametrize("i", range(len(RENDERED)), ids=[repr(c[1])[:40] for c in RENDERED])
def test_no_claim_past_what_drawing_runs(results, i):
    r = results[i]
    assert_no_false_claim_either(r, RENDERED[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(RENDERED) + i], exception, line)
