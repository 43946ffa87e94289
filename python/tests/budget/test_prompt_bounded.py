"""The prompt stays within its token budget whatever the variables hold, and the kernel's reply
stays small: long strings, huge reprs and giant containers are cut with a visible note."""

import json

import pytest

from crane_llm.kernel.entry import gather
from crane_llm.prompt import build_prompt
from crane_llm.prompt.runinfo_text import runtime_info_text


def _prompt_for(namespace, source, budget=24_000):
    reply = gather({"protocol": 1, "source": source, "cellId": None, "useLlm": True, "includeRuntimeInfo": True,
                    "budgetSeconds": 30}, namespace)
    return reply, build_prompt([{"executionCount": 1, "cellId": None, "code": "x = 1"}],
                               runtime_info_text(reply["runtimeInfo"]), source, budget)


def test_a_50_mb_string_makes_neither_a_50_mb_reply_nor_a_50_mb_prompt():
    blob = "ab" * 25_000_000
    reply, prompt = _prompt_for({"blob": blob}, "blob.upper()")
    assert len(json.dumps(reply)) < 15_000
    assert prompt["estimatedTokens"] <= prompt["budgetTokens"] and not prompt["overBudget"]
    assert "(50000000 characters; the first 10000 shown)" in prompt["text"]


def test_huge_keys_labels_and_giant_containers_are_cut_with_a_note():
    pd = pytest.importorskip("pandas")
    namespace = {
        "cfg": {"k" * 100_000: 1, "short": "v" * 100_000},
        "frame": pd.DataFrame({"c" * 100_000: [1, 2], **{"x%d" % i: [1, 2] for i in range(500)}}),
        "rows": list(range(3_000_000)),
        "nested": [[["deep" * 10_000]]] * 10,
    }
    reply, prompt = _prompt_for(namespace, "cfg, frame, rows, nested")
    assert len(json.dumps(reply)) < 20_000
    assert not prompt["overBudget"]
    assert "(first 20 of 501 columns shown)" in prompt["text"]


def test_a_cell_reading_thousands_of_variables_keeps_the_prompt_in_budget():
    namespace = {"v%d" % i: "text %d " % i * 40 for i in range(1000)}
    source = "print(" + ", ".join(namespace) + ")"
    reply, prompt = _prompt_for(namespace, source, budget=6000)
    assert prompt["estimatedTokens"] <= 6000 and prompt["runtimeInfoCut"] > 0
    assert "lines of runtime information left out to keep the prompt within its size limit" in prompt["text"]
