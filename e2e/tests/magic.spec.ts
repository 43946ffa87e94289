import { expect, test, type Page } from '@playwright/test';
import { cell, craneButton, createNotebook, openNotebook, selectCell, waitIdle, type Host } from './jupyter';

/**
 * The %%crane_llm magic in JupyterLab and Notebook 7: its output is drawn by apps/magic-renderer
 * (not the static HTML fallback), it says what the toolbar button says for the same cell, and it
 * turns grey once another cell runs.
 */

const MIME = 'application/vnd.crane-llm.verdict+json';

/**
 * Run a cell, pressing again if the first key press was lost (seen on a loaded machine right after
 * the notebook opened): only while the prompt still shows it never started, so nothing runs twice.
 */
async function runCell(page: Page, index: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await selectCell(page, index);
      await page.keyboard.press('Control+Enter');
      await expect(cell(page, index).locator('.jp-InputPrompt')).not.toHaveText('[ ]:', { timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
  await expect(cell(page, index).locator('.jp-InputPrompt')).toHaveText(/\[\d+\]/, { timeout: 60_000 });
}
const CELLS = ['df = {"a": [1, 2, 3]}', "dff['a']", '%load_ext crane_llm', "%%crane_llm\ndff['a']", 'x = 1'];

for (const host of ['lab', 'notebook7'] as Host[]) {
  test(`the magic renders natively and matches the button in ${host}`, async ({ page }, info) => {
    const name = `magic-${host}.ipynb`;
    createNotebook(name, CELLS);
    await openNotebook(page, host, name);
    await runCell(page, 0);
    await waitIdle(page);

    // The button's verdict for the cell, read before anything else runs (a run makes it stale).
    await selectCell(page, 1);
    await craneButton(page).click();
    const button = cell(page, 1).locator('.crane-verdict');
    await expect(button).toHaveAttribute('data-colour', 'red');
    const expected = {
      colour: await button.getAttribute('data-colour'),
      title: await button.locator('.crane-title').textContent(),
      badge: await button.locator('.crane-badge').textContent()
    };

    await runCell(page, 2);
    await runCell(page, 3);
    // Drawn by the renderer (its widget is the output), not by the static HTML fallback.
    const output = cell(page, 3).locator(`.jp-OutputArea-output.crane-magic-output[data-mime-type="${MIME}"]`);
    await expect(cell(page, 3).locator('.crane-verdict')).toHaveCount(1);
    await expect(output).toHaveCount(1);
    await expect(cell(page, 3).locator('.crane-llm-magic, [data-mime-type="text/html"]')).toHaveCount(0);
    const magic = output.locator('.crane-verdict');
    await expect(magic).toHaveAttribute('data-colour', expected.colour!);
    await expect(magic.locator('.crane-title')).toHaveText(expected.title!);
    await expect(magic.locator('.crane-badge')).toHaveText(expected.badge!);
    await expect(magic.locator('.crane-badge')).toHaveText('Built-in check · certain');
    await expect(magic.locator('.crane-step[data-step="checks"]')).toHaveCount(0); // a finished verdict shows no steps
    await page.screenshot({ path: info.outputPath(`${host}-magic-red.png`) });

    // Another %%crane_llm check executes nothing, so a fresh button verdict stays fresh.
    await selectCell(page, 1);
    await craneButton(page).click();
    await expect(button).toHaveAttribute('data-colour', 'red');
    await runCell(page, 3);
    await expect(magic).toHaveAttribute('data-colour', 'red');
    await expect(button).toHaveAttribute('data-colour', 'red');

    // Another cell runs: the magic's output and the button's verdict turn grey in place.
    await runCell(page, 4);
    await expect(magic).toHaveAttribute('data-colour', 'grey');
    await expect(button).toHaveAttribute('data-colour', 'grey');
    await expect(magic.locator('.crane-stale')).toContainText('another cell ran');
    await expect(magic.locator('.crane-title')).toHaveText(expected.title!);
    await page.screenshot({ path: info.outputPath(`${host}-magic-stale.png`) });
  });
}
