import { describe, expect, it } from 'vitest';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { isNotebook7, revealSidePanel, sidePanelRank } from './index';

/**
 * A model of Notebook 7's right panel, as far as a reveal sees it: activateById expands the panel
 * on the widget. `toggles` is the 7.1–7.5 expand, which closes a panel already showing that widget;
 * without it, the 7.6 expand, which just shows it.
 */
function notebookShell(toggles: boolean) {
  let current: string | null = null;
  const expandRight = (id: string): void => {
    current = toggles && current === id ? null : id;
  };
  const shell = {
    activateById: (id: string) => {
      expandRight(id);
    },
    expandRight,
    *widgets(area?: string) {
      if (area === 'right') yield { id: 'side', isVisible: current === 'side' };
    }
  };
  const app = { name: 'Jupyter Notebook', shell } as unknown as JupyterFrontEnd;
  return { app, showing: () => current };
}

describe('notebook 7 shell differences', () => {
  it('tells the hosts apart by name', () => {
    expect(isNotebook7(notebookShell(false).app)).toBe(true);
    expect(isNotebook7({ name: 'JupyterLab', shell: {} } as unknown as JupyterFrontEnd)).toBe(false);
  });

  for (const [version, toggles] of [
    ['7.2', true],
    ['7.6', false]
  ] as const) {
    it(`shows the panel in Notebook ${version}, and keeps it shown when revealed again`, () => {
      const nb = notebookShell(toggles);
      revealSidePanel(nb.app, 'side');
      expect(nb.showing()).toBe('side');
      revealSidePanel(nb.app, 'side');
      expect(nb.showing()).toBe('side');
    });
  }

  it('reopens a Notebook 7 panel the user closed', () => {
    const nb = notebookShell(true);
    revealSidePanel(nb.app, 'side');
    nb.app.shell.activateById('side'); // a second expand closes it, as the close button would
    expect(nb.showing()).toBeNull();
    revealSidePanel(nb.app, 'side');
    expect(nb.showing()).toBe('side');
  });

  it('always activates in JupyterLab, whose right sidebar activation does not toggle', () => {
    const calls: string[] = [];
    const shell = {
      activateById: (id: string) => calls.push(id),
      *widgets() {
        yield { id: 'side', isVisible: true };
      }
    };
    const lab = { name: 'JupyterLab', shell } as unknown as JupyterFrontEnd;
    revealSidePanel(lab, 'side');
    expect(calls).toEqual(['side']);
  });

  it('ranks the panel after JupyterLab’s own right-side panels', () => {
    const lab = { name: 'JupyterLab', shell: {} } as unknown as JupyterFrontEnd;
    expect(sidePanelRank(lab)).toBeGreaterThan(sidePanelRank(notebookShell(false).app));
  });
});
