"""Settings resolution: the README's order per field ("Set up a model"), the .env rule, Kaggle and Colab secrets, set_api_key."""

import json
import os
import stat
import sys
import types

import pytest

import crane_llm
from crane_llm.settings import resolve_settings, set_api_key

KEY = "sk-test-0123456789abcdef"


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    for name in ("CRANE_LLM_API_KEY", "CRANE_LLM_MODEL", "CRANE_LLM_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return h


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "work" / "project" / "notebooks"
    p.mkdir(parents=True)
    return p


def write_config(home, **fields):
    (home / ".crane_llm").mkdir(exist_ok=True)
    (home / ".crane_llm" / "config.json").write_text(json.dumps(fields))


def resolve(project, home, env=None, model=None):
    return resolve_settings(explicit_model=model, cwd=str(project), environ=env or {}, home=home)


# -- order ----------------------------------------------------------------------------------------
def test_nothing_configured(project, home):
    s = resolve(project, home)
    assert s.api_key.value is None and s.api_key.source == "unset"
    assert (s.model.value, s.model.source) == ("gpt-5", "default")
    assert s.api_kind == "responses" and s.provider_host == "api.openai.com" and s.key_required


def test_explicit_model_beats_everything(project, home):
    write_config(home, model="from-config")
    s = resolve(project, home, {"CRANE_LLM_MODEL": "from-env"}, model="gpt-5-mini")
    assert (s.model.value, s.model.source) == ("gpt-5-mini", "argument")


def test_crane_variables_beat_provider_variables(project, home):
    env = {
        "CRANE_LLM_API_KEY": "k-crane",
        "OPENAI_API_KEY": "k-openai",
        "CRANE_LLM_BASE_URL": "http://a/v1",
        "OPENAI_BASE_URL": "http://b/v1",
    }
    s = resolve(project, home, env)
    assert (s.api_key.value, s.api_key.name) == ("k-crane", "CRANE_LLM_API_KEY")
    assert (s.base_url.value, s.base_url.name) == ("http://a/v1", "CRANE_LLM_BASE_URL")


def test_provider_variables_beat_the_config_file(project, home):
    write_config(home, api_key="k-config", base_url="http://config/v1", model="m-config")
    s = resolve(project, home, {"OPENAI_API_KEY": "k-openai", "OPENAI_BASE_URL": "http://openai-env/v1"})
    assert (s.api_key.value, s.api_key.source) == ("k-openai", "env")
    assert s.base_url.value == "http://openai-env/v1"
    assert (s.model.value, s.model.source) == ("m-config", "config")


def test_each_field_resolves_on_its_own(project, home):
    write_config(home, model="m-config", base_url="https://openrouter.ai/api/v1")
    s = resolve(project, home, {"CRANE_LLM_API_KEY": KEY})
    assert s.api_key.source == "env" and s.model.source == "config" and s.base_url.source == "config"
    assert s.api_kind == "chat" and s.provider_host == "openrouter.ai"


def test_base_url_without_model_has_no_default_model(project, home):
    s = resolve(project, home, {"CRANE_LLM_BASE_URL": "http://localhost:11434/v1"})
    assert s.model.value is None and not s.key_required


def test_empty_values_do_not_count(project, home):
    write_config(home, api_key="k-config", model="  ")
    s = resolve(project, home, {"CRANE_LLM_API_KEY": "", "OPENAI_API_KEY": ""})
    assert s.api_key.value == "k-config" and s.model.source == "default"


def test_a_broken_config_file_is_ignored(project, home):
    (home / ".crane_llm").mkdir()
    (home / ".crane_llm" / "config.json").write_text("{not json")
    assert resolve(project, home).api_key.value is None


# -- .env -----------------------------------------------------------------------------------------
def test_dotenv_from_a_directory_above_fills_missing_variables(project, home):
    (project.parent / ".env").write_text("CRANE_LLM_API_KEY=k-dotenv\nCRANE_LLM_MODEL=m-dotenv\n")
    s = resolve(project, home, {"CRANE_LLM_MODEL": "m-env"})
    assert (s.api_key.value, s.api_key.source) == ("k-dotenv", "dotenv")
    assert str(project.parent / ".env") in s.api_key.label
    assert (s.model.value, s.model.source) == ("m-env", "env")  # the environment wins over .env


def test_the_nearest_dotenv_wins(project, home):
    (project.parent.parent / ".env").write_text("CRANE_LLM_MODEL=far\n")
    (project / ".env").write_text("CRANE_LLM_MODEL=near\n")
    assert resolve(project, home).model.value == "near"


def test_dotenv_is_not_a_step_of_its_own(project, home):
    # .env fills OPENAI_API_KEY, which still ranks below CRANE_LLM_API_KEY from the environment,
    # and above the config file.
    write_config(home, api_key="k-config")
    (project / ".env").write_text("OPENAI_API_KEY=k-dotenv-openai\n")
    assert resolve(project, home, {"CRANE_LLM_API_KEY": "k-env"}).api_key.value == "k-env"
    assert resolve(project, home).api_key.value == "k-dotenv-openai"


def test_dotenv_does_not_touch_os_environ(project, home, monkeypatch):
    (project / ".env").write_text("CRANE_LLM_MODEL=m-dotenv\n")
    monkeypatch.chdir(project)
    assert resolve_settings().model.value == "m-dotenv"
    assert "CRANE_LLM_MODEL" not in os.environ


# -- Kaggle and Colab -----------------------------------------------------------------------------
class _BackendError(Exception):
    pass


def install_kaggle(monkeypatch, secrets, attached):
    """Like kaggle_secrets: a secret not attached to the notebook, or missing, raises."""
    mod = types.ModuleType("kaggle_secrets")

    class UserSecretsClient:
        def get_secret(self, label):
            if label not in secrets or label not in attached:
                raise _BackendError(
                    "Unexpected response from the service. Response: {'errors': ['No user secrets exist for kernel id 1 and label %s']}"
                    % label
                )
            return secrets[label]

    mod.UserSecretsClient = UserSecretsClient
    monkeypatch.setitem(sys.modules, "kaggle_secrets", mod)


def install_colab(monkeypatch, secrets, access):
    """Like google.colab.userdata: SecretNotFoundError, NotebookAccessError."""
    userdata = types.ModuleType("google.colab.userdata")

    class SecretNotFoundError(Exception):
        pass

    class NotebookAccessError(Exception):
        pass

    def get(key):
        if key not in secrets:
            raise SecretNotFoundError("Secret %s does not exist." % key)
        if not access.get(key, False):
            raise NotebookAccessError("Notebook does not have access to secret %s" % key)
        return secrets[key]

    userdata.get, userdata.SecretNotFoundError, userdata.NotebookAccessError = (
        get,
        SecretNotFoundError,
        NotebookAccessError,
    )
    colab = types.ModuleType("google.colab")
    colab.userdata = userdata
    google = sys.modules.get("google") or types.ModuleType("google")
    monkeypatch.setitem(sys.modules, "google", google)
    monkeypatch.setattr(google, "colab", colab, raising=False)
    monkeypatch.setitem(sys.modules, "google.colab", colab)
    monkeypatch.setitem(sys.modules, "google.colab.userdata", userdata)


def test_kaggle_secret_is_the_last_resort(project, home, monkeypatch):
    install_kaggle(monkeypatch, {"CRANE_LLM_API_KEY": "k-kaggle"}, attached={"CRANE_LLM_API_KEY"})
    s = resolve(project, home)
    assert (s.api_key.value, s.api_key.source, s.api_key.name) == ("k-kaggle", "kaggle", "CRANE_LLM_API_KEY")
    write_config(home, api_key="k-config")
    assert resolve(project, home).api_key.value == "k-config"


def test_kaggle_secret_not_attached_or_missing_is_not_found(project, home, monkeypatch):
    install_kaggle(
        monkeypatch, {"CRANE_LLM_API_KEY": "k-kaggle", "OPENAI_API_KEY": "k-openai"}, attached={"OPENAI_API_KEY"}
    )
    assert resolve(project, home).api_key.value == "k-openai"
    install_kaggle(monkeypatch, {"CRANE_LLM_API_KEY": "k-kaggle"}, attached=set())
    assert resolve(project, home).api_key.source == "unset"


def test_colab_secret_with_and_without_notebook_access(project, home, monkeypatch):
    install_colab(monkeypatch, {"CRANE_LLM_API_KEY": "k-colab"}, access={"CRANE_LLM_API_KEY": True})
    s = resolve(project, home)
    assert (s.api_key.value, s.api_key.source, s.api_key.label) == (
        "k-colab",
        "colab",
        "Colab secret CRANE_LLM_API_KEY",
    )
    install_colab(
        monkeypatch, {"CRANE_LLM_API_KEY": "k-colab", "OPENAI_API_KEY": "k-o"}, access={"OPENAI_API_KEY": True}
    )
    assert resolve(project, home).api_key.value == "k-o"
    install_colab(monkeypatch, {"CRANE_LLM_API_KEY": "k-colab"}, access={})
    assert resolve(project, home).api_key.value is None


def test_secrets_are_not_read_when_a_key_was_found_earlier(project, home, monkeypatch):
    calls = []
    mod = types.ModuleType("kaggle_secrets")

    class UserSecretsClient:
        def get_secret(self, label):
            calls.append(label)
            return "k-kaggle"

    mod.UserSecretsClient = UserSecretsClient
    monkeypatch.setitem(sys.modules, "kaggle_secrets", mod)
    assert resolve(project, home, {"OPENAI_API_KEY": "k-env"}).api_key.value == "k-env"
    assert calls == []


# -- what may be shown ----------------------------------------------------------------------------
def test_public_json_and_repr_never_hold_the_key(project, home):
    s = resolve(
        project,
        home,
        {"CRANE_LLM_API_KEY": KEY, "CRANE_LLM_BASE_URL": "https://openrouter.ai/api/v1", "CRANE_LLM_MODEL": "m"},
    )
    public = s.public_json()
    assert KEY not in json.dumps(public) and KEY not in repr(s) and KEY not in str(s)
    assert public == {
        "model": "m",
        "baseUrl": "https://openrouter.ai/api/v1",
        "api": "auto",
        "maxOutputTokens": 8000,
        "apiKind": "chat",
        "providerHost": "openrouter.ai",
        "providerLocal": False,
        "keyFound": True,
        "keyRequired": True,
        "includeValues": True,
        "policy": None,
        "sources": {
            "includeValues": {"source": "default", "name": None, "label": "default (on)"},
            "policy": {"source": "unset", "name": None, "label": "not set"},
            "model": {"source": "env", "name": "CRANE_LLM_MODEL", "label": "environment variable CRANE_LLM_MODEL"},
            "baseUrl": {
                "source": "env",
                "name": "CRANE_LLM_BASE_URL",
                "label": "environment variable CRANE_LLM_BASE_URL",
            },
            "apiKey": {"source": "env", "name": "CRANE_LLM_API_KEY", "label": "environment variable CRANE_LLM_API_KEY"},
            "api": {"source": "default", "name": None, "label": "default (auto)"},
            "maxOutputTokens": {"source": "default", "name": None, "label": "default (8,000)"},
        },
    }


# -- set_api_key ----------------------------------------------------------------------------------
def test_set_api_key_writes_privately_and_never_echoes_the_key(home, capsys):
    crane_llm.set_api_key(KEY)
    out = capsys.readouterr().out
    path = home / ".crane_llm" / "config.json"
    assert str(path) in out and KEY not in out
    assert json.loads(path.read_text()) == {"api_key": KEY}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_set_api_key_merges(home, capsys, tmp_path):
    crane_llm.set_api_key(KEY)
    crane_llm.set_api_key(base_url="https://openrouter.ai/api/v1", model="anthropic/claude-sonnet-4.5")
    data = json.loads((home / ".crane_llm" / "config.json").read_text())
    assert data == {"api_key": KEY, "base_url": "https://openrouter.ai/api/v1", "model": "anthropic/claude-sonnet-4.5"}
    s = resolve_settings(cwd=str(tmp_path), environ={}, home=home)
    assert (s.api_key.source, s.base_url.source, s.model.source) == ("config", "config", "config")
    assert KEY not in capsys.readouterr().out


def test_set_api_key_local_base_url_needs_no_key(home, capsys, tmp_path):
    crane_llm.set_api_key(base_url="http://localhost:11434/v1", model="qwen2.5-coder:32b")
    out = capsys.readouterr().out
    assert "no API key" not in out
    s = resolve_settings(cwd=str(tmp_path), environ={}, home=home)
    assert s.api_kind == "chat" and not s.key_required and s.api_key.value is None


def test_set_api_key_remote_base_url_without_key_says_so(home, capsys):
    crane_llm.set_api_key(base_url="https://api.groq.com/openai/v1", model="qwen/qwen3-32b")
    assert "no API key is configured yet for api.groq.com" in capsys.readouterr().out


def test_set_api_key_notes_an_environment_variable_that_takes_precedence(home, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k-env")
    set_api_key(KEY)
    out = capsys.readouterr().out
    assert "environment variable OPENAI_API_KEY takes precedence" in out and "k-env" not in out


def test_set_api_key_with_nothing_writes_nothing(home, capsys):
    set_api_key()
    assert "nothing to save" in capsys.readouterr().out
    assert not (home / ".crane_llm").exists()


def test_importing_crane_llm_stays_cheap():
    import subprocess

    code = "import sys, crane_llm; print(sorted(m for m in ('openai', 'jupyter_server', 'dotenv', 'tornado') if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.dirname(crane_llm.__file__)),
    )
    assert out.stdout.strip() == "[]"


# -- the trust settings ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("0", False), ("off", False), ("False", False), ("1", True), ("yes", True)])
def test_include_values_from_the_environment(project, home, text, value):
    s = resolve_settings(None, str(project), {"CRANE_LLM_INCLUDE_VALUES": text}, home)
    assert s.include_values.value is value and s.problem is None


def test_include_values_from_config_json_and_a_bad_value_is_a_clear_problem(project, home):
    (home / ".crane_llm").mkdir()
    (home / ".crane_llm" / "config.json").write_text('{"include_values": false}')
    assert resolve_settings(None, str(project), {}, home).include_values.value is False
    s = resolve_settings(None, str(project), {"CRANE_LLM_INCLUDE_VALUES": "maybe"}, home)
    assert "CRANE_LLM_INCLUDE_VALUES" in s.problem and "maybe" in s.problem


@pytest.mark.parametrize("level", ["no-llm", "no-runinfo", "no-values"])
def test_the_policy_levels(project, home, level):
    s = resolve_settings(None, str(project), {"CRANE_LLM_POLICY": level}, home)
    assert s.policy.value == level and s.public_json()["policy"] == level and s.problem is None


def test_a_policy_it_cannot_read_stops_every_model_call(project, home):
    s = resolve_settings(None, str(project), {"CRANE_LLM_POLICY": "no-vlaues"}, home)
    assert "nothing is sent to any model" in s.problem
