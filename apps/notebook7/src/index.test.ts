import { describe, expect, it } from 'vitest';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { isNotebook7, revealSidePanel, sidePanelRank } from './index';

/** A stand-in for each host's shell, recording what was asked of it. */
function app(name: string, withExpand: boolean): { app: JupyterFrontEnd; calls: string[] } {
  const calls: string[] = [];
  const shell: Record<string, unknown> = { activateById: (id: string) => calls.push(`activate:${id}`) };
  if (withExpand) shell.expandRight = (id?: string) => calls.push(`expandRight:${id}`);
  return { app: { name, shell } as unknown as JupyterFrontEnd, calls };
}

describe('notebook 7 shell differences', () => {
  it('tells the hosts apart by name', () => {
    expect(isNotebook7(app('Jupyter Notebook', true).app)).toBe(true);
    expect(isNotebook7(app('JupyterLab', false).app)).toBe(false);
  });

  it('opens the hidden right panel in Notebook 7, and only activates in JupyterLab', () => {
    const nb = app('Jupyter Notebook', true);
    revealSidePanel(nb.app, 'side');
    expect(nb.calls).toEqual(['activate:side', 'expandRight:side']);
    const lab = app('JupyterLab', true);
    revealSidePanel(lab.app, 'side');
    expect(lab.calls).toEqual(['activate:side']);
  });

  it('ranks the panel after JupyterLab’s own right-side panels', () => {
    expect(sidePanelRank(app('JupyterLab', false).app)).toBeGreaterThan(sidePanelRank(app('Jupyter Notebook', true).app));
  });
});
