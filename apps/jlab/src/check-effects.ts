import type { NotebookPanel } from '@jupyterlab/notebook';
import type { FetchLike, ServerSettings } from '@crane-llm/prompt';
import { requestFacts } from './kernel-bridge';
import { predict, preparePrompt, serverProvider, type JupyterCheckEffects } from './model-effects';
import type { OriginEntry } from '@crane-llm/lineage';
import { originEffect } from './origin';

/**
 * The effects of a check in JupyterLab: the facts from the notebook's kernel, the provider settings
 * from the server extension, the prompt and the model call through its proxy, the origin from the
 * notebook's cells. The settings the provider step loaded travel to the model call in its answer.
 */
export function jupyterCheckEffects(
  panel: NotebookPanel,
  loadProvider: () => Promise<ServerSettings>,
  serverBaseUrl: string,
  fetch: FetchLike,
  keepOrigin?: (entries: OriginEntry[]) => void
): JupyterCheckEffects {
  const kernel = panel.sessionContext.session!.kernel!;
  return {
    facts: req => requestFacts(kernel, req),
    provider: async () => serverProvider(await loadProvider()),
    prompt: preparePrompt,
    predict: call => predict(call, serverBaseUrl, fetch),
    origin: originEffect(panel, keepOrigin)
  };
}
