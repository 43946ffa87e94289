import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';
import { cell, craneButton, createNotebook, openNotebook, runCell, selectCell, waitIdle } from './jupyter';
import { defaultProviderConfig, openSidebar, setProviderConfig, setSwitches, snap, verdict } from './crane';

/**
 * One check in JupyterLab against a real OpenAI-compatible server nobody here wrote: llama.cpp's
 * llama-server with SmolLM2-135M-Instruct (python/crane_llm_testing/llama_server.py starts it,
 * building or fetching what ~/.cache/crane-llm lacks). It never skips: a missing binary or model
 * fails the test with the launcher's reason. Whatever the tiny model answers, the verdict is one
 * of the product's states (a prediction with its explanation, or the raw text of an answer that
 * could not be read, cut at the output limit or not), never an error.
 */

const PYTHON = process.env.CRANE_PYTHON ?? 'python3';
const REPO_PYTHON = join(__dirname, '..', '..', 'python');
// A small answer keeps CI lean: on a busy 2-core machine this model writes about a token a second, and the proxy gives a call 300 s.
const MAX_OUTPUT_TOKENS = '16';
const CELLS = ['import numpy as np\na = np.arange(6)', 'b = a.reshape(2, 3)\nb.sum()']; // nothing the built-in checks settle: the model decides

let llama: ChildProcessWithoutNullStreams | undefined;
let baseUrl = '';

/** Starts the launcher and resolves with its base_url, or rejects with the reason it gave. */
function startLlama(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-m', 'crane_llm_testing.llama_server'], {
      env: { ...process.env, PYTHONPATH: REPO_PYTHON, PYTHONUNBUFFERED: '1' }
    });
    llama = child;
    let stderr = '';
    child.stderr.on('data', chunk => (stderr = (stderr + String(chunk)).slice(-2000)));
    child.on('exit', code => reject(new Error(`the llama-server launcher exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).on('line', line => {
      if (line.startsWith('BASE_URL ')) resolve(line.slice('BASE_URL '.length));
      else if (line.startsWith('FAILED ')) reject(new Error(`llama-server is unavailable: ${line.slice('FAILED '.length)}`));
    });
  });
}

test.describe('a real model server (llama-server, SmolLM2-135M-Instruct)', () => {
  // The first run on a machine builds llama-server (about 7 minutes on 2 cores).
  test.beforeAll(async () => {
    test.setTimeout(3 * 3600_000);
    baseUrl = await startLlama();
  });
  test.afterAll(async () => {
    setProviderConfig(defaultProviderConfig());
    llama?.stdin.end(); // the launcher stops the server when its stdin closes
    llama?.kill();
  });

  test('button, streaming steps, a verdict in one of the product states, prompt and raw response', async ({ page }, info) => {
    test.setTimeout(30 * 60_000);
    setProviderConfig({ base_url: baseUrl, model: 'smollm2', api_key: 'none-needed', max_output_tokens: MAX_OUTPUT_TOKENS });
    createNotebook('real-model.ipynb', CELLS);
    await openNotebook(page, 'lab', 'real-model.ipynb');
    await runCell(page, 0);
    await waitIdle(page);
    await setSwitches(page, { useLlm: true, includeRuntimeInfo: true });
    const side = await openSidebar(page);
    await expect(side.locator('.crane-provider-host')).toContainText('127.0.0.1');

    // 16 tokens can stream in under a second after a long prompt evaluation, and the box then
    // turns to its verdict: the page records the longest streamed text it showed, so no poll misses it.
    await page.evaluate(() => {
      const seen = window as unknown as { craneStreamed: number };
      seen.craneStreamed = 0;
      new MutationObserver(() => {
        for (const node of document.querySelectorAll('.crane-verdict .crane-raw-live')) {
          seen.craneStreamed = Math.max(seen.craneStreamed, (node.textContent ?? '').length);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await selectCell(page, 1);
    await craneButton(page).locator('button, jp-button').first().click();
    await page.mouse.move(700, 880);
    const box = verdict(page, 1);
    await expect(box).toHaveAttribute('data-phase', 'running');
    await expect(box.locator('[data-step="checks"]')).toHaveAttribute('data-status', 'done');
    await expect(box.locator('[data-step="prompt"]')).toHaveAttribute('data-status', 'done');
    // The model's tokens stream into the box as they come.
    await page.waitForFunction(() => (window as unknown as { craneStreamed: number }).craneStreamed > 0, undefined, {
      timeout: 15 * 60_000
    });
    await snap(page, info, 'real-model-streaming');

    await expect(box).toHaveAttribute('data-phase', 'done', { timeout: 15 * 60_000 });
    const kind = await box.getAttribute('data-kind');
    expect(['predicted-crash', 'no-crash', 'unreadable']).toContain(kind);
    await expect(box).toContainText('smollm2');
    if (kind === 'unreadable') {
      // Amber: the raw text is shown (and, when the limit cut it, that is said).
      await expect(box).toContainText(/could not be read|cut at the output limit/);
    } else {
      await expect(box.locator('.crane-explanation')).not.toBeEmpty();
    }
    await expect(side.locator('.crane-prompt')).toContainText('# Target Cell:');
    await expect(side.locator('.crane-prompt')).toContainText('a.reshape(2, 3)');
    await expect(side.locator('.crane-raw-full')).not.toBeEmpty();
    await expect(side.locator('.crane-sidebar-verdict')).toContainText('smollm2');
    await expect(cell(page, 1).locator('.jp-InputPrompt')).not.toHaveText(/\[\d+\]/); // the cell did not run
    await snap(page, info, 'real-model-verdict', true);
  });
});
