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

/** Rank in the right area: after JupyterLab's property inspector and debugger, alone in Notebook 7's. */
export function sidePanelRank(app: JupyterFrontEnd): number {
  return isNotebook7(app) ? 100 : 900;
}

interface ExpandableShell {
  activateById(id: string): void;
  expandRight?(id?: string): void;
  rightCollapsed?: boolean;
}

/**
 * Show a side panel. JupyterLab's activateById opens the right sidebar on it; Notebook 7's right
 * panel starts hidden, and its shell shows it with expandRight.
 */
export function revealSidePanel(app: JupyterFrontEnd, id: string): void {
  const shell = app.shell as unknown as ExpandableShell;
  shell.activateById(id);
  if (isNotebook7(app) && typeof shell.expandRight === 'function') shell.expandRight(id);
}
