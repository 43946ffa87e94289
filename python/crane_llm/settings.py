"""Model settings: the API key, the model and the base_url, each resolved on its own, first found wins.

The seed's order, per field:
  1. an explicit argument (the magic's model name; a model set in the JupyterLab settings)
  2. CRANE_LLM_API_KEY, CRANE_LLM_MODEL, CRANE_LLM_BASE_URL
  3. OPENAI_API_KEY, OPENAI_BASE_URL
  4. ~/.crane_llm/config.json (written by `set_api_key`)
  5. on Kaggle and Colab, a notebook secret named CRANE_LLM_API_KEY or OPENAI_API_KEY
A `.env` file, the nearest one from the directory Jupyter started in upwards, is read first and
fills in only the variables the environment does not define. The key is never logged or printed:
`Settings` masks it in its repr and `public_json` leaves it out.

Cheap to import: nothing here imports openai or jupyter_server.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple
from urllib.parse import urlsplit

OPENAI_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-5"  # the paper's model; used only with OpenAI itself (no base_url)
ENV_NAMES = ("CRANE_LLM_API_KEY", "CRANE_LLM_MODEL", "CRANE_LLM_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL",
             "CRANE_LLM_CHECK_BUDGET")
SECRET_NAMES = ("CRANE_LLM_API_KEY", "OPENAI_API_KEY")
# Where "no base_url" sends requests. Only tests change it (to reach the local fake server through
# the Responses API); it is read from the real environment, never from .env or the config file.
OPENAI_URL_OVERRIDE = "CRANE_LLM_OPENAI_URL"


@dataclass(frozen=True)
class Setting:
    """One resolved field: its value and where it came from.

    source: "argument" | "env" | "dotenv" | "config" | "kaggle" | "colab" | "default" | "unset";
    name: the variable or secret name (or None); label: the same, said for people.
    """

    value: Optional[str]
    source: str
    name: Optional[str]
    label: str

    def public(self) -> Dict[str, Any]:
        return {"source": self.source, "name": self.name, "label": self.label}


_UNSET = Setting(None, "unset", None, "not set")


@dataclass(frozen=True)
class Settings:
    api_key: Setting
    model: Setting
    base_url: Setting

    @property
    def api_kind(self) -> str:
        """No base_url: the OpenAI Responses API. A base_url: Chat Completions there."""
        return "chat" if self.base_url.value else "responses"

    @property
    def endpoint(self) -> str:
        """Where requests go: the base_url, or OpenAI."""
        if self.base_url.value:
            return self.base_url.value
        return os.environ.get(OPENAI_URL_OVERRIDE) or OPENAI_URL

    @property
    def provider_host(self) -> str:
        return _host_of(self.base_url.value or OPENAI_URL)

    @property
    def key_required(self) -> bool:
        """A local server (Ollama and the like) needs no key."""
        return not is_local_url(self.base_url.value)

    def public_json(self) -> Dict[str, Any]:
        """What the browser may know: everything but the key."""
        return {
            "model": self.model.value,
            "baseUrl": self.base_url.value,
            "apiKind": self.api_kind,
            "providerHost": self.provider_host,
            "keyFound": bool(self.api_key.value),
            "keyRequired": self.key_required,
            "sources": {
                "model": self.model.public(),
                "baseUrl": self.base_url.public(),
                "apiKey": self.api_key.public(),
            },
        }

    def __repr__(self) -> str:
        key = "<set, from %s>" % self.api_key.label if self.api_key.value else "<not set>"
        return "Settings(model=%r, base_url=%r, api_key=%s)" % (self.model.value, self.base_url.value, key)


def _host_of(url: str) -> str:
    return urlsplit(url).netloc or url


def is_local_url(url: Optional[str]) -> bool:
    if not url:
        return False
    host = (urlsplit(url).hostname or "").lower()
    return host in ("localhost", "::1", "0.0.0.0") or host.startswith("127.") or host.endswith(".localhost")


def config_path(home: Optional[Path] = None) -> Path:
    return (home or Path.home()) / ".crane_llm" / "config.json"


def _read_config(path: Path) -> Dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def find_dotenv(start: Optional[str] = None) -> Optional[Path]:
    """The nearest `.env` in `start` (default: the working directory) or any directory above."""
    here = Path(start or os.getcwd()).resolve()
    for directory in [here, *here.parents]:
        candidate = directory / ".env"
        if candidate.is_file():
            return candidate
    return None


def _environment(cwd: Optional[str], environ: Optional[Mapping[str, str]]) -> Dict[str, Tuple[str, str, str]]:
    """Our variables: name -> (value, source, label); .env fills only what the environment lacks."""
    env = os.environ if environ is None else environ
    found: Dict[str, Tuple[str, str, str]] = {}
    for name in ENV_NAMES:
        if env.get(name):
            found[name] = (env[name], "env", "environment variable %s" % name)
    missing = [n for n in ENV_NAMES if n not in found]
    if missing:
        path = find_dotenv(cwd)
        if path is not None:
            from dotenv import dotenv_values

            values = dotenv_values(path)
            for name in missing:
                if values.get(name):
                    found[name] = (str(values[name]), "dotenv", "%s in %s" % (name, path))
    return found


def _kaggle_secret(name: str) -> Optional[str]:
    try:
        from kaggle_secrets import UserSecretsClient  # type: ignore
    except Exception:
        return None
    try:
        value = UserSecretsClient().get_secret(name)
    except Exception:  # missing, or not attached to this notebook: simply not found
        return None
    return value or None


def _colab_secret(name: str) -> Optional[str]:
    try:
        from google.colab import userdata  # type: ignore
    except Exception:
        return None
    try:
        value = userdata.get(name)
    except Exception:  # SecretNotFoundError, NotebookAccessError, or no Colab session
        return None
    return value or None


_SECRET_STORES: List[Tuple[str, str, Callable[[str], Optional[str]]]] = [
    ("kaggle", "Kaggle secret", _kaggle_secret),
    ("colab", "Colab secret", _colab_secret),
]


def resolve_settings(
    explicit_model: Optional[str] = None,
    cwd: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    home: Optional[Path] = None,
) -> Settings:
    """Resolve the key, the model and the base_url, each on its own, in the seed's order.

    cwd: where to start looking for `.env` (the directory Jupyter started in; default: the
    working directory). environ / home: for tests; default os.environ and the user's home.
    """
    env = _environment(cwd, environ)
    cfg_path = config_path(home)
    cfg = _read_config(cfg_path)
    cfg_label = str(cfg_path)

    def from_env(*names: str) -> Optional[Setting]:
        for name in names:
            if name in env:
                value, source, label = env[name]
                return Setting(value.strip(), source, name, label)
        return None

    def from_config(field: str) -> Optional[Setting]:
        value = cfg.get(field)
        if isinstance(value, str) and value.strip():
            return Setting(value.strip(), "config", field, cfg_label)
        return None

    def from_secrets() -> Optional[Setting]:
        for source, what, read in _SECRET_STORES:
            for name in SECRET_NAMES:
                value = read(name)
                if value:
                    return Setting(value.strip(), source, name, "%s %s" % (what, name))
        return None

    api_key = from_env("CRANE_LLM_API_KEY", "OPENAI_API_KEY") or from_config("api_key") or from_secrets() or _UNSET
    base_url = from_env("CRANE_LLM_BASE_URL", "OPENAI_BASE_URL") or from_config("base_url") or _UNSET
    model: Optional[Setting] = None
    if explicit_model and explicit_model.strip():
        model = Setting(explicit_model.strip(), "argument", None, "the argument")
    model = model or from_env("CRANE_LLM_MODEL") or from_config("model")
    if model is None:
        model = _UNSET if base_url.value else Setting(DEFAULT_MODEL, "default", None, "default (%s)" % DEFAULT_MODEL)
    return Settings(api_key=api_key, model=model, base_url=base_url)


@dataclass(frozen=True)
class CheckBudget:
    """The time budget of one check in the kernel, resolved like the other settings:
    an argument (`%%crane_llm --budget`, `crane-llm check --budget`), CRANE_LLM_CHECK_BUDGET
    (environment, then .env), `check_budget` in ~/.crane_llm/config.json, else 2 seconds.

    A value that is not a positive number of seconds is not used: `warning` says so, naming it
    and where it came from, and the next source down applies.
    """

    seconds: float
    setting: Setting
    warning: Optional[str] = None


CHECK_BUDGET_DEFAULT = 2.0
CHECK_BUDGET_MAX = 600.0


def parse_seconds(text: Any) -> Optional[float]:
    """A positive, finite number of seconds up to CHECK_BUDGET_MAX, or None."""
    if type(text) is bool:
        return None
    try:
        value = float(text.strip() if isinstance(text, str) else text)
    except (TypeError, ValueError):
        return None
    return value if 0 < value <= CHECK_BUDGET_MAX else None


def resolve_check_budget(
    explicit: Any = None,
    cwd: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    home: Optional[Path] = None,
) -> CheckBudget:
    env = _environment(cwd, environ)
    cfg_path = config_path(home)
    configured = _read_config(cfg_path).get("check_budget")
    candidates: List[Setting] = []
    if explicit is not None:
        candidates.append(Setting(str(explicit), "argument", None, "the argument"))
    if "CRANE_LLM_CHECK_BUDGET" in env:
        value, source, label = env["CRANE_LLM_CHECK_BUDGET"]
        candidates.append(Setting(value, source, "CRANE_LLM_CHECK_BUDGET", label))
    if configured is not None:
        candidates.append(Setting(str(configured), "config", "check_budget", "check_budget in %s" % cfg_path))
    warnings: List[str] = []
    for setting in candidates:
        seconds = parse_seconds(setting.value)
        if seconds is not None:
            return CheckBudget(seconds, setting, " ".join(warnings) or None)
        warnings.append("The check budget %r from %s is not a number of seconds between 0 and %g; it was not used."
                        % (str(setting.value)[:40], setting.label, CHECK_BUDGET_MAX))
    default = Setting(str(CHECK_BUDGET_DEFAULT), "default", None, "default (%g s)" % CHECK_BUDGET_DEFAULT)
    return CheckBudget(CHECK_BUDGET_DEFAULT, default, " ".join(warnings) or None)


def _write_private(path: Path, data: Dict[str, Any]) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.chmod(path.parent, 0o700)
    except OSError:
        pass
    tmp = path.with_name(path.name + ".tmp")
    # Created 0600 from the start, so the key is never readable by others, not even for a moment.
    fd = os.open(str(tmp), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def set_api_key(
    key: Optional[str] = None,
    base_url: Optional[str] = None,
    model: Optional[str] = None,
    *,
    home: Optional[Path] = None,
) -> None:
    """Remember the model settings in ~/.crane_llm/config.json, across sessions.

    crane_llm.set_api_key("sk-...")
    crane_llm.set_api_key("sk-or-...", base_url="https://openrouter.ai/api/v1", model="anthropic/claude-sonnet-4.5")
    crane_llm.set_api_key(base_url="http://localhost:11434/v1", model="qwen2.5-coder:32b")   # local: no key

    Only the fields given change; the others are kept. The file is readable by you alone (0600, in
    a 0700 directory). Prints where it wrote, never the key. Environment variables and .env still
    take precedence over the file, as the resolution order says; it prints a note when they do.
    """
    updates = {
        name: value.strip()
        for name, value in (("api_key", key), ("base_url", base_url), ("model", model))
        if isinstance(value, str) and value.strip()
    }
    path = config_path(home)
    if not updates:
        print('CRANE-LLM: nothing to save. Give a key, a base_url or a model, e.g. crane_llm.set_api_key("sk-...").')
        return
    data = _read_config(path)
    data.update(updates)
    _write_private(path, data)
    names = {"api_key": "the API key", "base_url": "the base_url", "model": "the model"}
    said = [names[n] for n in ("api_key", "base_url", "model") if n in updates]
    listing = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    print("CRANE-LLM: saved %s to %s" % (listing, path))
    settings = resolve_settings(home=home)
    for field, setting in (("api_key", settings.api_key), ("base_url", settings.base_url), ("model", settings.model)):
        if field in updates and setting.source in ("env", "dotenv"):
            print("Note: %s takes precedence over the file for %s." % (setting.label, names[field]))
    if settings.key_required and not settings.api_key.value:
        print("Note: no API key is configured yet for %s." % settings.provider_host)
