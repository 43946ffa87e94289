import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { craneButton, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, openSidebar, runCommand, setSwitches, snap, verdict, verdictText } from './crane';

/**
 * "Ask before sending" and "What was sent, this session" in JupyterLab and Notebook 7, against the
 * local recording OpenAI server: Cancel (Escape) sends nothing, Send sends exactly the prompt the
 * dialog showed, and the sidebar lists the call with that prompt and the raw response.
 */

const CELLS = ['ask_total = 40 + 2', 'for _ in range(1):\n    print(ask_total)'];
const ANSWER = { text: verdictText({ crash: false, explanation: 'It prints 42.' }) };

async function modelRequests(fake: FakeProvider) {
  return (await fake.requests()).filter(r => !r.path.startsWith('/_'));
}

/** The same view in the light theme, then the dark one, each attached to the report. */
async function bothThemes(page: Page, info: TestInfo, name: string): Promise<void> {
  await snap(page, info, `${name}-light`);
  try {
    await runCommand(page, 'apputils:change-theme', { theme: 'JupyterLab Dark' });
    await expect(page.locator('body')).toHaveAttribute('data-jp-theme-light', 'false');
    await page.waitForTimeout(500);
    await snap(page, info, `${name}-dark`);
  } finally {
    await runCommand(page, 'apputils:change-theme', { theme: 'JupyterLab Light' });
    await expect(page.locator('body')).toHaveAttribute('data-jp-theme-light', 'true');
  }
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`Ask before sending and the sent-list in ${host}`, () => {
    const fake = FakeProvider.ofRun();
    test.beforeEach(async () => fake.reset());
    test.afterEach(async ({ page }) => {
      await setSwitches(page, { useLlm: false, askBeforeSending: false }).catch(() => undefined);
    });

    test('Cancel sends nothing; Send sends the prompt shown; the list keeps the call', async ({ page }, info) => {
      const name = `ask-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: true });
      await runCell(page, 0);
      await waitIdle(page);
      await fake.script(ANSWER);
      const button = craneButton(page).locator('button, jp-button').first();
      const dialog = page.locator('.crane-ask-dialog');

      // Cancel, by Escape: the check ends cancelled (not failed) and the server records nothing.
      await selectCell(page, 1);
      await button.click();
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('[data-row="Host"]')).toHaveText(/^127\.0\.0\.1:\d+ \(stays on this machine\)$/);
      await expect(dialog.locator('[data-row="Model"]')).toHaveText('fake-model');
      await expect(dialog.locator('[data-row="API"]')).toHaveText('Chat Completions');
      await expect(dialog.locator('[data-row="Size"]')).toHaveText(/^about [\d,]+ tokens$/);
      await expect(dialog.locator('[data-row="Held back"]')).toHaveText('0 secrets masked');
      await expect(dialog.locator('.crane-ask-prompt')).toContainText('print(ask_total)');
      await page.mouse.move(5, 600);
      await bothThemes(page, info, `${host}-ask-dialog`);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      const box = verdict(page, 1);
      await expect(box).toHaveAttribute('data-phase', 'cancelled');
      await expect(box).toContainText('not sent');
      await expect(box).not.toHaveClass(/crane-error/);
      expect(await modelRequests(fake)).toHaveLength(0);
      const side = await openSidebar(page);
      await expect(side.locator('.crane-sent-empty')).toHaveText('Nothing was sent to a model in this session.');

      // Send: what the server received is, byte for byte, the prompt the dialog showed.
      await selectCell(page, 1);
      await button.click();
      await expect(dialog).toBeVisible();
      const shown = await dialog.locator('.crane-ask-prompt').textContent();
      await dialog.getByRole('button', { name: 'Send' }).click();
      await expect(box).toHaveAttribute('data-phase', 'done');
      await expect(box).toHaveAttribute('data-colour', 'green');
      const sent = await modelRequests(fake);
      expect(sent).toHaveLength(1);
      const messages = (sent[0].body as { messages: { content: string }[] }).messages;
      expect(`${messages[0].content}\n\n${messages[1].content}`).toBe(shown);

      // The list: one call, newest first; a click shows its prompt and raw response.
      const calls = side.locator('.crane-sent-call');
      await expect(calls).toHaveCount(1);
      await expect(calls.first()).toContainText(`${name}, cell 2`);
      await expect(calls.first()).toContainText('No crash predicted');
      await expect(calls.first()).toContainText('fake-model at 127.0.0.1');
      await calls.first().click();
      await expect(side.locator('.crane-sent-prompt')).toHaveText(shown!);
      await expect(side.locator('.crane-sent-raw')).toContainText('It prints 42.');
      await side.locator('.crane-section-sent').scrollIntoViewIfNeeded();
      await bothThemes(page, info, `${host}-sent-list`);
    });
  });
}
