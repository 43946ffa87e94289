import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { setSwitches } from '../../e2e/tests/crane';
import { cell, openNotebook, runCell } from '../../e2e/tests/jupyter';

/**
 * Command to verdict against the kernel's own round trip, on the quickstart notebook, in one run.
 *
 * For each certain cell of examples/quickstart.ipynb, in turn and spaced SPACING_MS apart (as a
 * user's clicks are; a request sent right after the previous reply waits ~40 ms more here):
 *   command `crane-llm:run` to the certain verdict in the DOM under the cell
 *   base    the smallest silent execute_request from the browser (one user expression), to its reply
 *   raw     the very request the extension sends, from the browser, to its reply (no parse, no view)
 *   kernel  inside the kernel: `check()` plus IPython formatting its reply, timed with perf_counter
 * Breakdown: kernel; wire = raw - kernel (the round trip with this reply's size); browser =
 * command - raw (command plumbing, JSON and schema parse, state, DOM). Ratio = command / base.
 */

const ROUNDS = Number(process.env.CRANE_LATENCY_ROUNDS ?? 5);
const SPACING_MS = 300;
const QUICKSTART = join(__dirname, '..', '..', 'examples', 'quickstart.ipynb');
const OUT = process.env.CRANE_LATENCY_OUT ?? join(__dirname, 'results.json');

interface Sample {
  cell: number;
  base: number;
  command: number;
  raw: number;
  kernel: number;
}

