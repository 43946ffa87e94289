import { expect, test, type Page } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { type CraneWindow, snap, verdict } from './crane';

/**
 * The two optional behaviours: "Check as you go" marks a cell certain to crash without a click,
 * and "Check before running" asks before Shift+Enter runs one. Both off by default.
 */

const CELLS = ['import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3]})', 'dff.head()', 'df.head()', 'shown = df["a"].sum()\nshown'];
const TOGGLE = {
  checkAsYouGo: 'crane-llm:toggle-check-as-you-go',
  checkBeforeRunning: 'crane-llm:toggle-check-before-running'
} as const;

async function setBehaviours(page: Page, values: Partial<Record<keyof typeof TOGGLE, boolean>>): Promise<void> {
  await page.evaluate(
    async ({ values, commands }) => {
      const app = (window as unknown as CraneWindow).jupyterapp;
      for (const [name, want] of Object.entries(values)) {
        const id = (commands as Record<string, string>)[name];
        if (app.commands.isToggled(id) !== want) await app.commands.execute(id);
      }
    },
    { values, commands: TOGGLE }
  );
}

async function behaviourStates(page: Page): Promise<boolean[]> {
  return page.evaluate(commands => Object.values(commands).map(id => (window as unknown as CraneWindow).jupyterapp.commands.isToggled(id)), TOGGLE);
}

const prompt = (page: Page, index: number) => cell(page, index).locator('.jp-InputPrompt');
const mark = (page: Page, index: number) => cell(page, index).locator('.crane-mark');
const dialog = (page: Page) => page.locator('.jp-Dialog');

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`check as you go and check before running in ${host}`, () => {
    test.afterEach(async ({ page }) => {
      await setBehaviours(page, { checkAsYouGo: false, checkBeforeRunning: false }).catch(() => undefined);
    });

    test('off by default; a mark without a click; none on a fine cell; stale after a run', async ({ page }, info) => {
      const name = `as-you-go-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      expect(await behaviourStates(page)).toEqual([false, false]);
      await runCell(page, 0);
      await waitIdle(page);
      // Off: selecting the crashing cell marks nothing.
      await selectCell(page, 1);
      await page.waitForTimeout(1500);
      await expect(mark(page, 1)).toHaveCount(0);

      await setBehaviours(page, { checkAsYouGo: true });
      await selectCell(page, 2);
      await selectCell(page, 1);
      await expect(mark(page, 1)).toBeVisible();
      await expect(mark(page, 1)).toHaveAttribute('title', /Certain NameError \(line 1\): `dff` is not defined/);
      await expect(mark(page, 1)).toHaveAttribute('data-exception', 'NameError');
      await expect(verdict(page, 1)).toHaveCount(0); // a mark, not a verdict: nothing was clicked
      await snap(page, info, `${host}-mark`);

      // A fine cell: checked as well (it is the active one now), and no mark.
      await selectCell(page, 2);
      await page.waitForTimeout(1500);
      await waitIdle(page);
      await expect(mark(page, 2)).toHaveCount(0);
      await expect(mark(page, 1)).toBeVisible();

      // An edit: checked again after the pause; the fix takes the mark away.
      await selectCell(page, 1);
      await cell(page, 1).locator('.jp-InputArea-editor').click();
      await page.keyboard.press('End');
      await page.keyboard.press('Home');
      await page.keyboard.press('Delete'); // "dff.head()" -> "ff.head()": still undefined
      await expect(mark(page, 1)).toHaveAttribute('title', /`ff` is not defined/);
      await page.keyboard.press('d'); // "dff" again
      await page.keyboard.press('Delete'); // "df.head()": fine
      await expect(mark(page, 1)).toHaveCount(0);
      await page.keyboard.press('Home');
      await page.keyboard.press('d'); // "ddf.head()"
      await expect(mark(page, 1)).toHaveAttribute('title', /`ddf` is not defined/);
      await page.keyboard.press('Escape');

      // The mark's click shows the full verdict, as the toolbar button would.
      await mark(page, 1).click();
      await expect(verdict(page, 1)).toHaveAttribute('data-kind', 'certain-crash');
      await expect(verdict(page, 1)).toContainText('NameError');

      // Any run stales the marks, as it stales verdicts.
      await runCell(page, 3);
      await expect(mark(page, 1)).toHaveClass(/crane-mark-stale/);
      await snap(page, info, `${host}-mark-stale`);
    });

    test('the guard: a dialog on Shift+Enter of a certain crash; Cancel, Escape, Run anyway; a fine cell runs at once', async ({ page }, info) => {
      const name = `guard-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await runCell(page, 0);
      await waitIdle(page);
      await setBehaviours(page, { checkBeforeRunning: true });

      await selectCell(page, 1);
      await page.keyboard.press('Shift+Enter');
      await expect(dialog(page)).toBeVisible();
      await expect(dialog(page)).toContainText('NameError at line 1');
      await expect(dialog(page)).toContainText('`dff` is not defined');
      await snap(page, info, `${host}-guard-dialog`);
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog(page)).toHaveCount(0);
      await page.waitForTimeout(500);
      await expect(prompt(page, 1)).toHaveText(/\[ \]:/); // never ran: no execution count
      await expect(cell(page, 1).locator('.jp-OutputArea-output')).toHaveCount(0);

      // Escape cancels too.
      await selectCell(page, 1);
      await page.keyboard.press('Control+Enter');
      await expect(dialog(page)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toHaveCount(0);
      await page.waitForTimeout(500);
      await expect(prompt(page, 1)).toHaveText(/\[ \]:/);

      // Run anyway runs it, and it raises as the checks said.
      await selectCell(page, 1);
      await page.keyboard.press('Shift+Enter');
      await expect(dialog(page)).toBeVisible();
      await dialog(page).getByRole('button', { name: 'Run anyway' }).click();
      await expect(prompt(page, 1)).toHaveText(/\[\d+\]:/);
      await expect(cell(page, 1).locator('.jp-OutputArea-output')).toContainText('NameError');

      // A fine cell runs without a dialog.
      await waitIdle(page);
      await selectCell(page, 2);
      await page.keyboard.press('Shift+Enter');
      await expect(prompt(page, 2)).toHaveText(/\[\d+\]:/);
      await expect(dialog(page)).toHaveCount(0);
      await snap(page, info, `${host}-guard-fine-cell-ran`);

      // Off again: the crashing cell runs without a question.
      await setBehaviours(page, { checkBeforeRunning: false });
      await waitIdle(page);
      const before = await prompt(page, 1).textContent();
      await selectCell(page, 1);
      await page.keyboard.press('Control+Enter');
      await expect(prompt(page, 1)).not.toHaveText(before ?? '');
      await expect(dialog(page)).toHaveCount(0);
    });
  });
}
