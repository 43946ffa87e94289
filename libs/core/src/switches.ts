/** The two switches of a check (README, "Two switches"), both on by default. */
export interface Switches {
  useLlm: boolean;
  includeRuntimeInfo: boolean;
}

/**
 * Whether the built-in checks run. They read the live kernel state, so they follow "Include
 * runtime information"; with the LLM off they are all there is, so they run whatever that switch
 * says. Twin: python/crane_llm/switches.py, held by fixtures/switches.json.
 */
export function checksRun(switches: Switches): boolean {
  return switches.includeRuntimeInfo || !switches.useLlm;
}
