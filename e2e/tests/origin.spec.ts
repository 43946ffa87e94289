import { expect, test } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, check, openSidebar, setSwitches, verdict, verdictText, snap } from './crane';

/**
 * Origin of the crash: the cells that gave the crash's variables their state, under the verdict,
 * in the sidebar and on the cells themselves (dashed violet outline and a note) until stale.
 */

const DROPPED = [
  'import pandas as pd\ndf = pd.DataFrame({"a": [1, 2], "b": [3, 4], "c": [5, 6]})',
  'n = 1',
  'df.drop(columns=["b"], inplace=True)',
  'm = 2',
  'df["b"].sum()'
];

const UNDEFINED = ['tf_idf = 3', 'x = 1 / 0\ntoken = 5', 'print(tf_idf)', 'token + 1'];

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`origin of the crash in ${host}`, () => {
    test.afterEach(async ({ page }) => setSwitches(page, { useLlm: false, includeRuntimeInfo: true }).catch(() => undefined));

    test('a column dropped in place: cells 1 and 3, outlines, jump, stale', async ({ page }, info) => {
      const shot = (name: string) => snap(page, info, `${host}-${name}`);
      const name = `origin-${host}.ipynb`;
      createNotebook(name, DROPPED);
      await openNotebook(page, host, name);
      for (const i of [0, 1, 2, 3]) await runCell(page, i);
      await waitIdle(page);

      await selectCell(page, 4);
      const box = await check(page, 4);
      await expect(box).toHaveAttribute('data-colour', 'red');
      await expect(box).toContainText('KeyError');
      const entries = box.locator('.crane-origin-entry');
      await expect(box.locator('.crane-origin-title')).toHaveText('Origin of the crash');
      await expect(entries).toHaveCount(2);
      await expect(entries.nth(0)).toHaveAttribute('data-cell-id', 'cell-0');
      await expect(entries.nth(0)).toContainText('line 2');
      await expect(entries.nth(1)).toHaveAttribute('data-cell-id', 'cell-2');
      await expect(entries.nth(1)).toContainText('in place');

      for (const i of [0, 2]) {
        await expect(cell(page, i)).toHaveClass(/crane-origin-cell/);
        await expect(cell(page, i).locator('.crane-origin-note')).toContainText('Origin of the crash');
      }
      for (const i of [1, 3]) await expect(cell(page, i)).not.toHaveClass(/crane-origin-cell/);
      await expect(cell(page, 2).locator('.crane-origin-note')).toContainText('dropped columns');
      await shot('origin-outlines');

      const side = await openSidebar(page);
      await expect(side.locator('.crane-origin-entry')).toHaveCount(2);
      await side.locator('.crane-origin-entry').nth(1).click();
      await expect(cell(page, 2)).toHaveClass(/jp-mod-active/);
      await shot('origin-jumped');

      // Edited since it ran: cell 3's code no longer matches what ran.
      await cell(page, 2).locator('.jp-InputArea-editor').click();
      await page.keyboard.press('End');
      await page.keyboard.type('  # changed');
      await page.keyboard.press('Escape');
      // The edit is not of the checked cell, so the verdict stays; a new check flags the edit.
      await selectCell(page, 4);
      const again = await check(page, 4);
      await expect(again.locator('.crane-origin-edited')).toHaveCount(1);
      await expect(cell(page, 2).locator('.crane-origin-note')).toContainText('edited since it ran');
      await shot('origin-edited-flag');

      // Stale: the outlines and notes go.
      await cell(page, 4).locator('.jp-InputArea-editor').click();
      await page.keyboard.type('#');
      await expect(verdict(page, 4)).toHaveAttribute('data-colour', 'grey');
      await expect(page.locator('.crane-origin-cell')).toHaveCount(0);
      await expect(page.locator('.crane-origin-note')).toHaveCount(0);
      await page.keyboard.press('Escape');
      await shot('origin-stale');
    });

    test('a model prediction gets its origin too, from the variables it names', async ({ page }, info) => {
      const fake = FakeProvider.ofRun();
      await fake.reset();
      const name = `origin-llm-${host}.ipynb`;
      createNotebook(name, [DROPPED[0], DROPPED[2], 'for c in ["a", "b"]:\n    print(df[c].sum())']);
      await openNotebook(page, host, name);
      for (const i of [0, 1]) await runCell(page, i);
      await waitIdle(page);
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });
      await fake.script({
        text: verdictText({ crash: true, explanation: 'Column b was dropped, so df["b"] fails in the second pass.', exception: 'KeyError', line: 2, variables: ['df'] })
      });
      await selectCell(page, 2);
      const box = await check(page, 2);
      await expect(box.locator('.crane-badge')).toHaveText('LLM prediction · fake-model');
      const entries = box.locator('.crane-origin-entry');
      await expect(entries).toHaveCount(2);
      await expect(entries.nth(1)).toHaveAttribute('data-cell-id', 'cell-1');
      await expect(cell(page, 1)).toHaveClass(/crane-origin-cell/);
      await snap(page, info, `${host}-origin-llm`);
    });

    test('an undefined name: defining cell not run, or raised before the assignment', async ({ page }, info) => {
      const shot = (name: string) => snap(page, info, `${host}-${name}`);
      const name = `origin-undefined-${host}.ipynb`;
      createNotebook(name, UNDEFINED);
      await openNotebook(page, host, name);
      await runCell(page, 1); // raises ZeroDivisionError on line 1, so `token` is never assigned
      await waitIdle(page);

      await selectCell(page, 2);
      let box = await check(page, 2);
      await expect(box).toContainText('NameError');
      let entry = box.locator('.crane-origin-entry');
      await expect(entry).toHaveCount(1);
      await expect(entry).toHaveAttribute('data-cell-id', 'cell-0');
      await expect(entry).toContainText(/not (been )?run/);
      await expect(cell(page, 0)).toHaveClass(/crane-origin-cell/);
      await shot('origin-not-run');

      await selectCell(page, 3);
      box = await check(page, 3);
      await expect(box).toContainText('NameError');
      entry = box.locator('.crane-origin-entry');
      await expect(entry.first()).toHaveAttribute('data-cell-id', 'cell-1');
      await expect(entry.first()).toContainText(/raised/);
      await expect(cell(page, 1)).toHaveClass(/crane-origin-cell/);
      await expect(cell(page, 0)).not.toHaveClass(/crane-origin-cell/); // only the latest check outlines
      await shot('origin-raised-before');
    });
  });
}
