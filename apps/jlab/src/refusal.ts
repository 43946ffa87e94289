import type { NotebookPanel } from '@jupyterlab/notebook';
import type { ProblemKind } from '@crane-llm/core';
import { codeRuns } from './running-code';

export const BUSY_MESSAGE =
  'CRANE-LLM waits for the notebook to be idle: reading the kernel state means running code in the kernel, and with cells still running the answer would describe the state afterwards. Try again when the running cells have finished.';

const STARTING_MESSAGE = 'The kernel is still starting. Run your cells once it is idle, then check again.';

/** Why a notebook cannot be checked right now, or null when it can. */
export async function refusal(panel: NotebookPanel | null): Promise<{ problem: ProblemKind; message: string } | null> {
  if (!panel) return { problem: 'no-kernel', message: 'Open a notebook and select a cell to check.' };
  const context = panel.sessionContext;
  if (context.hasNoKernel) {
    return { problem: 'no-kernel', message: 'This notebook has no kernel. Select a Python kernel, run your cells, then check again.' };
  }
  const kernel = context.session?.kernel;
  if (!kernel || !context.isReady) return { problem: 'busy', message: STARTING_MESSAGE };
  // Read at the moment of the click, before anything is awaited.
  if (codeRuns(kernel)) return { problem: 'busy', message: BUSY_MESSAGE };
  let language = '';
  try {
    language = (await kernel.spec)?.language ?? '';
  } catch {
    language = panel.sessionContext.kernelPreference.language ?? '';
  }
  if (language && language.toLowerCase() !== 'python') {
    return {
      problem: 'not-python',
      message: `CRANE-LLM checks Python cells, and this notebook's kernel is ${panel.sessionContext.kernelDisplayName} (${language}). Switch to a Python kernel to check its cells.`
    };
  }
  return null;
}
