import type { CheckState } from '@crane-llm/core';

/**
 * How long a check's progress is held back. A check that ends sooner (a certain verdict usually
 * takes a few tens of milliseconds) is drawn once, as its verdict: drawing the progress box first
 * would cost a style, layout and paint pass while the kernel's answer waits behind it, and would
 * only flash. A slower check (the model) shows its steps from then on, as before.
 */
export const PROGRESS_GRACE_MS = 200;

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const WINDOW_TIMERS: Timers = {
  set: (run, ms) => window.setTimeout(run, ms),
  clear: handle => window.clearTimeout(handle as number)
};

/**
 * Wraps a check's `draw` for its first `graceMs`: running states are kept, not drawn; the first
 * state that ends the check (done, failed, cancelled) is drawn at once, and so is the latest kept
 * state when the grace runs out. After that every state is drawn as it comes.
 */
export function drawAfterGrace(
  draw: (state: CheckState) => void,
  graceMs: number = PROGRESS_GRACE_MS,
  timers: Timers = WINDOW_TIMERS
): (state: CheckState) => void {
  let open = graceMs <= 0;
  let kept: CheckState | null = null;
  const timer = open
    ? null
    : timers.set(() => {
        open = true;
        if (kept) draw(kept);
        kept = null;
      }, graceMs);
  return state => {
    if (open) {
      draw(state);
      return;
    }
    if (state.phase === 'running') {
      kept = state;
      return;
    }
    open = true;
    kept = null;
    timers.clear(timer);
    draw(state);
  };
}
