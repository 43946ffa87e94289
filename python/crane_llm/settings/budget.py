"""The check's time budget: a kernel-side setting (KERNEL_SPECS in table.py), resolved like the
model settings: an argument (`%%crane_llm --budget`, `crane-llm check --budget`), then
CRANE_LLM_CHECK_BUDGET (the environment, then `.env`), then `check_budget` in config.json, then
2 seconds. A value that cannot be used still wins, as with every setting; the check then runs
with the default and says why in its steps."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional

from .records import Setting
from .resolve import resolve_specs
from .table import CHECK_BUDGET_DEFAULT, KERNEL_SPECS


@dataclass(frozen=True)
class CheckBudget:
    seconds: float
    setting: Setting
    warning: Optional[str] = None  # the setting's problem, or an unreadable settings file


def resolve_check_budget(
    explicit: Any = None,
    cwd: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    home: Optional[Path] = None,
) -> CheckBudget:
    resolved, warnings = resolve_specs(KERNEL_SPECS, {"check_budget": explicit}, cwd, environ, home)
    setting = resolved["check_budget"]
    if setting.problem:
        return CheckBudget(CHECK_BUDGET_DEFAULT, setting,
                           "%s The default of %g s was used." % (setting.problem, CHECK_BUDGET_DEFAULT))
    return CheckBudget(float(setting.value), setting, " ".join(warnings) or None)
