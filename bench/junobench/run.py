"""Run the JunoBench benchmark from a checkout, writing to bench/out/junobench (git-ignored).

    /work/venv/bin/python bench/junobench/run.py [DIR] [options of `crane-llm bench junobench`]

DIR defaults to ../shared/junobench/dev next to the repository. With no model configured, pass
--no-llm (the checks track only). Everything after DIR is passed through, e.g. --runs 5 --jobs 8.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from crane_llm.cli import main  # noqa: E402


def _argv(args):
    directory = str(ROOT.parent / "shared" / "junobench" / "dev")
    if args and not args[0].startswith("-"):
        directory, args = args[0], args[1:]
    if "--out" not in args:
        args = args + ["--out", str(ROOT / "bench" / "out" / "junobench")]
    return ["bench", "junobench", directory] + args


if __name__ == "__main__":
    sys.exit(main(_argv(sys.argv[1:])))
