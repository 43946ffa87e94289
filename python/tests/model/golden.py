"""Reads (and, with CRANE_WRITE_GOLDEN=1, writes) the golden vectors shared with vitest."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict

from crane_llm.prompt import DEFAULT_MAX_OUTPUT_TOKENS, BodyOptions, build_prompt, cut_verdict, parse_verdict, request_body
from crane_llm.provider import describe_failure, is_context_length, is_format_rejection, rejected_parameter
from crane_llm.prompt.preview import preview_rows, request_preview
from crane_llm.prompt.mask import mask_code, mask_runtime_info, mask_text
from crane_llm.prompt.runinfo_text import runtime_info_text
from crane_llm.settings import resolve_settings

FIXTURES = Path(__file__).resolve().parents[3] / "libs" / "prompt" / "fixtures"
WRITE = os.environ.get("CRANE_WRITE_GOLDEN") == "1"


def prompt_expected(inp: Dict[str, Any]) -> Dict[str, Any]:
    prompt = build_prompt(inp["executed"], inp["runtimeInfoText"], inp["target"], inp["budgetTokens"], inp.get("style", "product"),
                          inp.get("context", "all"))
    model = inp["model"]
    limit = inp.get("maxOutputTokens", DEFAULT_MAX_OUTPUT_TOKENS)
    return {
        "prompt": prompt,
        "responsesBody": request_body("responses", prompt, model, BodyOptions(max_output_tokens=limit)),
        "chatBody": request_body("chat", prompt, model, BodyOptions(max_output_tokens=limit)),
        "responsesBodyPlain": request_body("responses", prompt, model, BodyOptions(structured=False, max_output_tokens=limit)),
        "chatBodyPlain": request_body("chat", prompt, model, BodyOptions(structured=False, max_output_tokens=limit)),
        # What a server that refuses max_completion_tokens and stream_options gets on the retries.
        "chatBodyOlderServer": request_body("chat", prompt, model, BodyOptions(max_output_tokens=limit, limit_field="max_tokens", stream_usage=False)),
    }


def error_expected(case: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "formatRejection": is_format_rejection(case["status"], case["code"], case["message"]),
        "contextLength": is_context_length(case["status"], case["code"], case["message"]),
        "rejectedParameter": rejected_parameter(case["status"], case["code"], case["message"]),
    }


def settings_expected(case: Dict[str, Any]) -> Dict[str, Any]:
    # No home and no .env reachable: only the given variables count.
    nowhere = Path("/nonexistent-crane-llm-home")
    settings = resolve_settings(case["explicitModel"], cwd=str(nowhere), environ=case["environ"], home=nowhere)
    return settings.public_json()


def mask_expected(kind: str, case: Dict[str, Any]) -> Dict[str, Any]:
    if kind == "code":
        code, masked = mask_code(case["input"])
        return {"code": code, "masked": masked}
    if kind == "text":
        text, masked = mask_text(case["input"])
        return {"text": text, "masked": masked}
    info, masked = mask_runtime_info(case["info"], case["includeValues"])
    return {"text": runtime_info_text(info, case["includeValues"]), "masked": masked}


def preview_expected(case: Dict[str, Any]) -> Dict[str, Any]:
    preview = request_preview(case["provider"], case["prompt"], case["disclosure"])
    return {"preview": preview, "rows": [list(row) for row in preview_rows(preview)]}


def _dump(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_all() -> None:
    for path in sorted((FIXTURES / "prompt").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["expected"] = prompt_expected(data["input"])
        _dump(path, data)
    path = FIXTURES / "parse" / "cases.json"
    cases = json.loads(path.read_text(encoding="utf-8"))
    for case in cases:
        case["expected"] = parse_verdict(case["raw"])
    _dump(path, cases)
    path = FIXTURES / "errors" / "cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for case in data["describe"]:
        case["expected"] = describe_failure(case["failure"])
    for case in data["classify"]:
        case["expected"] = error_expected(case)
    _dump(path, data)
    path = FIXTURES / "parse" / "cut.json"
    cases = json.loads(path.read_text(encoding="utf-8"))
    for case in cases:
        case["expected"] = cut_verdict(case["limit"])
    _dump(path, cases)
    path = FIXTURES / "settings" / "cases.json"
    cases = json.loads(path.read_text(encoding="utf-8"))
    for case in cases:
        case["expected"] = settings_expected(case)
    _dump(path, cases)
    path = FIXTURES / "mask" / "cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for kind in ("code", "text", "runinfo"):
        for case in data[kind]:
            case["expected"] = mask_expected(kind, case)
    _dump(path, data)
    # Every runtime-information vector also holds its text with "Include data values" off.
    for path in sorted((FIXTURES / "runinfo").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["textWithoutValues"] = runtime_info_text(data["input"], False)
        _dump(path, data)
    path = FIXTURES / "preview" / "cases.json"
    cases = json.loads(path.read_text(encoding="utf-8"))
    for case in cases:
        case["expected"] = preview_expected(case)
    _dump(path, cases)
