"""The api setting (auto | responses | chat) and the output limit: resolved like the other settings,
said with their source, and obeyed by the model call (against the real local server)."""

import json

import pytest

import crane_llm
from crane_llm.prompt import build_prompt
from crane_llm.provider import call_model, settings_call_args
from crane_llm.settings import ENV_NAMES, resolve_settings
from crane_llm_testing.fake_openai import verdict_text

PROMPT = build_prompt([], None, "x + 1")
CRASH = verdict_text(True, "x is not defined.", "NameError", 1, ["x"])


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return h


def resolve(home, env=None, **arguments):
    return resolve_settings(environ=env or {}, home=home, cwd=str(home), arguments=arguments or None)


def test_defaults_follow_the_readme_rule(home):
    plain = resolve(home)
    assert (plain.api.value, plain.api.source, plain.api_kind) == ("auto", "default", "responses")
    assert (plain.max_output_tokens.value, plain.max_output_tokens.label) == (8000, "default (8,000)")
    local = resolve(home, {"CRANE_LLM_BASE_URL": "http://127.0.0.1:8080/v1"})
    assert local.api_kind == "chat"


@pytest.mark.parametrize("text,kind", [("responses", "responses"), ("Chat", "chat"), (" auto ", "chat")])
def test_the_api_variable_chooses_the_api_behind_a_base_url(home, text, kind):
    s = resolve(home, {"CRANE_LLM_BASE_URL": "http://127.0.0.1:4000/v1", "CRANE_LLM_API": text})
    assert s.api_kind == kind
    assert s.public_json()["sources"]["api"]["name"] == "CRANE_LLM_API"


def test_order_argument_then_variable_then_config(home):
    crane_llm.set_api_key(api="chat", max_output_tokens=300)
    saved = json.loads((home / ".crane_llm" / "config.json").read_text())
    assert saved == {"api": "chat", "max_output_tokens": 300}
    from_file = resolve(home)
    assert (from_file.api.source, from_file.api_kind, from_file.max_output_tokens.value) == ("config", "chat", 300)
    from_env = resolve(home, {"CRANE_LLM_API": "responses", "CRANE_LLM_MAX_OUTPUT_TOKENS": "1200"})
    assert (from_env.api.source, from_env.api_kind, from_env.max_output_tokens.value) == ("env", "responses", 1200)
    from_argument = resolve(home, {"CRANE_LLM_API": "responses"}, api="chat")
    assert (from_argument.api.source, from_argument.api_kind) == ("argument", "chat")


@pytest.mark.parametrize(
    "env,needle",
    [
        ({"CRANE_LLM_API": "fast"}, 'The api "fast" from environment variable CRANE_LLM_API cannot be used: it must be "auto", "responses" or "chat".'),
        ({"CRANE_LLM_MAX_OUTPUT_TOKENS": "lots"}, "it must be a whole number of tokens, such as 8000"),
        ({"CRANE_LLM_MAX_OUTPUT_TOKENS": "0"}, "it must be at least 1"),
    ],
)
def test_unusable_values_are_a_message_naming_the_setting_and_its_source(home, env, needle):
    assert needle in resolve(home, env).problem


def test_set_api_key_says_what_it_saved_and_what_wins(home, monkeypatch, capsys):
    monkeypatch.setenv("CRANE_LLM_API", "responses")
    crane_llm.set_api_key(api="chat")
    out = capsys.readouterr().out
    assert "saved the api to" in out
    assert "Note: environment variable CRANE_LLM_API takes precedence over the file for the api." in out


def test_api_responses_behind_a_base_url_calls_the_responses_path_with_the_limit(home, fake_openai):
    s = resolve(home, {"CRANE_LLM_BASE_URL": fake_openai.base_url, "CRANE_LLM_MODEL": "m",
                       "CRANE_LLM_API": "responses", "CRANE_LLM_MAX_OUTPUT_TOKENS": "700"})
    fake_openai.script({"text": CRASH})
    result = call_model(PROMPT, model="m", max_retries=0, **settings_call_args(s))
    assert result["parsed"]["kind"] == "predicted-crash"
    [req] = fake_openai.requests()
    assert req["path"] == "/v1/responses" and req["body"]["max_output_tokens"] == 700


def test_api_chat_without_a_base_url_calls_chat_completions(home, fake_openai, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_OPENAI_URL", fake_openai.base_url)  # where "OpenAI" is, in tests
    s = resolve(home, {"CRANE_LLM_API_KEY": "sk-test", "CRANE_LLM_API": "chat"})
    fake_openai.script({"text": CRASH})
    call_model(PROMPT, model="gpt-5", max_retries=0, **settings_call_args(s))
    [req] = fake_openai.requests()
    assert req["path"] == "/v1/chat/completions" and req["body"]["max_completion_tokens"] == 8000
