"""The command-line options of `crane-llm check`."""

from __future__ import annotations

import argparse

from ..settings import CHECK_BUDGET_MAX, parse_seconds

HELP = "check one cell of a notebook file without running it"
DESCRIPTION = (
    "Run the cells before the target cell in a fresh kernel, then predict whether the target "
    "cell would crash, without running it. Exit code: 0 no crash found, 1 crash certain or "
    "predicted, 2 could not decide or error."
)


def _budget_seconds(text: str) -> float:
    seconds = parse_seconds(text)
    if seconds is None:
        raise argparse.ArgumentTypeError("a number of seconds between 0 and %g, not %r" % (CHECK_BUDGET_MAX, text))
    return seconds


def _positive_seconds(text: str) -> int:
    try:
        seconds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number of seconds" % text)
    if seconds <= 0:
        raise argparse.ArgumentTypeError("it must be a positive number of seconds, e.g. --timeout 600")
    return seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("notebook", help="the .ipynb file")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--cell", type=int, metavar="N", help="the target: the N-th code cell (1-based, markdown cells not counted)")
    which.add_argument("--cell-id", metavar="ID", help="the target by its notebook cell id")
    parser.add_argument("--order", metavar="LIST", help="run these code cells, in this order, before the target (e.g. 3,1,2); default: every code cell above the target, top to bottom")
    parser.add_argument("--no-llm", action="store_true", help="only the built-in checks; nothing is sent to any model")
    parser.add_argument("--no-runinfo", action="store_true", help="predict from the code alone (no runtime information, so no built-in checks)")
    parser.add_argument("--model", help="a model name that overrides the configured one")
    parser.add_argument("--context", choices=("all", "slice"), default="all",
                        help="which executed cells the prompt holds: all (default) or only the slice the target's variables depend on")
    parser.add_argument("--json", action="store_true", help="print a machine-readable JSON report")
    parser.add_argument("--keep-going", action="store_true", help="when an earlier cell raises, run the remaining cells anyway instead of stopping")
    parser.add_argument("--budget", type=_budget_seconds, default=None, metavar="SECONDS",
                        help="time budget of the check in the kernel (default: CRANE_LLM_CHECK_BUDGET, else 2)")
    parser.add_argument("--timeout", type=_positive_seconds, default=None, metavar="SECONDS", help="limit on each earlier cell's run time")
