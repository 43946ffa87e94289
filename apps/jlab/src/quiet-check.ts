import type { Kernel } from '@jupyterlab/services';
import type { CertainCrash } from '@crane-llm/core';
import { requestFacts } from './kernel-bridge';

/**
 * The built-in checks alone on one cell's text, for the two behaviours that check without a click
 * ("Check as you go", "Check before running"): no model, nothing leaves the machine, nothing is
 * shown while it runs. Anything that prevents an answer (another language, crane_llm missing in
 * the kernel, a kernel problem) is simply no claim: these behaviours never stand in the user's way.
 */
export async function certainCrashOf(kernel: Kernel.IKernelConnection, cell: { id: string; source: string }): Promise<CertainCrash | null> {
  try {
    const language = ((await kernel.spec)?.language ?? 'python').toLowerCase();
    if (language !== 'python') return null;
    const facts = await requestFacts(kernel, { protocol: 1, source: cell.source, cellId: cell.id, useLlm: false, includeRuntimeInfo: true, deferLog: true });
    return facts.checks.crash;
  } catch {
    return null;
  }
}
