import type { Kernel } from '@jupyterlab/services';
import { CheckResult, DeferredLog, type CheckRequest, type ExecutionLog } from '@crane-llm/core';

/**
 * Talks to the kernel side of crane_llm through silent requests: no execution count, no
 * history, no output in the notebook. The answer travels in `user_expressions`, which IPython
 * formats with the object's `_repr_json_`.
 */

export class KernelProblemError extends Error {
  constructor(
    message: string,
    readonly kind: 'not-installed' | 'kernel' = 'kernel'
  ) {
    super(message);
  }
}

export const NOT_INSTALLED_MESSAGE =
  "crane_llm is not installed in this kernel's Python environment. Run `%pip install crane-llm` in a cell of this notebook, then restart the kernel and run your cells again.";

const ENTRY = "__import__('crane_llm.kernel.entry', fromlist=['check'])";
/** The extension's entry point, as `%load_ext crane_llm` calls it: the recorder and `%%crane_llm`. */
const EXTENSION = "__import__('crane_llm')";

/** A JSON string literal is also a valid Python string literal, escapes included. */
const pyString = (text: string): string => JSON.stringify(text);

export function checkExpression(req: CheckRequest): string {
  return `${ENTRY}.check(${pyString(JSON.stringify(req))})`;
}

async function evaluate(kernel: Kernel.IKernelConnection, expression: string): Promise<unknown> {
  const future = kernel.requestExecute(
    { code: '', silent: true, store_history: false, user_expressions: { crane: expression }, allow_stdin: false },
    true
  );
  const reply = await future.done;
  const content = reply.content as { status: string; user_expressions?: Record<string, Record<string, unknown>> };
  const answer = content.user_expressions?.crane;
  if (!answer) throw new KernelProblemError('The kernel did not answer the CRANE-LLM request.');
  if (answer.status !== 'ok') {
    if (answer.ename === 'ModuleNotFoundError' || answer.ename === 'ImportError') {
      throw new KernelProblemError(NOT_INSTALLED_MESSAGE, 'not-installed');
    }
    throw new KernelProblemError(`The kernel could not run the check: ${String(answer.ename)}: ${String(answer.evalue)}`);
  }
  const data = answer.data as Record<string, unknown> | undefined;
  return data?.['application/json'];
}

/** Ask the kernel for the facts about one cell. The cell itself is never executed. */
export async function requestFacts(kernel: Kernel.IKernelConnection, req: CheckRequest): Promise<CheckResult> {
  const json = await evaluate(kernel, checkExpression(req));
  const parsed = CheckResult.safeParse(json);
  if (!parsed.success) {
    throw new KernelProblemError(
      "The kernel's crane_llm answered in a format this extension does not understand; make sure the kernel and JupyterLab use the same crane-llm version."
    );
  }
  if (parsed.data.problem) {
    const kind = parsed.data.problem.kind === 'not-installed' ? 'not-installed' : 'kernel';
    throw new KernelProblemError(parsed.data.problem.message, kind);
  }
  return parsed.data;
}

/**
 * The execution log a reply left out (`logDeferred`): its oldest `runs` runs, as the check saw
 * them. Null when the kernel no longer holds them or answers something else: the origin is an aid.
 */
export async function requestDeferredLog(kernel: Kernel.IKernelConnection, runs: number): Promise<ExecutionLog | null> {
  const parsed = DeferredLog.safeParse(await evaluate(kernel, `${ENTRY}.history(${Math.floor(runs)})`));
  return parsed.success ? parsed.data.log : null;
}

/** Start the execution recorder in a (re)started kernel; harmless if it already runs. */
export async function startRecorder(kernel: Kernel.IKernelConnection): Promise<boolean> {
  try {
    await evaluate(kernel, `${EXTENSION}.load_ipython_extension(get_ipython()) or True`);
    return true;
  } catch {
    return false; // not installed there: the check will say so when it is asked for
  }
}
