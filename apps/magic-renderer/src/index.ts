import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { MAGIC_MIME_TYPE, MagicDocument } from './document';
import { renderMagic, renderUnreadable } from './view';

export { MAGIC_MIME_TYPE, MagicDocument, MagicState } from './document';
export { renderMagic, renderUnreadable } from './view';

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
        : renderUnreadable(
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
