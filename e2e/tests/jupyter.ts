import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** Small helpers for driving JupyterLab and Notebook 7 as a person would. */

export type Host = 'lab' | 'notebook7';

/** Kernelspecs serve.py provides besides python3: another language, and Python without crane_llm. */
export const KERNELS = {
  python3: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' },
  other: { name: 'crane-e2e-other', display_name: 'Other language (e2e)', language: 'r' },
  bare: { name: 'crane-e2e-bare', display_name: 'Python without crane_llm (e2e)', language: 'python' }
} as const;

export function createNotebook(
  name: string,
  cells: string[],
  kernel: keyof typeof KERNELS = 'python3',
  root = process.env.CRANE_E2E_ROOT!
): void {
  const content = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: KERNELS[kernel] },
    cells: cells.map((source, i) => ({
      id: `cell-${i}`,
      cell_type: 'code',
      source,
      metadata: {},
      outputs: [],
      execution_count: null
    }))
  };
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, name), JSON.stringify(content, null, 1));
}

/** `base`: another server's absolute base URL (e.g. one under a /user/<name>/ prefix). */
export async function openNotebook(page: Page, host: Host, name: string, base = ''): Promise<Locator> {
  await page.goto(base + (host === 'lab' ? `lab/tree/${name}?reset` : `notebooks/${name}`));
  const panel = page.locator('.jp-NotebookPanel').filter({ has: page.locator('.jp-Notebook') }).first();
  await expect(panel).toBeVisible({ timeout: 60_000 });
  await waitIdle(page);
  return panel;
}

/**
 * Wait until the current notebook has a kernel and that kernel is idle. The toolbar's execution
 * indicator alone is not enough: JupyterLab 4.2 shows it "idle" before the session exists.
 */
export async function waitIdle(page: Page): Promise<void> {
  await expect(page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').first()).toBeAttached({
    timeout: 60_000
  });
  await page.waitForFunction(
    () => {
      type Shell = { currentWidget?: { sessionContext?: { session?: { kernel?: { status?: string } | null } | null } } };
      const app = (window as unknown as { jupyterapp?: { shell: Shell } }).jupyterapp;
      return app?.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle';
    },
    undefined,
    { timeout: 60_000 }
  );
}

export function cell(page: Page, index: number): Locator {
  return page.locator('.jp-NotebookPanel .jp-Notebook .jp-Cell').nth(index);
}

/** Select a cell the way a user does: click its prompt (command mode, no editing). */
export async function selectCell(page: Page, index: number): Promise<void> {
  await cell(page, index).locator('.jp-InputPrompt').click();
  await expect(cell(page, index)).toHaveClass(/jp-mod-selected/);
}

export async function runCell(page: Page, index: number, wait = true): Promise<void> {
  const prompt = cell(page, index).locator('.jp-InputPrompt');
  const before = (await prompt.textContent()) ?? '';
  // A keypress that lands while JupyterLab reloads its shortcuts (it does so after any settings
  // change) is lost; press again only while the cell has visibly not been queued.
  await expect(async () => {
    if (((await prompt.textContent()) ?? '') === before) {
      await selectCell(page, index);
      await page.keyboard.press('Control+Enter');
    }
    await expect(prompt).not.toHaveText(before, { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  if (wait) {
    await expect(prompt).toHaveText(/\[\d+\]/, { timeout: 60_000 });
  }
}

export function craneButton(page: Page): Locator {
  return page.locator('.jp-NotebookPanel-toolbar [data-jp-item-name="crane-llm"]').first();
}

export async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('.jp-toast-button, .Toastify__close-button');
  const n = await close.count();
  for (let i = 0; i < n; i++) await close.nth(i).click({ trial: false }).catch(() => undefined);
}
