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

/** The part of either host's shell a reveal needs; `widgets` is JupyterFrontEnd.IShell's. */
interface SidePanelShell {
  activateById(id: string): void;
  widgets?(area?: string): Iterable<{ readonly id: string; readonly isVisible: boolean }>;
}

function isShowing(shell: SidePanelShell, area: string, id: string): boolean {
  if (typeof shell.widgets !== 'function') return false;
  for (const widget of shell.widgets(area)) if (widget.id === id) return widget.isVisible;
  return false;
}

/**
 * Show a side panel. activateById opens it in both hosts: JupyterLab's right sidebar activates it,
 * and Notebook 7's shell expands its right panel on it. Notebook 7.1 to 7.5 make that expand a
 * toggle (a panel already showing the widget is closed; 7.6 made it idempotent), so in Notebook 7
 * a panel that already shows it is left alone, and activateById is called once, never followed by
 * a second expand, which in those versions hid the panel it had just opened.
 */
export function revealSidePanel(app: JupyterFrontEnd, id: string): void {
  const shell = app.shell as unknown as SidePanelShell;
  if (isNotebook7(app) && isShowing(shell, sidePanelArea(app), id)) return;
  shell.activateById(id);
}
