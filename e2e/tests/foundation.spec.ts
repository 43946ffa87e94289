import { expect, test } from '@playwright/test';
import { check } from './crane';
import { cell, craneButton, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';

const CELLS = ['df = {"a": [1, 2, 3]}', "dff['a']", "df['a']", 'import time\ntime.sleep(30)'];

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`foundation slice in ${host}`, () => {
    test('a certain NameError is red with the built-in badge; a defined name is blue', async ({ page }, info) => {
      const name = `foundation-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await runCell(page, 0);
      await waitIdle(page);

      await selectCell(page, 1);
      await craneButton(page).click();
      const red = cell(page, 1).locator('.crane-verdict');
      await expect(red).toHaveAttribute('data-colour', 'red');
      await expect(red).toContainText('NameError');
      await expect(red).toContainText("dff");
      await expect(red.locator('.crane-badge')).toHaveText('Built-in check · certain');
      await expect(cell(page, 1).locator('.jp-InputPrompt')).not.toHaveText(/\[\d+\]/); // never executed
      await page.screenshot({ path: info.outputPath(`${host}-red-nameerror.png`) });

      await selectCell(page, 2);
      await craneButton(page).click();
      const blue = cell(page, 2).locator('.crane-verdict');
      await expect(blue).toHaveAttribute('data-colour', 'blue');
      await expect(blue).toContainText('no certain crash');
      await page.screenshot({ path: info.outputPath(`${host}-blue-nothing-certain.png`) });
    });

    test('refuses while a cell is running', async ({ page }, info) => {
      const name = `busy-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await runCell(page, 3, false);
      await expect(page.locator('.jp-Notebook-ExecutionIndicator[data-status="busy"]').first()).toBeAttached();
      await selectCell(page, 1);
      await craneButton(page).click();
      await expect(page.getByText('waits for the notebook to be idle').first()).toBeVisible();
      await expect(cell(page, 1).locator('.crane-verdict')).toHaveCount(0);
      await page.screenshot({ path: info.outputPath(`${host}-busy-refused.png`) });
    });
  });
}

test('a check runs none of the notebook\'s code, even a notebook-defined __import__ (through the kernel channel)', async ({ page }) => {
  const name = 'channel-lab.ipynb';
  createNotebook(name, [
    'calls = []\ndef __import__(*a, **k):\n    calls.append(a[0] if a else "?")\n    return __builtins__.__import__(*a, **k)',
    'undefined_thing + 1',
    'print("calls:", calls)'
  ]);
  await openNotebook(page, 'lab', name);
  await runCell(page, 0);
  await waitIdle(page);
  await selectCell(page, 1);
  const red = await check(page, 1);
  await expect(red).toHaveAttribute('data-colour', 'red');
  await expect(red).toContainText('NameError');
  await runCell(page, 2);
  await expect(cell(page, 2).locator('.jp-OutputArea-output')).toContainText('calls: []');
});
