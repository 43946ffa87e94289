// The runtime-information text against the shared golden vectors; pytest runs the same files
// against python/crane_llm/prompt/runinfo_text.py, so the two renderers agree byte for byte.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuntimeInfo } from '@crane-llm/core';
import { formatNumber, quote, runtimeInfoText } from './runinfo-text';

const DIR = join(__dirname, '..', 'fixtures', 'runinfo');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

describe('runtime information text', () => {
  it('has the vectors', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it.each(files)('%s', (file) => {
    const vector = JSON.parse(readFileSync(join(DIR, file), 'utf-8')) as { input: unknown; text: string };
    const info = RuntimeInfo.parse(vector.input);
    expect(runtimeInfoText(info)).toBe(vector.text);
  });

  it('formats numbers by the shared rule', () => {
    expect(formatNumber(1e-7)).toBe('1e-07');
    expect(formatNumber(0.00001234)).toBe('0.00001234');
    expect(formatNumber(1e16)).toBe('1e+16');
    expect(formatNumber(123.5)).toBe('123.5');
    expect(formatNumber(-0)).toBe('-0');
    expect(formatNumber(2 ** 60)).toBe('1.152921504606847e+18');
  });

  it('round-trips every float it formats', () => {
    const view = new DataView(new ArrayBuffer(8));
    let seed = 12345;
    for (let i = 0; i < 20000; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      view.setUint32(0, seed);
      seed = (seed * 1103515245 + 12345) >>> 0;
      view.setUint32(4, seed);
      const x = view.getFloat64(0);
      if (!Number.isFinite(x)) continue;
      expect(Number(formatNumber(x))).toBe(x);
    }
  });

  it('quotes with the shared escapes', () => {
    expect(quote('a"b\\c\n\u0001é')).toBe('"a\\"b\\\\c\\n\\u0001é"');
  });

  it('escapes bidirectional controls, which would make a quoted name read otherwise', () => {
    expect(quote('a\u202eb\u2066c\u2069\u200e\u200f\u061c')).toBe('"a\\u202eb\\u2066c\\u2069\\u200e\\u200f\\u061c"');
    expect(quote('\u05e9\u05dc\u05d5\u05dd \u202f')).toBe('"\u05e9\u05dc\u05d5\u05dd \u202f"'); // RTL letters and a narrow space stay
    expect(quote('abc\ud800def\u{1f600}')).toBe('"abc\\ud800def\u{1f600}"'); // a lone surrogate, escaped; a pair stays
  });

  it('escapes C1 controls and line separators (U+009B opens a terminal sequence; U+2028 ends a line in many viewers)', () => {
    expect(quote('a\x85b\x9b2Jc\x7f\u2028d\u2029')).toBe('"a\\u0085b\\u009b2Jc\\u007f\\u2028d\\u2029"');
    expect(quote('\xa0\xe9\u0100')).toBe('"\xa0\xe9\u0100"'); // a no-break space and letters past C1 stay
  });

  it('rejects runtime information that breaks the schema', () => {
    expect(RuntimeInfo.safeParse({ variables: [{ name: 'x', type: 'int', attributes: [], summary: { kind: 'int', value: 3 } }] }).success).toBe(false);
    expect(RuntimeInfo.safeParse({ variables: [{ name: 'x', type: 'T', attributes: [], summary: { kind: 'nope' } }] }).success).toBe(false);
  });
});
