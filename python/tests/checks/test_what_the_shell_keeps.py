"""State the shell keeps and uses around every cell, and the tables the standard library keeps
(fourth red team, 7 Dec): builtins the builtin trap adds while a cell runs, names IPython itself
writes (`_exit_code` after `!cmd`, `__warningregistry__` deleted before each cell), a `var_expand`
or `sys.stdout` of the notebook's behind `!cmd`, the logger, the compiler's table of cell names,
`hashlib` and `bdb` (IPython names every cell by its hash and catches `bdb.BdbQuit`), dict
subclasses put in place of `linecache.cache`, `re._cache` and `sys.path_importer_cache`, values
displayed mid-cell (`ast_node_interactivity = 'all'`), and audit hooks. Each cell really runs in
an IPython shell after the check: it runs clean or raises something else, so no claim may stand,
and no code of the notebook's may run during the check. Each plain twin keeps its claim."""

from __future__ import annotations

import pytest

from exec_runner import run_batch
from harness import assert_claimed, assert_no_false_claim

BASE = "d = {'k': 1}\nlst = [1, 2, 3]\n"
TRAP = BASE + "_ab = get_ipython().builtin_trap.auto_builtins\n"
MARKS = "    def __setitem__(self, k, v):\n        d['zz'] = 1\n        dict.__setitem__(self, k, v)\n"
LOOKS = ("    def __getitem__(self, k):\n        d['zz'] = 1\n        return dict.__getitem__(self, k)\n"
         "    def get(self, k, default=None):\n        d['zz'] = 1\n        return dict.get(self, k, default)\n")
TEE = "import sys\nlog = []\nclass Tee:\n    def write(self, t):\n        log.append(t)\n        return len(t)\n" \
      "    def flush(self):\n        pass\nsys.stdout = Tee()\n"
ALL = "get_ipython().ast_node_interactivity = 'all'\n"
LAST = "get_ipython().ast_node_interactivity = 'last_expr'"

