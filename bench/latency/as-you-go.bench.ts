import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { cell, openNotebook, runCell, selectCell, waitIdle } from '../../e2e/tests/jupyter';

/**
 * What "Check as you go" costs the kernel over a scripted editing session of the quickstart: the
 * session selects each "check me" cell, waits, types a comment at a person's pace, pauses, and
 * moves on. The kernel's own clock says how long it was busy with each silent request (the
 * `date` of its busy and idle status messages, which the kernel stamps); their sum over the
 * session's wall time is the figure (goal: under 1%). No cell runs during the session, so every
 * execute_request the kernel answers in it is one of these checks.
 */

const QUICKSTART = join(__dirname, '..', '..', 'examples', 'quickstart.ipynb');
const OUT = process.env.CRANE_LATENCY_OUT ?? join(__dirname, 'results.json');
const KEY_DELAY_MS = 120; // about 80 words a minute
const COMMENT = '  # checked?';

test('kernel time of check as you go over an editing session (quickstart)', async ({ page }) => {
  const root = process.env.CRANE_E2E_ROOT!;
  mkdirSync(root, { recursive: true });
  copyFileSync(QUICKSTART, join(root, 'as-you-go.ipynb'));
  await openNotebook(page, 'lab', 'as-you-go.ipynb');
  const kinds: (string | null)[] = await page.evaluate(() =>
    (window as unknown as { jupyterapp: any }).jupyterapp.shell.currentWidget.content.widgets.map((c: any) =>
      c.model.type === 'code' ? c.model.sharedModel.getSource() : null
    )
  );
  const code = kinds.map((s, i) => (s === null ? -1 : i)).filter(i => i >= 0);
  for (const i of code.slice(0, 3)) await runCell(page, i);
  await waitIdle(page);
  await page.evaluate(async () => {
    const app = (window as unknown as { jupyterapp: any }).jupyterapp;
    if (!app.commands.isToggled('crane-llm:toggle-check-as-you-go')) await app.commands.execute('crane-llm:toggle-check-as-you-go');
  });
  // The kernel's busy and idle stamps of every execute_request from now on, to the microsecond
  // (Date.parse would keep milliseconds only).
  await page.evaluate(() => {
    const micros = (d: string) => {
      const m = /T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?/.exec(d)!;
      return ((+m[1] * 60 + +m[2]) * 60 + +m[3]) * 1e6 + Number((m[4] ?? '0').padEnd(6, '0').slice(0, 6));
    };
    const w = window as unknown as { jupyterapp: any; craneBusy: { busy: Record<string, number>; micros: number[] } };
    w.craneBusy = { busy: {}, micros: [] };
    const kernel = w.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    kernel.iopubMessage.connect((_: unknown, msg: any) => {
      if (msg.header.msg_type !== 'status' || msg.parent_header?.msg_type !== 'execute_request') return;
      const id = msg.parent_header.msg_id;
      if (msg.content.execution_state === 'busy') w.craneBusy.busy[id] = micros(msg.header.date);
      else if (msg.content.execution_state === 'idle' && id in w.craneBusy.busy) w.craneBusy.micros.push(micros(msg.header.date) - w.craneBusy.busy[id]);
    });
  });

  const started = Date.now();
  const targets = code.slice(3).filter(i => !(kinds[i] ?? '').startsWith('%'));
  for (const i of targets) {
    await selectCell(page, i);
    await page.waitForTimeout(800);
    await cell(page, i).locator('.jp-InputArea-editor').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(COMMENT, { delay: KEY_DELAY_MS });
    await page.waitForTimeout(1000);
    for (let k = 0; k < COMMENT.length; k++) await page.keyboard.press('Backspace', { delay: KEY_DELAY_MS / 2 });
    await page.waitForTimeout(700);
    await page.keyboard.press('Escape');
  }
  const wallMs = Date.now() - started;
  const micros: number[] = await page.evaluate(() => (window as unknown as { craneBusy: { micros: number[] } }).craneBusy.micros);
  const marks = await page.locator('.crane-mark').count();
  const kernelMs = micros.reduce((a, b) => a + b, 0) / 1000;
  const sorted = [...micros].sort((a, b) => a - b);
  const summary = {
    measuredAt: new Date().toISOString(),
    cellsEdited: targets.length,
    checks: micros.length,
    marksAtEnd: marks,
    wallMs,
    kernelMs: Number(kernelMs.toFixed(1)),
    kernelShareOfWallPercent: Number(((100 * kernelMs) / wallMs).toFixed(3)),
    medianCheckKernelMs: Number((sorted[sorted.length >> 1] / 1000).toFixed(2)),
    maxCheckKernelMs: Number((sorted[sorted.length - 1] / 1000).toFixed(2))
  };
  console.log('check as you go', JSON.stringify(summary));
  const report = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(OUT, JSON.stringify({ ...report, checkAsYouGo: summary }, null, 2) + '\n');
});
