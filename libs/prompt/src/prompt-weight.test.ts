// The prompt's weight in quarter tokens; python/tests/model/test_budget.py holds the twin to the same cases.
import { describe, expect, it } from 'vitest';
import { buildPrompt, countChars, estimateTokens, promptWeight } from './build';

const WEIGHTS: [string, number][] = [
  ['', 0],
  ['x = 1\n', 6], // ASCII: four characters a token
  ['café', 3 + 4], // a Latin-1 letter is a BMP code point: a token
  ['中文', 8], // CJK: a token a character
  ['😀', 8], // above U+FFFF: two tokens
  ['𠀀𠮷', 16], // CJK Extension B
  ['\ud800', 4], // a lone high surrogate counts as a BMP code point
  ['\udc00a', 4 + 1], // a lone low surrogate too
  ['a\ud83d', 1 + 4] // a high surrogate at the end
];

describe('promptWeight', () => {
  it.each(WEIGHTS)('%j weighs %d', (text, weight) => {
    expect(promptWeight(text)).toBe(weight);
    expect(estimateTokens(text)).toBe(Math.ceil(weight / 4));
  });

  it('estimates rare CJK text at two tokens a character', () => {
    const extB = Array.from({ length: 90_000 }, (_, i) => String.fromCodePoint(0x20000 + (i % 0xa6d6))).join('');
    expect(countChars(extB)).toBe(90_000); // the length shown stays in code points
    expect(estimateTokens(extB)).toBe(180_000); // characters / 4 said 22,500
    expect(estimateTokens('中'.repeat(90_000))).toBe(90_000);
    expect(estimateTokens('a'.repeat(90_000))).toBe(22_500);
  });

  it('keeps a megabyte of runtime information to the budget', () => {
    const text = '数据 data 𠮷\n'.repeat(200_000); // 2 million code points, 200,000 lines
    expect(promptWeight(text)).toBe(200_000 * (2 * 4 + 6 + 8 + 1));
    const prompt = buildPrompt({ executed: [], runtimeInfoText: text, target: 'x', budgetTokens: 1000 });
    expect(prompt.estimatedTokens).toBeLessThanOrEqual(1000);
    expect(prompt.runtimeInfoCut).toBeGreaterThan(0);
  });
});
