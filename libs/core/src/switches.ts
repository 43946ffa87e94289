/** The switches of a check (README, "Switches"), all on by default. */
export interface Switches {
  useLlm: boolean;
  includeRuntimeInfo: boolean;
  /** "Include data values": off, the runtime information keeps its structure only (libs/prompt). */
  includeValues: boolean;
}

/**
 * Whether the built-in checks run. They read the live kernel state, so they follow "Include
 * runtime information"; with the LLM off they are all there is, so they run whatever that switch
 * says. Twin: python/crane_llm/switches.py, held by fixtures/switches.json.
 */
export function checksRun(switches: Pick<Switches, 'useLlm' | 'includeRuntimeInfo'>): boolean {
  return switches.includeRuntimeInfo || !switches.useLlm;
}
