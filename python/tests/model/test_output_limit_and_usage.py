"""The answer's output limit, the cut answer, usage on Chat streams, and the retries for servers
that refuse one of those parameters: against the real local OpenAI-compatible server."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from crane_llm.prompt import build_prompt
from crane_llm.provider import call_model
from crane_llm_testing.fake_openai import verdict_text

from .golden import FIXTURES

FIXTURE = json.loads((FIXTURES / "prompt" / "no-executed-cells.json").read_text(encoding="utf-8"))
INPUT = FIXTURE["input"]
PROMPT = build_prompt(INPUT["executed"], INPUT["runtimeInfoText"], INPUT["target"], INPUT["budgetTokens"], INPUT["style"])
LIMIT = INPUT["maxOutputTokens"]
CRASH = verdict_text(True, "x is not defined.", "NameError", 1, ["x"])


def call(fake, api_kind, **kw):
    args = dict(model=INPUT["model"], api_kind=api_kind, base_url=fake.base_url, api_key=None, max_retries=0,
                max_output_tokens=LIMIT)
    args.update(kw)
    return call_model(PROMPT, **args)


@pytest.mark.parametrize("api_kind,field", [("responses", "max_output_tokens"), ("chat", "max_completion_tokens")])
def test_every_request_carries_the_output_limit(fake_openai, api_kind, field):
    fake_openai.script({"text": CRASH})
    assert call(fake_openai, api_kind)["parsed"]["kind"] == "predicted-crash"
    [req] = fake_openai.requests()
    assert req["body"][field] == LIMIT
    assert req["body"] == FIXTURE["expected"]["responsesBody" if api_kind == "responses" else "chatBody"]


@pytest.mark.parametrize("api_kind", ["responses", "chat"])
def test_an_answer_cut_at_the_limit_is_amber_and_says_so_even_when_it_parses(fake_openai, api_kind):
    # The text holds a whole verdict, but the server says the limit stopped it: not to be trusted.
    fake_openai.script({"text": CRASH + " and then the model kept going", "cut": True})
    result = call(fake_openai, api_kind)
    assert result["problem"] is None
    assert result["cutAtLimit"] == LIMIT
    assert result["parsed"]["kind"] == "unreadable"
    assert "cut at the output limit of 512 tokens" in result["parsed"]["explanation"]
    assert result["raw"].startswith(CRASH)  # the raw text stays, to be shown


def test_no_limit_sends_none(fake_openai):
    fake_openai.script({"text": CRASH})
    call(fake_openai, "chat", max_output_tokens=None)
    [req] = fake_openai.requests()
    assert "max_completion_tokens" not in req["body"] and "max_tokens" not in req["body"]


def test_chat_stream_asks_for_usage_and_returns_it(fake_openai):
    fake_openai.script({"text": CRASH, "chunk_size": 4})
    result = call(fake_openai, "chat")
    [req] = fake_openai.requests()
    assert req["body"]["stream_options"] == {"include_usage": True}
    chunks = -(-len(CRASH) // 4)
    usage = result["usage"]
    assert (usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"]) == (100, chunks, 100 + chunks)


def test_a_server_refusing_max_completion_tokens_gets_max_tokens(fake_openai):
    fake_openai.script({"text": CRASH, "refuse": ["max_completion_tokens"]})
    result = call(fake_openai, "chat")
    assert result["parsed"]["kind"] == "predicted-crash"
    first, second = fake_openai.requests()
    assert first["body"]["max_completion_tokens"] == LIMIT
    assert second["body"]["max_tokens"] == LIMIT and "max_completion_tokens" not in second["body"]
    assert second["body"]["stream_options"] == {"include_usage": True}  # only the refused part changes


def test_an_older_server_gets_each_refused_parameter_dropped_once(fake_openai):
    fake_openai.script({"text": CRASH, "refuse": ["max_completion_tokens", "stream_options"]})
    result = call(fake_openai, "chat")
    assert result["parsed"]["kind"] == "predicted-crash"
    assert len(fake_openai.requests()) == 3
    assert fake_openai.requests()[-1]["body"] == FIXTURE["expected"]["chatBodyOlderServer"]
    assert result["usage"] is None  # it was not asked for in the end


def test_a_refusal_of_max_tokens_too_is_reported_not_looped(fake_openai):
    fake_openai.script({"text": CRASH, "refuse": ["max_completion_tokens", "max_tokens"]})
    result = call(fake_openai, "chat")
    assert result["problem"]["kind"] == "bad-request"
    assert "max_tokens" in result["problem"]["message"]
    assert len(fake_openai.requests()) == 2


class _NotFoundEverywhere(BaseHTTPRequestHandler):
    """What Ollama answers outside /v1: a plain-text 404 for every path."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = b"404 page not found"
        self.send_response(404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def ollama_like():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _NotFoundEverywhere)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d" % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_a_local_base_url_without_v1_answering_404_suggests_v1(ollama_like):
    result = call_model(PROMPT, model="qwen2.5-coder", api_kind="chat", base_url=ollama_like, api_key=None, max_retries=0)
    assert result["problem"]["kind"] == "model-not-found"
    assert 'try base_url="%s/v1"' % ollama_like in result["problem"]["message"]


def test_the_same_404_with_v1_blames_the_model(ollama_like):
    result = call_model(PROMPT, model="qwen2.5-coder", api_kind="chat", base_url=ollama_like + "/v1", api_key=None,
                        max_retries=0)
    assert 'for the model "qwen2.5-coder"' in result["problem"]["message"]
