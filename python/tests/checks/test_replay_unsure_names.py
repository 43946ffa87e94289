"""The replay against executed cells that leave a name maybe bound, rewrite the target's line, or
change what it reads by ways the parser does not see (third red team, 3 Dec): a name bound only in
a function, under a branch, before a `del`, by a failed import or an `except ... as`; `exit` and
`quit` at the head of a line (IPython calls them); `%reset` and a `del` inside `%%time`; a macro;
`barry_as_FLUFL`; `gc.callbacks`; `from sys import modules`; argparse writing attributes;
literal lists changed by text pandas runs. Each executed cell runs for real, then the target does:
the replay claims nothing, or exactly what the target raised. Twins keep their claims."""

from __future__ import annotations

from exec_runner import run_batch

# A garbage-collector callback that adds the column the target selects, while the target runs.
ADDS_COLUMN_WHEN_COLLECTED = (
    "import sys\ndef cb(phase, info):\n    f = sys._getframe()\n    while f is not None:\n"
    "        if f.f_code.co_filename.startswith('<ipython-input') and f.f_code.co_name == '<module>' and "
    "'callbacks' not in f.f_code.co_names:\n            if 'zz' not in df.columns:\n                df['zz'] = 1\n"
    "            return\n        f = f.f_back\n")

# A frame read from a CSV file (its row index unnamed), and argparse naming that index.
CSV_FRAME = ("import pandas as pd\nwith open('m.csv', 'w') as fh:\n"
             "    fh.write('region,emissions\\nAsia,1.5\\nAfrica,2.0\\n')\n# In[ ]:\ndf = pd.read_csv('m.csv')")


def NAMES_INDEX(dest):  # noqa: N802 (reads as the constant it builds)
    return (f"import argparse\np = argparse.ArgumentParser()\np.add_argument('--x', dest={dest})\n"
            "p.parse_args(['--x', 'zz'], namespace=df.index)")


