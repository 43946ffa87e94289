import { expect, test, type Page } from '@playwright/test';
import { createNotebook, openNotebook, runCell, selectCell, waitIdle } from './jupyter';
import { FakeProvider, check, setSwitches, verdictText } from './crane';

type SettingsWindow = { jupyterapp: { serviceManager: { settings: { save(id: string, raw: string): Promise<void> } } } };

/**
 * The extension's "Model" setting is the first step of the settings order (an explicit argument):
 * it beats the model the configuration file names, reaches the provider, and names the badge.
 */

const PLUGIN = 'crane-llm-jlab:plugin';

async function saveSettings(page: Page, values: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    async ({ plugin, raw }) => {
      await (window as unknown as SettingsWindow).jupyterapp.serviceManager.settings.save(plugin, raw);
    },
    { plugin: PLUGIN, raw: JSON.stringify(values) }
  );
}

test.describe('the model setting in lab', () => {
  const fake = FakeProvider.ofRun();
  test.beforeEach(async () => fake.reset());
  test.afterEach(async ({ page }) => {
    await saveSettings(page, { useLlm: false, includeRuntimeInfo: true }).catch(() => undefined);
  });

  test('a model set in the extension settings is used and shown in the badge', async ({ page }, info) => {
    const name = 'model-setting.ipynb';
    createNotebook(name, ['items = [1, 2, 3]', 'total = sum(items)']);
    await openNotebook(page, 'lab', name);
    await saveSettings(page, { useLlm: true, includeRuntimeInfo: true, model: 'model-from-settings' });
    await page.reload();
    await openNotebook(page, 'lab', name);
    await setSwitches(page, { useLlm: true });
    await runCell(page, 0);
    await waitIdle(page);
    await fake.script({ text: verdictText({ crash: false, explanation: 'sum of a list of ints is fine' }) });

    await selectCell(page, 1);
    const box = await check(page, 1);
    await expect(box).toHaveAttribute('data-colour', 'green');
    await expect(box.locator('.crane-badge')).toHaveText('LLM prediction · model-from-settings');
    const sent = (await fake.requests()).filter(r => !r.path.startsWith('/_'));
    expect(sent.length).toBeGreaterThan(0);
    expect((sent[sent.length - 1].body as { model: string }).model).toBe('model-from-settings');
    await page.screenshot({ path: info.outputPath('lab-model-setting.png') });
  });
});