/** In the page: one measurement of each kind for one cell. Returns milliseconds. */
async function measure(page: Page, index: number, spacing: number, switches: { useLlm: boolean; includeRuntimeInfo: boolean }): Promise<Sample> {
  return page.evaluate(
    async ({ index, spacing, switches }) => {
      type Kernel = {
        requestExecute(c: Record<string, unknown>, disposeOnDone?: boolean): { done: Promise<{ content: Record<string, unknown> }> };
      };
      type Cell = { node: HTMLElement; model: { id: string; sharedModel: { getSource(): string } } };
      const app = (window as unknown as { jupyterapp: any }).jupyterapp;
      const panel = app.shell.currentWidget;
      const kernel = panel.sessionContext.session.kernel as Kernel;
      const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
      const silent = (expressions: Record<string, string>) =>
        kernel.requestExecute({ code: '', silent: true, store_history: false, user_expressions: expressions, allow_stdin: false }, true).done;
      panel.content.activeCellIndex = index;
      const target = panel.content.widgets[index] as Cell;
      // What selecting a cell sets off in JupyterLab settles first.
      await sleep(2 * spacing);

      // The verdict is in the DOM when the box under the cell says done and certain.
      const verdictShown = new Promise<number>(resolve => {
        const seen = () => target.node.querySelector('.crane-verdict[data-phase="done"][data-kind="certain-crash"]');
        const observer = new MutationObserver(() => {
          if (seen()) {
            observer.disconnect();
            resolve(performance.now());
          }
        });
        observer.observe(target.node, { subtree: true, childList: true, attributes: true });
      });
      let t = performance.now();
      void app.commands.execute('crane-llm:run');
      const command = (await verdictShown) - t;
      await sleep(spacing);

      t = performance.now();
      await silent({ x: '1' });
      const base = performance.now() - t;
      await sleep(spacing);

      const request = JSON.stringify({ protocol: 1, source: target.model.sharedModel.getSource(), cellId: target.model.id, ...switches, deferLog: true });
      const entry = "__import__('crane_llm.kernel.entry', fromlist=['check'])";
      t = performance.now();
      const reply = await silent({ crane: `${entry}.check(${JSON.stringify(request)})` });
      const raw = performance.now() - t;
      const answer = (reply.content.user_expressions as Record<string, { data?: Record<string, unknown> }>).crane;
      if (!answer.data?.['application/json']) throw new Error('the raw check request got no JSON reply');
      await sleep(spacing);

      const timed =
        `(lambda time, entry, fmt: (lambda t0: (fmt(entry.check(${JSON.stringify(request)})), time.perf_counter() - t0)[1])(time.perf_counter()))` +
        `(__import__('time'), ${entry}, get_ipython().display_formatter.format)`;
      const k = await silent({ k: timed });
      const kernelSeconds = Number((k.content.user_expressions as Record<string, { data: Record<string, string> }>).k.data['text/plain']);
      return { cell: index, base, command, raw, kernel: kernelSeconds * 1000 };
    },
    { index, spacing, switches }
  );
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

function summarise(samples: Sample[]) {
  const m = (f: (s: Sample) => number) => round(median(samples.map(f)), 2);
  const base = m(s => s.base);
  const command = m(s => s.command);
  return {
    samples: samples.length,
    medianMs: { base, command, raw: m(s => s.raw), kernel: m(s => s.kernel) },
    breakdownMs: { kernel: m(s => s.kernel), wire: m(s => s.raw - s.kernel), browser: m(s => s.command - s.raw) },
    ratio: round(median(samples.map(s => s.command / s.base)), 2),
    ratioOfMedians: round(command / base, 2)
  };
}

test('command to certain verdict vs the smallest silent request (quickstart)', async ({ page }, info) => {
  const root = process.env.CRANE_E2E_ROOT!;
  mkdirSync(root, { recursive: true });
  copyFileSync(QUICKSTART, join(root, 'latency.ipynb'));
  const host = (process.env.CRANE_LATENCY_HOST ?? 'lab') as 'lab' | 'notebook7';
  await openNotebook(page, host, 'latency.ipynb');
  const sources: string[] = await page.evaluate(() =>
    (window as unknown as { jupyterapp: any }).jupyterapp.shell.currentWidget.content.widgets.map((c: any) =>
      c.model.type === 'code' ? c.model.sharedModel.getSource() : null
    )
  );
  const code = sources.map((s, i) => (s === null ? -1 : i)).filter(i => i >= 0);
  // The three setup cells come first; the "check me" cells follow until the cell magic section.
  for (const i of code.slice(0, 3)) await runCell(page, i);
  const candidates = code.slice(3).filter(i => !sources[i].startsWith('%'));

  const results: Record<string, unknown> = {};
  const modes = {
    'defaults (LLM on, runtime information on)': { useLlm: true, includeRuntimeInfo: true },
    'LLM off (built-in checks only)': { useLlm: false, includeRuntimeInfo: true }
  };
  for (const [name, switches] of Object.entries(modes)) {
    await setSwitches(page, switches);
    await page.waitForTimeout(1000);
    // Which cells end in a certain verdict: one warm-up check each (imports, caches), not timed.
    const certain: number[] = [];
    for (const i of candidates) {
      await page.evaluate(i => {
        const app = (window as unknown as { jupyterapp: any }).jupyterapp;
        app.shell.currentWidget.content.activeCellIndex = i;
        return app.commands.execute('crane-llm:run');
      }, i);
      const box = cell(page, i).locator('.crane-verdict');
      await expect(box).toHaveAttribute('data-phase', /done|failed/);
      if ((await box.getAttribute('data-kind')) === 'certain-crash') certain.push(i);
      await page.waitForTimeout(SPACING_MS);
    }
    const samples: Sample[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const i of certain) samples.push(await measure(page, i, SPACING_MS, switches));
    }
    results[name] = { certainCells: certain.length, ...summarise(samples), samplesMs: samples.map(s => [s.cell, round(s.base), round(s.command), round(s.raw), round(s.kernel, 2)]) };
    console.log(name, JSON.stringify(results[name]));
  }
  const report = { measuredAt: new Date().toISOString(), host, rounds: ROUNDS, spacingMs: SPACING_MS, results };
  writeFileSync(OUT, JSON.stringify(report, null, 2) + '\n');
  await info.attach('latency.json', { body: JSON.stringify(report, null, 2), contentType: 'application/json' });
});
