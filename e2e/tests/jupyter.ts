import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** Small helpers for driving JupyterLab and Notebook 7 as a person would. */

export type Host = 'lab' | 'notebook7';

export function createNotebook(name: string, cells: string[]): void {
  const content = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3 (ipykernel)', language: 'python' } },
    cells: cells.map((source, i) => ({
      id: `cell-${i}`,
      cell_type: 'code',
      source,
      metadata: {},
      outputs: [],
      execution_count: null
    }))
  };
  const root = process.env.CRANE_E2E_ROOT!;
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, name), JSON.stringify(content, null, 1));
}

export async function openNotebook(page: Page, host: Host, name: string): Promise<Locator> {
  await page.goto(host === 'lab' ? `lab/tree/${name}?reset` : `notebooks/${name}`);
  const panel = page.locator('.jp-NotebookPanel').filter({ has: page.locator('.jp-Notebook') }).first();
  await expect(panel).toBeVisible({ timeout: 60_000 });
  await waitIdle(page);
  return panel;
}

export async function waitIdle(page: Page): Promise<void> {
  await expect(page.locator('.jp-Notebook-ExecutionIndicator[data-status="idle"]').first()).toBeAttached({
    timeout: 60_000
  });
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
  await selectCell(page, index);
  await page.keyboard.press('Control+Enter');
  if (wait) {
    await expect(cell(page, index).locator('.jp-InputPrompt')).toHaveText(/\[\d+\]/, { timeout: 60_000 });
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
