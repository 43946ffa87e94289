"""Test helpers for CRANE-LLM. Not part of the wheel: `crane_llm` never imports this package."""
