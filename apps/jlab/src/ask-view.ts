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
  const body = document.createElement('div');
  body.className = 'crane-ask';
  const rows = document.createElement('dl');
  rows.className = 'crane-ask-rows';
  for (const [label, value] of previewRows(preview)) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dd.dataset.row = label;
    if (label === 'Host') dd.classList.add(preview.local ? 'crane-ask-local' : 'crane-ask-leaves');
    rows.append(dt, dd);
  }
  const heading = document.createElement('h4');
  heading.textContent = 'The whole prompt';
  const text = document.createElement('pre');
  text.className = 'crane-ask-prompt';
  text.textContent = preview.prompt;
  const note = document.createElement('p');
  note.className = 'crane-ask-note';
  note.textContent = 'The API key is added by the Jupyter server and is not shown here. Cancel (or Escape) sends nothing.';
  body.append(rows, heading, text, note);
  return body;
}
