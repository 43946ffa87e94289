import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { craneButton, createNotebook, openNotebook, runCell, selectCell, waitIdle } from './jupyter';
import { FakeProvider, runCommand, setSwitches, verdict, verdictText } from './crane';

/**
 * The API key never reaches the browser: everything the page sends and receives (HTTP requests,
 * response bodies, kernel websocket frames), the DOM, local storage and the saved notebook are
 * searched for it after a full check through the model, "Ask before sending" dialog included. The
 * provider still receives it.
 */

const KEY = 'sk-e2e-not-a-real-key'; // what serve.py writes into the server's config file

test('the key stays on the server through a whole model check', async ({ page }, info) => {
  const fake = FakeProvider.ofRun();
  await fake.reset();
  const seen: string[] = [];
  page.on('request', request => {
    seen.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? '');
  });
  page.on('response', async response => {
    seen.push(JSON.stringify(response.headers()));
    try {
      seen.push(await response.text());
    } catch {
      // redirects and aborted requests have no body
    }
  });
  page.on('websocket', ws => {
    ws.on('framesent', frame => seen.push(String(frame.payload)));
    ws.on('framereceived', frame => seen.push(String(frame.payload)));
  });

  const name = 'key-privacy.ipynb';
  createNotebook(name, ['rows = [{"a": 1}, {"a": 2}]', 'total = sum(r["a"] for r in rows)']);
  await openNotebook(page, 'lab', name);
  await setSwitches(page, { useLlm: true, includeRuntimeInfo: true, askBeforeSending: true });
  await runCell(page, 0);
  await waitIdle(page);
  await fake.script({ text: verdictText({ crash: false, explanation: 'Summing ints is fine.' }) });
  await selectCell(page, 1);
  await craneButton(page).locator('button, jp-button').first().click();
  // The dialog shows the whole request; the key is not part of it.
  const dialog = page.locator('.crane-ask-dialog');
  await expect(dialog.locator('.crane-ask-prompt')).toContainText('total = sum');
  const shown = (await dialog.textContent()) ?? '';
  expect(shown).not.toContain(KEY);
  expect(await page.content()).not.toContain(KEY);
  await dialog.getByRole('button', { name: 'Send' }).click();
  const box = verdict(page, 1);
  await expect(box).toHaveAttribute('data-phase', 'done');
  await expect(box).toHaveAttribute('data-colour', 'green');
  await runCommand(page, 'crane-llm:show-sidebar');
  await runCommand(page, 'docmanager:save');
  await page.waitForTimeout(1000);

  const provider = (await fake.requests()).filter(r => !r.path.startsWith('/_'));
  expect(provider.length).toBeGreaterThan(0);
  expect(provider[provider.length - 1].headers['authorization']).toBe(`Bearer ${KEY}`);

  const traffic = seen.join('\n');
  // The capture did see the proxied model request, the settings answer and the kernel's frames,
  // so a leak through any of them would show.
  expect(traffic).toContain('/crane-llm/v1/');
  expect(traffic).toMatch(/"keyFound":\s*true/);
  expect(traffic).toContain('execute_request');
  expect(traffic).not.toContain(KEY);
  expect(await page.content()).not.toContain(KEY);
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(storage).not.toContain(KEY);
  const saved = readFileSync(join(process.env.CRANE_E2E_ROOT!, name), 'utf8');
  expect(saved).toContain('total = sum');
  expect(saved).not.toContain(KEY);
  await page.screenshot({ path: info.outputPath('lab-key-privacy.png') });
  await setSwitches(page, { useLlm: false, askBeforeSending: false });
});
