import { z } from 'zod';

/**
 * The verdict of one check on one cell, as pure data. Hosts render it; they never decide it.
 * certain-crash: a built-in check proved the cell raises; predicted-crash / no-crash: the model's
 * prediction; unreadable: the model answered, but not with a verdict we can read;
 * nothing-certain: only the checks ran, and they found no certain crash.
 */
export const VerdictKind = z.enum(['certain-crash', 'predicted-crash', 'no-crash', 'unreadable', 'nothing-certain']);
export type VerdictKind = z.infer<typeof VerdictKind>;

export const VerdictSource = z.union([z.object({ type: z.literal('checks') }), z.object({ type: z.literal('llm'), model: z.string() })]);
export type VerdictSource = z.infer<typeof VerdictSource>;

/** A misspelt name, column or attribute and the existing one it is closest to (as Python 3.12's "Did you mean"). */
export const Correction = z.object({
  /** The text as it stands in the cell, e.g. `dff` or `'Pclas'`. */
  old: z.string(),
  /** What to put there instead, e.g. `df` or `'Pclass'`. */
  new: z.string(),
  /** 1-based line of the cell where `old` stands. */
  line: z.number().int()
});
export type Correction = z.infer<typeof Correction>;

export const Verdict = z.object({
  kind: VerdictKind,
  source: VerdictSource,
  exception: z.string().nullable(),
  line: z.number().int().nullable(),
  explanation: z.string(),
  variables: z.array(z.string()),
  /** For a model verdict: the checker ran first and found nothing certain. */
  checkerRanFirst: z.boolean(),
  /** For a certain crash: the close match of a misspelt name, column or attribute. */
  correction: Correction.nullable().optional(),
  /** For a predicted crash: the model's corrected version of the whole cell. */
  fix: z.string().nullable().optional()
});
export type Verdict = z.infer<typeof Verdict>;

/**
 * The verdict of a crash the built-in checks proved. `definedIn`: the execution count of the run
 * that defined a NameError's suggested name (libs/lineage's definedIn), which its "Did you mean"
 * then names, as the hosts name cells: "Did you mean `df` (defined in In [3])?".
 */
export function certainCrash(
  crash: {
    exception: string;
    line: number | null;
    message: string;
    variables: string[];
    correction?: Correction | null;
  },
  definedIn: number | null = null
): Verdict {
  return {
    kind: 'certain-crash',
    source: { type: 'checks' },
    exception: crash.exception,
    line: crash.line,
    explanation: withDefinition(crash, definedIn),
    variables: [...crash.variables],
    checkerRanFirst: true,
    ...(crash.correction ? { correction: { ...crash.correction } } : {})
  };
}

/** The name a NameError's correction suggests, whose defining cell the explanation can name. */
export function suggestedName(crash: { exception: string | null; correction?: Correction | null }): string | null {
  return crash.exception === 'NameError' && crash.correction ? crash.correction.new : null;
}

function withDefinition(crash: { exception: string; message: string; correction?: Correction | null }, definedIn: number | null): string {
  const name = suggestedName(crash);
  const hint = `Did you mean \`${name}\`?`;
  if (name === null || definedIn === null || !crash.message.includes(hint)) return crash.message;
  return crash.message.replace(hint, () => `Did you mean \`${name}\` (defined in In [${definedIn}])?`);
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
