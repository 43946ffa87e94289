import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createNotebook, openNotebook, runCell, selectCell, waitIdle, type Host } from './jupyter';
import {
  FakeProvider,
  check,
  defaultProviderConfig,
  dismissPopup,
  hoverPopup,
  openSidebar,
  setProviderConfig,
  setSwitches,
  snap,
  verdictText
} from './crane';

/**
 * What leaves the machine from JupyterLab and Notebook 7. Unique values are planted where data
 * hides (a string column value, a float, a dict value, a list element: read from files, as data
 * is) and secrets where code holds them (db_password, an sk-proj-... key, an AKIA... key in an
 * executed cell's literals); every request the local provider records is read whole.
 */

const DATA: Record<string, string> = {
  'trust-frame.csv': 'city,price\nZqxville-71,1.25\nOslo,98765.4321\nLima,3.5\n',
  'trust-cfg.json': '{"host": "dbhost-8842.internal", "port": 5432}',
  'trust-items.txt': 'lst-elem-5521\nb\nc\n'
};
const CELLS = [
  [
    'import json, pandas as pd',
    'df = pd.read_csv("trust-frame.csv")',
    'cfg = json.load(open("trust-cfg.json"))',
    'items = open("trust-items.txt").read().split()',
    'db_password = "pw-hunter-9931"',
    'client_key = "sk-proj-PLANTED0123456789abcdefXYZ"',
    'aws = "AKIAPLANTED000000042"'
  ].join('\n'),
  // A loop: the built-in checker stops there, so the model is asked.
  'for _ in range(1):\n    print(df["city"], df["price"], cfg["host"], items[0], db_password, client_key, aws)'
];
const VALUES = ['Zqxville-71', '98765.4321', 'dbhost-8842', 'lst-elem-5521'];
const SECRETS = ['pw-hunter-9931', 'PLANTED0123456789', 'AKIAPLANTED000000042'];
const ANSWER = { text: verdictText({ crash: false, explanation: 'It prints.' }) };

async function sent(fake: FakeProvider): Promise<{ count: number; text: string }> {
  const provider = (await fake.requests()).filter(r => !r.path.startsWith('/_'));
  return { count: provider.length, text: provider.map(r => JSON.stringify(r)).join('\n') };
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test.describe(`what leaves the machine in ${host}`, () => {
    const fake = FakeProvider.ofRun();
    test.beforeEach(async () => {
      await fake.reset();
      for (const [name, text] of Object.entries(DATA)) writeFileSync(join(process.env.CRANE_E2E_ROOT!, name), text);
    });
    test.afterEach(async ({ page }) => {
      setProviderConfig(defaultProviderConfig());
      await setSwitches(page, { useLlm: false, includeRuntimeInfo: true, includeValues: true }).catch(() => undefined);
    });

    test('values off: structure only; values on: the values but never a secret', async ({ page }, info) => {
      const name = `trust-values-${host}.ipynb`;
      createNotebook(name, CELLS);
      await openNotebook(page, host, name);
      await setSwitches(page, { useLlm: true, includeRuntimeInfo: true, includeValues: false });
      await runCell(page, 0);
      await waitIdle(page);

      const popup = await hoverPopup(page);
      await expect(popup.getByRole('switch', { name: /Include data values/ })).not.toBeChecked();
      await snap(page, info, `${host}-popup-values-off`);
      await dismissPopup(page);

      await fake.script(ANSWER);
      await selectCell(page, 1);
      let box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'green');
      let out = await sent(fake);
      expect(out.count).toBe(1);
      for (const value of [...VALUES, ...SECRETS]) expect(out.text).not.toContain(value);
      for (const column of ['\\"city\\"', '\\"price\\"', "'host'", 'items (list): length 3']) expect(out.text).toContain(column);
      const side = await openSidebar(page);
      await expect(side).toContainText('data values left out');
      await expect(side).toContainText(/[3-9] secrets masked/);
      await snap(page, info, `${host}-sidebar-values-off`);

      await fake.reset();
      await setSwitches(page, { includeValues: true });
      await fake.script(ANSWER);
      await selectCell(page, 1);
      box = await check(page, 1);
      await expect(box).toHaveAttribute('data-colour', 'green');
      out = await sent(fake);
      expect(out.count).toBe(1);
      for (const value of VALUES) expect(out.text).toContain(value);
      for (const secret of SECRETS) expect(out.text).not.toContain(secret);
      expect(out.text).toContain('<masked: ');
    });

    test('each policy level disables its switches, says who set them, and holds', async ({ page }, info) => {
      const name = `trust-policy-${host}.ipynb`;
      createNotebook(name, CELLS);
      const levels = [
        { policy: 'no-llm', capped: ['useLlm', 'includeRuntimeInfo', 'includeValues'], sent: false },
        { policy: 'no-runinfo', capped: ['includeRuntimeInfo', 'includeValues'], sent: true },
        { policy: 'no-values', capped: ['includeValues'], sent: true }
      ];
      for (const level of levels) {
        await fake.reset();
        setProviderConfig({ ...defaultProviderConfig(), policy: level.policy });
        await openNotebook(page, host, name);
        await setSwitches(page, { useLlm: true, includeRuntimeInfo: true, includeValues: true });
        await runCell(page, 0);
        await waitIdle(page);
        const popup = await hoverPopup(page);
        for (const row of ['useLlm', 'includeRuntimeInfo', 'includeValues']) {
          const capped = level.capped.includes(row);
          const input = popup.locator(`[data-switch="${row}"] input`);
          if (capped) {
            await expect(input).toBeDisabled();
            await expect(input).not.toBeChecked();
            await expect(popup.locator(`[data-switch="${row}"]`)).toContainText('set by your administrator');
          } else {
            await expect(input).toBeEnabled();
          }
        }
        await snap(page, info, `${host}-policy-${level.policy}`);
        await dismissPopup(page);
        await fake.script(ANSWER);
        await selectCell(page, 1);
        const box = await check(page, 1);
        const out = await sent(fake);
        expect(out.count > 0).toBe(level.sent);
        if (!level.sent) await expect(box).toHaveAttribute('data-colour', 'blue');
        expect(out.text.includes('Current relevant runtime information')).toBe(level.policy === 'no-values');
        for (const value of [...VALUES, ...SECRETS]) expect(out.text).not.toContain(value);
      }
    });
  });
}
