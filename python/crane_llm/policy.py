"""The administrator's ceiling on what may leave the machine: CRANE_LLM_POLICY.

On a JupyterHub the administrator sets it in the single-user environment (for example
`c.Spawner.environment = {"CRANE_LLM_POLICY": "no-values"}`); the server extension and every
kernel inherit it. Each level caps the switches under it as well:

  no-llm      nothing is sent to any model (the built-in checks still run)
  no-runinfo  the model gets the code alone; no runtime information
  no-values   runtime information keeps its structure; no data value is sent

A value that is none of these is read as the strictest level, `no-llm`, with a message: a typo in
a policy must not open what it meant to close.
"""

from __future__ import annotations

import os
from typing import Mapping, NamedTuple, Optional, Tuple

POLICY_VARIABLE = "CRANE_LLM_POLICY"
LEVELS = ("no-llm", "no-runinfo", "no-values")
SET_BY_ADMINISTRATOR = "set by your administrator"


def parse_policy(text: Optional[str]) -> Tuple[Optional[str], Optional[str]]:
    """(level or None, a problem for people or None)."""
    value = (text or "").strip().lower()
    if not value:
        return None, None
    if value in LEVELS:
        return value, None
    return "no-llm", (
        "%s is %r, which is not one of %s; CRANE-LLM sends nothing to any model until it is fixed."
        % (POLICY_VARIABLE, text, ", ".join(LEVELS))
    )


def current_policy(environ: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """The level in force for this process (the kernel's or the server's environment)."""
    env = os.environ if environ is None else environ
    return parse_policy(env.get(POLICY_VARIABLE))[0]


class SwitchValues(NamedTuple):
    use_llm: bool
    include_runtime_info: bool
    include_values: bool


def capped(switches: SwitchValues, policy: Optional[str]) -> SwitchValues:
    """The switches under the ceiling: what the user chose, minus what the policy forbids."""
    use_llm, runinfo, values = switches
    if policy == "no-llm":
        use_llm = runinfo = values = False
    elif policy == "no-runinfo":
        runinfo = values = False
    elif policy == "no-values":
        values = False
    return SwitchValues(use_llm, runinfo, values)
