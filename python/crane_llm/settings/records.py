"""The records settings are made of: a secret that never shows itself, one resolved setting, and
the description of a setting (where it may come from) that the table in `table.py` lists."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

MASK = "<hidden>"


class Secret(str):
    """The API key: an ordinary string to the code that sends it, a mask in every repr.

    Its repr is what dataclass reprs, `vars()`, `dataclasses.asdict`, f"{x!r}" and logging show;
    str() stays the real text (the HTTP client needs it). Copies stay Secrets.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return MASK

    def __copy__(self) -> "Secret":
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Secret":
        return self


class Shown(str):
    """A value part of which is never shown (a base_url's `user:secret@`): the full text to the code
    that uses it, what may be shown in every repr (dataclass reprs, `vars()`, `dataclasses.asdict`)."""

    def __new__(cls, text: str, shown: str) -> "Shown":
        made = super().__new__(cls, text)
        made.shown = shown
        return made

    def __repr__(self) -> str:
        return repr(self.shown)

    def __copy__(self) -> "Shown":
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Shown":
        return self


@dataclass(frozen=True)
class Setting:
    """One resolved setting: its value and where it came from.

    source: "argument" | "env" | "dotenv" | "config" | "kaggle" | "colab" | "default" | "unset";
    name: the variable, config field or secret name (or None); label: the same, said for people;
    problem: why the value found cannot be used (it still wins: a later source never stands in).
    """

    value: Any
    source: str
    name: Optional[str]
    label: str
    problem: Optional[str] = None

    def public(self) -> Dict[str, Any]:
        return {"source": self.source, "name": self.name, "label": self.label}


UNSET = Setting(None, "unset", None, "not set")


def _as_is(text: str) -> Any:
    return text


@dataclass(frozen=True)
class Spec:
    """One setting: its names, and the sources it may come from, in the README's order:
    an explicit argument, its environment variables (a .env fills in), config.json, the notebook
    secrets (secret settings only), then its default."""

    name: str                          # the attribute on Settings, the config.json field, the argument's name
    public_name: str                   # its name in the settings JSON the browser reads
    variables: Tuple[str, ...] = ()    # environment (and .env) variables, first found wins
    secret: bool = False               # masked everywhere, never sent to the browser, also read from notebook secrets
    # Text as found -> the value; raises ValueError("why, for people") when it cannot be used.
    parse: Callable[[str], Any] = _as_is
    # The settings resolved before this one -> its default (None: "unset").
    default: Optional[Callable[[Mapping[str, Setting]], Optional[Setting]]] = None
    # How its value may be shown to people (the settings JSON, messages); secrets are never shown.
    show: Callable[[Any], Any] = _as_is
