"""locations.py against real tracebacks: the line CPython names for a multi-line attribute read or
call (`(df\n .drop(columns=['zz']))` fails on line 2 since Python 3.10). The same script runs under
this interpreter and under every other CPython 3.8+ found on the machine (pyenv's included)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LOCATIONS = Path(__file__).resolve().parents[2] / "crane_llm" / "checks" / "locations.py"

SCRIPT = r'''
import ast, importlib.util, itertools, math, sys
if sys.version_info < (3, 8):
    print("older than the checker supports")
    sys.exit(0)
spec = importlib.util.spec_from_file_location("locations", sys.argv[1])
L = importlib.util.module_from_spec(spec); spec.loader.exec_module(L)
V = tuple(sys.version_info[:3])
bases = ["lst", "(lst\n)", "lst.copy()", "(lst\n .copy())", "m", "mod"]
arg_lists = ["-9", "\n-9", "-9, *[]", "*[-9]", "x=1", "9, x=1", "**{}", ",".join(["9"] * 28),
             ",".join(["9"] * 29), ",".join(["9"] * 30),
             ",".join(["9"] * 13) + ", " + ",".join("k%d=1" % i for i in range(14)),
             ",".join(["9"] * 13) + ", " + ",".join("k%d=1" % i for i in range(15))]
def cases():
    for b, sep in itertools.product(bases, [".", "\n .", ".\n ", "\\\n."]):
        yield "x = (%s%snope)" % (b, sep), "attr"
        yield "(%s%snope) = 1" % (b, sep), "attr"
        meth = "sqrt" if b in ("m", "mod") else "index"
        for args in arg_lists:
            yield "x = (%s%s%s(%s))" % (b, sep, meth, args), "call"
checked = 0
for src, kind in cases():
    for prefix in ("import math as m\n", "for _ in [0]:\n    import math as m\n", ""):
        full = prefix + src if not prefix.startswith("for") else prefix + "\n".join("    " + l for l in src.split("\n"))
        unit = ast.parse(full).body[-1] if not prefix.startswith("import") else ast.parse(full)
        stmt = unit if prefix.startswith("for") else ast.parse(full).body[-1]
        inner = stmt.body[-1] if prefix.startswith("for") else stmt
        node = inner.value if kind == "call" or isinstance(inner, ast.Assign) and not isinstance(inner.targets[0], ast.Attribute) else inner.targets[0]
        imports = L.Imports(unit)
        line = L.attribute_line(node, V) if isinstance(node, ast.Attribute) else L.call_line(node, V, imports)
        if line is None:
            continue
        ns = {"lst": [1, 2, 3], "mod": math, "m": math}
        try:
            exec(compile(full, "<cell>", "exec"), ns)
            continue  # (a call that happens to succeed proves nothing)
        except Exception as exc:
            tb, real = exc.__traceback__, None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == "<cell>":
                    real = tb.tb_lineno
                tb = tb.tb_next
        assert line == real, (V, full, line, real)
        checked += 1
assert checked > 300, checked
print(checked)
'''


def _interpreters():
    found = {os.path.realpath(sys.executable)}
    yield sys.executable
    candidates = [shutil.which("python3.%d" % m) for m in range(8, 14)]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3")))
    for exe in candidates:
        # (pyenv's shims answer only for the versions it selects: the versions' own binaries are listed)
        if exe and "/shims/" not in exe and os.path.realpath(exe) not in found:
            found.add(os.path.realpath(exe))
            yield exe


@pytest.mark.parametrize("python", list(_interpreters()))
def test_lines_match_real_tracebacks(python):
    proc = subprocess.run([python, "-c", SCRIPT, str(LOCATIONS)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_unknown_or_unchecked_versions_name_no_line_when_the_lines_differ():
    import ast

    from crane_llm.checks.locations import Imports, attribute_line, call_line

    node = ast.parse("(df\n .drop(columns=['zz']))").body[0].value
    for version in (None, (3, 14, 0)):
        assert call_line(node, version, Imports(None)) is None
        assert attribute_line(node.func, version) is None
    one_line = ast.parse("df.drop(columns=['zz'])").body[0].value
    assert call_line(one_line, None, Imports(None)) == 1
