import type { CheckState } from './check-state';
import type { CheckAnswer } from './wire/check-answer';

/** Which cell was asked about, as the host that asked knows it. */
export interface AnswerTarget {
  notebook: string | null;
  cellId: string | null;
  cellIndex: number | null;
}

/**
 * A finished check as the JSON answer the non-visual hosts give (see wire/check-answer.ts). The
 * origin comes in whole from libs/lineage: the state keeps only what the view draws of it.
 */
export function answerOf(state: CheckState, target: AnswerTarget, origin: CheckAnswer['origin']): CheckAnswer {
  const problem =
    state.verdict === null ? { kind: state.problem ?? (state.phase === 'cancelled' ? 'cancelled' : 'internal'), message: state.error ?? 'The check did not finish.' } : null;
  const crash = state.verdict?.kind === 'certain-crash' || state.verdict?.kind === 'predicted-crash';
  return { ...target, verdict: state.verdict, origin: crash ? origin : [], problem };
}

/** An answer for a check that could not start (no notebook, no such cell, a busy kernel, ...). */
export function problemAnswer(target: AnswerTarget, kind: string, message: string): CheckAnswer {
  return { ...target, verdict: null, origin: [], problem: { kind, message } };
}
