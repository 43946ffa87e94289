"""The rule of the two switches (README, "Switches"): twin of libs/core/src/switches.ts, held
to the same answers by libs/core/fixtures/switches.json."""


def checks_run(use_llm: bool, include_runtime_info: bool) -> bool:
    """Whether the built-in checks run. They read the live kernel state, so they follow "Include
    runtime information"; with the LLM off they are all there is, so they run whatever it says."""
    return bool(include_runtime_info) or not use_llm
