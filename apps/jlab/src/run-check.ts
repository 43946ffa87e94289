import {
  certainCrash,
  concluded,
  failed,
  nothingCertain,
  started,
  stepEnded,
  stepStarted,
  type CheckRequest,
  type CheckResult,
  type CheckState
} from '@crane-llm/core';

/** The effects a check needs, injected so the flow itself can be tested without a kernel. */
export interface CheckEffects {
  facts(req: CheckRequest): Promise<CheckResult>;
}

export interface CheckOptions {
  useLlm: boolean;
  includeRuntimeInfo: boolean;
}

function checksDetail(facts: CheckResult): string {
  const stop = facts.checks.stoppedAt;
  const ms = `${facts.checks.elapsedMs.toFixed(1)} ms`;
  if (facts.checks.crash) return `found a certain ${facts.checks.crash.exception} (${ms})`;
  return stop ? `nothing certain; stopped at ${stop.reason} (${ms})` : `nothing certain (${ms})`;
}

/**
 * One check of one cell: the built-in checks in the kernel first, then (when the model path is
 * wired) the model. Every intermediate state is emitted so the UI can show the steps as they happen.
 */
export async function runCheck(
  cell: { id: string | null; source: string },
  options: CheckOptions,
  effects: CheckEffects,
  emit: (state: CheckState) => void
): Promise<CheckState> {
  let state = started(cell.id);
  const update = (next: CheckState): CheckState => {
    state = next;
    emit(state);
    return state;
  };
  update(stepStarted(state, 'checks', 'Built-in checks on the live kernel state'));
  let facts: CheckResult;
  try {
    facts = await effects.facts({
      protocol: 1,
      source: cell.source,
      cellId: cell.id,
      useLlm: options.useLlm,
      includeRuntimeInfo: options.includeRuntimeInfo
    });
  } catch (error) {
    return update(failed(state, error instanceof Error ? error.message : String(error)));
  }
  update(stepEnded(state, 'checks', facts.checks.ran ? 'done' : 'skipped', facts.checks.ran ? checksDetail(facts) : 'skipped: runtime information is off'));
  if (facts.checks.crash) return update(concluded(state, certainCrash(facts.checks.crash)));
  return update(
    concluded(
      state,
      nothingCertain(
        'This is not a "no crash" prediction: the built-in checks only report crashes they are certain of.'
      )
    )
  );
}
