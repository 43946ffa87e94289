import { mayChangeKernelState, type StaleReason } from './check-state';

/**
 * When the two optional behaviours check a cell on their own: "Check as you go" (a mark by the
 * prompt of a cell the built-in checks find certain to crash) and "Check before running" (a guard
 * on the run of one cell). Pure rules; apps/jlab feeds them events and the clock.
 */

/** Quiet time after the last keystroke before the edited cell is checked. */
export const DEBOUNCE_MS = 500;

/** What "Check as you go" is waiting to do. */
export interface AsYouGo {
  /** The cell to check once `due` has passed, or null. */
  pending: { cellId: string; due: number } | null;
  /** The check the kernel is answering now: its cell and the text it was asked about. */
  inFlight: { cellId: string; source: string } | null;
}

export const IDLE_AS_YOU_GO: AsYouGo = { pending: null, inFlight: null };

export type AsYouGoEvent =
  /** The active cell changed: it is checked at once. */
  | { kind: 'activated'; cellId: string; now: number }
  /** The cell's text changed: it is checked once it has been quiet for DEBOUNCE_MS. */
  | { kind: 'edited'; cellId: string; now: number }
  /** The user ran anything (a cell, Run All, a console): whatever waits is dropped. */
  | { kind: 'user-ran' }
  | { kind: 'started'; cellId: string; source: string }
  | { kind: 'finished' };

export function asYouGo(state: AsYouGo, event: AsYouGoEvent): AsYouGo {
  switch (event.kind) {
    case 'activated':
      return { ...state, pending: { cellId: event.cellId, due: event.now } };
    case 'edited':
      return { ...state, pending: { cellId: event.cellId, due: event.now + DEBOUNCE_MS } };
    case 'user-ran':
      return IDLE_AS_YOU_GO;
    case 'started':
      return { pending: null, inFlight: { cellId: event.cellId, source: event.source } };
    case 'finished':
      return { ...state, inFlight: null };
  }
}

/**
 * The cell to check now, or null. Checks never queue behind the user's work: nothing starts while
 * the kernel is anything but idle (the caller drops the pending check then, see `dropWhenBusy`),
 * nor while another check is in flight, nor before the debounce has passed, nor for a cell that is
 * no longer the active one.
 */
export function dueCheck(state: AsYouGo, now: number, kernelIdle: boolean, activeCellId: string | null): string | null {
  const pending = state.pending;
  if (!pending || state.inFlight || !kernelIdle) return null;
  if (pending.cellId !== activeCellId || now < pending.due) return null;
  return pending.cellId;
}

/** A busy kernel means no check: a check that comes due while it is busy is dropped, not queued. */
export function dropWhenBusy(state: AsYouGo, now: number, kernelIdle: boolean): AsYouGo {
  if (kernelIdle || !state.pending || now < state.pending.due) return state;
  return { ...state, pending: null };
}

/**
 * Whether the answer of the check in flight may be shown: not if the user ran anything since it
 * started (it describes the state before), nor if the cell's text is no longer what was checked.
 */
export function answerStillValid(state: AsYouGo, cellId: string, currentSource: string): boolean {
  const flight = state.inFlight;
  return !!flight && flight.cellId === cellId && flight.source === currentSource;
}

/** A mark by a cell's prompt: a certain crash found before the cell ran. */
export interface CrashMark {
  cellId: string;
  exception: string;
  line: number | null;
  /** The one-line reason shown on hover. */
  reason: string;
  /** Why it no longer holds, or null while it does; grey, as a stale verdict is. */
  stale: StaleReason | null;
}

export type MarkEvent =
  | { kind: 'edited'; cellId: string }
  | { kind: 'ran'; code: string }
  | { kind: 'kernel-restarted' };

/**
 * Marks go stale exactly as verdicts do: an edit stales the edited cell's mark; any execution
 * that may change the kernel state (everything but a `%%crane_llm` cell) and a restart stale all.
 */
export function staleMark(mark: CrashMark, event: MarkEvent): CrashMark {
  if (mark.stale) return mark;
  switch (event.kind) {
    case 'edited':
      return event.cellId === mark.cellId ? { ...mark, stale: 'edited' } : mark;
    case 'ran':
      return mayChangeKernelState(event.code) ? { ...mark, stale: 'other-cell-ran' } : mark;
    case 'kernel-restarted':
      return { ...mark, stale: 'kernel-restarted' };
  }
}

/** How the user asked to run cells, for "Check before running". */
export type RunRequest = { cells: number; command: 'run' | 'run-and-advance' | 'run-and-insert' | 'run-all' | 'run-other' };

/**
 * Only the run of one cell is guarded: Run All and other multi-cell runs are not (a later cell's
 * state depends on what the earlier ones do), and a busy kernel is not asked (the check would
 * describe the state before the queued cells ran), so the cell is queued at once as without the setting.
 */
export function guardsRun(enabled: boolean, request: RunRequest, kernelIdle: boolean): boolean {
  if (!enabled || !kernelIdle || request.cells !== 1) return false;
  return request.command === 'run' || request.command === 'run-and-advance' || request.command === 'run-and-insert';
}