HIDDEN = [
    # (setup, cell, teardown)
    (TRAP + "_ab['zz_b'] = 5", "zz_b", "del _ab['zz_b']"),
    (TRAP + "_ab['len'] = lambda x: 0", "len(5)", "del _ab['len']"),
    (BASE + "import hashlib\n_o = hashlib.sha1\ndef _s(*a, **k):\n    d['zz'] = 1\n    return _o(*a, **k)\n"
     "hashlib.sha1 = _s", "d['zz']", "hashlib.sha1 = _o"),
    (BASE + "import sys, types, hashlib as _hl\n_fake = types.ModuleType('hashlib')\n"
     "def _s(*a, **k):\n    d['zz'] = 1\n    return _hl.sha1(*a, **k)\n_fake.sha1 = _s\nsys.modules['hashlib'] = _fake",
     "d['zz']", "sys.modules['hashlib'] = _hl"),
    (BASE + "import linecache\nclass _LC(dict):\n" + MARKS + "_olc = linecache.cache\nlinecache.cache = _LC(_olc)",
     "d['zz']", "linecache.cache = _olc"),
    (BASE + "class _FM(dict):\n" + MARKS + "_c = get_ipython().compile\n_ofm = _c._filename_map\n"
     "_c._filename_map = _FM(_ofm)", "d['zz']", "_c._filename_map = _ofm"),
    (BASE + "class _F:\n    def write(self, s):\n        d['zz'] = 1\n    def flush(self):\n        pass\n"
     "_lg = get_ipython().logger\n_lg.logfile = _F()\n_lg.log_active = True", "d['zz']",
     "_lg.log_active = False\n_lg.logfile = None"),
    (BASE + "_exit_code = {'k': 1}", "!true\n_exit_code['zz']", ""),
    (BASE, "!true\nprint(_exit_code)", ""),
    (BASE + "_ip = get_ipython()\n_ip.var_expand = lambda cmd, depth=0, formatter=None: (d.update(zz=1), cmd)[1]",
     "!true\nd['zz']", "del _ip.var_expand"),
    (BASE + TEE, "!echo hi\nlog[0]", "sys.stdout = sys.__stdout__"),
    # `!cmd` starts a process (seventh red team, 7 Dec): a `$SHELL` that names no shell raises, a
    # patched subprocess or stream runs the notebook's code, before the next line
    (BASE + "import os\n_sh = os.environ.get('SHELL')\nos.environ['SHELL'] = '/bin/zsh_not_here'",
     "x = !echo hi\nd['zz']", "os.environ.pop('SHELL')\nif _sh is not None: os.environ['SHELL'] = _sh"),
    (BASE + "import os\n_sh = os.environ.get('SHELL')\nos.environ['SHELL'] = '/bin/zsh_not_here'",
     "!echo hi\nd['zz']", "os.environ.pop('SHELL')\nif _sh is not None: os.environ['SHELL'] = _sh"),
    (BASE + "import subprocess\n_po = subprocess.Popen\nclass _P(_po):\n    def __init__(self, *a, **k):\n"
     "        d['zz'] = 1\n        super().__init__(*a, **k)\nsubprocess.Popen = _P", "x = !echo hi\nd['zz']",
     "subprocess.Popen = _po"),
    (BASE + "__warningregistry__ = {'k': 1}", "__warningregistry__['zz']", ""),
    (BASE + "import bdb\n_bq = bdb.BdbQuit\ndel bdb.BdbQuit", "lst[9]", "bdb.BdbQuit = _bq"),
    (BASE + "import bdb\n_bq = bdb.BdbQuit\nbdb.BdbQuit = 5", "x = 1\nundefined_q", "bdb.BdbQuit = _bq"),
    (BASE + ALL + "_f = get_ipython().display_formatter.formatters['text/plain']\n"
     "_f.for_type(int, lambda o, p, cyc: (d.update(zz=1), p.text(str(o))))", "lst[0]\nd['zz']", "_f.pop(int)\n" + LAST),
    (BASE + ALL + TEE, "lst[0]\nlog[0]", "sys.stdout = sys.__stdout__\n" + LAST),
    (BASE + ALL, "lst[0]\nprint(_0)", LAST),
    (BASE + "import re\nclass _RC(dict):\n" + LOOKS + "_orc = re._cache\nre._cache = _RC(_orc)", "d['zz']",
     "re._cache = _orc"),
    (BASE + "import sys\nclass _PIC(dict):\n" + LOOKS + "_opic = sys.path_importer_cache\n"
     "sys.path_importer_cache = _PIC(_opic)", "import zz_nomod\nd['zz']", "sys.path_importer_cache = _opic"),
]
TV = "class TV(dict):\n" + LOOKS.split("    def get")[0]
HIDDEN += [
    # (second pass: codeop's globals and features, which IPython's compiler reads at every cell; the
    # traitlets tables of the shell and its helpers; input history the notebook deleted)
    (BASE + "import codeop, builtins\ndef _c(*a, **k):\n    d['zz'] = 1\n    return builtins.compile(*a, **k)\n"
     "codeop.compile = _c", "d['zz']", "del codeop.compile"),
    (BASE + "import codeop\nlog = []\nclass F:\n    @property\n    def compiler_flag(self):\n        log.append(1)\n"
     "        return 0\ncodeop._features.append(F())", "log[0]", "codeop._features.pop()"),
    (BASE + TV + "sh = get_ipython()\n_tv = sh._trait_values\nsh._trait_values = TV(_tv)", "d['zz']",
     "sh._trait_values = _tv"),
    (BASE + TV + "o = get_ipython().prefilter_manager\n_tv = o._trait_values\no._trait_values = TV(_tv)", "d['zz']",
     "o._trait_values = _tv"),
    (BASE + TV + "o = get_ipython().display_trap\n_tv = o._trait_values\no._trait_values = TV(_tv)", "d['zz']",
     "o._trait_values = _tv"),
    (BASE + "_keep = globals().pop('In', None)", "x = In\nd['zz']", "In = _keep"),
    (BASE + "globals().pop('_i', None)", "x = _i\nd['zz']", ""),
]
TWINS = [
    (TRAP, "zz_b", "NameError", 1),
    (BASE + "import hashlib", "d['zz']", "KeyError", 1),
    (BASE, "d['zz']\n!true", "KeyError", 1),
    (BASE + "import bdb", "lst[9]", "IndexError", 1),
    (BASE + "import re", "d['zz']", "KeyError", 1),
    (BASE + "import codeop", "x = In\nd['zz']", "KeyError", 2),
]
# Last, in a process of their own: an audit hook cannot be taken off (disarmed, it stays quiet once
# the runner clears the namespace it reads).
AUDITED = [
    (BASE + "import sys\ndef _h(ev, a):\n    if ev == 'exec' and globals().get('_armed'): d['zz'] = 1\n_armed = False\n"
     "sys.addaudithook(_h)\n_armed = True", "d['zz']", "_armed = False"),
    (BASE + "import sys\ndef _h(ev, a):\n    if ev == 'compile' and globals().get('_armed'): d['zz'] = 1\n_armed = False\n"
     "sys.addaudithook(_h)\n_armed = True", "x = 1\nd['zz']", "_armed = False"),
]


