import type { ProblemKind, StepStatus } from './check-state';
import type { Verdict, VerdictKind } from './verdict';

/** The README's colours ("Use it"): red crash, green no crash, amber unreadable, blue checks-only, grey stale. */
export type Colour = 'red' | 'green' | 'amber' | 'blue' | 'grey';

const COLOUR: Record<VerdictKind, Colour> = {
  'certain-crash': 'red',
  'predicted-crash': 'red',
  'no-crash': 'green',
  unreadable: 'amber',
  'nothing-certain': 'blue'
};

/** Headline text, so that colour is never the only signal. */
const HEADLINE: Record<VerdictKind, string> = {
  'certain-crash': 'This cell will crash',
  'predicted-crash': 'Crash predicted',
  'no-crash': 'No crash predicted',
  unreadable: 'The response could not be read as a verdict',
  'nothing-certain': 'The built-in checks found no certain crash'
};

export const CERTAIN_BADGE = 'Built-in check · certain';

export function colourOf(kind: VerdictKind, stale: boolean): Colour {
  return stale ? 'grey' : COLOUR[kind];
}

export function headlineOf(verdict: Verdict): string {
  const base = HEADLINE[verdict.kind];
  if (verdict.exception && (verdict.kind === 'certain-crash' || verdict.kind === 'predicted-crash')) {
    const where = verdict.line === null ? '' : ` at line ${verdict.line}`;
    return `${base}: ${verdict.exception}${where}`;
  }
  return base;
}

/** The badge says where a verdict came from; "nothing certain" is no prediction, so it is not the model's badge. */
export function badgeOf(verdict: Verdict): string {
  if (verdict.source.type === 'llm') return `LLM prediction · ${verdict.source.model}`;
  return verdict.kind === 'certain-crash' ? CERTAIN_BADGE : 'Built-in checks only';
}

/** Every host draws the same icon beside the same colour, so colour is never the only signal. */
export const ICON: Record<Colour, string> = { red: '✖', green: '✔', amber: '?', blue: 'ℹ', grey: '◷' };
export const STEP_ICON: Record<StepStatus, string> = { running: '…', done: '✓', skipped: '–', failed: '✖' };

export const PROBLEM_TITLE: Record<ProblemKind, string> = {
  'no-kernel': 'No kernel',
  'not-python': 'Not a Python kernel',
  busy: 'The notebook is busy',
  'not-installed': 'crane_llm is not installed in this kernel',
  kernel: 'The kernel could not run the check',
  'kernel-restarted': 'The kernel restarted during the check',
  closed: 'The notebook was closed during the check',
  'no-key': 'No API key',
  settings: 'The model settings cannot be used',
  server: 'The CRANE-LLM server extension did not answer',
  provider: 'The model call failed',
  internal: 'The check could not finish'
};

export const CHECKER_RAN_FIRST = 'The built-in checker ran first and found no certain crash.';
export const CODE_ONLY_NOTE = 'Runtime information was off: the model saw the code alone, and the built-in checks were skipped.';
