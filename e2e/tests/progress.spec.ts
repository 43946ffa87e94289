import { expect, test } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, openSidebar, runCommand, setSwitches, verdict, verdictText, snap } from './crane';

/**
 * Steps as they happen, the streamed response growing under the cell and in the sidebar, Cancel,
 * and the two other entry points: the keyboard shortcut and the command palette.
 */

const CELLS = ['import numpy as np\na = np.arange(6)', 'b = a.reshape(2, 3)\nb.sum()'];

const LONG_ANSWER = verdictText({
  crash: false,
  explanation:
    'The array a has six elements, so reshaping it to two rows of three works, and summing the result is an ordinary reduction that cannot fail here.'
});

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`progress in ${host}`, () => {
    const fake = FakeProvider.ofRun();
    test.beforeEach(async () => fake.reset());
    test.afterEach(async ({ page }) => {
      await fake.reset();
      await setSwitches(page, { useLlm: false, includeRuntimeInfo: true }).catch(() => undefined);
    });

    test('steps in order, streamed text growing, cancel; shortcut and palette', async ({ page }, info) => {
      const shot = (name: string) => snap(page, info, `${host}-${name}`);
      const name = `progress-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await runCell(page, 0);
      await waitIdle(page);
      // After running: a settings change makes JupyterLab reload its shortcuts, which can eat a keypress.
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });
      const side = await openSidebar(page);

      // The keyboard shortcut (Alt+C in command mode) on a slow, streamed answer: 2 s between chunks,
      // longer than the second Cancel has to reach the provider, and long enough (about 50 s) that
      // Cancel is still there when a loaded machine reaches it.
      await fake.script({ text: LONG_ANSWER, chunk_size: 6, chunk_delay: 2 });
      const box = verdict(page, 1);
      // Pressed again only if JupyterLab, reloading its shortcuts after the switch change, dropped it.
      await expect(async () => {
        if ((await box.count()) === 0) {
          await selectCell(page, 1);
          await page.keyboard.press('Alt+c');
        }
        await expect(box).toBeAttached({ timeout: 3_000 });
      }).toPass({ timeout: 30_000 });
      await expect(box).toHaveAttribute('data-phase', 'running');
      await expect(box.locator('[data-step="checks"]')).toHaveAttribute('data-status', 'done');
      await expect(box.locator('[data-step="prompt"]')).toHaveAttribute('data-status', 'done');
      await expect(box.locator('[data-step="model"]')).toHaveAttribute('data-status', 'running');
      const live = box.locator('.crane-raw-live');
      await expect(live).toContainText('explanation');
      const first = (await live.textContent())!.length;
      await expect.poll(async () => (await live.textContent())!.length).toBeGreaterThan(first + 12);
      await expect(side.locator('.crane-raw-full')).toContainText('explanation');
      // The model step estimates the tokens as they stream, under the cell and in the sidebar alike.
      for (const where of [box, side.locator('.crane-sidebar-verdict')]) {
        const label = where.locator('[data-step="model"] .crane-step-label');
        const counted = async () => Number((await label.textContent())?.match(/answering: about ([\d,]+) tokens? so far/)?.[1].replace(/,/g, '') ?? -1);
        const now = await counted();
        expect(now).toBeGreaterThan(0);
        await expect.poll(counted).toBeGreaterThanOrEqual(now + 2);
      }
      await shot('streaming');

      // Cancel reaches the provider: the fake server notes when its connection closed, which must be
      // within a second of the click, not at its next chunk 2 s later. The click's moment is taken
      // in the page (the same machine clock as the fake server's).
      await page.evaluate(() =>
        document.addEventListener(
          'click',
          event => {
            if ((event.target as Element).closest?.('.crane-cancel')) (window as unknown as { cancelledAt: number }).cancelledAt = Date.now();
          },
          { capture: true }
        )
      );
      await box.getByRole('button', { name: 'Cancel' }).click();
      const cancelledAt = await page.evaluate(() => (window as unknown as { cancelledAt: number }).cancelledAt);
      const closedAt = async () => ((await fake.requests()).filter(r => r.path.endsWith('/chat/completions')).at(-1)?.closedAt ?? null);
      await expect.poll(closedAt, { timeout: 10_000 }).not.toBeNull();
      const cancelToClose = (await closedAt())! * 1000 - cancelledAt;
      info.annotations.push({ type: 'cancel to upstream close', description: `${Math.round(cancelToClose)} ms` });
      expect(cancelToClose).toBeLessThan(1000);
      await expect(box).toHaveAttribute('data-phase', 'cancelled');
      await expect(box).toContainText('Check cancelled');
      await expect(box.locator('[data-step="model"]')).toHaveAttribute('data-status', 'skipped');
      const kept = (await box.locator('.crane-raw-live').textContent())!.length;
      await page.waitForTimeout(1000);
      expect((await box.locator('.crane-raw-live').textContent())!.length).toBe(kept); // nothing after cancel
      await expect(side.locator('.crane-sidebar-verdict')).toContainText('Check cancelled');
      await expect(cell(page, 1).locator('.jp-InputPrompt')).not.toHaveText(/\[\d+\]/);
      await shot('cancelled');

      // The command palette.
      await fake.reset();
      await fake.script({ text: verdictText({ crash: false, explanation: 'Six elements fit two rows of three.' }) });
      await selectCell(page, 1);
      await page.keyboard.press('Control+Shift+c');
      const palette = page.locator('.lm-CommandPalette').first();
      await expect(palette).toBeVisible();
      await page.keyboard.type('Run CRANE-LLM');
      await expect(palette.locator('.lm-CommandPalette-item.lm-mod-active')).toContainText('Run CRANE-LLM');
      await shot('palette');
      await page.keyboard.press('Enter');
      await expect(box).toHaveAttribute('data-colour', 'green');
      await expect(box).toContainText('No crash predicted');
      await shot('palette-green');

      if (host === 'lab') {
        // Code run from anywhere else on the same kernel (here a console) also makes it stale.
        await runCommand(page, 'notebook:create-console');
        const prompt = page.locator('.jp-CodeConsole-promptCell .jp-InputArea-editor').first();
        await expect(prompt).toBeVisible();
        await prompt.click();
        await page.keyboard.type('a = a * 2');
        await page.keyboard.press('Shift+Enter');
        await expect(box).toHaveAttribute('data-colour', 'grey');
        await expect(box).toContainText('another cell ran');
        await shot('grey-console-ran');
      }
    });
  });
}
