"""Resolving the table of settings: each setting on its own, first source found wins.

The order per setting (README, "Set up a model"): an explicit argument; its CRANE_LLM_* variable,
then the provider's OPENAI_* one (a `.env` file, the nearest one from the directory Jupyter started
in upwards, fills in only the variables the environment lacks); ~/.crane_llm/config.json; on Kaggle
and Colab, a notebook secret (the key only); the default.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .records import UNSET, Secret, Setting, Shown, Spec
from .sources import SECRET_STORES, ConfigUnreadable, config_path, environment, read_config
from .table import KERNEL_SPECS, SPECS
from .urls import OPENAI_URL, host_of, is_local_url

ENV_NAMES: Tuple[str, ...] = tuple(name for spec in SPECS + KERNEL_SPECS for name in spec.variables)
SECRET_NAMES: Tuple[str, ...] = tuple(name for spec in SPECS if spec.secret for name in spec.variables)
# Where "no base_url" sends requests. Only tests change it (to reach the local fake server through
# the Responses API); it is read from the real environment, never from .env or the config file.
OPENAI_URL_OVERRIDE = "CRANE_LLM_OPENAI_URL"


@dataclass(frozen=True, repr=False)
class Settings:
    """The resolved settings, one Setting per entry of the table, read as attributes
    (`settings.model.value`, `settings.api_key.source`); the key is masked in every repr.

    warnings: files that could not be read (a broken config.json, a .env that is not UTF-8).
    """

    values: Dict[str, Setting]
    warnings: Tuple[str, ...] = field(default=())

    def __getattr__(self, name: str) -> Setting:
        if name.startswith("__") or name == "values":
            raise AttributeError(name)
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError("no setting named %r" % name) from None

    @property
    def api_kind(self) -> str:
        """The api setting when it names one; auto: no base_url, the OpenAI Responses API, and a
        base_url, Chat Completions there."""
        if self.api.value in ("responses", "chat"):
            return self.api.value
        return "chat" if self.base_url.value else "responses"

    @property
    def endpoint(self) -> str:
        """Where requests go: the base_url, or OpenAI."""
        if self.base_url.value:
            return self.base_url.value
        return os.environ.get(OPENAI_URL_OVERRIDE) or OPENAI_URL

    @property
    def provider_host(self) -> str:
        """Host and port of the provider, for messages: never the credentials a base_url may hold."""
        return host_of(self.base_url.value)

    @property
    def provider_local(self) -> bool:
        """Requests stay on this machine (localhost, 127.x, ::1, a unix socket): "Ask before sending" says so."""
        return is_local_url(self.endpoint)

    @property
    def key_required(self) -> bool:
        """A local server (Ollama and the like) needs no key."""
        return not is_local_url(self.base_url.value)

    @property
    def problem(self) -> Optional[str]:
        """Why no model can be called with these settings as found, naming the setting and its source."""
        for setting in self.values.values():
            if setting.problem:
                return setting.problem
        return None

    def public_json(self) -> Dict[str, Any]:
        """What the browser may know: every setting but the key, as it may be shown."""
        out: Dict[str, Any] = {}
        for spec in SPECS:
            if not spec.secret:
                value = self.values[spec.name].value
                out[spec.public_name] = None if value is None else spec.show(value)
        out.update({
            "apiKind": self.api_kind,
            "providerHost": self.provider_host,
            "providerLocal": self.provider_local,
            "keyFound": bool(self.api_key.value),
            "keyRequired": self.key_required,
            "sources": {spec.public_name: self.values[spec.name].public() for spec in SPECS},
        })
        if self.warnings:  # files that could not be read: the sidebar names them
            out["warnings"] = list(self.warnings)
        return out

    def __repr__(self) -> str:
        shown = []
        for spec in SPECS:
            setting = self.values[spec.name]
            if spec.secret:
                text = "<set, from %s>" % setting.label if setting.value else "<not set>"
            else:
                text = repr(None if setting.value is None else spec.show(setting.value))
            shown.append("%s=%s" % (spec.name, text))
        return "Settings(%s)" % ", ".join(shown)


def _found(spec: Spec, raw: Any, source: str, name: Optional[str], label: str) -> Optional[Setting]:
    """A setting from one source, or None when that source leaves it empty."""
    text = raw.strip() if isinstance(raw, str) else None if raw is None else json.dumps(raw)
    if not text:
        return None
    problem = None
    try:
        value = spec.parse(text)
    except ValueError as why:
        value = text
        what = "The %s" % spec.name if spec.secret else 'The %s "%s"' % (spec.name, spec.show(text))
        problem = "%s from %s cannot be used: %s." % (what, label, str(why).rstrip("."))
    if spec.secret and isinstance(value, str):
        value = Secret(value)
    elif type(value) is str and spec.show(value) != value:
        value = Shown(value, spec.show(value))  # (a base_url's credentials)
    return Setting(value, source, name, label, problem)


def resolve_settings(
    explicit_model: Optional[str] = None,
    cwd: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    home: Optional[Path] = None,
    arguments: Optional[Mapping[str, Any]] = None,
) -> Settings:
    """Resolve every setting of the table, each on its own, in the README's order.

    explicit_model: the model named on the magic line or in JupyterLab's settings (an argument);
    arguments: explicit values of other settings, by name. cwd: where to start looking for `.env`
    (the directory Jupyter started in; default: the working directory). environ / home: for tests;
    default os.environ and the user's home.
    """
    given: Dict[str, Any] = dict(arguments or {})
    if explicit_model is not None:
        given["model"] = explicit_model
    resolved, warnings = resolve_specs(SPECS, given, cwd, environ, home)
    return Settings(resolved, tuple(warnings))


def resolve_specs(
    specs: Tuple[Spec, ...],
    given: Mapping[str, Any],
    cwd: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    home: Optional[Path] = None,
) -> Tuple[Dict[str, Setting], List[str]]:
    """Each spec's Setting, first source found wins, and the warnings about unreadable files."""
    warnings: List[str] = []
    env = environment(tuple(name for spec in specs for name in spec.variables), cwd, environ, warnings)
    cfg_path = config_path(home)
    try:
        cfg = read_config(cfg_path)
    except ConfigUnreadable as why:
        warnings.append(str(why))
        cfg = {}

    def from_secrets(spec: Spec) -> Optional[Setting]:
        for source, what, read in SECRET_STORES:
            for name in spec.variables:
                setting = _found(spec, read(name), source, name, "%s %s" % (what, name))
                if setting:
                    return setting
        return None

    resolved: Dict[str, Setting] = {}
    for spec in specs:
        setting = _found(spec, given.get(spec.name), "argument", None, "the argument")
        for name in spec.variables:
            if setting is None and name in env:
                value, source, label = env[name]
                setting = _found(spec, value, source, name, label)
        if setting is None:
            setting = _found(spec, cfg.get(spec.name), "config", spec.name, str(cfg_path))
        if setting is None and spec.secret:
            setting = from_secrets(spec)
        if setting is None and spec.default is not None:
            setting = spec.default(resolved)
        resolved[spec.name] = setting or UNSET
    return resolved, warnings
