"""The `%%crane_llm` line: `--no-runinfo`, `--no-llm` and an optional model name."""

from __future__ import annotations

import shlex
from typing import Optional

from ..settings import CHECK_BUDGET_MAX, parse_seconds

USAGE = """Usage: %%crane_llm [--no-runinfo] [--no-llm] [--budget SECONDS] [MODEL]

Checks the code below the magic line for a crash without running it.

  --no-runinfo   predict from the code alone: no runtime information (and so no built-in checks)
  --no-llm       run only the built-in checks; nothing is sent to any model
  --budget S     time budget of the check in the kernel, in seconds (default: the
                 CRANE_LLM_CHECK_BUDGET setting, else 2)
  MODEL          a model name that overrides the configured one, e.g. gpt-5-mini"""


class UsageError(ValueError):
    """A line the magic does not understand; its message is the whole usage text."""


class Options:
    __slots__ = ("use_llm", "include_runtime_info", "model", "help", "budget")

    def __init__(self, use_llm: bool = True, include_runtime_info: bool = True, model: Optional[str] = None, help: bool = False,
                 budget: Optional[float] = None):
        self.budget = budget
        self.use_llm = use_llm
        self.include_runtime_info = include_runtime_info
        self.model = model
        self.help = help

    def to_json(self):
        return {"useLlm": self.use_llm, "includeRuntimeInfo": self.include_runtime_info, "model": self.model}

    def __repr__(self) -> str:
        return "Options(%r)" % (self.to_json(),)


def parse_options(line: str) -> Options:
    try:
        words = shlex.split(line or "")
    except ValueError as exc:
        raise UsageError("%%%%crane_llm could not read its options (%s).\n\n%s" % (exc, USAGE))
    options = Options()
    words = list(words)
    while words:
        word = words.pop(0)
        if word.startswith("--budget="):
            words.insert(0, word[len("--budget="):])
            word = "--budget"
        if word == "--budget":
            value = words.pop(0) if words else ""
            seconds = parse_seconds(value)
            if seconds is None:
                raise UsageError("%%%%crane_llm --budget takes a number of seconds between 0 and %g, not %r.\n\n%s"
                                 % (CHECK_BUDGET_MAX, value, USAGE))
            options.budget = seconds
        elif word in ("-h", "--help"):
            options.help = True
        elif word == "--no-runinfo":
            options.include_runtime_info = False
        elif word == "--no-llm":
            options.use_llm = False
        elif word.startswith("-"):
            raise UsageError("%%%%crane_llm does not know the option %s.\n\n%s" % (word, USAGE))
        elif options.model is not None:
            raise UsageError(
                "%%%%crane_llm takes one model name, not both %s and %s.\n\n%s" % (options.model, word, USAGE)
            )
        else:
            options.model = word
    return options
