"""Code that runs between the check and the cell's lines without any line calling it, each case
really run in an IPython shell after the check (third red team, 7 Dec): IPython's own machinery
patched (an input transformer's class, the event triggers, the logger, the sync runner), a handler
for the cell's exceptions, callbacks an event loop runs before a cell that awaits, a signal handler
on a timer, values freed when a frame changes in place, and an allocation a memory limit refuses.
Each time the cell runs clean (or raises something else), so the check must claim nothing; each
plain twin keeps its claim."""

from __future__ import annotations

import ast
import gc

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim

from crane_llm.checks import _awaits_at_top_level, run_checks

D = "d = {}\n"
IT2 = (D + "import IPython.core.inputtransformer2 as it2\n_old = it2.MagicAssign.__dict__['find']\n"
       "class _T(it2.TokenTransformBase):\n    def transform(self, lines):\n        return ['pass\\n']\n"
       "it2.MagicAssign.find = classmethod(lambda cls, toks: _T((0, 0)) if any('zz' in t.string for l in toks "
       "for t in l) else None)")
LIMIT = ("import numpy as np, resource\n_old = resource.getrlimit(resource.RLIMIT_AS)\n"
         "resource.setrlimit(resource.RLIMIT_AS, (int(open('/proc/self/statm').read().split()[0]) * 4096 "
         "+ 300 * 2 ** 20, _old[1]))")
NOISY_FRAME = ("lst = [1, 2, 3]\nimport pandas as pd\nclass O:\n    def __del__(self):\n        lst.append(1)\n"
               "df = pd.DataFrame({'a': [O()], 'b': [1]})")

HIDDEN = [
    # (setup, cell, teardown): the cell runs clean, or raises elsewhere
    (IT2, "d['zz']", "it2.MagicAssign.find = _old"),
    (D + "import IPython.core.events as ev\n_old = ev.EventManager.trigger\n"
     "def t(self, *a, **k):\n    d['zz'] = 1\n    return _old(self, *a, **k)\nev.EventManager.trigger = t",
     "d['zz']", "ev.EventManager.trigger = _old"),
    (D + "import IPython.core.logger as lg\n_old = lg.Logger.log\ndef t(self, *a, **k):\n    d['zz'] = 1\n"
     "lg.Logger.log = t", "d['zz']", "lg.Logger.log = _old"),
    (D + "import IPython.core.interactiveshell as ish\n_old = ish._pseudo_sync_runner\n"
     "def r(c):\n    d['zz'] = 1\n    return _old(c)\nish._pseudo_sync_runner = r", "d['zz']",
     "ish._pseudo_sync_runner = _old"),
    (D + "import IPython.core.displayhook as dh\n"
     "dh.DisplayHook.exec_result = property(lambda s: None, lambda s, v: d.__setitem__('zz', 1))",
     "d['zz']", "del dh.DisplayHook.exec_result"),
    (D + "get_ipython().custom_exceptions = (int,)", "d['zz']", "get_ipython().custom_exceptions = ()"),
    (D + "import asyncio\nfrom IPython.core.async_helpers import get_asyncio_loop\n"
     "get_asyncio_loop().call_soon(d.__setitem__, 'zz', 1)", "d['zz']\nif False:\n    await asyncio.sleep(0)", ""),
    (D + "import signal\ndef _h(s, f):\n    d['zz'] = 1\n_oldh = signal.signal(signal.SIGALRM, _h)\n"
     "signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)",
     "import time\nt0 = time.time()\nwhile time.time() < t0 + 0.05:\n    pass\nd['zz']",
     "signal.setitimer(signal.ITIMER_REAL, 0)\nsignal.signal(signal.SIGALRM, _oldh)"),
    (NOISY_FRAME, "del df['a']\nlst[3]", ""),
    (NOISY_FRAME, "df.drop(columns=['a'], inplace=True)\nlst[3]", ""),
    (NOISY_FRAME, "df['a'] = 0\nlst[3]", ""),
    (D + LIMIT, "x = np.zeros(10 ** 8)\nd['zz']", "resource.setrlimit(resource.RLIMIT_AS, _old)"),
]
TWINS = [
    (D + "import IPython.core.inputtransformer2 as it2", "d['zz']", "KeyError", 1),
    (D + "import asyncio", "d['zz']\nasyncio.sleep", "KeyError", 1),
    (D + "import signal", "d['zz']", "KeyError", 1),
    ("lst = [1, 2, 3]\nimport pandas as pd\ndf = pd.DataFrame({'a': [1], 'b': [1]})", "del df['a']\nlst[3]",
     "IndexError", 2),
    (D + LIMIT, "x = np.zeros(10 ** 6)\nd['zz']", "KeyError", 2),
]


