import { z } from 'zod';

/** MIME type of the %%crane_llm magic's native output (see python/crane_llm/magic/live.py). */
export const MAGIC_MIME_TYPE = 'application/vnd.crane-llm.verdict+json';

const Step = z.object({
  id: z.enum(['checks', 'prompt', 'model']),
  label: z.string(),
  status: z.enum(['running', 'done', 'skipped', 'failed']),
  detail: z.string().nullable()
});

const Verdict = z.object({
  kind: z.enum(['certain-crash', 'predicted-crash', 'no-crash', 'unreadable', 'nothing-certain']),
  source: z.union([z.object({ type: z.literal('checks') }), z.object({ type: z.literal('llm'), model: z.string() })]),
  exception: z.string().nullable(),
  line: z.number().int().nullable(),
  explanation: z.string(),
  variables: z.array(z.string()),
  checkerRanFirst: z.boolean()
});

/** An origin entry as the magic sends it: libs/core's OriginItem, plus what names the run. */
const MagicOriginItem = z.object({
  cellId: z.string().nullable(),
  variable: z.string(),
  note: z.string(),
  line: z.number().int().nullable(),
  codeOnly: z.boolean(),
  editedSinceRun: z.boolean(),
  executionCount: z.number().int().nullable().optional(),
  /** The whole entry as a sentence, e.g. "In [3], line 1, assigned df." */
  sentence: z.string().optional()
});

const ProblemKind = z.enum([
  'no-kernel',
  'not-python',
  'busy',
  'not-installed',
  'kernel',
  'kernel-restarted',
  'closed',
  'no-key',
  'server',
  'provider',
  'internal'
]);

/** The magic's state: libs/core's CheckState shape, as the kernel builds it. */
export const MagicState = z.object({
  cellId: z.string().nullable(),
  phase: z.enum(['running', 'done', 'failed', 'cancelled']),
  steps: z.array(Step),
  verdict: Verdict.nullable(),
  error: z.string().nullable(),
  problem: ProblemKind.nullable(),
  stale: z.enum(['edited', 'other-cell-ran', 'kernel-restarted']).nullable(),
  prompt: z.string().nullable(),
  raw: z.string(),
  origin: z.array(MagicOriginItem)
});
export type MagicState = z.infer<typeof MagicState>;
export type MagicOriginItem = z.infer<typeof MagicOriginItem>;

export const MagicDocument = z.object({
  version: z.literal(1),
  displayId: z.string(),
  options: z.object({ useLlm: z.boolean(), includeRuntimeInfo: z.boolean(), model: z.string().nullable() }),
  /** Where the model, key and base_url came from, e.g. "API key from Kaggle secret CRANE_LLM_API_KEY." */
  notes: z.array(z.string()),
  state: MagicState
});
export type MagicDocument = z.infer<typeof MagicDocument>;
