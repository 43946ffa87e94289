import { el } from '@crane-llm/core';
import { previewRows, requestPreview, type BuiltPrompt, type RequestPreview } from '@crane-llm/prompt';
import type { PreparedPrompt } from './run-check';
import type { ServerProvider } from './model-effects';

/**
 * What the "Ask before sending" dialog shows: the request a check is about to make, whole. The
 * words come from libs/prompt's requestPreview, the twin of what the magic's --preview prints. The
 * provider's settings carry no key (the server never sends it), so neither does this view.
 */

export const ASK_TITLE = 'CRANE-LLM: send this request?';

export function previewOf(prompt: PreparedPrompt<BuiltPrompt>, provider: ServerProvider): RequestPreview {
  const disclosure = prompt.disclosure ?? { masked: 0, valuesLeftOut: false, runtimeInfoLeftOut: false };
  return requestPreview(provider.settings, { text: prompt.built.text, estimatedTokens: prompt.built.estimatedTokens }, disclosure);
}

/** The dialog's body: the heading rows, then the whole prompt. Only textContent is set. */
export function renderPreview(preview: RequestPreview): HTMLElement {
  const rows = el('dl', 'crane-ask-rows');
  for (const [label, value] of previewRows(preview)) {
    const dd = el('dd', label === 'Host' ? (preview.local ? 'crane-ask-local' : 'crane-ask-leaves') : '', value);
    dd.dataset.row = label;
    rows.append(el('dt', '', label), dd);
  }
  const body = el('div', 'crane-ask');
  body.append(
    rows,
    el('h4', '', 'The whole prompt'),
    el('pre', 'crane-ask-prompt', preview.prompt),
    el('p', 'crane-ask-note', 'The API key is added by the Jupyter server and is not shown here. Cancel (or Escape) sends nothing.')
  );
  return body;
}
