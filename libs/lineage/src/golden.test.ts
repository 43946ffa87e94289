import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionLog } from '@crane-llm/core';
import { bindingLines } from './defines';
import { definedIn, origin, type OriginInput } from './origin';

// The same files are read by python/tests/lineage/test_golden.py: a difference fails both.
const FIXTURES = join(__dirname, '..', 'fixtures');

interface OriginFixture {
  description: string;
  input: OriginInput;
  expected: unknown[];
}

const originFiles = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && f !== 'defines.json' && f !== 'defined-in.json').sort();

describe('origin golden vectors', () => {
  it('has fixtures to run', () => {
    expect(originFiles.length).toBeGreaterThanOrEqual(8);
  });
  for (const file of originFiles) {
    const fixture = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as OriginFixture;
    it(`${file}: ${fixture.description}`, () => {
      // The log must be what the wire schema allows the kernel to send.
      const log = ExecutionLog.parse(fixture.input.log);
      expect(origin({ ...fixture.input, log })).toEqual(fixture.expected);
    });
  }
});

describe('defines golden vectors', () => {
  const cases = JSON.parse(readFileSync(join(FIXTURES, 'defines.json'), 'utf8')) as Array<{
    source: string;
    bindings: Array<[number, string]>;
  }>;
  cases.forEach((c, i) => {
    it(`case ${i}: ${JSON.stringify(c.source.slice(0, 40))}`, () => {
      expect(bindingLines(c.source)).toEqual(c.bindings);
    });
  });
});

describe('definedIn golden vectors', () => {
  const golden = JSON.parse(readFileSync(join(FIXTURES, 'defined-in.json'), 'utf8')) as {
    cases: Array<{ name: string; log: string; why: string; expected: number | null }>;
  };
  for (const c of golden.cases) {
    it(`${c.name} in ${c.log}: ${c.why}`, () => {
      const fixture = JSON.parse(readFileSync(join(FIXTURES, c.log), 'utf8')) as OriginFixture;
      expect(definedIn(ExecutionLog.parse(fixture.input.log), c.name)).toBe(c.expected);
    });
  }
});
