/**
 * The prompt input from what the kernel answered (libs/core CheckResult): the executed cells as
 * they ran, and the runtime information rendered as text, or null when it was switched off.
 * This is the one road from kernel facts to a prompt, so the masking of secrets (always on) and
 * the "Include data values" switch are applied here, for every host. Twin of from_check.py.
 */
import type { CheckResult, ExecutedCell, RuntimeInfo } from '@crane-llm/core';
import type { PromptInput } from './build';
import { maskCode, maskRuntimeInfo } from './mask';
import { runtimeInfoText } from './runinfo-text';

/** What the prompt holds back, said to the user before and after the call. */
export interface Disclosure {
  /** How many secrets were replaced by `<masked: N chars>`. */
  masked: number;
  /** "Include data values" was off: the runtime information carries structure only. */
  valuesLeftOut: boolean;
  /** "Include runtime information" was off: the model gets the code alone. */
  runtimeInfoLeftOut: boolean;
}

export interface PreparedInput extends PromptInput {
  disclosure: Disclosure;
}

/** The cells the kernel ran, in order, read from the reply's log: the one place the kernel sends them. */
export function executedCells(check: Pick<CheckResult, 'log'>): ExecutedCell[] {
  return (check.log?.runs ?? []).map(run => {
    const cell: ExecutedCell = { executionCount: run.executionCount, cellId: run.cellId, code: run.code };
    // The prompt says which cells raised (JupyterLab and --keep-going logs hold them).
    if (run.raised) cell.raised = { exception: run.raised.exception || 'an exception', line: run.raised.line ?? null };
    return cell;
  });
}

export function promptInputFromCheck(
  check: Pick<CheckResult, 'log' | 'runtimeInfo'>,
  target: string,
  budgetTokens?: number | null,
  includeValues = true
): PreparedInput {
  let masked = 0;
  const executed = executedCells(check).map(cell => {
    const m = maskCode(cell.code);
    masked += m.masked;
    return { ...cell, code: m.value };
  });
  const maskedTarget = maskCode(target);
  // The kernel sends null exactly when "Include runtime information" is off.
  const info = check.runtimeInfo === undefined ? null : (check.runtimeInfo as RuntimeInfo | null);
  let text: string | null = null;
  if (info !== null) {
    const m = maskRuntimeInfo(info, includeValues);
    text = runtimeInfoText(m.value, includeValues);
    masked += m.masked;
  }
  return {
    executed,
    runtimeInfoText: text,
    target: maskedTarget.value,
    budgetTokens: budgetTokens ?? null,
    disclosure: { masked: masked + maskedTarget.masked, valuesLeftOut: info !== null && !includeValues, runtimeInfoLeftOut: info === null }
  };
}
