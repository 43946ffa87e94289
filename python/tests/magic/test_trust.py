"""What leaves the machine with %%crane_llm: secrets never, data values only when allowed, nothing
under a policy that forbids it, nothing at all with --preview. Every request the local OpenAI
server received is read whole."""

from __future__ import annotations

import json

import pytest

from crane_llm.magic import MIME_TYPE
from crane_llm.policy import POLICY_VARIABLE

from .conftest import verdict_json
from .test_magic_shell import check, run

# One unique value per place a data value can hide in the runtime information. Data comes from
# files, as it does in real notebooks, so the values are in no cell's code; the secrets are
# literals in an executed cell, where the code masking must catch them.
DATA_FILES = {
    "frame.csv": "city,price\nZqxville-71,1.25\nOslo,98765.4321\nLima,3.5\n",
    "cfg.json": '{"host": "dbhost-8842.internal", "port": 5432}',
    "items.txt": "lst-elem-5521\nb\nc\n",
}
PLANT = '''
import json, pandas as pd
df = pd.read_csv("frame.csv")
cfg = json.load(open("cfg.json"))
items = open("items.txt").read().split()
db_password = "pw-hunter-9931"
client_key = "sk-proj-PLANTED0123456789abcdefXYZ"
aws = "AKIAPLANTED000000042"
'''
TARGET = 'for _ in range(1):\n    print(df["city"], df["price"], cfg["host"], items[0], db_password, client_key, aws)'
VALUES = ["Zqxville-71", "98765.4321", "dbhost-8842", "lst-elem-5521"]
SECRETS = ["pw-hunter-9931", "PLANTED0123456789", "AKIAPLANTED000000042"]


def everything_sent(fake) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in fake.requests())


@pytest.fixture
def planted(shell, chat_api, tmp_path):
    for name, text in DATA_FILES.items():
        (tmp_path / name).write_text(text)
    run(shell, PLANT)
    chat_api.script({"text": verdict_json(crash=True, exception="KeyError", line=2, variables=["df"])})
    return shell


def test_values_off_sends_structure_and_no_planted_value(planted, chat_api):
    bundle, _ = check(planted, TARGET, "--no-values")
    sent = everything_sent(chat_api)
    assert len(chat_api.requests()) == 1
    for value in VALUES + SECRETS:
        assert value not in sent, value
    for name in ['\\"city\\"', '\\"price\\"', "'host'", "df (pandas.DataFrame", "items (list): length 3"]:
        assert name in sent, name
    steps = bundle[MIME_TYPE]["state"]["steps"]
    assert "data values left out" in steps[1]["detail"]
    assert bundle[MIME_TYPE]["options"]["includeValues"] is False


def test_values_on_still_never_sends_a_secret(planted, chat_api):
    bundle, _ = check(planted, TARGET)
    sent = everything_sent(chat_api)
    for value in SECRETS:
        assert value not in sent, value
    for value in VALUES:  # the paper's prompt: the data values go, as the user chose
        assert value in sent, value
    assert "<masked: " in sent
    detail = bundle[MIME_TYPE]["state"]["steps"][1]["detail"]
    assert "secrets masked" in detail and int(detail.split(" secrets masked")[0].split("; ")[-1]) >= 5


def test_the_environment_and_config_turn_values_off(planted, chat_api, monkeypatch):
    monkeypatch.setenv("CRANE_LLM_INCLUDE_VALUES", "0")
    check(planted, TARGET)
    sent = everything_sent(chat_api)
    assert not any(v in sent for v in VALUES)
    assert '\\"city\\"' in sent


def test_preview_prints_the_request_and_sends_nothing(planted, chat_api, capsys):
    capsys.readouterr()
    bundle, _ = check(planted, TARGET, "--preview --no-values")
    out = capsys.readouterr().out
    assert chat_api.requests() == []
    assert "Nothing was sent." in out
    assert "(stays on this machine)" in out  # the local server
    assert "Model:   local-model" in out and "API:     Chat Completions" in out
    assert "about " in out and " tokens" in out
    assert "data values left out" in out and "secrets masked" in out
    assert "# Target Cell:" in out
    assert not any(v in out for v in VALUES + SECRETS)
    assert bundle[MIME_TYPE]["state"]["phase"] == "cancelled"


@pytest.mark.parametrize("policy, sent, runinfo, values", [
    ("no-llm", False, False, False),
    ("no-runinfo", True, False, False),
    ("no-values", True, True, False),
])
def test_a_policy_caps_what_the_magic_line_asks_for(planted, chat_api, monkeypatch, policy, sent, runinfo, values):
    monkeypatch.setenv(POLICY_VARIABLE, policy)
    bundle, _ = check(planted, "for _ in range(1):\n    print(df['city'])")
    requests = chat_api.requests()
    assert bool(requests) == sent
    text = everything_sent(chat_api)
    assert ("Current relevant runtime information" in text) == runinfo
    assert any(v in text for v in VALUES) == values
    assert not any(v in text for v in SECRETS)
    html = bundle["text/html"]
    assert "set by your administrator" in html
    if not sent:
        assert bundle[MIME_TYPE]["state"]["verdict"]["kind"] == "nothing-certain"


def test_an_unknown_policy_is_read_as_the_strictest(planted, chat_api, monkeypatch):
    monkeypatch.setenv(POLICY_VARIABLE, "no-vlaues")
    check(planted, "for _ in range(1):\n    print(df['city'])")
    assert chat_api.requests() == []
