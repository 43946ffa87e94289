"""The kernel's model call (the magic's path) against the real local OpenAI-compatible server."""

import json
import time

import pytest

from crane_llm.prompt import build_prompt
from crane_llm.cli.model import ask_model
from crane_llm.provider import call_model
from crane_llm.settings import resolve_settings
from crane_llm_testing.fake_openai import verdict_text

from .golden import FIXTURES

FIXTURE = json.loads((FIXTURES / "prompt" / "junobench-nbspecific-1-runinfo.json").read_text(encoding="utf-8"))
INPUT = FIXTURE["input"]
PROMPT = build_prompt(INPUT["executed"], INPUT["runtimeInfoText"], INPUT["target"], INPUT["budgetTokens"], INPUT["style"])
CRASH = verdict_text(True, "tf_idf is never defined.", "NameError", 1, ["tf_idf"])


def call(fake, api_kind, **kw):
    args = dict(
        model="gpt-5",
        api_kind=api_kind,
        base_url=fake.base_url,
        api_key="sk-test-key",
        max_retries=1,
        host="api.example.test",
    )
    args.update(kw)
    return call_model(PROMPT, **args)


@pytest.mark.parametrize(
    "api_kind,path,golden",
    [("responses", "/v1/responses", "responsesBody"), ("chat", "/v1/chat/completions", "chatBody")],
)
def test_streams_and_sends_exactly_the_golden_body(fake_openai, api_kind, path, golden):
    fake_openai.script({"text": CRASH, "chunk_size": 5})
    chunks = []
    result = call(fake_openai, api_kind, on_text=chunks.append)
    assert result["problem"] is None
    assert len(chunks) > 5 and "".join(chunks) == CRASH == result["raw"]
    assert result["parsed"] == {
        "kind": "predicted-crash",
        "exception": "NameError",
        "line": 1,
        "explanation": "tf_idf is never defined.",
        "variables": ["tf_idf"],
    }
    [req] = fake_openai.requests()
    assert req["path"] == path
    assert req["body"] == FIXTURE["expected"][golden]
    assert req["headers"]["authorization"] == "Bearer sk-test-key"


@pytest.mark.parametrize("api_kind,golden", [("chat", "chatBodyPlain"), ("responses", "responsesBodyPlain")])
def test_retries_once_without_structured_output(fake_openai, api_kind, golden):
    fake_openai.script({"reject_format": True, "text": "```json\n" + CRASH + "\n```"})
    result = call(fake_openai, api_kind)
    assert result["structuredFallback"] is True
    assert result["parsed"]["kind"] == "predicted-crash"
    reqs = fake_openai.requests()
    assert len(reqs) == 2 and reqs[1]["body"] == FIXTURE["expected"][golden]


def test_format_rejected_twice_is_reported_not_looped(fake_openai):
    fake_openai.script({"preset": "reject_format"}, {"preset": "reject_format"}, {"preset": "reject_format"})
    result = call(fake_openai, "chat")
    assert result["problem"]["kind"] == "bad-request"
    assert len(fake_openai.requests()) == 2


def test_unreadable_answer_keeps_the_raw_text(fake_openai):
    fake_openai.script({"text": "It will probably crash."})
    result = call(fake_openai, "chat")
    assert result["parsed"]["kind"] == "unreadable" and result["raw"] == "It will probably crash."


@pytest.mark.parametrize(
    "preset,kind,needle",
    [
        ("unauthorized", "auth", "api.example.test refused the API key"),
        ("forbidden", "auth", "HTTP 403"),
        ("model_not_found", "model-not-found", 'answered 404 for the model "gpt-5"'),
        ("context_length", "context-length", 'too long for the model "gpt-5" at api.example.test'),
    ],
)
def test_client_errors_become_clear_problems_without_retry(fake_openai, preset, kind, needle):
    fake_openai.script({"preset": preset})
    result = call(fake_openai, "chat")
    assert result["parsed"] is None
    assert result["problem"]["kind"] == kind and needle in result["problem"]["message"]
    assert len(fake_openai.requests()) == 1


