"""One settings type for the server extension, the magic and the CLI; the key masked in every repr;
base_urls that cannot be used said plainly; credentials in a base_url never shown."""

import copy
import dataclasses
import json
import logging

import pytest

import crane_llm.cli.model as cli_model
import crane_llm.magic.wiring as wiring
import crane_llm.server.handlers as handlers
from crane_llm import settings as settings_module
from crane_llm.provider import provider_host
from crane_llm.settings import MASK, SPECS, Secret, Setting, Settings, resolve_settings

KEY = "sk-test-0123456789abcdef"


def resolve(tmp_path, env, model=None):
    return resolve_settings(explicit_model=model, cwd=str(tmp_path), environ=env, home=tmp_path / "home")


def test_the_server_the_magic_and_the_cli_resolve_through_one_function():
    assert wiring.resolve_settings is settings_module.resolve_settings
    assert cli_model.resolve_settings is settings_module.resolve_settings
    assert handlers.resolve_settings is settings_module.resolve_settings
    assert cli_model.Settings is Settings


def test_every_entry_of_the_table_is_resolved_and_reported(tmp_path):
    s = resolve(tmp_path, {})
    assert set(s.values) == {spec.name for spec in SPECS}
    public = s.public_json()
    assert set(public["sources"]) == {spec.public_name for spec in SPECS}
    for spec in SPECS:
        assert (spec.public_name in public) != spec.secret


def test_the_key_is_masked_in_every_repr(tmp_path):
    s = resolve(tmp_path, {"CRANE_LLM_API_KEY": KEY})
    key = s.api_key
    assert key.value == KEY and isinstance(key.value, Secret)  # what the HTTP client sends
    shown = [repr(s), str(s), repr(key), str(key), repr(vars(s)), repr(vars(key)), repr(dataclasses.asdict(s)),
             repr(dataclasses.asdict(key)), repr(copy.deepcopy(s)), repr(copy.copy(key)), "%r" % (key.value,),
             repr(dataclasses.astuple(key)), repr(list(s.values.values()))]
    for text in shown:
        assert KEY not in text, text
    assert MASK in repr(key) and MASK in repr(dataclasses.asdict(key))
    assert f"Bearer {key.value}" == "Bearer " + KEY  # formatting for the request stays the real text
    # A log record of the settings holds no key either.
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "settings %r %s", (s, vars(key)), None)
    assert KEY not in record.getMessage()


def test_a_key_from_a_secret_store_or_the_config_file_is_a_secret_too(tmp_path):
    (tmp_path / "home" / ".crane_llm").mkdir(parents=True)
    (tmp_path / "home" / ".crane_llm" / "config.json").write_text(json.dumps({"api_key": KEY}))
    key = resolve(tmp_path, {}).api_key
    assert key.source == "config" and isinstance(key.value, Secret) and KEY not in repr(key)


@pytest.mark.parametrize("url, why", [
    ("localhost:11434/v1", "does not start with http:// or https://"),
    ("api.groq.com/openai/v1", "does not start with http:// or https://"),
    ("ftp://files.example.com/v1", "not ftp://"),
    ("file:///etc/passwd", "not file://"),
    ("http://local host:11434/v1", "contains a space"),
    ("http://[::1/v1", "not a valid IPv6 address"),
    ("http://[fe80::zz]:8000/v1", "not a valid IPv6 address"),
    ("http://[1.2.3.4]/v1", "not a valid IPv6 address"),
    ("http://localhost:99999/v1", "port is not a number"),
    ("http://[::1]:99999/v1", "port is not a number"),
    ("http:///v1", "names no host"),
])
def test_a_base_url_that_cannot_be_used_is_said_with_its_setting_and_source(tmp_path, url, why):
    s = resolve(tmp_path, {"CRANE_LLM_BASE_URL": url, "CRANE_LLM_API_KEY": KEY})
    assert s.problem is not None and why in s.problem
    assert s.problem.startswith('The base_url "') and "from environment variable CRANE_LLM_BASE_URL" in s.problem
    # It still wins: the key is never sent to OpenAI (or a config file's base_url) in its place.
    assert s.base_url.source == "env" and s.api_kind == "chat"
    s.public_json(), repr(s), s.provider_host, s.key_required  # none of these raise


def test_a_usable_base_url_has_no_problem(tmp_path):
    for url in ("http://localhost:11434/v1", "https://openrouter.ai/api/v1", "http://[::1]:8000/v1", " HTTPS://x.org ",
                "http://[fe80::1%25eth0]:8000/v1"):
        assert resolve(tmp_path, {"OPENAI_BASE_URL": url}).problem is None, url


def test_credentials_in_a_base_url_are_never_shown(tmp_path):
    url = "http://user:hunter2-secret@proxy.example.com:8080/v1"
    s = resolve(tmp_path, {"CRANE_LLM_BASE_URL": url})
    assert s.base_url.value == url and s.endpoint == url  # requests still carry them
    public = s.public_json()
    assert public["baseUrl"] == "http://***@proxy.example.com:8080/v1"
    assert public["providerHost"] == "proxy.example.com:8080" == s.provider_host == provider_host(url)
    assert "hunter2" not in json.dumps(public) and "hunter2" not in repr(s)
    bad = resolve(tmp_path, {"CRANE_LLM_BASE_URL": "ftp://user:hunter2-secret@host/v1"})
    assert "hunter2" not in bad.problem and "ftp://***@host/v1" in bad.problem
    noscheme = resolve(tmp_path, {"CRANE_LLM_BASE_URL": "user:hunter2-secret@host/v1"})
    assert "hunter2" not in noscheme.problem


def test_a_setting_is_a_plain_record(tmp_path):
    s = resolve(tmp_path, {"CRANE_LLM_MODEL": "m"})
    assert s.model == Setting("m", "env", "CRANE_LLM_MODEL", "environment variable CRANE_LLM_MODEL")
    with pytest.raises(AttributeError):
        s.no_such_setting


@pytest.mark.parametrize("url", ["http://user:hunter2-secret@proxy.example.com:8080/v1",
                                 "//user:hunter2-secret@host/v1", "http://user:hunter2-secret@[::1",
                                 "https://user:hunter2-secret@host/v1?next=@x",
                                 # a secret holding a `/`, `#` or `?`, or a scheme with one slash
                                 "http://user:se/hunter2secret@example.com/v1", "http://user:pa#hunter2secret@example.com/v1",
                                 "http://user:pa?hunter2secret@example.com/v1", "http:/user:hunter2secret@example.com/v1"])
def test_credentials_in_a_base_url_are_in_no_repr_either(tmp_path, url):
    """Like the key: `vars()`, `dataclasses.asdict`, copies and log records of the settings show the
    base_url without its credentials, while the value itself stays the full text requests need."""
    s = resolve(tmp_path, {"CRANE_LLM_BASE_URL": url})
    base = s.base_url
    assert str(base.value) == url and base.value == url
    shown = [repr(s), repr(vars(s)), repr(base), repr(vars(base)), repr(dataclasses.asdict(base)),
             repr(copy.deepcopy(s)), repr(list(s.values.values())), str(s.problem), json.dumps(s.public_json())]
    for text in shown:
        assert "hunter2" not in text, text
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "settings %r", (vars(base),), None)
    assert "hunter2" not in record.getMessage()