@pytest.fixture(scope="module")
def results():
    # (the builtin trap's own table, once changed, is not put back whole by any teardown: those
    # cases run one to a process)
    trapped = [i for i, (s, _, _) in enumerate(HIDDEN) if s.startswith(TRAP)]
    cases = [dict(setup=s, cell=c, teardown=t) for s, c, t in HIDDEN] + \
            [dict(setup=s, cell=c) for s, c, _, _ in TWINS]
    out = run_batch([c for i, c in enumerate(cases) if i not in trapped])
    for i in trapped:
        out.insert(i, run_batch([cases[i]])[0])
    return out


@pytest.mark.parametrize("i", range(len(HIDDEN)), ids=[repr(c[1])[:40] for c in HIDDEN])
def test_no_claim_where_the_shell_or_the_standard_library_runs_the_notebooks_code(results, i):
    assert_no_false_claim(results[i], HIDDEN[i][1])


@pytest.mark.parametrize("i", range(len(TWINS)), ids=[repr(c[1])[:40] for c in TWINS])
def test_the_plain_twins_keep_their_claims(results, i):
    _, _, exception, line = TWINS[i]
    assert_claimed(results[len(HIDDEN) + i], exception, line)


def test_after_an_audit_hook_no_check_claims():
    cases = [dict(setup=BASE, cell="d['zz']")] + [dict(setup=s, cell=c, teardown=t) for s, c, t in AUDITED]
    first, *hooked = run_batch(cases)
    assert_claimed(first, "KeyError", 1)  # (before any hook: the same cell is claimed)
    for r, (_, cell, _) in zip(hooked, AUDITED):
        assert r["claim"] is None and "audit hook" in r["stop"]["reason"], r
        assert_no_false_claim(r, cell)


def test_the_logger_ipython_builds_on_first_use_is_not_built_by_the_check():
    """IPython 9 builds the shell's logger when first asked, importing its module through the
    notebook's import hooks; a check before any cell ran asks what the shell keeps, never builds it
    (seventh red team, 7 Dec). In a process of its own: the first cell run builds it."""
    setup = BASE + ("import sys\nclass _Finder:\n    def find_spec(self, name, path=None, target=None):\n"
                    "        if name.startswith('IPython'):\n            d['zz'] = 1\n        return None\n"
                    "sys.meta_path.insert(0, _Finder())")
    r, = run_batch([dict(setup=setup, cell="x = 1", teardown="sys.meta_path.pop(0)")])
    assert r["setup_error"] is None and r["checker_error"] is None and r["raised"] is None, r
    assert not r["mutated"], r
