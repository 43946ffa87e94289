import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checksRun, type Switches } from './switches';

const golden = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'switches.json'), 'utf8')) as {
  cases: (Switches & { checksRun: boolean })[];
};

describe('when the built-in checks run (golden vector shared with Python)', () => {
  it('covers every setting of the two switches', () => {
    expect(new Set(golden.cases.map(c => `${c.useLlm}/${c.includeRuntimeInfo}`)).size).toBe(4);
  });
  for (const c of golden.cases) {
    it(`useLlm=${c.useLlm}, includeRuntimeInfo=${c.includeRuntimeInfo}: ${c.checksRun ? 'run' : 'skipped'}`, () => {
      expect(checksRun({ useLlm: c.useLlm, includeRuntimeInfo: c.includeRuntimeInfo })).toBe(c.checksRun);
    });
  }
});
