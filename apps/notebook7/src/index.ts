import type { JupyterFrontEnd } from '@jupyterlab/application';

/**
 * Notebook 7 runs the same labextension as JupyterLab; its shell differs. This package is the one
 * place that knows how.
 */

/** Notebook 7's shell has no ILabShell; its notebook page is a single-document shell. */
export function isNotebook7(app: JupyterFrontEnd): boolean {
  return app.name === 'Jupyter Notebook';
}

/** Where a side panel goes: JupyterLab's right sidebar, or Notebook 7's right panel (hidden until opened). */
export function sidePanelArea(_app: JupyterFrontEnd): 'right' {
  return 'right';
}
