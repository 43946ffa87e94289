"""The `crane-llm` command: `check` a cell of a notebook file, `bench junobench` a directory of cases."""

from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import List, Optional

from ..bench.junobench import options as junobench_options
from ..version import __version__
from . import check_options

EXIT_INTERRUPTED = 130  # what a shell reports for a command ended by Ctrl-C (128 + SIGINT)


def _add_command(commands, name: str, options: ModuleType) -> argparse.ArgumentParser:
    """A subcommand declared by its options module: HELP, DESCRIPTION and add_arguments(parser)."""
    parser = commands.add_parser(name, help=options.HELP, description=options.DESCRIPTION)
    options.add_arguments(parser)
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crane-llm",
        description="Predict whether a notebook cell will crash, before it runs.",
    )
    parser.add_argument("--version", action="version", version="crane-llm %s" % __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_command(sub, "check", check_options)
    bench = sub.add_parser("bench", help="run a benchmark", description="Run a benchmark.")
    bench.set_defaults(bench_parser=bench)
    bench_sub = bench.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    _add_command(bench_sub, "junobench", junobench_options)
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
