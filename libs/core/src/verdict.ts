/**
 * The verdict of one check on one cell, as pure data. Hosts render it; they never decide it.
 */
export type VerdictKind =
  | 'certain-crash' // a built-in check proved the cell raises
  | 'predicted-crash' // the model predicts a crash
  | 'no-crash' // the model predicts no crash
  | 'unreadable' // the model answered, but not with a verdict we can read
  | 'nothing-certain'; // only the checks ran, and they found no certain crash

export type VerdictSource = { type: 'checks' } | { type: 'llm'; model: string };

export interface Verdict {
  kind: VerdictKind;
  source: VerdictSource;
  exception: string | null;
  line: number | null;
  explanation: string;
  variables: string[];
  /** For a model verdict: the checker ran first and found nothing certain. */
  checkerRanFirst: boolean;
}

export function certainCrash(crash: {
  exception: string;
  line: number | null;
  message: string;
  variables: string[];
}): Verdict {
  return {
    kind: 'certain-crash',
    source: { type: 'checks' },
    exception: crash.exception,
    line: crash.line,
    explanation: crash.message,
    variables: [...crash.variables],
    checkerRanFirst: true
  };
}

export function nothingCertain(explanation: string): Verdict {
  return {
    kind: 'nothing-certain',
    source: { type: 'checks' },
    exception: null,
    line: null,
    explanation,
    variables: [],
    checkerRanFirst: true
  };
}
