import { z } from 'zod';
import { ExecutionLog } from './execution-log';
import { RuntimeInfo } from './runtime-info';

/** A crash the built-in checks found for certain from the live kernel state. */
export const CertainCrash = z
  .object({
    exception: z.string().describe('Exception type name, e.g. "NameError".'),
    line: z.number().int().nullable().describe('1-based line in the target cell.'),
    column: z.number().int().nullable(),
    message: z.string().describe('One sentence: why the cell will raise.'),
    rule: z.string().describe('Which rule made the claim, e.g. "undefined-name".'),
    variables: z.array(z.string()).describe('Names involved, for the origin of the crash.')
  })
  .strict();
export type CertainCrash = z.infer<typeof CertainCrash>;

/** Where the checker stopped reading the cell, and why; the model is asked then. */
export const CheckStop = z
  .object({
    line: z.number().int().nullable(),
    reason: z.string()
  })
  .strict();
export type CheckStop = z.infer<typeof CheckStop>;

export const ChecksOutcome = z
  .object({
    ran: z.boolean().describe('False when runtime information is off (the checks read live state).'),
    crash: CertainCrash.nullable(),
    stoppedAt: CheckStop.nullable(),
    elapsedMs: z.number()
  })
  .strict();
export type ChecksOutcome = z.infer<typeof ChecksOutcome>;

/** A cell the kernel has executed, in execution order. */
export const ExecutedCell = z
  .object({
    executionCount: z.number().int().nullable(),
    cellId: z.string().nullable(),
    code: z.string(),
    /** Present when the cell raised (JupyterLab and --keep-going logs hold such cells). */
    raised: z
      .object({ exception: z.string(), line: z.number().int().nullable() })
      .strict()
      .optional()
      .describe('The exception the cell raised, and the line of the cell where it did.')
  })
  .strict();
export type ExecutedCell = z.infer<typeof ExecutedCell>;

/** Something the kernel side could not do, said plainly. */
export const KernelProblem = z
  .object({
    kind: z.enum(['internal', 'timeout', 'not-installed', 'protocol']),
    message: z.string()
  })
  .strict();
export type KernelProblem = z.infer<typeof KernelProblem>;

/** What the kernel answers to a CheckRequest. */
export const CheckResult = z
  .object({
    protocol: z.literal(1),
    craneVersion: z.string(),
    python: z.string(),
    checks: ChecksOutcome,
    usedNames: z.array(z.string()).describe('Names the cell reads from the kernel, in first-use order.'),
    runtimeInfo: RuntimeInfo.nullable().describe('Summaries of the variables the cell uses; null when runtime information is off.'),
    executed: z.array(ExecutedCell).describe('Cells executed so far, in the order they ran.'),
    log: ExecutionLog.nullable().describe("The execution recorder's log, for the origin of the crash; null when the recorder is not installed."),
    problem: KernelProblem.nullable()
  })
  .strict();
export type CheckResult = z.infer<typeof CheckResult>;
