import { z } from 'zod';
import { Verdict } from '../verdict';

/** An origin entry as libs/lineage (and its Python twin) computes it, with everything an agent can use. */
export const OriginEntryJson = z.strictObject({
  variable: z.string(),
  kind: z.enum(['assigned', 'modified', 'maybe', 'deleted', 'raised-before', 'conditional', 'not-run', 'edited']),
  cellId: z.string().nullable(),
  executionCount: z.number().int().nullable(),
  index: z.number().int().nullable().describe('0-based position of the cell in the notebook, when known.'),
  line: z.number().int().nullable(),
  recorded: z.boolean(),
  edited: z.boolean(),
  note: z.string(),
  sentence: z.string()
});
export type OriginEntryJson = z.infer<typeof OriginEntryJson>;

export const AnswerProblem = z.strictObject({
  kind: z.string().describe('A stable word for the problem: "no-session", "busy", "not-installed", "settings", ...'),
  message: z.string().describe('A sentence for a person (or an agent) to act on.')
});

/**
 * The answer to "will this cell crash?" as every non-visual host returns it: the `crane-llm check
 * --json` report, the MCP tool `check_cell` and the JupyterLab command `crane-llm:check`. One
 * schema, so an agent or a script reads the same fields whichever door it came through.
 */
export const CheckAnswer = z.looseObject({
  notebook: z.string().nullable(),
  cellId: z.string().nullable(),
  cellIndex: z.number().int().nullable().describe('0-based position of the target among all the notebook cells.'),
  verdict: Verdict.nullable().describe('Null when the check could not be made: see problem.'),
  origin: z.array(OriginEntryJson).describe('For a crash: the cells that gave the involved variables their state.'),
  problem: AnswerProblem.nullable()
}).describe('Hosts may add fields of their own (the CLI adds its exit code, prompt and raw response).');
export type CheckAnswer = z.infer<typeof CheckAnswer>;
