import { expect, test } from '@playwright/test';
import { cell, craneButton, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, type CraneWindow, check, defaultProviderConfig, runCommand, setProviderConfig, setSwitches, verdict, snap } from './crane';

/**
 * Everything that keeps a check from finishing, each with a clear message and the notebook left
 * untouched: no key, kernel restart or notebook closed during a check, a kernel without
 * crane_llm, a non-Python kernel, no kernel at all.
 */

const CELLS = ['values = [1, 2, 3]', 'total = sum(values)\ntotal'];

/** The notebook file on disk is what "untouched" means: no output, no execution count. */
async function expectUntouched(page: import('@playwright/test').Page, index: number): Promise<void> {
  await expect(cell(page, index).locator('.jp-InputPrompt')).not.toHaveText(/\[\d+\]/);
  await expect(cell(page, index).locator('.jp-OutputArea-output')).toHaveCount(0);
}

async function kernelConnected(page: import('@playwright/test').Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as CraneWindow).jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.connectionStatus ?? null))
    .toBe('connected');
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`problems in ${host}`, () => {
    const fake = FakeProvider.ofRun();
    test.beforeEach(async () => fake.reset());
    test.afterEach(async ({ page }) => {
      setProviderConfig(defaultProviderConfig());
      await fake.reset();
      await setSwitches(page, { useLlm: false, includeRuntimeInfo: true }).catch(() => undefined);
    });

    test('no API key, kernel restart during a check, notebook closed during a check', async ({ page }, info) => {
      const shot = (name: string) => snap(page, info, `${host}-${name}`);
      const name = `problems-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await runCell(page, 0);
      await waitIdle(page);
      // After running: a settings change makes JupyterLab reload its shortcuts, which can eat a keypress.
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });

      // No key for a remote provider, with the LLM on.
      setProviderConfig({ base_url: 'https://llm.example.invalid/v1', model: 'some-model' });
      await selectCell(page, 1);
      let box = await check(page, 1);
      await expect(box).toHaveAttribute('data-problem', 'no-key');
      await expect(box).toContainText('No API key');
      await expect(box).toContainText('crane_llm.set_api_key("sk-...")');
      await expect(box).toContainText('The built-in checks already ran and found no certain crash');
      await expect(box.locator('[data-step="checks"]')).toHaveAttribute('data-status', 'done');
      expect(await fake.requests()).toHaveLength(0);
      await expectUntouched(page, 1);
      await shot('no-key');
      setProviderConfig(defaultProviderConfig());

      // The kernel restarts while the model is being waited for.
      await fake.script({ hang: true });
      await selectCell(page, 1);
      await craneButton(page).click();
      box = verdict(page, 1);
      await expect(box.locator('[data-step="model"]')).toHaveAttribute('data-status', 'running');
      // As Kernel > Restart Kernel does, without its confirmation dialog.
      await page.evaluate(() => (window as unknown as CraneWindow).jupyterapp.shell.currentWidget.sessionContext.restartKernel());
      await expect(box).toHaveAttribute('data-problem', 'kernel-restarted');
      await expect(box).toContainText('The kernel restarted while this cell was being checked');
      await expectUntouched(page, 1);
      await shot('kernel-restarted');
      await waitIdle(page);

      if (host === 'lab') {
        // The notebook is closed while the model is being waited for.
        await fake.reset();
        await fake.script({ hang: true });
        await runCell(page, 0);
        await selectCell(page, 1);
        await craneButton(page).click();
        await expect(verdict(page, 1).locator('[data-step="model"]')).toHaveAttribute('data-status', 'running');
        await runCommand(page, 'docmanager:save');
        await runCommand(page, 'application:close');
        await expect(page.getByText(/stopped checking .*the notebook was closed/).first()).toBeVisible();
        await shot('closed');
      }
    });

    test('kernel without crane_llm, non-Python kernel, no kernel', async ({ page }, info) => {
      const shot = (name: string) => snap(page, info, `${host}-${name}`);

      const bare = `bare-${host}.ipynb`;
      createNotebook(bare, CELLS, 'bare');
      await openNotebook(page, host, bare);
      await runCell(page, 0);
      await waitIdle(page);
      await selectCell(page, 1);
      let box = await check(page, 1);
      await expect(box).toHaveAttribute('data-problem', 'not-installed');
      await expect(box).toContainText('%pip install crane-llm');
      await expect(box).toContainText('restart the kernel');
      await expectUntouched(page, 1);
      await shot('not-installed');

      const other = `other-${host}.ipynb`;
      createNotebook(other, CELLS, 'other');
      await openNotebook(page, host, other);
      await kernelConnected(page);
      await selectCell(page, 1);
      await craneButton(page).click();
      box = verdict(page, 1);
      await expect(box).toHaveAttribute('data-problem', 'not-python');
      await expect(box).toContainText("checks Python cells, and this notebook's kernel is Other language (e2e) (r)");
      await expectUntouched(page, 1);
      await shot('non-python');

      const none = `nokernel-${host}.ipynb`;
      createNotebook(none, CELLS);
      await openNotebook(page, host, none);
      await kernelConnected(page); // shut down the kernel that started, not one still on its way
      await page.evaluate(() => (window as unknown as CraneWindow).jupyterapp.shell.currentWidget.sessionContext.shutdown());
      await expect.poll(() => page.evaluate(() => !(window as unknown as CraneWindow).jupyterapp.shell.currentWidget.sessionContext.session)).toBe(true);
      await selectCell(page, 1);
      await craneButton(page).click();
      box = verdict(page, 1);
      await expect(box).toHaveAttribute('data-problem', 'no-kernel');
      await expect(box).toContainText('This notebook has no kernel');
      await expectUntouched(page, 1);
      await shot('no-kernel');
    });
  });
}
