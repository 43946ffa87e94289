import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { cell, createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, check, openSidebar, runCommand, setSwitches, snap, verdictText } from './crane';

/**
 * Where the UI has to fit in: a server behind a JupyterHub-style prefix (/user/<name>/), and the
 * dark theme next to the light one, every colour shown at once.
 */

const PORT = Number(process.env.CRANE_E2E_PORT ?? 8899) + 37;
const PREFIX = '/user/e2e-person/';
const PYTHON = process.env.CRANE_PYTHON ?? 'python3';
const JUPYTER = process.env.CRANE_JUPYTER ?? 'jupyter';

async function startPrefixedServer(root: string): Promise<ChildProcess> {
  const child = spawn(PYTHON, [join(__dirname, '..', 'serve.py'), '--jupyter', JUPYTER, '--port', String(PORT), '--base-url', PREFIX], {
    env: { ...process.env, CRANE_E2E_ROOT: root },
    stdio: 'ignore',
    detached: true
  });
  const status = `http://127.0.0.1:${PORT}${PREFIX}api/status`;
  await expect.poll(async () => (await fetch(status).catch(() => null))?.status ?? 0, { timeout: 60_000, intervals: [500] }).toBe(200);
  return child;
}

test.describe('behind a base URL prefix', () => {
  let server: ChildProcess | null = null;
  const root = join(__dirname, '..', '.work', `notebooks-prefixed-${PORT}`);
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startPrefixedServer(root);
  });
  test.afterAll(() => {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  });

  for (const host of ['lab', 'notebook7'] as Host[]) {
    test(`a full check with the model in ${host} under ${PREFIX}`, async ({ page }, info) => {
      const fake = FakeProvider.ofRun(root);
      await fake.reset();
      const name = `prefixed-${host}.ipynb`;
      createNotebook(name, ['xs = [1, 2, 3]', 'xs[1] * 2'], 'python3', root);
      await openNotebook(page, host, name, `http://127.0.0.1:${PORT}${PREFIX}`);
      await runCell(page, 0);
      await waitIdle(page);
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });
      await fake.script({ text: verdictText({ crash: false, explanation: 'xs has three items, so index 1 exists.' }) });
      await selectCell(page, 1);
      const box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'green');
      const side = await openSidebar(page);
      await expect(side.locator('[data-setting="Model"]')).toContainText('fake-model');
      const sent = await fake.requests();
      expect(sent).toHaveLength(1);
      expect(JSON.stringify(sent[0].body)).toContain('xs[1] * 2');
      await snap(page, info, `${host}-prefixed-green`);
      await setSwitches(page, { useLlm: false });
    });
  }
});

async function gallery(page: Page, host: Host, fake: FakeProvider): Promise<void> {
  const name = `gallery-${host}.ipynb`;
  createNotebook(name, ['values = {"a": 1}', 'values["a"] + 1', 'values["b"]', 'len(values)', 'import math\nmath.sqrt(values["a"] - 5)', 'values["a"] * 3']);
  await openNotebook(page, host, name);
  await runCell(page, 0);
  await waitIdle(page);
  await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });
  await fake.script(
    { text: verdictText({ crash: false, explanation: 'The key a exists.' }) },
    { text: 'Hard to say without more context.' },
    { text: verdictText({ crash: true, explanation: 'values["a"] - 5 is negative, and math.sqrt raises on negative numbers.', exception: 'ValueError', line: 2 }) }
  );
  const want: Array<[number, string]> = [
    [1, 'green'],
    [2, 'red'],
    [3, 'amber'],
    [4, 'red']
  ];
  for (const [i, colour] of want) {
    await selectCell(page, i);
    await expect(await check(page, i)).toHaveAttribute('data-colour', colour);
  }
  await setSwitches(page, { useLlm: false });
  await selectCell(page, 5);
  await expect(await check(page, 5)).toHaveAttribute('data-colour', 'blue');
  // Grey: cell 1's verdict goes stale when its code changes.
  await cell(page, 1).locator('.jp-InputArea-editor').click();
  await page.keyboard.type(' ');
  await page.keyboard.press('Escape');
  await expect(cell(page, 1).locator('.crane-verdict')).toHaveAttribute('data-colour', 'grey');
  await openSidebar(page);
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test(`every colour in the light and dark themes in ${host}`, async ({ page }, info) => {
    const fake = FakeProvider.ofRun();
    await fake.reset();
    await gallery(page, host, fake);
    await snap(page, info, `${host}-colours-light`, true);
    try {
      await runCommand(page, 'apputils:change-theme', { theme: 'JupyterLab Dark' });
      await expect(page.locator('body')).toHaveAttribute('data-jp-theme-light', 'false');
      // Text and icon, not colour alone: each verdict has a headline and an icon.
      for (const box of await page.locator('.jp-Cell .crane-verdict[data-colour]').all()) {
        await expect(box.locator('.crane-icon')).not.toBeEmpty();
        await expect(box.locator('.crane-title')).not.toBeEmpty();
      }
      await page.waitForTimeout(500);
      await snap(page, info, `${host}-colours-dark`, true);
    } finally {
      await runCommand(page, 'apputils:change-theme', { theme: 'JupyterLab Light' });
      await setSwitches(page, { useLlm: false, includeRuntimeInfo: true });
    }
  });
}
