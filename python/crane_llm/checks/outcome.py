"""What the built-in checks hand back: a certain crash, where the reading stopped, or neither.

The JSON shapes are the CertainCrash and CheckStop zod schemas of libs/core (wire/check-result.ts).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(eq=False, repr=False)
class CertainCrash:
    """A crash the checker is certain of; `message` is one sentence for the user."""

    exception: str
    line: Optional[int]
    column: Optional[int]
    message: str
    rule: str
    variables: List[str] = field(default_factory=list)
    # {"old", "new", "line"}: the text to replace in the cell with its close match ("Replace" action).
    correction: Optional[Dict[str, Any]] = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.variables = list(dict.fromkeys(self.variables or []))

    def to_json(self) -> Dict[str, Any]:
        out = {
            "exception": self.exception,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "rule": self.rule,
            "variables": list(self.variables),
        }
        if self.correction:
            out["correction"] = dict(self.correction)
        return out

    def __repr__(self) -> str:
        return f"CertainCrash({self.exception} at line {self.line}: {self.message})"


@dataclass(frozen=True, repr=False)
class CheckStop:
    """Where the checker stopped reading and why; what follows is left to the model."""

    line: Optional[int]
    reason: str

    def to_json(self) -> Dict[str, Any]:
        text = self.reason if self.line is None else f"line {self.line}: {self.reason}"
        return {"line": self.line, "reason": text}

    def __repr__(self) -> str:
        return f"CheckStop(line {self.line}: {self.reason})"


@dataclass(frozen=True)
class Outcome:
    """The checker's answer for one cell: at most one of `crash` and `stopped_at` is set."""

    crash: Optional[CertainCrash] = None
    stopped_at: Optional[CheckStop] = None

    def to_json(self) -> Dict[str, Any]:
        return {
            "crash": self.crash.to_json() if self.crash else None,
            "stoppedAt": self.stopped_at.to_json() if self.stopped_at else None,
        }


class Crash(Exception):
    """Raised inside the interpreter when a rule is certain; carries the CertainCrash."""

    def __init__(self, crash: CertainCrash):
        super().__init__(crash.message)
        self.crash = crash


class Stop(Exception):
    """Raised inside the interpreter when the effect of what comes next cannot be known."""

    def __init__(self, line: Optional[int], reason: str):
        super().__init__(reason)
        self.stop = CheckStop(line, reason)
