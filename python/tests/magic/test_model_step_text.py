"""The model step's words while the answer streams and once it is in (twins of run-check.ts)."""

from __future__ import annotations

from crane_llm.magic.flow import answered_detail, answering_label


def answer(usage, kind="no-crash", cut=None):
    return {"usage": usage, "parsed": {"kind": kind}, "cutAtLimit": cut}


def test_while_streaming_the_count_of_pieces_is_labelled_an_estimate():
    assert answering_label("m", "h", 1) == "m at h is answering: about 1 token so far"
    assert answering_label("m", "h", 1234) == "m at h is answering: about 1,234 tokens so far"


def test_once_answered_the_providers_count_is_shown_else_the_estimate_says_so():
    assert answered_detail(answer({"output_tokens": 412}), 9) == "answered (412 tokens)"  # Responses
    assert answered_detail(answer({"completion_tokens": 1234}), 9) == "answered (1,234 tokens)"  # Chat Completions
    assert answered_detail(answer(None), 9) == "answered (about 9 tokens)"  # a server that reports none
    assert answered_detail(answer(None), 0) == "answered"
    assert answered_detail(answer(None, "unreadable"), 9) == "answered (about 9 tokens), but not with a readable verdict"
    assert answered_detail(answer({"completion_tokens": 16}, cut=16), 9) == "cut at the output limit of 16 tokens"
