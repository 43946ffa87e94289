"""What a check must not do to the notebook while it reads a cell (third red team, 3 Dec): run code
of the notebook's hung on a library function's fields (a dict subclass as `__annotations__`, which
`inspect.signature` would copy by calling its `keys`), draw from a RandomState subclass the
notebook installed as NumPy's global generator, or move NumPy's global random stream (the
feature-names probe fits a model with `random_state=None`). And a thread started on a library's
scheduler runs the notebook's callbacks later: it counts as the notebook's."""

from __future__ import annotations

import time

from exec_runner import run_batch

from crane_llm.checks import threads
from crane_llm.checks.suggest import closest

HOOKED = """import builtins
class Recording(dict):
    def __iter__(self):
        builtins.__dict__.setdefault('_hits', []).append('iter')
        return dict.__iter__(self)
    def keys(self):
        builtins.__dict__.setdefault('_hits', []).append('keys')
        return dict.keys(self)
"""
# The teardown reports what ran, into a variable the next case cannot see: a file of the test's own.
REPORT = "\nopen(HITS, 'w').write(repr(builtins.__dict__.pop('_hits', None)))"

FRAME_MODEL = ("import pandas as pd, numpy as np\nfrom sklearn.ensemble import RandomForestClassifier\n"
               "X = pd.DataFrame({'a': [0., 1, 2, 3], 'b': [1., 0, 1, 0]})\ny = [0, 1, 0, 1]\n"
               "m = RandomForestClassifier(n_estimators=3).fit(X, y)\nXw = pd.DataFrame({'b': [0., 1], 'a': [1., 0]})\n")


def _hits(tmp_path, setup, cell, teardown):
    out = tmp_path / "hits.txt"
    r, = run_batch([{"setup": f"HITS = {str(out)!r}\n" + setup, "cell": cell, "teardown": teardown + REPORT}])
    return r, out.read_text()


def test_a_replaced_annotations_dict_is_never_read_through_its_methods(tmp_path):
    setup = HOOKED + ("from sklearn.linear_model import LinearRegression\n_init = LinearRegression.__init__\n"
                      "_old = _init.__annotations__\n_init.__annotations__ = Recording({'fit_intercept': bool})\n")
    r, hits = _hits(tmp_path, setup, "m = LinearRegression(fit_intercept=True)\nundefined_q",
                    "_init.__annotations__ = _old")
    assert r["checker_error"] is None and hits == "None" and r["claim"] is None, (r, hits)
    # scikit-learn's wrapper reads the inner function's signature before it binds: with annotations
    # that raise, the call raises RuntimeError, not the TypeError the arguments alone would give
    setup = ("class Raising(dict):\n    def keys(self):\n        raise RuntimeError('read')\n"
             "    def __iter__(self):\n        raise RuntimeError('read')\n"
             "from sklearn.metrics import accuracy_score\ninner = accuracy_score.__wrapped__\n"
             "_old = inner.__annotations__\ninner.__annotations__ = Raising({'y_true': int})\n")
    r, = run_batch([{"setup": setup, "cell": "accuracy_score([1, 0])", "teardown": "inner.__annotations__ = _old"}])
    # (Python 3.9's inspect reads the annotations without copying them: the arguments' TypeError then)
    assert r["checker_error"] is None and r["claim"] is None and r["raised"]["exception"] in ("RuntimeError", "TypeError"), r


def test_twins_with_plain_annotations_keep_their_claims():
    r1, r2 = run_batch([{"setup": "from sklearn.linear_model import LinearRegression",
                         "cell": "m = LinearRegression(fit_intercept=True)\nundefined_q"},
                        {"setup": "from sklearn.metrics import accuracy_score", "cell": "accuracy_score([1, 0])"}])
    assert r1["claim"]["exception"] == r1["raised"]["exception"] == "NameError", r1
    assert r2["raised"]["exception"] == "TypeError" and (r2["claim"] is None or r2["claim"]["exception"] == "TypeError")


def test_the_feature_names_probe_draws_nothing_from_the_notebooks_generator(tmp_path):
    setup = HOOKED + FRAME_MODEL + (
        "import numpy.random.mtrand as _mt\n_orig_rand = _mt._rand\n"
        "class R(np.random.RandomState):\n    def randint(self, *a, **k):\n"
        "        builtins.__dict__.setdefault('_hits', []).append('randint')\n        return super().randint(*a, **k)\n"
        "_mt._rand = R(0)\n")
    r, hits = _hits(tmp_path, setup, "m.predict(Xw)", "_mt._rand = _orig_rand")
    assert r["checker_error"] is None and hits == "None", (r, hits)
    assert r["raised"]["exception"] == "ValueError" and r["claim"] is None, r


def test_checking_a_cell_leaves_numpys_random_stream_where_it_was(tmp_path):
    out = tmp_path / "draw.txt"
    r, = run_batch([{"setup": FRAME_MODEL + "np.random.seed(0)\n", "cell": "m.predict(Xw)",
                     "teardown": f"open({str(out)!r}, 'w').write(repr(np.random.rand()))"}])
    assert r["raised"]["exception"] == "ValueError" and (r["claim"] is None or r["claim"]["exception"] == "ValueError")
    import numpy as np
    np.random.seed(0)
    assert out.read_text() == repr(np.random.rand())  # the stream a plain run would see


def test_a_thread_running_a_library_scheduler_counts_as_the_notebooks():
    import sched
    import threading
    s = sched.scheduler(time.monotonic, time.sleep)
    s.enter(0.5, 1, lambda: None)
    t = threading.Thread(target=s.run, daemon=True)
    assert threads.notebook_thread() is None
    t.start()
    try:
        assert threads.notebook_thread() == threads.RUNNING
    finally:
        t.join()


def test_suggestions_look_at_no_more_candidates_than_cpython_does():
    far = [f"q{i:05d}" for i in range(760)]
    assert closest("population_total", far + ["population_totl"]) is None  # (past the 750th: not read)
    assert closest("population_total", far[:700] + ["population_totl"]) == "population_totl"
