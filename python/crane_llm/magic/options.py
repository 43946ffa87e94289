"""The `%%crane_llm` line: `--no-runinfo`, `--no-llm`, `--no-values`, `--preview`, `--budget SECONDS` and an
optional model name, read by IPython's own magic-argument parser (argparse underneath)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from IPython.core.magic_arguments import argument, arg_split, construct_parser, magic_arguments

from ..settings import CHECK_BUDGET_MAX, parse_seconds

USAGE = """Usage: %%crane_llm [--no-runinfo] [--no-llm] [--no-values] [--preview] [--budget SECONDS] [MODEL]

Checks the code below the magic line for a crash without running it.

  --no-runinfo   predict from the code alone: no runtime information (and so no built-in checks)
  --no-llm       run only the built-in checks; nothing is sent to any model
  --no-values    runtime information without data values: types, shapes, dtypes, lengths,
                 column names and dict keys only
  --preview      print the exact request (host, model, API, prompt, size, what was masked or
                 left out) and send nothing
  --budget S     time budget of the check in the kernel, in seconds (default: the
                 CRANE_LLM_CHECK_BUDGET setting, else 2)
  MODEL          a model name that overrides the configured one, e.g. gpt-5-mini"""


class UsageError(ValueError):
    """A line the magic does not understand; its message is the whole usage text."""


@dataclass
class Options:
    use_llm: bool = True
    include_runtime_info: bool = True
    model: Optional[str] = None
    help: bool = False
    budget: Optional[float] = None
    include_values: bool = True
    preview: bool = False

    def to_json(self):
        return {"useLlm": self.use_llm, "includeRuntimeInfo": self.include_runtime_info,
                "includeValues": self.include_values, "model": self.model}


@magic_arguments()
@argument("-h", "--help", action="store_true")
@argument("--no-runinfo", dest="include_runtime_info", action="store_false")
@argument("--no-llm", dest="use_llm", action="store_false")
@argument("--no-values", dest="include_values", action="store_false")
@argument("--preview", action="store_true")
# A bare --budget is given "" so that it gets the same sentence as a bad number.
@argument("--budget", nargs="?", const="", default=None)
@argument("model", nargs="?", default=None)
def _crane_llm_line(line: str) -> None:
    """The magic's line, declared for the parser (the magic itself is cell_magic.crane_llm)."""


_PARSER = construct_parser(_crane_llm_line)
# "--no-runinf" is a typo to point out, not an abbreviation to guess at.
_PARSER.allow_abbrev = False


def parse_options(line: str) -> Options:
    try:
        words = arg_split(line or "", strict=True)
    except ValueError as exc:
        raise UsageError("%%%%crane_llm could not read its options (%s).\n\n%s" % (exc, USAGE))
    # Known arguments only: what is left over gets a sentence of ours rather than argparse's.
    parsed, extra = _PARSER.parse_known_args(words)
    for word in extra:
        if word.startswith("-"):
            raise UsageError("%%%%crane_llm does not know the option %s.\n\n%s" % (word, USAGE))
        raise UsageError("%%%%crane_llm takes one model name, not both %s and %s.\n\n%s" % (parsed.model, word, USAGE))
    budget = None
    if parsed.budget is not None:
        budget = parse_seconds(parsed.budget)
        if budget is None:
            raise UsageError("%%%%crane_llm --budget takes a number of seconds between 0 and %g, not %r.\n\n%s"
                             % (CHECK_BUDGET_MAX, parsed.budget, USAGE))
    return Options(use_llm=parsed.use_llm, include_runtime_info=parsed.include_runtime_info, model=parsed.model,
                   help=parsed.help, budget=budget, include_values=parsed.include_values, preview=parsed.preview)