# (executed cells: `setup` run as Python, `shell` through IPython; both read by the replay)
CASES = [{'cell': 'y\nx[7]', 'setup': 'x = [1]\ny = 1\n# In[ ]:\ndel y'},
     {'cell': 'y\nx[7]', 'setup': 'x = [1]\nif False:\n    y = 2'},
     {'cell': 'tmp\nx[7]', 'setup': 'x = [1]\ndef f():\n    tmp = 1'},
     {'cell': 'nm\nx[7]', 'setup': 'x = [1]\ntry:\n    import not_a_module_zz as nm\nexcept ImportError:\n    pass'},
     {'cell': "tmp\ndf['zz']", 'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndef f():\n    tmp = 1"},
     {'cell': 'pwd, x[7]', 'setup': 'sq = [pwd for pwd in range(3)]\nx = [1]'},
     {'cell': 'quit = undefined_x', 'setup': 'x = 1'},
     {'cell': 'exit ,undefined_x', 'setup': 'x = 1'},
     {'cell': 'quit; undefined_x', 'setup': 'x = 1'},
     {'cell': 'exit if undefined_x else 0', 'setup': 'x = 1'},
     {'cell': 'exit, x[3]', 'setup': 'x = [1]'},
     {'cell': 'pwd + undefined_x', 'setup': 'class C:\n    pwd = 1'},
     {'cell': 'pwd - undefined_x', 'setup': 'def f():\n    pwd = 1'},
     {'cell': 'who + undefined_x', 'setup': 'class C:\n    who = 1'},
     {'cell': 'ls - undefined_x', 'setup': 'class C:\n    ls = 1'},
     {'cell': 'zz',
      'setup': '',
      'shell': 'from sys import modules\n'
               'from functools import update_wrapper\n'
               'def f():\n'
               '    pass\n'
               'f.zz = 1\n'
               "update_wrapper(modules['builtins'], f, assigned=())",
      'teardown': "import builtins\nfor _k in ('zz', '__wrapped__'):\n    builtins.__dict__.pop(_k, None)"},
     {'cell': 'zz',
      'setup': '',
      'shell': 'from sys import modules\n'
               'import argparse\n'
               'p = argparse.ArgumentParser()\n'
               "p.add_argument('--zz', default=1)\n"
               "p.parse_args([], namespace=modules['builtins'])",
      'teardown': "import builtins\nfor _k in ('zz', '__wrapped__'):\n    builtins.__dict__.pop(_k, None)"},
     {'cell': 'np.zeros_typo', 'setup': '', 'shell': 'import numpy as np\n# In[ ]:\n%reset -f'},
     {'cell': 'np.zeros_typo', 'setup': '', 'shell': 'import numpy as np\n# In[ ]:\n%reset_selective -f np'},
     {'cell': "m + df['zz']",
      'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})",
      'shell': "from IPython.core.macro import Macro\nm = Macro('1')"},
     {'cell': 'undefined_x != 1', 'setup': '', 'shell': 'from __future__ import barry_as_FLUFL'},
     {'cell': 'x = [1]\nx[5] if 1 != 2 else 0', 'setup': '', 'shell': 'from __future__ import barry_as_FLUFL'},
     {'cell': "t = [[1], [2]]\ndf['zz']",
      'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})",
        'shell': ADDS_COLUMN_WHEN_COLLECTED + 'from gc import callbacks, set_threshold\n'
               'callbacks += [cb]\n'
               'set_threshold(1)',
      'teardown': 'import gc\ngc.callbacks.clear()\ngc.set_threshold(700, 10, 10)'},
     {'cell': "t = [[1], [2]]\ndf['zz']",
      'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})",
        'shell': ADDS_COLUMN_WHEN_COLLECTED + 'import gc\n'
               'list.append(gc.callbacks, cb)\n'
               'gc.set_threshold(1)',
      'teardown': 'import gc\ngc.callbacks.clear()\ngc.set_threshold(700, 10, 10)'},
     {'cell': 'np.zeros_typo', 'setup': 'import numpy as np', 'shell': '%%time\ndel np'},
     {'cell': 'np.zeros_typo', 'setup': 'import numpy as np', 'shell': '%%capture\ndel np'},
     {'cell': 'np\nx[7]', 'setup': 'x = [1]\ndef f():\n    import numpy as np'},
     {'cell': 'zz([1])',
      'setup': '',
      'shell': 'from sys import modules\n'
               'import argparse\n'
               'p = argparse.ArgumentParser()\n'
               "p.add_argument('--zz', default=print)\n"
               "p.parse_args([], namespace=modules['builtins'])",
      'teardown': "import builtins\nbuiltins.__dict__.pop('zz', None)"},
     {'cell': 'x[lst[0]]',
      'setup': 'lst = [7]\nx = [1]',
      'shell': "from sys import modules\ndef g(m):\n    return m.lst\nr = g(modules['__main__'])\nr[0] = 0"},
     {'cell': "{'a': 1}[lst[0]]",
      'setup': "lst = ['zz']",
      'shell': "from sys import modules\ndef g(m):\n    return m.lst\nr = g(modules['__main__'])\nr[0] = 'a'"},
     {'cell': "df.sort_values('zz')",
      'setup': CSV_FRAME,
      'shell': NAMES_INDEX("'name'")},
     {'cell': "df.sort_values('zz')",
      'setup': CSV_FRAME,
      'shell': NAMES_INDEX("'_na' + 'me'")},
     {'cell': "df.groupby('zz')",
      'setup': CSV_FRAME,
      'shell': NAMES_INDEX("'name'")},
     {'cell': 'x[lst[0]]',
      'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nlst = [7, 0]\nx = [1]",
      'shell': "df.eval('@lst.reverse()')"},
     {'cell': 'x[lst[0]]',
      'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nlst = [7, 0]\nx = [1]",
      'shell': "pd.eval('lst.reverse()', engine='python')"},
     {'cell': "{'a': 1}[lst[0]]",
      'setup': "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\nlst = ['zz']",
      'shell': 'df.eval("@lst.__setitem__(0, \'a\')")'},
     {'cell': 'e\nx[7]', 'setup': 'x = [1]\ntry:\n    1 / 0\nexcept ZeroDivisionError as e:\n    pass'},
     # aliases the shell registers for its own magics as it starts: `hist` is %history (7 Dec)
     {'cell': 'hist', 'setup': 'x = [1]'},
     {'cell': 'rep', 'setup': 'x = [1]'},
     {'cell': 'hist -n', 'setup': 'x = [1]'}]

TWINS = [
    # a name a top-level statement binds, and nothing unbinds, exists: the reading goes on
    ({"setup": "x = [1]\ny = 1", "cell": "y\nx[7]"}, "IndexError", 2),
    ({"setup": "import numpy as np\nx = [1]", "cell": "np\nx[7]"}, "IndexError", 2),
    ({"setup": "x = [1]\ndef f():\n    return 1", "cell": "f\nx[7]"}, "IndexError", 2),
    # and a name no cell binds at all is still a certain NameError
    ({"setup": "x = [1]\ndef f():\n    tmp = 1", "cell": "undefined_q\nx[7]"}, "NameError", 1),
    ({"setup": "import numpy as np", "cell": "np.zeros_typo"}, "AttributeError", 1),
    ({"setup": "lst = [7, 0]\nx = [1]", "cell": "x[lst[0]]"}, "IndexError", 1),
]


def _replayed(case):
    return dict(case, replay=True, replay_executed=True)


def test_the_replay_claims_nothing_the_target_does_not_raise():
    for case, r in zip(CASES, run_batch([_replayed(c) for c in CASES])):
        assert r.get("setup_error") is None and r.get("checker_error") is None, (case, r)
        claim, raised = r["replay_claim"], r["raised"]
        assert claim is None or (raised is not None and claim["exception"] == raised["exception"]
                                 and claim["line"] == raised["line"]), (case, r)


def test_twins_keep_their_claims():
    for (case, exception, line), r in zip(TWINS, run_batch([_replayed(c) for c, _, _ in TWINS])):
        assert r["raised"] is not None and r["raised"]["exception"] == exception, (case, r)
        assert r["replay_claim"] is not None and r["replay_claim"]["exception"] == exception \
            and r["replay_claim"]["line"] == line, (case, r)


def test_a_name_an_executed_cell_binds_after_it_raised_is_not_taken_as_bound():
    """(fourth red team, 3 Dec) An executed cell may have raised before its binding ran: a name the
    facts do not hold stops the reading, whichever statement binds it."""
    from crane_llm.checks import run_checks_on_facts
    for cells, target in ((["1/0\nx = 1"], "x\n1/0"), (["x = undefined_name_zz"], "x\n1/0"),
                          (["def x(): pass\n1/0\nclass y: pass"], "y\n1/0")):
        outcome = run_checks_on_facts(target, {}, executed=cells)
        assert outcome.crash is None and outcome.stopped_at is not None, (cells, target, outcome)
    assert run_checks_on_facts("undefined_q\n1/0", {}, executed=["x = 1"]).crash.exception == "NameError"


def test_the_replay_knows_every_line_magic_a_kernel_starts_with():
    """A one-line cell naming a line magic or alias of a fresh kernel is that magic, not a NameError:
    the replay's list must hold every one a real shell has, and ipykernel's own (`subshell`)."""
    import subprocess
    import sys

    script = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "ip = InteractiveShell.instance()\n"
        "names = set(ip.magics_manager.lsmagic()['line']) | {a for a, _ in ip.alias_manager.aliases}\n"
        "try:\n"
        "    from ipykernel.zmqshell import KernelMagics\n"
        "    names |= set(KernelMagics.magics['line'])\n"
        "except ImportError:\n"
        "    pass\n"
        "print(' '.join(sorted(names)))\n")
    # (a shell of its own: the test process's shell, if any, may carry extensions)
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    kernel_names = set(shown.stdout.split())
    assert {"hist", "pwd", "ls"} <= kernel_names, shown.stderr
    from crane_llm.checks.shell_source import default_line_magic_names
    assert kernel_names - default_line_magic_names() == set()