def test_a_401_never_repeats_the_provider_text(fake_openai):
    fake_openai.script({"status": 401, "error": {"message": "Incorrect API key provided: sk-secr****1234"}})
    assert "sk-" not in call(fake_openai, "chat")["problem"]["message"]


def test_429_honours_retry_after_then_answers(fake_openai):
    fake_openai.script({"preset": "rate_limited", "retry_after": 1}, {"text": CRASH})
    result = call(fake_openai, "responses")
    assert result["parsed"]["kind"] == "predicted-crash"
    first, second = fake_openai.requests()
    assert second["time"] - first["time"] >= 0.9


def test_429_gives_up_after_bounded_retries(fake_openai):
    fake_openai.script(*[{"preset": "rate_limited", "retry_after": 0.1}] * 3)
    result = call(fake_openai, "chat", max_retries=2)
    assert result["problem"]["kind"] == "rate-limit" and "still after 2 retries" in result["problem"]["message"]
    assert len(fake_openai.requests()) == 3


def test_5xx_is_retried_and_reported_when_it_persists(fake_openai):
    fake_openai.script({"preset": "server_error"}, {"text": CRASH})
    assert call(fake_openai, "chat")["parsed"]["kind"] == "predicted-crash"
    fake_openai.reset()
    fake_openai.script({"preset": "server_error"}, {"preset": "overloaded"})
    problem = call(fake_openai, "chat")["problem"]
    assert problem["kind"] == "server" and "HTTP 503" in problem["message"]


def test_a_hung_provider_times_out(fake_openai):
    fake_openai.script({"hang": True})
    started = time.monotonic()
    problem = call(fake_openai, "chat", timeout=1, max_retries=0)["problem"]
    assert problem == {
        "kind": "timeout",
        "message": "api.example.test did not answer within 1 seconds. Try again, or allow more time with the timeout setting.",
    }
    assert time.monotonic() - started < 5


def test_a_stalled_stream_times_out(fake_openai):
    fake_openai.script({"text": CRASH, "chunk_size": 4, "chunk_delay": 0.6})
    chunks = []
    problem = call(fake_openai, "chat", timeout=1.5, max_retries=0, on_text=chunks.append)["problem"]
    assert problem["kind"] == "timeout"


def test_unreachable_base_url():
    result = call_model(
        PROMPT, model="m", api_kind="chat", base_url="http://127.0.0.1:9/v1", api_key=None, max_retries=0
    )
    assert result["problem"]["kind"] == "unreachable"
    assert "Could not connect to 127.0.0.1:9" in result["problem"]["message"]


