"""The `%%crane_llm` line: `--no-runinfo`, `--no-llm`, `--no-values`, `--preview` and an optional model name."""

from __future__ import annotations

import shlex
from typing import Optional

USAGE = """Usage: %%crane_llm [--no-runinfo] [--no-llm] [--no-values] [--preview] [MODEL]

Checks the code below the magic line for a crash without running it.

  --no-runinfo   predict from the code alone: no runtime information (and so no built-in checks)
  --no-llm       run only the built-in checks; nothing is sent to any model
  --no-values    runtime information without data values: types, shapes, dtypes, lengths,
                 column names and dict keys only
  --preview      print the exact request (host, model, API, prompt, size, what was masked or
                 left out) and send nothing
  MODEL          a model name that overrides the configured one, e.g. gpt-5-mini"""


class UsageError(ValueError):
    """A line the magic does not understand; its message is the whole usage text."""


class Options:
    __slots__ = ("use_llm", "include_runtime_info", "include_values", "preview", "model", "help")

    def __init__(self, use_llm: bool = True, include_runtime_info: bool = True, model: Optional[str] = None,
                 help: bool = False, include_values: bool = True, preview: bool = False):
        self.use_llm = use_llm
        self.include_runtime_info = include_runtime_info
        self.include_values = include_values
        self.preview = preview
        self.model = model
        self.help = help

    def to_json(self):
        return {"useLlm": self.use_llm, "includeRuntimeInfo": self.include_runtime_info,
                "includeValues": self.include_values, "model": self.model}

    def __repr__(self) -> str:
        return "Options(%r)" % (self.to_json(),)


def parse_options(line: str) -> Options:
    try:
        words = shlex.split(line or "")
    except ValueError as exc:
        raise UsageError("%%%%crane_llm could not read its options (%s).\n\n%s" % (exc, USAGE))
    options = Options()
    for word in words:
        if word in ("-h", "--help"):
            options.help = True
        elif word == "--no-runinfo":
            options.include_runtime_info = False
        elif word == "--no-llm":
            options.use_llm = False
        elif word == "--no-values":
            options.include_values = False
        elif word == "--preview":
            options.preview = True
        elif word.startswith("-"):
            raise UsageError("%%%%crane_llm does not know the option %s.\n\n%s" % (word, USAGE))
        elif options.model is not None:
            raise UsageError(
                "%%%%crane_llm takes one model name, not both %s and %s.\n\n%s" % (options.model, word, USAGE)
            )
        else:
            options.model = word
    return options
