"""The replay reads the executed cells as Python and the kernel do (sixth red team, 6 Dec).

- Python normalises identifiers (NFKC: `pd.ＩntervalIndex` is `pd.IntervalIndex`, `__ｄel__` is
  `__del__`) and joins adjacent literals (`'__d' 'el__'`): the words the replay looks for are
  looked for in every spelling (`recorded_kernel._as_python_reads_it`).
- A class may get a `__del__` whose name no text spells: from a namespace a cell computes
  (`type('A', (), {'__d' + 'el__': f})`, `make_dataclass`, a metaclass) or through an attribute
  reached by a computed name (`getattr(type, '__set' + 'attr__')`).
- A shell command computed at run time, `subprocess`, and logging's file handlers may write a
  module a later import finds (the notebook's folder is first on a kernel's import path).
- What the shell sets in a kernel as cells run: `sys.last_value` once an error was shown,
  `builtins.display`, the notebook's own `__main__`.

Each target runs for real in a kernel of its own (kernel_apart, which shows errors and puts the
folder on the path as ipykernel does): the replay claims nothing, or exactly what it raised.
"""

from __future__ import annotations

import pytest

from kernel_apart import claims_only_what_raises, claims_what_raises

FRAME = "import pandas as pd\ndf = pd.DataFrame({'a': ['x']})\ndef f(self):\n    df['new'] = 'z'\n"
FREED = "a = None\nprint(df['new'])"
MODULE = "import builtins; builtins.hidden = 5"

CASES = [
    # identifiers as Python normalises them, literals as it joins them
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]}, index=pd.\uff29ntervalIndex.from_tuples([(0, 2), (0, 3)]))",
      "df.drop([1], inplace=True)"], "df.drop([1], inplace=True)"),
    ([FRAME + "A = type('A', (), {'__d' 'el__': f})\na = A()"], FREED),
    ([FRAME + "class A:\n    def __\uff44el__(self):\n        df['new'] = 'z'\na = A()"], FREED),
    ([FRAME + "import \uff57eakref\nclass A:\n    pass\na = A()\n\uff57eakref.\uff46inalize(a, lambda: f(None))"], FREED),
    # a namespace computed at run time
    ([FRAME + "A = type('A', (), {'__d' + 'el__': f})\na = A()"], FREED),
    ([FRAME + "A = type('A', (), {'__%sel__' % 'd': f})\na = A()"], FREED),
    ([FRAME + "import types\nA = types.new_class('A', (), {}, lambda ns: ns.update({'__d' + 'el__': f}))\na = A()"], FREED),
    ([FRAME + "import dataclasses\nA = dataclasses.make_dataclass('A', [], namespace={'__d' + 'el__': f})\na = A()"], FREED),
    ([FRAME + "class M(type):\n    def __new__(m, n, b, ns):\n        ns['__d' + 'el__'] = f\n"
              "        return super().__new__(m, n, b, ns)\nclass A(metaclass=M):\n    pass\na = A()"], FREED),
    ([FRAME + "class A:\n    pass\ngetattr(type, '__set' + 'attr__')(A, '__d' + 'el__', f)\na = A()"], FREED),
    ([FRAME + "import abc\nA = abc.ABCMeta('A', (), {'__d' + 'el__': f})\na = A()"], FREED),
    # a module written under a computed name, found by a later import
    (["import subprocess\nsubprocess.run('echo \"" + MODULE + "\" > seaborn.p' + 'y', shell=True)", "import seaborn"],
     "print(hidden)"),
    (["import os\nos.popen('echo \"" + MODULE + "\" > seaborn.p' + 'y').read()", "import seaborn"], "print(hidden)"),
    (["import os\nos.system('echo \"" + MODULE + "\" > seaborn.p' + 'y')", "import seaborn"], "print(hidden)"),
    (["import logging\nlogging.basicConfig(filename='seaborn.p' + 'y', format='%(message)s')\n"
      "logging.warning('" + MODULE + "')\nlogging.shutdown()", "import seaborn"], "print(hidden)"),
    (["import logging\nh = logging.FileHandler('seaborn.p' + 'y')\nh.setFormatter(logging.Formatter('%(message)s'))\n"
      "log = logging.getLogger('w')\nlog.addHandler(h)\nlog.warning('" + MODULE + "')\nh.flush()", "import seaborn"],
     "print(hidden)"),
    # what the shell sets as cells run
    (["1/0"], "import sys\nprint(sys.last_value)"),
    (["import sys", "int('a')"], "sys.last_traceback"),
    (["x = 1"], "import builtins\nbuiltins.display(1)"),
    (["import pandas as pd\ndf = pd.DataFrame({'a': [1]})"], "import __main__\nprint(__main__.df)"),
]

TWINS = [
    ([FRAME + "class A:\n    x = 1\na = A()"], FREED, "KeyError", 2),
    (["import os\nos.system('echo hi')"], "print(hidden)", "NameError", 1),
    (["1/0"], "import sys\nsys.zz_missing", "AttributeError", 2),
]
# (the twin of a re-run drop that does claim is in test_history.py)


@pytest.mark.parametrize("executed, target", CASES)
def test_the_replay_claims_nothing_the_target_does_not_raise(executed, target):
    claims_only_what_raises(executed, target)


@pytest.mark.parametrize("executed, target, exception, line", TWINS)
def test_twins_keep_their_claims(executed, target, exception, line):
    claims_what_raises(executed, target, exception, line)
