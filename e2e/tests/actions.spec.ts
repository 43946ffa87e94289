import { expect, test } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { check, snap } from './crane';

/**
 * Actions under a certain crash: they do what they say and nothing else. "Run cell N first" runs
 * that cell alone; the checked cell stays unrun.
 */

const CELLS = ['rate = 0.1', 'token = 5', 'token + 1'];

for (const host of ['lab', 'notebook7'] as Host[]) {
  test(`"Run cell 2 first" runs the defining cell only, in ${host}`, async ({ page }, info) => {
    const name = `actions-run-${host}.ipynb`;
    createNotebook(name, CELLS);
    await openNotebook(page, host, name);
    await runCell(page, 0);
    await waitIdle(page);
    const firstCount = await cell(page, 0).locator('.jp-InputPrompt').textContent();

    await selectCell(page, 2);
    const box = await check(page, 2);
    await expect(box).toHaveAttribute('data-colour', 'red');
    await expect(box).toContainText('NameError');
    const run = box.locator('.crane-action-run-cell');
    await expect(run).toHaveText('Run cell 2 first');
    await snap(page, info, `${host}-action-run-cell`);
    await run.click();

    await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText(/\[\d+\]/);
    await waitIdle(page);
    await expect(cell(page, 0).locator('.jp-InputPrompt')).toHaveText(firstCount!);
    await expect(cell(page, 2).locator('.jp-InputPrompt')).toHaveText(/\[\s*\]:/);
    // Another cell ran: the verdict is stale, and offers nothing more.
    await expect(box).toHaveAttribute('data-colour', 'grey');
    await expect(box.locator('.crane-actions')).toHaveCount(0);
  });
}
