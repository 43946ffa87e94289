"""The fake provider as a process, through its HTTP control API: what vitest and the e2e rely on."""

import json
import subprocess
import sys
import time
import urllib.request
from http.client import HTTPConnection
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def server():
    proc = subprocess.Popen(
        [sys.executable, "-m", "crane_llm_testing.fake_openai", "--port", "0"],
        cwd=str(PYTHON_DIR),
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    assert line.startswith("PORT ")
    yield "http://127.0.0.1:%d" % int(line.split()[1])
    proc.terminate()
    proc.wait(10)


def http(url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers=dict({"Content-Type": "application/json"}, **(headers or {})))
    with urllib.request.urlopen(req, timeout=10) as res:
        return res.status, dict(res.headers), res.read().decode()


def test_control_api_scripts_records_and_resets(server):
    assert json.loads(http(server + "/_health")[2]) == {"ok": True}
    http(server + "/_script", {"replies": [{"text": "first"}, {"preset": "rate_limited", "retry_after": 3}]})
    status, headers, body = http(
        server + "/v1/chat/completions", {"model": "m", "messages": []}, {"Authorization": "Bearer k1"}
    )
    assert status == 200 and json.loads(body)["choices"][0]["message"]["content"] == "first"
    with pytest.raises(urllib.error.HTTPError) as err:
        http(server + "/api/v1/responses", {"model": "m", "input": "x"})
    assert err.value.code == 429 and err.value.headers["Retry-After"] == "3"
    status, _, body = http(server + "/v1/responses", {"model": "m", "input": "x", "stream": True})
    assert "event: response.completed" in body and "crash" in body  # the default reply
    records = json.loads(http(server + "/_requests")[2])["requests"]
    assert [r["path"] for r in records] == ["/v1/chat/completions", "/api/v1/responses", "/v1/responses"]
    assert records[0]["headers"]["authorization"] == "Bearer k1" and records[0]["body"] == {
        "model": "m",
        "messages": [],
    }
    http(server + "/_reset", {})
    assert json.loads(http(server + "/_requests")[2])["requests"] == []


def test_models_and_default_reply(server):
    http(server + "/_script", {"default": {"text": "always this"}})
    assert json.loads(http(server + "/v1/models")[2])["data"][0]["id"] == "fake-model"
    for _ in range(2):
        body = json.loads(http(server + "/v1/chat/completions", {"model": "m", "messages": []})[2])
        assert body["choices"][0]["message"]["content"] == "always this"


def test_a_client_closing_a_slow_stream_is_recorded_at_once(server):
    # What the e2e's Cancel test reads: the moment the provider's side saw the connection go.
    http(server + "/_script", {"replies": [{"text": "x" * 200, "chunk_size": 5, "chunk_delay": 2}, {"text": "y" * 20}]})
    host, port = server.rsplit("/", 1)[1].split(":")
    conn = HTTPConnection(host, int(port), timeout=10)
    conn.request("POST", "/v1/chat/completions", json.dumps({"model": "m", "messages": [], "stream": True}),
                 {"Content-Type": "application/json"})
    res = conn.getresponse()
    assert res.fp.readline().startswith(b"data: ")  # the first chunk, then a 2 s pause
    left_at = time.time()
    res.close()
    deadline = time.time() + 5
    while time.time() < deadline:
        [record] = json.loads(http(server + "/_requests")[2])["requests"]
        if "closedAt" in record:
            break
        time.sleep(0.02)
    assert 0 <= record["closedAt"] - left_at < 0.5, record.get("closedAt")
    # A stream read to its end is not a close.
    http(server + "/v1/chat/completions", {"model": "m", "messages": [], "stream": True})
    assert "closedAt" not in json.loads(http(server + "/_requests")[2])["requests"][1]
