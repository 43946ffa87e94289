import { expect, test } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import {
  FakeProvider,
  check,
  dismissPopup,
  hoverPopup,
  sidebar,
  setSwitches,
  switchStates,
  verdict,
  verdictText,
  snap
} from './crane';

/**
 * The two switches in all four combinations, and what each sends to the provider: nothing, the
 * code only, or the code and the runtime information. Every colour, the badges, staleness, the
 * sidebar, and the switches surviving a reload.
 */

const CELLS = [
  'import pandas as pd\ndf = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", "z"]})',
  'total = df["a"].sum()\nprint(total)',
  'dff.head()',
  'x = 1'
];
const TARGET = CELLS[1];
const RUNINFO_HEADING = '# Current relevant runtime information';

function userMessage(body: unknown): string {
  // Chat Completions (the fake server is a base_url): system instructions, then the user message.
  return (body as { messages: Array<{ content: string }> }).messages.map(m => m.content).join('\n');
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`switches and verdicts in ${host}`, () => {
    const fake = FakeProvider.ofRun();
    test.beforeEach(async () => fake.reset());
    test.afterEach(async ({ page }) => {
      // The e2e server starts with the LLM off; leave it so for the other tests.
      await setSwitches(page, { useLlm: false, includeRuntimeInfo: true }).catch(() => undefined);
    });

    test('four combinations, what is sent, every colour, staleness, sidebar, reload', async ({ page }, info) => {
      const shot = (name: string) => snap(page, info, `${host}-${name}`);
      const name = `switches-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await setSwitches(page, { useLlm: false, includeRuntimeInfo: true });
      await runCell(page, 0);
      await waitIdle(page);

      // The switches on the toolbar button, on hover.
      const popup = await hoverPopup(page);
      const llm = popup.getByRole('switch', { name: /Use the LLM/ });
      const runinfo = popup.getByRole('switch', { name: /Include runtime information/ });
      await expect(llm).not.toBeChecked();
      await expect(runinfo).toBeChecked();
      await expect(popup.locator('[data-switch="includeRuntimeInfo"]')).toHaveClass(/crane-switch-inert/);
      await shot('popup-llm-off');

      // 1. LLM off, runtime information on: the checks only; blue; nothing sent.
      await dismissPopup(page);
      await selectCell(page, 1);
      let box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'blue');
      await expect(box).toContainText('no certain crash');
      await expect(box).toContainText('not a "no crash" prediction');
      await expect(box.locator('.crane-badge')).toHaveText('Built-in checks only');
      await expect(box.locator('[data-step="checks"]')).toHaveAttribute('data-status', 'done');
      await shot('blue-llm-off');

      // 2. LLM off, runtime information off: no effect while the LLM is off.
      await (await hoverPopup(page)).getByRole('switch', { name: /Include runtime information/ }).uncheck();
      await dismissPopup(page);
      await selectCell(page, 1);
      box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'blue');
      await expect(box.locator('[data-step="checks"]')).toHaveAttribute('data-status', 'done');
      expect(await fake.requests()).toHaveLength(0);

      // 3. LLM on, runtime information off: the code alone, checks skipped.
      await (await hoverPopup(page)).getByRole('switch', { name: /Use the LLM/ }).check();
      await shot('popup-llm-on-runinfo-off');
      await dismissPopup(page);
      await fake.script({ text: verdictText({ crash: false, explanation: 'The column a exists and holds integers.' }) });
      await selectCell(page, 1);
      box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'green');
      await expect(box.locator('.crane-badge')).toHaveText('LLM prediction · fake-model');
      await expect(box).toContainText('No crash predicted');
      await expect(box).toContainText('the built-in checks were skipped');
      let sent = await fake.requests();
      expect(sent).toHaveLength(1);
      expect(userMessage(sent[0].body)).toContain(TARGET);
      expect(userMessage(sent[0].body)).not.toContain(RUNINFO_HEADING);
      await shot('green-code-only');

      // 4. Both on: code and runtime information; the checker ran first.
      await setSwitches(page, { includeRuntimeInfo: true });
      await fake.script({ text: verdictText({ crash: true, explanation: 'Column c does not exist.', exception: 'KeyError', line: 1, variables: ['df'] }) });
      await selectCell(page, 1);
      box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'red');
      await expect(box).toContainText('Crash predicted: KeyError at line 1');
      await expect(box).toContainText('The built-in checker ran first and found no certain crash.');
      await expect(box.locator('.crane-badge')).toHaveText('LLM prediction · fake-model');
      // Once answered, the model step says whom it asked and what the provider counted.
      await expect(box.locator('.crane-step')).toHaveText([/Built-in checker/, /Building the prompt/, /Asked fake-model at \S+.*answered \(\d+ tokens\)/]);
      sent = await fake.requests();
      expect(sent).toHaveLength(2);
      expect(userMessage(sent[1].body)).toContain(RUNINFO_HEADING);
      expect(userMessage(sent[1].body)).toMatch(/df \(pandas\.(core\.frame\.)?DataFrame/);
      // The browser never holds the key: the proxy adds it.
      expect(sent[1].headers['authorization']).toBe('Bearer sk-e2e-not-a-real-key');
      await shot('red-predicted');

      // A certain crash: no model call.
      await selectCell(page, 2);
      box = await check(page, 2);
      await expect(box).toHaveAttribute('data-colour', 'red');
      await expect(box.locator('.crane-badge')).toHaveText('Built-in check · certain');
      expect(await fake.requests()).toHaveLength(2);

      // Amber: the answer is not a verdict.
      await fake.script({ text: 'I would rather not say.' });
      await selectCell(page, 1);
      box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'amber');
      await expect(box).toContainText('could not be read as a verdict');
      await shot('amber-unreadable');

      // The sidebar: verdict, steps, full prompt, raw response, switches, provider settings; never the key.
      // Details under the verdict opens the sidebar (in Notebook 7, its hidden right panel).
      await box.getByRole('button', { name: 'Details' }).click();
      const side = sidebar(page);
      await expect(side).toBeVisible();
      await expect(side.locator('.crane-sidebar-verdict [data-colour="amber"]')).toBeVisible();
      await side.locator('.crane-section-prompt > summary').click();
      await expect(side.locator('.crane-prompt')).toContainText('# Target Cell:');
      await expect(side.locator('.crane-prompt')).toContainText(RUNINFO_HEADING);
      await expect(side.locator('.crane-raw-full')).toHaveText('I would rather not say.');
      // The fake reports Chat Completions usage on the stream (100 tokens in, one per piece out).
      await expect(side.locator('.crane-usage')).toHaveText(/^Tokens: 100 in, [1-9]\d* out$/);
      await expect(side.locator('[data-setting="Model"]')).toContainText('fake-model');
      await expect(side.locator('[data-setting="Model"]')).toContainText('config.json');
      await expect(side.locator('[data-setting="base_url"]')).toContainText(fake.url);
      await expect(side.locator('[data-setting="API key"]')).toContainText('found');
      await expect(side.getByRole('switch', { name: /Use the LLM/ })).toBeChecked();
      expect(await page.content()).not.toContain('sk-e2e-not-a-real-key');
      await shot('sidebar');

      // Stale on edit.
      await cell(page, 1).locator('.jp-InputArea-editor').click();
      await page.keyboard.press('End');
      await page.keyboard.type('  # edited');
      await expect(verdict(page, 1)).toHaveAttribute('data-colour', 'grey');
      await expect(verdict(page, 1)).toContainText('the cell was edited');
      await page.keyboard.press('Escape');
      await shot('grey-edited');

      // Stale when another cell runs.
      await expect(verdict(page, 2)).toHaveAttribute('data-colour', 'red');
      await runCell(page, 3);
      await expect(verdict(page, 2)).toHaveAttribute('data-colour', 'grey');
      await expect(verdict(page, 2)).toContainText('another cell ran');
      await shot('grey-other-cell-ran');

      // The switches survive a reload.
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: false });
      await page.reload();
      await expect(page.locator('.jp-NotebookPanel')).toBeVisible({ timeout: 60_000 });
      await expect.poll(() => switchStates(page), { timeout: 30_000 }).toEqual({ useLlm: true, includeRuntimeInfo: false });
      const after = await hoverPopup(page);
      await expect(after.getByRole('switch', { name: /Use the LLM/ })).toBeChecked();
      await expect(after.getByRole('switch', { name: /Include runtime information/ })).not.toBeChecked();
      await shot('popup-after-reload');
    });
  });
}
