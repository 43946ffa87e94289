import { z } from 'zod';

/** What the front end asks the kernel: facts about one cell, which is never executed. */
export const CheckRequest = z.strictObject({
  protocol: z.literal(1),
  source: z.string().describe('The target cell, exactly as in the editor.'),
  cellId: z.string().nullable().describe('The notebook cell id, when the host has one.'),
  useLlm: z.boolean().describe('"Use the LLM": false means only the built-in checks run.'),
  includeRuntimeInfo: z
    .boolean()
    .describe('"Include runtime information": false means neither runtime information nor the built-in checks.'),
  budgetSeconds: z
    .number()
    .positive()
    .optional()
    .describe("The check's time budget in seconds, when the caller chose one (magic, CLI); otherwise the kernel's setting."),
  deferLog: z
    .boolean()
    .optional()
    .describe(
      'true: the reply carries the execution log only when a prompt is built from it (no certain crash, the LLM on); otherwise it says how many runs to ask `history()` for afterwards (logDeferred).'
    )
});
export type CheckRequest = z.infer<typeof CheckRequest>;
