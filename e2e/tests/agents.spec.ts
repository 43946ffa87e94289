import { expect, test, type Page } from '@playwright/test';
import { createNotebook, openNotebook, runCell, waitIdle, type Host } from './jupyter';
import { FakeProvider, type CraneWindow } from './crane';

/**
 * `crane-llm:check`: the check as a command other extensions and in-browser agents call. It
 * answers with the JSON of wire/check-answer.ts (the MCP tool's and the CLI's shape), runs nothing
 * but the silent facts request, and draws the verdict under the cell as the button does.
 */

const CELLS = [
  'import pandas as pd\ndf = pd.DataFrame({"a": [1, 2], "b": [3, 4]})',
  'df.drop(columns=["b"], inplace=True)',
  'df["b"].sum()',
  'df["a"].sum()'
];

/** The fields of the answer the test reads (the whole shape is libs/core's CheckAnswer). */
interface Answer {
  notebook: string | null;
  cellId: string | null;
  cellIndex: number | null;
  verdict: { kind: string; exception: string | null; line: number | null } | null;
  origin: { cellId: string | null; kind: string }[];
  problem: { kind: string; message: string } | null;
}

async function checkCommand(page: Page, args: Record<string, unknown>): Promise<Answer> {
  return page.evaluate(a => (window as unknown as CraneWindow).jupyterapp.commands.execute('crane-llm:check', a), args) as Promise<Answer>;
}

for (const host of ['lab', 'notebook7'] as Host[]) {
  test(`crane-llm:check answers with the verdict and its origin in ${host}`, async ({ page }) => {
    const provider = FakeProvider.ofRun();
    await provider.reset();
    const name = `agents-${host}.ipynb`;
    createNotebook(name, CELLS);
    await openNotebook(page, host, name);
    for (const i of [0, 1]) await runCell(page, i);
    await waitIdle(page);

    const answer = await checkCommand(page, { notebookPath: name, cellId: 'cell-2' });
    expect(answer.problem).toBeNull();
    expect(answer).toMatchObject({ notebook: name, cellId: 'cell-2', cellIndex: 2 });
    expect(answer.verdict).toMatchObject({ kind: 'certain-crash', exception: 'KeyError', line: 1 });
    const byCell = Object.fromEntries(answer.origin.map(e => [e.cellId, e.kind]));
    expect(byCell).toEqual({ 'cell-0': 'assigned', 'cell-1': 'modified' });
    // The verdict is drawn under the cell too, as the button would.
    await expect(page.locator('.jp-Notebook .jp-Cell').nth(2).locator('.crane-verdict')).toHaveAttribute('data-colour', 'red');

    // At once: the command answers only when the kernel is idle again after its own request.
    const fine = await checkCommand(page, { cellIndex: 3 });
    expect(fine.verdict?.kind, JSON.stringify(fine.problem)).toBe('nothing-certain');
    expect(fine.origin).toEqual([]);

    expect((await checkCommand(page, { notebookPath: 'elsewhere.ipynb', cellIndex: 0 })).problem?.kind).toBe('no-notebook');
    expect((await checkCommand(page, { cellIndex: 99 })).problem?.kind).toBe('no-cell');
    // useLlm defaults to false: nothing was sent to any model, and the cells never ran.
    expect(await provider.requests()).toEqual([]);
    await expect(page.locator('.jp-Notebook .jp-Cell').nth(2).locator('.jp-InputPrompt')).toHaveText(/\[\s*\]:/);
  });
}
