import type { Kernel } from '@jupyterlab/services';
import { CheckResult, DeferredLog, type CheckRequest, type ExecutionLog } from '@crane-llm/core';

/**
 * Talks to the kernel side of crane_llm without a trace in the notebook: no execution count, no
 * history, no output. Once the extension is loaded in the kernel, through its comm target
 * (`crane_llm/kernel/channel.py`): a comm message names no Python, so nothing is looked up in the
 * notebook's namespace, where a bare `__import__` could be the notebook's own. Before that (a
 * kernel started without the recorder) through a silent request whose answer travels in
 * `user_expressions`, which IPython formats with the object's `_repr_json_`.
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

const TARGET = 'crane_llm';
/** Kernels whose channel is known to be absent (closed without an answer), until their next start. */
const withoutChannel = new WeakSet<Kernel.IKernelConnection>();

type ChannelRequest = { op: 'check'; request: string } | { op: 'history'; runs: number } | { op: 'ping' };

/**
 * Ask through the comm target: the reply's JSON, or `undefined` when this kernel has no target
 * (the kernel closes the comm at once). A restart or a dead kernel ends the wait with an error,
 * as a pending execute request's does.
 */
function viaChannel(kernel: Kernel.IKernelConnection, data: ChannelRequest): Promise<unknown> {
  if (withoutChannel.has(kernel) || !kernel.handleComms) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    let comm: Kernel.IComm;
    const done = (): void => {
      kernel.statusChanged.disconnect(onStatus);
    };
    const onStatus = (_: Kernel.IKernelConnection, status: Kernel.Status): void => {
      if (status === 'restarting' || status === 'autorestarting' || status === 'dead') {
        done();
        reject(new KernelProblemError('The kernel restarted or stopped before it answered the CRANE-LLM request.'));
      }
    };
    try {
      comm = kernel.createComm(TARGET);
    } catch {
      resolve(undefined);
      return;
    }
    kernel.statusChanged.connect(onStatus);
    // (`open` sends at once, before JupyterLab could move the comm to a kernel subshell: the
    // request reaches the main shell, in order with the cells; the kernel side refuses a subshell)
    let answered = false;
    comm.onMsg = msg => {
      answered = true;
      done();
      resolve((msg.content.data as { reply?: unknown } | undefined)?.reply ?? null);
    };
    comm.onClose = () => {
      if (answered) return; // (the target closes every comm after its answer)
      done();
      withoutChannel.add(kernel);
      resolve(undefined);
    };
    comm.open(data as unknown as Record<string, never>);
  });
}

async function ask(kernel: Kernel.IKernelConnection, data: ChannelRequest, expression: string): Promise<unknown> {
  const answer = await viaChannel(kernel, data);
  return answer === undefined ? evaluate(kernel, expression) : answer;
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
  const json = await ask(kernel, { op: 'check', request: JSON.stringify(req) }, checkExpression(req));
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
  const n = Math.floor(runs);
  const parsed = DeferredLog.safeParse(await ask(kernel, { op: 'history', runs: n }, `${ENTRY}.history(${n})`));
  return parsed.success ? parsed.data.log : null;
}

/** Start the execution recorder in a (re)started kernel; harmless if it already runs. */
export async function startRecorder(kernel: Kernel.IKernelConnection): Promise<boolean> {
  withoutChannel.delete(kernel); // (a new start: the extension may be loaded by its own start-up)
  try {
    if ((await viaChannel(kernel, { op: 'ping' })) !== undefined) return true; // loaded already
    await evaluate(kernel, `${EXTENSION}.load_ipython_extension(get_ipython()) or True`);
    withoutChannel.delete(kernel); // (the start-up registered the channel's target)
    return true;
  } catch {
    return false; // not installed there: the check will say so when it is asked for
  }
}
