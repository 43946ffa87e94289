import { produce } from 'immer';
import type { Verdict } from './verdict';

/** One visible step of a check, shown as it happens under the cell and in the sidebar. */
export type StepId = 'checks' | 'prompt' | 'model';
export type StepStatus = 'running' | 'done' | 'skipped' | 'failed';
export interface Step {
  id: StepId;
  label: string;
  status: StepStatus;
  detail: string | null;
}

export type StaleReason = 'edited' | 'other-cell-ran' | 'kernel-restarted';

export type Phase = 'running' | 'done' | 'failed' | 'cancelled';

/** Everything a host needs to draw one check of one cell. */
export interface CheckState {
  cellId: string | null;
  phase: Phase;
  steps: Step[];
  verdict: Verdict | null;
  /** A plain message when the check could not finish (busy kernel, no key, provider error...). */
  error: string | null;
  stale: StaleReason | null;
  prompt: string | null;
  raw: string;
}

export function started(cellId: string | null): CheckState {
  return { cellId, phase: 'running', steps: [], verdict: null, error: null, stale: null, prompt: null, raw: '' };
}

export const stepStarted = (s: CheckState, id: StepId, label: string): CheckState =>
  produce(s, d => {
    const existing = d.steps.find(x => x.id === id);
    if (existing) Object.assign(existing, { label, status: 'running', detail: null });
    else d.steps.push({ id, label, status: 'running', detail: null });
  });

export const stepEnded = (s: CheckState, id: StepId, status: Exclude<StepStatus, 'running'>, detail: string | null = null): CheckState =>
  produce(s, d => {
    const step = d.steps.find(x => x.id === id);
    if (step) Object.assign(step, { status, detail });
  });

export const promptBuilt = (s: CheckState, prompt: string): CheckState =>
  produce(s, d => {
    d.prompt = prompt;
  });

export const rawReceived = (s: CheckState, chunk: string): CheckState =>
  produce(s, d => {
    d.raw += chunk;
  });

export const concluded = (s: CheckState, verdict: Verdict): CheckState =>
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.phase = 'done';
        d.verdict = verdict;
      });

export const failed = (s: CheckState, message: string): CheckState =>
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.phase = 'failed';
        d.error = message;
        for (const step of d.steps) if (step.status === 'running') step.status = 'failed';
      });

export const cancelled = (s: CheckState): CheckState =>
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.phase = 'cancelled';
        for (const step of d.steps) if (step.status === 'running') step.status = 'skipped';
      });

/** A verdict describes the kernel state it was based on; once that may have changed it goes grey. */
export const madeStale = (s: CheckState, reason: StaleReason): CheckState =>
  s.phase !== 'done' || s.stale !== null
    ? s
    : produce(s, d => {
        d.stale = reason;
      });

export const STALE_TEXT: Record<StaleReason, string> = {
  edited: 'Stale: the cell was edited after this verdict.',
  'other-cell-ran': 'Stale: another cell ran after this verdict, so the kernel state may have changed.',
  'kernel-restarted': 'Stale: the kernel restarted after this verdict.'
};
