import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { el, renderCheck, renderPromptAndRaw, renderUnreadable } from '@crane-llm/core';
import { MAGIC_MIME_TYPE, MagicDocument } from './document';

export { MAGIC_MIME_TYPE, MagicDocument } from './document';

/**
 * The magic's document drawn by libs/core's verdict view, the one the toolbar button uses, so a
 * magic verdict looks like a button verdict. The magic has no sidebar: its settings notes, prompt
 * and raw response go below the verdict, and the whole streamed response shows while it grows.
 */
export function renderMagic(doc: MagicDocument): HTMLElement {
  const box = renderCheck(
    doc.state,
    {},
    {
      fullRaw: true,
      finishedSteps: 'hidden',
      footer: () => [doc.notes.length ? notes(doc.notes) : null, renderPromptAndRaw(doc.state)]
    }
  );
  box.classList.add('crane-magic');
  box.dataset.displayId = doc.displayId;
  return box;
}

function notes(lines: readonly string[]): HTMLElement {
  return el('div', 'crane-settings-source crane-note', lines.join(' '));
}

/** What a malformed payload shows instead of a verdict: never a guess. */
export function renderUnreadableMagic(reason: string): HTMLElement {
  const box = renderUnreadable('This CRANE-LLM output could not be read', reason);
  box.classList.add('crane-magic');
  return box;
}

/**
 * Renders the %%crane_llm output in JupyterLab and Notebook 7. The kernel updates the output in
 * place (update_display_data) for every step and when it goes stale; each update re-renders here.
 */
export class MagicVerdictRenderer extends Widget implements IRenderMime.IRenderer {
  constructor(readonly mimeType: string) {
    super();
    this.addClass('crane-magic-output');
    // As JupyterLab's own renderers do: the output says which of its MIME types is shown.
    this.node.dataset.mimeType = mimeType;
  }

  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const parsed = MagicDocument.safeParse(model.data[this.mimeType]);
    this.node.replaceChildren(
      parsed.success
        ? renderMagic(parsed.data)
        : renderUnreadableMagic(
            'Its data does not have the form this extension reads; the kernel and JupyterLab may have different crane-llm versions.'
          )
    );
    return Promise.resolve();
  }
}

export const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [MAGIC_MIME_TYPE],
  // Ahead of text/html (rank 50): in Lab and Notebook 7 the native view wins over the static HTML.
  defaultRank: 10,
  createRenderer: options => new MagicVerdictRenderer(options.mimeType)
};

export const magicRendererExtension: IRenderMime.IExtension = {
  id: 'crane-llm-jlab:magic-renderer',
  description: 'Renders the %%crane_llm cell magic output like the toolbar verdict.',
  rendererFactory,
  rank: 10,
  dataType: 'json'
};

export default magicRendererExtension;
