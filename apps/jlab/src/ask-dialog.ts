import { Dialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type { BuiltPrompt } from '@crane-llm/prompt';
import type { PreparedPrompt } from './run-check';
import type { ServerProvider } from './model-effects';
import { ASK_TITLE, previewOf, renderPreview } from './ask-view';

/** "Ask before sending": the request in a JupyterLab dialog with Send and Cancel. */

/** Opens the dialog; true only for Send. A stop of the check (cancel, restart) closes it as Cancel. */
export async function askBeforeSending(prompt: PreparedPrompt<BuiltPrompt>, provider: ServerProvider, signal: AbortSignal): Promise<boolean> {
  const dialog = new Dialog({
    title: ASK_TITLE,
    body: new Widget({ node: renderPreview(previewOf(prompt, provider)) }),
    buttons: [Dialog.cancelButton({ label: 'Cancel' }), Dialog.okButton({ label: 'Send' })],
    defaultButton: 0
  });
  dialog.addClass('crane-ask-dialog');
  const close = () => dialog.reject();
  signal.addEventListener('abort', close, { once: true });
  try {
    const result = await dialog.launch();
    return result.button.accept && !signal.aborted;
  } finally {
    signal.removeEventListener('abort', close);
    dialog.dispose();
  }
}

