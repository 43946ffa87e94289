"""The command-line options of `crane-llm bench junobench`, and their defaults for callers in code."""

from __future__ import annotations

import argparse
from typing import Any, List, Optional

DEFAULT_OUT = "bench/out/junobench"
HELP = "the CRANE-LLM paper's experiment on JunoBench-format cases"
DESCRIPTION = (
    "Model track: each case's crashing and fixed target cell, with and without runtime "
    "information (the case's recorded facts), --runs K times with a majority vote. Checks "
    "track: the built-in checks on each target cell against the recorded facts."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="a directory of JunoBench-format cases (one folder per case)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where the report and the per-case cache go (default: %(default)s)")
    parser.add_argument("--no-llm", action="store_true", help="only the checks track; no model is called")
    parser.add_argument("--model", help="the model to ask (default: the configured one)")
    parser.add_argument("--prompt", choices=("paper", "product"), default="paper",
                        help="paper (default): the prompt without the fix, so the figures compare with the paper's; "
                             "product: the prompt the extension sends, which also asks for a fixed cell")
    parser.add_argument("--context", choices=("all", "slice"), default="all",
                        help="all (default, the paper's): every executed cell goes into the prompt; "
                             "slice: only the cells the target's variables depend on, by the lineage")
    parser.add_argument("--runs", type=int, default=1, metavar="K", help="ask K times per prompt and take the majority vote (the paper used 5)")
    parser.add_argument("--jobs", type=int, default=4, metavar="N", help="model calls in flight at once (default: %(default)s)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="how long one model call may take (default: the product's 300 s); a small local model on a busy CPU needs more")
    parser.add_argument("--cases", metavar="LIST", help="only these cases, comma-separated names")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N cases (by name)")
    parser.add_argument("--price-in", type=float, metavar="USD", help="price per million input tokens, to report a cost")
    parser.add_argument("--price-out", type=float, metavar="USD", help="price per million output tokens, to report a cost")
    parser.add_argument("--fresh", action="store_true", help="ignore the cache in --out and ask again")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def parse(argv: Optional[List[str]] = None) -> Any:
    parser = argparse.ArgumentParser(prog="crane-llm bench junobench")
    add_arguments(parser)
    return parser.parse_args(argv)
