import { z } from 'zod';

/**
 * What one run of a cell did to one variable, read from its code by the kernel's recorder
 * (python/crane_llm/lineage/effects.py). `name` is the root variable (`df` for
 * `df.loc[0, 'a'] = 1`); `*` stands for every variable (`%reset`, `exec`, `from m import *`).
 */
export const Effect = z.strictObject({
  name: z.string(),
  line: z.number().int().describe('1-based line in the cell (for %run, the line of the %run).'),
  op: z.enum(['assign', 'modify', 'delete']),
  how: z
    .enum([
      'assign', 'assign-none', 'walrus', 'for', 'with', 'except', 'import', 'import-star', 'def', 'class',
      'magic', 'run', 'augmented', 'item-store', 'attr-store', 'item-delete', 'attr-delete', 'method',
      'inplace', 'fit', 'function', 'out', 'call', 'dynamic', 'del', 'xdel', 'reset', 'unread'
    ])
    .describe('How: e.g. "inplace" for df.drop(..., inplace=True), "call" for a user function.'),
  detail: z
    .string()
    .nullable()
    .describe('Method or function name ("append", "drop:columns"), operator ("+="), callee, or magic.'),
  target: z.string().nullable().describe('Source text of what was changed, shortened, e.g. "df[\'a\']".'),
  via: z
    .string()
    .nullable()
    .describe('"file.py:12" for an effect of a %run script; "%%capture", "%%time" or "%time" for a magic\'s body.'),
  status: z
    .enum(['done', 'maybe', 'skipped'])
    .describe('done: it happened; maybe: it may have; skipped: the cell raised before it.'),
  why: z
    .enum(['branch', 'loop', 'try', 'call', 'chained', 'dynamic', 'raised-inside', 'raised', 'syntax', 'script-raised', 'magic-raised'])
    .nullable()
    .describe('Why an effect is only "maybe" or was "skipped"; null when done.')
});
export type Effect = z.infer<typeof Effect>;

/** The exception a cell raised, and the line of the cell itself that was executing. */
export const CellRaised = z.strictObject({
  exception: z.string(),
  line: z.number().int().nullable()
});
export type CellRaised = z.infer<typeof CellRaised>;

/** Where a run raised, as the recorder saw it. */
export const RunRaised = CellRaised.extend({
  beforeExecution: z.boolean().describe('True for a SyntaxError: nothing in the cell ran.')
});
export type RunRaised = z.infer<typeof RunRaised>;

/** One execution of a cell. */
export const ExecutionRun = z.strictObject({
  executionCount: z.number().int().nullable(),
  cellId: z.string().nullable().describe("JupyterLab's cell id from the execute_request metadata."),
  code: z.string().describe('The cell as it ran.'),
  recorded: z.boolean().describe('False: ran before recording began, known from its code only.'),
  raised: RunRaised.nullable(),
  effects: z.array(Effect).describe('In line order.')
});
export type ExecutionRun = z.infer<typeof ExecutionRun>;

/** Every cell this kernel ran since it started (or since %load_ext crane_llm), oldest first. */
export const ExecutionLog = z.strictObject({
  version: z.literal(1),
  runs: z.array(ExecutionRun)
});
export type ExecutionLog = z.infer<typeof ExecutionLog>;

/** A run as the prompt shows it: its code and, when it raised, where (its effects stay in the log). */
export const ExecutedCell = ExecutionRun.pick({ executionCount: true, cellId: true, code: true }).extend({
  raised: CellRaised.optional().describe('Present when the cell raised (JupyterLab and --keep-going logs hold such cells).')
});
export type ExecutedCell = z.infer<typeof ExecutedCell>;
