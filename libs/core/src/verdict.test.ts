import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certainCrash, suggestedName } from './verdict';

describe('certain-crash golden vector (shared with python/crane_llm/present.py)', () => {
  const golden = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'certain-crash.json'), 'utf8')) as {
    cases: { name: string; crash: Parameters<typeof certainCrash>[0]; definedIn: number | null; expected: unknown }[];
  };
  it('has cases to run', () => expect(golden.cases.length).toBeGreaterThanOrEqual(4));
  for (const c of golden.cases) {
    it(c.name, () => expect(certainCrash(c.crash, c.definedIn)).toEqual(c.expected));
  }
});

describe('suggestedName', () => {
  it('is the correction of a NameError only', () => {
    const correction = { old: 'dff', new: 'df', line: 1 };
    expect(suggestedName({ exception: 'NameError', correction })).toBe('df');
    expect(suggestedName({ exception: 'AttributeError', correction })).toBeNull();
    expect(suggestedName({ exception: 'NameError', correction: null })).toBeNull();
  });
});
