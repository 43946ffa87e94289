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

/**
 * Why a check could not finish, so a host can say what to do about it. `no-key` is reached only
 * after the built-in checks ran: their outcome stays visible next to the message.
 */
export type ProblemKind =
  | 'no-kernel'
  | 'not-python'
  | 'busy'
  | 'not-installed'
  | 'kernel'
  | 'kernel-restarted'
  | 'closed'
  | 'no-key'
  | 'server'
  | 'provider'
  | 'internal';

/**
 * One entry of "Origin of the crash", as a host draws it: a cell that gave a variable involved in
 * the crash its current state (or, for a missing variable, a cell that would have defined it).
 */
export interface OriginItem {
  /** The notebook cell id to jump to; null when the cell is no longer in the notebook. */
  cellId: string | null;
  variable: string;
  /** What the cell did, short enough for a note on the cell, e.g. "line 1: assigned `df`". */
  note: string;
  /** The same as a full sentence, for the list under the verdict. */
  sentence: string;
  /** 1-based line in that cell, when known. */
  line: number | null;
  /** Known from its code only: it ran before recording began. */
  codeOnly: boolean;
  /** The cell's code no longer matches what ran. */
  editedSinceRun: boolean;
}

/** Everything a host needs to draw one check of one cell. */
export interface CheckState {
  cellId: string | null;
  phase: Phase;
  steps: Step[];
  verdict: Verdict | null;
  /** A plain message when the check could not finish (busy kernel, no key, provider error...). */
  error: string | null;
  problem: ProblemKind | null;
  stale: StaleReason | null;
  prompt: string | null;
  raw: string;
  origin: OriginItem[];
}

export function started(cellId: string | null): CheckState {
  return {
    cellId,
    phase: 'running',
    steps: [],
    verdict: null,
    error: null,
    problem: null,
    stale: null,
    prompt: null,
    raw: '',
    origin: []
  };
}

/** A check refused before it began (no kernel, busy, another language): nothing ran. */
export function refused(cellId: string | null, problem: ProblemKind, message: string): CheckState {
  return { ...started(cellId), phase: 'failed', error: message, problem };
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
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.prompt = prompt;
      });

/** The streamed response grows as it arrives; chunks after the check ended are dropped. */
export const rawReceived = (s: CheckState, chunk: string): CheckState =>
  s.phase !== 'running' || chunk === ''
    ? s
    : produce(s, d => {
        d.raw += chunk;
      });

/** A retried model call starts its response afresh. */
export const rawReset = (s: CheckState): CheckState =>
  s.phase !== 'running' || s.raw === ''
    ? s
    : produce(s, d => {
        d.raw = '';
      });

export const concluded = (s: CheckState, verdict: Verdict): CheckState =>
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.phase = 'done';
        d.verdict = verdict;
      });

export const failed = (s: CheckState, message: string, problem: ProblemKind = 'internal'): CheckState =>
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.phase = 'failed';
        d.error = message;
        d.problem = problem;
        for (const step of d.steps) if (step.status === 'running') step.status = 'failed';
      });

export const cancelled = (s: CheckState): CheckState =>
  s.phase !== 'running'
    ? s
    : produce(s, d => {
        d.phase = 'cancelled';
        for (const step of d.steps) if (step.status === 'running') step.status = 'skipped';
      });

/** Origin entries arrive after the verdict; a stale verdict keeps none (its outlines vanish). */
export const originFound = (s: CheckState, items: readonly OriginItem[]): CheckState =>
  s.phase !== 'done' || s.stale !== null
    ? s
    : produce(s, d => {
        d.origin = items.map(i => ({ ...i }));
      });

/** A verdict describes the kernel state it was based on; once that may have changed it goes grey. */
export const madeStale = (s: CheckState, reason: StaleReason): CheckState =>
  s.phase !== 'done' || s.stale !== null
    ? s
    : produce(s, d => {
        d.stale = reason;
        d.origin = [];
      });

export const STALE_TEXT: Record<StaleReason, string> = {
  edited: 'Stale: the cell was edited after this verdict.',
  'other-cell-ran': 'Stale: another cell ran after this verdict, so the kernel state may have changed.',
  'kernel-restarted': 'Stale: the kernel restarted after this verdict.'
};

/** Which cells a state wants outlined as origins: none unless it is a fresh verdict. */
export function outlinedCells(s: CheckState): Map<string, OriginItem[]> {
  const cells = new Map<string, OriginItem[]>();
  if (s.phase !== 'done' || s.stale !== null) return cells;
  for (const item of s.origin) {
    if (item.cellId === null) continue;
    const list = cells.get(item.cellId) ?? [];
    list.push(item);
    cells.set(item.cellId, list);
  }
  return cells;
}

/**
 * Whether running this code may change the kernel state a verdict was based on. A `%%crane_llm`
 * cell only analyses its body, never executes it, so it does not make verdicts stale.
 */
export function mayChangeKernelState(code: string): boolean {
  return !/^\s*%%crane_llm\b/.test(code);
}
