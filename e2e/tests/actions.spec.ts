import { expect, test } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, check, setSwitches, snap, verdictText } from './crane';

/**
 * Actions under a certain crash: they do what they say and nothing else. "Run cell N first" runs
 * that cell alone; the checked cell stays unrun. The model's fix is applied by "Apply" (an edit,
 * nothing runs) and undone by the notebook's own undo.
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

const FRAME = 'import pandas as pd\ndf = pd.DataFrame({"a": [1, 2], "b": [3, 4]})';
// A user function: beyond the built-in checks, so the model is asked.
const TARGET = 'total = (lambda d: d["c"].sum())(df)';
const FIXED = 'total = (lambda d: d["a"].sum())(df)';

for (const host of ['lab', 'notebook7'] as Host[]) {
  test(`"Apply" puts the model's fix in the cell and undo brings the cell back, in ${host}`, async ({ page }, info) => {
    const fake = FakeProvider.ofRun();
    await fake.reset();
    const name = `actions-fix-${host}.ipynb`;
    createNotebook(name, [FRAME, TARGET]);
    await openNotebook(page, host, name);
    await runCell(page, 0);
    await waitIdle(page);
    await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });
    try {
      await fake.script({
        text: verdictText({ crash: true, explanation: 'df has no column c.', exception: 'KeyError', line: 1, variables: ['df'], fix: FIXED })
      });
      await selectCell(page, 1);
      const box = await check(page, 1);
      await expect(box).toHaveAttribute('data-kind', 'predicted-crash');
      await expect(box.locator('.crane-diff-removed')).toHaveText(`- ${TARGET}\n`);
      await expect(box.locator('.crane-diff-added')).toHaveText(`+ ${FIXED}\n`);
      await snap(page, info, `${host}-model-fix`);
      await box.locator('.crane-apply-fix').click();

      const editor = cell(page, 1).locator('.jp-InputArea-editor');
      await expect(editor).toContainText('d["a"].sum()');
      await expect(box).toHaveAttribute('data-colour', 'grey'); // the cell was edited: stale
      await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText(/\[\s*\]:/); // nothing ran

      await editor.click();
      await page.keyboard.press('Control+z');
      await expect(editor).toContainText('d["c"].sum()');
      await snap(page, info, `${host}-model-fix-undone`);
    } finally {
      await setSwitches(page, { useLlm: false });
    }
  });
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test(`"Replace dff with df" edits the cell and runs nothing, in ${host}`, async ({ page }, info) => {
    const name = `actions-replace-${host}.ipynb`;
    createNotebook(name, [FRAME, 'x = 1\ndff.head()']);
    await openNotebook(page, host, name);
    await runCell(page, 0);
    await waitIdle(page);
    await selectCell(page, 1);
    const box = await check(page, 1);
    // FRAME's run defined `df`: the hint names it as the hosts name runs.
    await expect(box).toContainText(/Did you mean `df` \(defined in In \[\d+\]\)\?/);
    const replace = box.locator('.crane-action-replace');
    await expect(replace).toHaveText('Replace dff with df');
    await snap(page, info, `${host}-action-replace`);
    await replace.click();
    const editor = cell(page, 1).locator('.jp-InputArea-editor');
    await expect(editor).toContainText('df.head()');
    await expect(editor).not.toContainText('dff');
    await expect(cell(page, 1).locator('.jp-InputPrompt')).toHaveText(/\[\s*\]:/);
    await expect(box).toHaveAttribute('data-colour', 'grey');
    await editor.click();
    await page.keyboard.press('Control+z');
    await expect(editor).toContainText('dff.head()');
  });
}
