import type { NotebookPanel } from '@jupyterlab/notebook';
import type { FetchLike, ServerSettings } from '@crane-llm/prompt';
import { requestDeferredLog, requestFacts } from './kernel-bridge';
import { predict, preparePrompt, serverProvider, type JupyterCheckEffects } from './model-effects';
import type { OriginEntry } from '@crane-llm/lineage';
import { originEffect } from './origin';
import { askBeforeSending } from './ask-dialog';
import { sentCallOf, type SentLog } from './sent-log';

/** What the user's trust settings add to a check: the dialog before sending, and the session's list. */
export interface TrustEffects {
  /** "Ask before sending" as it is now (read at the moment of the call, not at start-up). */
  ask: () => boolean;
  log: SentLog;
}

/** "analysis.ipynb, cell 3": the cell as the sent-list names it (its place when the call went out). */
export function cellLabel(panel: NotebookPanel, cellId: string | null): string {
  const index = panel.content.widgets.findIndex(w => w.model.id === cellId);
  return index < 0 ? panel.context.localPath : `${panel.context.localPath}, cell ${index + 1}`;
}

/**
 * The effects of a check in JupyterLab: the facts from the notebook's kernel, the provider settings
 * from the server extension, the prompt and the model call through its proxy, the origin from the
 * notebook's cells. The settings the provider step loaded travel to the model call in its answer.
 * With "Ask before sending" on, the dialog stands between the prompt and the call; every call that
 * went out is added to the session's sent-list.
 */
export function jupyterCheckEffects(
  panel: NotebookPanel,
  loadProvider: () => Promise<ServerSettings>,
  serverBaseUrl: string,
  fetch: FetchLike,
  trust: TrustEffects,
  keepOrigin?: (entries: OriginEntry[]) => void
): JupyterCheckEffects {
  const kernel = panel.sessionContext.session!.kernel!;
  return {
    facts: req => requestFacts(kernel, req),
    provider: async () => serverProvider(await loadProvider()),
    prompt: preparePrompt,
    ...(trust.ask() ? { confirm: call => askBeforeSending(call.prompt, call.provider, call.signal) } : {}),
    sent: call => trust.log.add(sentCallOf(cellLabel(panel, call.cellId), call)),
    predict: call => predict(call, serverBaseUrl, fetch),
    origin: originEffect(panel, keepOrigin),
    log: deferred => requestDeferredLog(kernel, deferred.runs)
  };
}
