"""Twins of the soundness corpus's families on process and object state (argument order, unpacking
lines, `!cmd` lines, warning machinery, metaclass methods, frame flags and attrs, estimator
parameters, pyplot's projection and LaTeX, threads): the same cells without the state that makes
them run otherwise keep their claims. Each runs for real and raises what was claimed, on its line."""

from __future__ import annotations

from exec_runner import run_batch
from soundness_corpus import DF

MPL = DF + "import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"

TWINS = [
    (DF, "df.sort_values('zz', ascending=False)", "KeyError", 1),
    (DF, "np.reshape(np.ones(5), (2, 3))", "ValueError", 1),
    (DF, "x = \\\n    a, b = [1, 2, 3]", "ValueError", 2),
    (DF, "undefined_q\n!echo plain", "NameError", 1),
    (DF, "df.sort_values('a', inplace=True)\nundefined_q", "NameError", 2),
    (DF, "np.str\nundefined_q", "AttributeError", 1),
    ("import abc\nclass A(abc.ABC):\n    def m(self):\n        pass\n", "A.m(1, 2)", "TypeError", 1),
    (DF, "df2 = df.rename(columns={'a': 'b'})\ndf2['zz']", "KeyError", 2),
    (DF + "df.attrs['k'] = 1\n", "df2 = df.head()\ndf2['zz']", "KeyError", 2),
    (DF + "from sklearn.svm import SVC\nsvc = SVC(kernel='linear')\n", "svc.predict(X)", "NotFittedError", 1),
    (MPL, "plt.title('x')\nplt.grid()\nundefined_q", "NameError", 3),
    (DF + "import threading\nthreading.Thread(target=print).start()\n", "undefined_q", "NameError", 1),
]


def test_without_the_state_the_claims_stand():
    results = run_batch([{"setup": setup, "cell": cell, **({"teardown": "plt.close('all')"} if setup is MPL else {})}
                         for setup, cell, _, _ in TWINS])
    for (setup, cell, exception, line), r in zip(TWINS, results):
        assert r.get("setup_error") is None and r.get("checker_error") is None, (cell, r)
        assert r["raised"]["exception"] == exception and r["raised"]["line"] == line, (cell, r)
        claim = r["claim"]
        assert claim is not None and (claim["exception"], claim["line"]) == (exception, line), (cell, r)
        assert not r["mutated"], (cell, r)
