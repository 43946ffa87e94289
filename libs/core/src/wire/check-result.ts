import { z } from 'zod';
import { Correction } from '../verdict';
import { ExecutionLog } from './execution-log';
import { RuntimeInfo } from './runtime-info';

/** A crash the built-in checks found for certain from the live kernel state. */
export const CertainCrash = z.strictObject({
  exception: z.string().describe('Exception type name, e.g. "NameError".'),
  line: z.number().int().nullable().describe('1-based line in the target cell.'),
  column: z.number().int().nullable(),
  message: z.string().describe('One sentence: why the cell will raise.'),
  rule: z.string().describe('Which rule made the claim, e.g. "undefined-name".'),
  variables: z.array(z.string()).describe('Names involved, for the origin of the crash.'),
  correction: Correction.nullable()
    .optional()
    .describe('A misspelt name, column or attribute and its closest existing match, for a "Replace" action.')
});
export type CertainCrash = z.infer<typeof CertainCrash>;

/** Where the checker stopped reading the cell, and why; the model is asked then. */
export const CheckStop = z.strictObject({
  line: z.number().int().nullable(),
  reason: z.string()
});
export type CheckStop = z.infer<typeof CheckStop>;

export const ChecksOutcome = z.strictObject({
  ran: z.boolean().describe('False when runtime information is off (the checks read live state).'),
  crash: CertainCrash.nullable(),
  stoppedAt: CheckStop.nullable(),
  elapsedMs: z.number()
});
export type ChecksOutcome = z.infer<typeof ChecksOutcome>;

/**
 * The check's time budget in the kernel (facts, built-in checks, runtime information): when it
 * runs out the kernel answers with what it has, and `cut` says what was left out.
 */
export const CheckBudget = z.strictObject({
  seconds: z.number().positive(),
  source: z.string().describe('Where the setting came from, said for people, e.g. "default" or "environment variable CRANE_LLM_CHECK_BUDGET".'),
  ranOut: z.boolean(),
  cut: z.array(z.string()).describe('What was left out because the budget ran out, e.g. "runtime information for df, model".'),
  warning: z.string().nullable().describe('A budget setting that could not be used, and what was used instead.')
});
export type CheckBudget = z.infer<typeof CheckBudget>;

/** Something the kernel side could not do, said plainly. */
export const KernelProblem = z.strictObject({
  kind: z.enum(['internal', 'timeout', 'not-installed', 'protocol']),
  message: z.string()
});
export type KernelProblem = z.infer<typeof KernelProblem>;

/** What the kernel answers to a CheckRequest. */
export const CheckResult = z.strictObject({
  protocol: z.literal(1),
  craneVersion: z.string(),
  python: z.string(),
  checks: ChecksOutcome,
  usedNames: z.array(z.string()).describe('Names the cell reads from the kernel, in first-use order.'),
  runtimeInfo: RuntimeInfo.nullable().describe('Summaries of the variables the cell uses; null when runtime information is off.'),
  log: ExecutionLog.nullable().describe(
    "Cells executed so far, in the order they ran, with what each did (the origin of the crash reads it, the prompt takes its code); without the recorder, IPython's input history, code only. Null with a problem, or when left out (logDeferred)."
  ),
  logDeferred: z
    .strictObject({ runs: z.number().int().nonnegative() })
    .nullable()
    .optional()
    .describe(
      'Set when the request asked for deferLog and nothing needs the log at once: the log was left out, and `history(runs)` answers its oldest `runs` runs (the log as this check saw it).'
    ),
  definedIn: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe(
      "For a certain NameError whose correction suggests a name: the execution count of the run that defined that name (lineage's definedIn over the log), so the verdict needs no log."
    ),
  problem: KernelProblem.nullable(),
  budget: CheckBudget.optional().describe('The time budget and what it cut; absent from kernels older than the budget.')
});
export type CheckResult = z.infer<typeof CheckResult>;

/** What `history(runs)` answers: the execution log a CheckResult left out (logDeferred). */
export const DeferredLog = z.strictObject({
  protocol: z.literal(1),
  log: ExecutionLog.nullable().describe('The oldest `runs` runs of the log; null when the kernel no longer holds them (a restart).')
});
export type DeferredLog = z.infer<typeof DeferredLog>;
