import { produce } from 'immer';
import { z } from 'zod';
import { Verdict } from './verdict';
import { TokenUsage, tokenUsage } from './usage';

/** One visible step of a check, shown as it happens under the cell and in the sidebar. */
export const StepId = z.enum(['checks', 'prompt', 'model']);
export type StepId = z.infer<typeof StepId>;
export const StepStatus = z.enum(['running', 'done', 'skipped', 'failed']);
export type StepStatus = z.infer<typeof StepStatus>;
export const Step = z.object({ id: StepId, label: z.string(), status: StepStatus, detail: z.string().nullable() });
export type Step = z.infer<typeof Step>;

export const StaleReason = z.enum(['edited', 'other-cell-ran', 'kernel-restarted']);
export type StaleReason = z.infer<typeof StaleReason>;

export const Phase = z.enum(['running', 'done', 'failed', 'cancelled']);
export type Phase = z.infer<typeof Phase>;

/**
 * Why a check could not finish, so a host can say what to do about it. `no-key` is reached only
 * after the built-in checks ran: their outcome stays visible next to the message. A provider
 * failure is `provider` here; libs/prompt's Problem says which kind of provider failure it was.
 * `settings`: a model setting cannot be used (a base_url that is not an http(s) address); the
 * message names the setting and where it came from.
 */
export const ProblemKind = z.enum([
  'no-kernel',
  'not-python',
  'busy',
  'not-installed',
  'kernel',
  'kernel-restarted',
  'closed',
  'no-key',
  'settings',
  'server',
  'provider',
  'internal'
]);
export type ProblemKind = z.infer<typeof ProblemKind>;

/**
 * One entry of "Origin of the crash", as a host draws it: a cell that gave a variable involved in
 * the crash its current state (or, for a missing variable, a cell that would have defined it).
 */
export const OriginItem = z.object({
  /** The notebook cell id to jump to; null when the cell is no longer in the notebook. */
  cellId: z.string().nullable(),
  variable: z.string(),
  /** What the cell did, short enough for a note on the cell, e.g. "line 1: assigned `df`". */
  note: z.string(),
  /** The same as a full sentence, for the list under the verdict; without it the run and the note say it. */
  sentence: z.string().optional(),
  /** The run that did it (the magic names runs, as it has no cells to jump to). */
  executionCount: z.number().int().nullable().optional(),
  /** 1-based line in that cell, when known. */
  line: z.number().int().nullable(),
  /** Known from its code only: it ran before recording began. */
  codeOnly: z.boolean(),
  /** The cell's code no longer matches what ran. */
  editedSinceRun: z.boolean(),
  /** What libs/lineage found: "not-run" and "raised-before" cells can be offered to run first. */
  kind: z.string().optional(),
  /** 0-based position of the cell in the notebook, when the host knows it. */
  index: z.number().int().nullable().optional()
});
export type OriginItem = z.infer<typeof OriginItem>;

/**
 * Everything a host needs to draw one check of one cell. The JupyterLab extension builds it with
 * the transitions below; the %%crane_llm magic builds it in the kernel and sends it as JSON, read
 * back with this same schema.
 */
export const CheckState = z.object({
  cellId: z.string().nullable(),
  phase: Phase,
  steps: z.array(Step),
  verdict: Verdict.nullable(),
  /** A plain message when the check could not finish (busy kernel, no key, provider error...). */
  error: z.string().nullable(),
  problem: ProblemKind.nullable(),
  stale: StaleReason.nullable(),
  prompt: z.string().nullable(),
  raw: z.string(),
  origin: z.array(OriginItem),
  /** The tokens the model's answer cost, as the provider reported them (absent: no model was asked). */
  usage: TokenUsage.nullable().optional()
});
export type CheckState = z.infer<typeof CheckState>;

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

/** The model answered; its usage (either API's shape) is kept with the check. */
export const usageReported = (s: CheckState, reported: unknown): CheckState =>
  produce(s, d => {
    d.usage = tokenUsage(reported);
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
