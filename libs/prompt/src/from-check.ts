/**
 * The prompt input from what the kernel answered (libs/core CheckResult): the executed cells as
 * they ran, and the runtime information rendered as text, or null when it was switched off.
 */
import type { CheckResult, ExecutedCell, RuntimeInfo } from '@crane-llm/core';
import type { PromptInput } from './build';
import { runtimeInfoText } from './runinfo-text';

/** The cells the kernel ran, in order, read from the reply's log: the one place the kernel sends them. */
export function executedCells(check: Pick<CheckResult, 'log'>): ExecutedCell[] {
  return (check.log?.runs ?? []).map(run => ({ executionCount: run.executionCount, cellId: run.cellId, code: run.code }));
}

export function promptInputFromCheck(
  check: Pick<CheckResult, 'log' | 'runtimeInfo'>,
  target: string,
  budgetTokens?: number | null
): PromptInput {
  return {
    executed: executedCells(check),
    // The kernel sends null exactly when "Include runtime information" is off.
    runtimeInfoText: check.runtimeInfo === null || check.runtimeInfo === undefined ? null : runtimeInfoText(check.runtimeInfo as RuntimeInfo),
    target,
    budgetTokens: budgetTokens ?? null
  };
}