def test_a_model_check_uses_resolved_settings(fake_openai, tmp_path, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_OPENAI_URL", fake_openai.base_url)
    fake_openai.script({"text": CRASH})
    env = {"CRANE_LLM_API_KEY": "sk-from-env", "CRANE_LLM_MODEL": "gpt-5-mini"}
    settings = resolve_settings(cwd=str(tmp_path), environ=env, home=tmp_path)
    prompt = build_prompt(INPUT["executed"], INPUT["runtimeInfoText"], INPUT["target"])
    result = ask_model(prompt, settings, checker_ran_first=True)
    assert result["verdict"]["source"] == {"type": "llm", "model": "gpt-5-mini"}
    assert result["verdict"]["kind"] == "predicted-crash" and result["verdict"]["checkerRanFirst"] is True
    # A check asks for the product's answer (with a fix): the same cells, in the product prompt.
    product = json.loads((FIXTURES / "prompt" / "product-asks-for-a-fix-runinfo.json").read_text(encoding="utf-8"))
    assert prompt["text"] == product["expected"]["prompt"]["text"]
    [req] = fake_openai.requests()
    assert req["path"] == "/v1/responses" and req["headers"]["authorization"] == "Bearer sk-from-env"


def test_a_model_check_with_a_local_base_url_needs_no_key(fake_openai, tmp_path):
    fake_openai.script({"text": verdict_text(False, "fine")})
    settings = resolve_settings(
        cwd=str(tmp_path),
        environ={"CRANE_LLM_BASE_URL": fake_openai.base_url, "CRANE_LLM_MODEL": "llama3"},
        home=tmp_path,
    )
    assert settings.api_kind == "chat" and not settings.key_required
    result = ask_model(build_prompt([], None, "x = 1"), settings, checker_ran_first=True)
    assert result["verdict"]["kind"] == "no-crash"
    assert fake_openai.requests()[0]["path"] == "/v1/chat/completions"


def test_a_model_check_without_a_model_says_so(tmp_path):
    settings = resolve_settings(
        cwd=str(tmp_path), environ={"CRANE_LLM_BASE_URL": "http://localhost:11434/v1"}, home=tmp_path
    )
    result = ask_model(build_prompt([], None, "x"), settings, checker_ran_first=True)
    assert result["problem"]["message"].startswith("No model is set for localhost:11434.")


def test_prompt_input_from_check_renders_runtime_information(fake_openai, tmp_path):
    from crane_llm.prompt import prompt_input_from_check

    pandas = json.loads((FIXTURES / "runinfo" / "pandas.json").read_text(encoding="utf-8"))
    run = {"executionCount": 1, "cellId": "a", "code": "df = load()", "recorded": True, "raised": None, "effects": []}
    check = {"log": {"version": 1, "runs": [run]}, "runtimeInfo": pandas["input"]}
    args = prompt_input_from_check(check, "df.dropna()")
    assert args["executed"] == [{"executionCount": 1, "cellId": "a", "code": "df = load()"}]
    assert args["runtime_info_text"] == pandas["text"]
    fake_openai.script({"text": CRASH})
    settings = resolve_settings(
        cwd=str(tmp_path), environ={"CRANE_LLM_BASE_URL": fake_openai.base_url, "CRANE_LLM_MODEL": "m"}, home=tmp_path
    )
    prompt = build_prompt(args["executed"], args["runtime_info_text"], args["target"], args["budget_tokens"])
    ask_model(prompt, settings, checker_ran_first=True)
    assert pandas["text"] in prompt["input"]
    assert fake_openai.requests()[0]["body"]["messages"][1]["content"] == prompt["input"]
    off = prompt_input_from_check({"log": None, "runtimeInfo": None}, "x")
    assert off["runtime_info_text"] is None


def test_one_deadline_covers_retries_too(fake_openai):
    fake_openai.script({"preset": "server_error"}, {"hang": True}, {"hang": True})
    started = time.monotonic()
    problem = call(fake_openai, "chat", timeout=1.5, max_retries=3)["problem"]
    assert problem["kind"] == "timeout"
    assert time.monotonic() - started < 3


def test_a_retry_after_beyond_a_minute_is_not_waited(fake_openai):
    fake_openai.script({"preset": "rate_limited", "retry_after": 3600})
    started = time.monotonic()
    assert call(fake_openai, "chat", max_retries=3)["problem"]["kind"] == "rate-limit"
    assert time.monotonic() - started < 2 and len(fake_openai.requests()) == 1


def test_retry_after_ms_is_honoured(fake_openai):
    fake_openai.script({"status": 429, "headers": {"retry-after-ms": "700"}}, {"text": CRASH})
    assert call(fake_openai, "chat")["parsed"]["kind"] == "predicted-crash"
    first, second = fake_openai.requests()
    assert second["time"] - first["time"] >= 0.65


def test_token_usage_is_returned_when_the_provider_reports_it(fake_openai):
    fake_openai.script({"text": CRASH})
    result = call(fake_openai, "responses")
    # The fake server reports 100 input tokens and a quarter of the answer's characters as output.
    assert result["usage"]["input_tokens"] == 100
    assert result["usage"]["output_tokens"] == max(1, len(CRASH) // 4)
