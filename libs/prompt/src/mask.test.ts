// Masking and the values-off runtime-information text against the shared golden vectors; pytest
// runs the same files against python/crane_llm/prompt/mask.py and runinfo_text.py.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuntimeInfo } from '@crane-llm/core';
import { looksSecret, maskCode, maskRuntimeInfo, maskText } from './mask';
import { promptInputFromCheck } from './from-check';
import { runtimeInfoText } from './runinfo-text';

const FIXTURES = join(__dirname, '..', 'fixtures');
const cases = JSON.parse(readFileSync(join(FIXTURES, 'mask', 'cases.json'), 'utf-8')) as {
  code: { name: string; input: string; expected: { code: string; masked: number } }[];
  text: { name: string; input: string; expected: { text: string; masked: number } }[];
  runinfo: { name: string; info: unknown; includeValues: boolean; expected: { text: string; masked: number } }[];
};
const runinfoFiles = readdirSync(join(FIXTURES, 'runinfo')).filter((f) => f.endsWith('.json')).sort();

describe('masking (golden vectors)', () => {
  it.each(cases.code.map((c) => [c.name, c] as const))('code: %s', (_n, c) => {
    const m = maskCode(c.input);
    expect({ code: m.value, masked: m.masked }).toEqual(c.expected);
  });

  it.each(cases.text.map((c) => [c.name, c] as const))('text: %s', (_n, c) => {
    const m = maskText(c.input);
    expect({ text: m.value, masked: m.masked }).toEqual(c.expected);
  });

  it.each(cases.runinfo.map((c) => [c.name, c] as const))('runtime information: %s', (_n, c) => {
    const info = RuntimeInfo.parse(c.info);
    const m = maskRuntimeInfo(info, c.includeValues);
    expect({ text: runtimeInfoText(m.value, c.includeValues), masked: m.masked }).toEqual(c.expected);
    // The kernel's answer is left as it was: the sidebar may still show it to the user.
    expect(info).toEqual(RuntimeInfo.parse(c.info));
  });

  it.each(runinfoFiles)('values-off text: %s', (file) => {
    const vector = JSON.parse(readFileSync(join(FIXTURES, 'runinfo', file), 'utf-8')) as { input: unknown; textWithoutValues: string };
    expect(runtimeInfoText(RuntimeInfo.parse(vector.input), false)).toBe(vector.textWithoutValues);
  });
});

describe('what leaves the machine', () => {
  const planted = cases.runinfo[0].info as RuntimeInfo;
  const executed = [{ executionCount: 1, cellId: 'a', code: cases.code[0].input + cases.code[2].input }];

  it('with values off, no planted value is in the prompt text and the column names are', () => {
    const input = promptInputFromCheck({ executed, runtimeInfo: planted }, 'df.groupby("city")', null, false);
    const text = `${input.executed.map((c) => c.code).join('\n')}\n${input.runtimeInfoText}\n${input.target}`;
    for (const value of ['Zzyzx-planted', '98765.4321', 'db.internal-planted', 'alpha-planted', 'hunter2-planted', 'sk-proj-PLANTED', 'AKIAPLANTED', '424242', '0.123456789'])
      {expect(text).not.toContain(value);}
    for (const name of ['"city"', '"price"', '"when"']) expect(text).toContain(name);
    expect(input.disclosure).toEqual({ masked: expect.any(Number), valuesLeftOut: true, runtimeInfoLeftOut: false });
  });

  it('with values on, the secrets still never arrive, other values do', () => {
    const input = promptInputFromCheck({ executed, runtimeInfo: planted }, 'print(db_password)');
    const text = `${input.executed.map((c) => c.code).join('\n')}\n${input.runtimeInfoText}`;
    for (const value of ['hunter2-planted', 'sk-proj-PLANTED', 'AKIAPLANTED']) expect(text).not.toContain(value);
    expect(text).toContain('Zzyzx-planted');
    expect(input.disclosure.masked).toBeGreaterThanOrEqual(5);
  });

  it('reads word parts of names, not substrings', () => {
    expect(['db_password', 'apiKey', 'APIKey', 'AUTH', 'githubToken', 'x1_key2'].every(looksSecret)).toBe(true);
    expect(['monkey', 'author', 'tokens', 'max_tokens', 'keyboard', 'passage'].some(looksSecret)).toBe(false);
  });
});