def test_code_running_around_the_cell_leaves_no_claim_and_the_twins_keep_theirs():
    cases = [{"setup": s, "cell": c, "teardown": t} for s, c, t in HIDDEN]
    cases += [{"setup": s, "cell": c} if "resource" not in s else
              {"setup": s, "cell": c, "teardown": "resource.setrlimit(resource.RLIMIT_AS, _old)"}
              for s, c, _, _ in TWINS]
    results = run_batch(cases)
    for (setup, cell, _), r in zip(HIDDEN, results):
        assert_no_false_claim(r, cell)
        assert r["claim"] is None, (setup, cell, r["claim"])
        # (what a check blind to that code would claim does not happen)
        naive = ("IndexError" if "lst[3]" in cell else "KeyError", cell.count("\n") + 1)
        assert r["raised"] is None or (r["raised"]["exception"], r["raised"]["line"]) != naive, r["raised"]
    for (setup, cell, exception, line), r in zip(TWINS, results[len(HIDDEN):]):
        assert_claimed(r, exception, line)


def test_only_awaits_outside_a_function_body_make_the_cell_run_on_the_loop():
    top = ["await f()", "if False:\n    await g", "def f(x=await g()):\n    pass", "[x async for x in y]",
           "async with a:\n    pass", "@dec(await g())\ndef f():\n    pass"]
    inner = ["async def f():\n    await g", "def f():\n    return [x async for x in y]", "x = 1",
             "class A:\n    async def m(self):\n        await x"]
    assert all(_awaits_at_top_level(ast.parse(s)) for s in top)
    assert not any(_awaits_at_top_level(ast.parse(s)) for s in inner)


def test_input_history_names_ipython_rebinds_are_read_for_finalizers():
    class Noisy:
        def __del__(self):
            pass

    assert run_checks("d['zz']", {"d": {}, "_iii": "x = 1", "_i7": "y", "_exit_code": 0}).crash is not None
    for name in ("_i", "_ii", "_iii", "_i7", "_exit_code"):
        assert run_checks("d['zz']", {"d": {}, name: Noisy()}).crash is None, name
    gc.collect()  # (no object of a finalizing class may outlive the test: every later claim would stop)


def test_a_signal_handler_held_back_while_the_facts_are_gathered_still_counts():
    import signal

    from crane_llm.kernel.held_signals import held_signals

    def handler(signum, frame):
        pass

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        with held_signals():  # (the kernel swaps the notebook's handlers for stand-ins meanwhile)
            assert run_checks("d['zz']", {"d": {}}).crash is None
    finally:
        signal.signal(signal.SIGUSR1, old)
    assert run_checks("d['zz']", {"d": {}}).crash is not None


def test_a_class_of_the_notebooks_that_finalizes_stops_every_claim():
    # Cycles of its objects that are already garbage are freed whenever the cell's allocations
    # start a collection, running its `__del__` between any two lines: while any object of it is
    # alive, none may be such garbage for all the check knows. Its own batch: the runner's process
    # keeps them.
    cases = [{"setup": D + "class Cyc:\n    def __del__(self):\n        d['zz'] = 1\nkept = Cyc()",
              "cell": "d['zz']"},
             {"setup": D + "import weakref\nclass K:\n    pass\nk = K()\nweakref.finalize(k, d.update, zz=1)\n"
                           "def cb():\n    d['zz'] = 1\nweakref.finalize(k, cb)", "cell": "d['zz']"}]
    for r in run_batch(cases):
        assert r["claim"] is None and "freed" in r["stop"]["reason"], r

