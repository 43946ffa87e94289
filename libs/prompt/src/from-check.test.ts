import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from './build';
import { executedCells, promptInputFromCheck } from './from-check';

const pandas = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'runinfo', 'pandas.json'), 'utf-8')) as {
  input: unknown;
  text: string;
};
const code = 'import pandas as pd\ndf = pd.read_csv("t.csv")';
const log = { version: 1, runs: [{ executionCount: 1, cellId: 'a', code, recorded: true, raised: null, effects: [] }] } as const;

describe('promptInputFromCheck', () => {
  it('renders the runtime information into the prompt', () => {
    const input = promptInputFromCheck({ log, runtimeInfo: pandas.input }, 'df.dropna()["Cabin"]', 5000);
    expect(input.runtimeInfoText).toBe(pandas.text);
    const prompt = buildPrompt(input);
    expect(prompt.input).toContain(`# Current relevant runtime information:\n${pandas.text}\n\n# Target Cell:\n`);
    expect(prompt.budgetTokens).toBe(5000);
  });

  it('leaves the section and its mention out when runtime information is off', () => {
    const prompt = buildPrompt(promptInputFromCheck({ log, runtimeInfo: null }, 'df.head()'));
    expect(prompt.text).not.toContain('runtime information');
    expect(prompt.input).toBe('# Executed Cells:\n## Cell 1:\nimport pandas as pd\ndf = pd.read_csv("t.csv")\n\n# Target Cell:\ndf.head()\n');
  });

  it('takes the executed cells from the log, the one list the kernel sends', () => {
    expect(executedCells({ log })).toEqual([{ executionCount: 1, cellId: 'a', code }]);
    expect(executedCells({ log: null })).toEqual([]);
  });
});
