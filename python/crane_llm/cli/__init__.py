"""The `crane-llm` command: `check` a cell of a notebook file, `bench junobench` a directory of cases."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from ..version import __version__
from ..settings import CHECK_BUDGET_MAX, parse_seconds


def _budget_seconds(text: str) -> float:
    seconds = parse_seconds(text)
    if seconds is None:
        raise argparse.ArgumentTypeError("a number of seconds between 0 and %g, not %r" % (CHECK_BUDGET_MAX, text))
    return seconds


EXIT_INTERRUPTED = 130  # what a shell reports for a command ended by Ctrl-C (128 + SIGINT)


def _positive_seconds(text: str) -> int:
    try:
        seconds = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a whole number of seconds" % text)
    if seconds <= 0:
        raise argparse.ArgumentTypeError("it must be a positive number of seconds, e.g. --timeout 600")
    return seconds


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crane-llm",
        description="Predict whether a notebook cell will crash, before it runs.",
    )
    parser.add_argument("--version", action="version", version="crane-llm %s" % __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser(
        "check",
        help="check one cell of a notebook file without running it",
        description=(
            "Run the cells before the target cell in a fresh kernel, then predict whether the target "
            "cell would crash, without running it. Exit code: 0 no crash found, 1 crash certain or "
            "predicted, 2 could not decide or error."
        ),
    )
    check.add_argument("notebook", help="the .ipynb file")
    which = check.add_mutually_exclusive_group(required=True)
    which.add_argument("--cell", type=int, metavar="N", help="the target: the N-th code cell (1-based, markdown cells not counted)")
    which.add_argument("--cell-id", metavar="ID", help="the target by its notebook cell id")
    check.add_argument("--order", metavar="LIST", help="run these code cells, in this order, before the target (e.g. 3,1,2); default: every code cell above the target, top to bottom")
    check.add_argument("--no-llm", action="store_true", help="only the built-in checks; nothing is sent to any model")
    check.add_argument("--no-runinfo", action="store_true", help="predict from the code alone (no runtime information, so no built-in checks)")
    check.add_argument("--model", help="a model name that overrides the configured one")
    check.add_argument("--context", choices=("all", "slice"), default="all",
                       help="which executed cells the prompt holds: all (default) or only the slice the target's variables depend on")
    check.add_argument("--json", action="store_true", help="print a machine-readable JSON report")
    check.add_argument("--keep-going", action="store_true", help="when an earlier cell raises, run the remaining cells anyway instead of stopping")
    check.add_argument("--budget", type=_budget_seconds, default=None, metavar="SECONDS",
                       help="time budget of the check in the kernel (default: CRANE_LLM_CHECK_BUDGET, else 2)")
    check.add_argument("--timeout", type=_positive_seconds, default=None, metavar="SECONDS", help="limit on each earlier cell's run time")

    bench = sub.add_parser("bench", help="run a benchmark", description="Run a benchmark.")
    bench.set_defaults(bench_parser=bench)
    bench_sub = bench.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    from ..bench.junobench.options import add_arguments

    juno = bench_sub.add_parser(
        "junobench",
        help="the CRANE-LLM paper's experiment on JunoBench-format cases",
        description=(
            "Model track: each case's crashing and fixed target cell, with and without runtime "
            "information (the case's recorded facts), --runs K times with a majority vote. Checks "
            "track: the built-in checks on each target cell against the recorded facts."
        ),
    )
    add_arguments(juno)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """The command; Ctrl-C ends it with one line and exit code 130 (the kernel is shut down on the way)."""
    try:
        return _run(argv)
    except KeyboardInterrupt:
        sys.stderr.write("crane-llm: interrupted.\n")
        return EXIT_INTERRUPTED


def _run(argv: Optional[List[str]]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "check":
        from .check import run_check

        return run_check(args)
    if args.command == "bench":
        if getattr(args, "benchmark", None) != "junobench":
            args.bench_parser.print_help(sys.stderr)
            return 2
        from ..bench.junobench.runner import run_from_args

        return run_from_args(args)
    parser.print_help(sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
