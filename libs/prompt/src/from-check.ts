/**
 * The prompt input from what the kernel answered (libs/core CheckResult): the executed cells as
 * they ran, and the runtime information rendered as text, or null when it was switched off.
 */
import type { CheckResult, RuntimeInfo } from '@crane-llm/core';
import type { PromptInput } from './build';
import { runtimeInfoText } from './runinfo-text';

export function promptInputFromCheck(
  check: Pick<CheckResult, 'executed' | 'runtimeInfo'>,
  target: string,
  budgetTokens?: number | null
): PromptInput {
  return {
    executed: check.executed,
    // The kernel sends null exactly when "Include runtime information" is off.
    runtimeInfoText: check.runtimeInfo === null || check.runtimeInfo === undefined ? null : runtimeInfoText(check.runtimeInfo as RuntimeInfo),
    target,
    budgetTokens: budgetTokens ?? null
  };
}
