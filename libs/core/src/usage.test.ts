import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tokenUsage, usageLine, usageText } from './usage';

describe('token usage of both APIs', () => {
  it('reads the Responses API shape', () => {
    const responses = { input_tokens: 1234, input_tokens_details: { cached_tokens: 0 }, output_tokens: 56, total_tokens: 1290 };
    expect(tokenUsage(responses)).toEqual({ input: 1234, output: 56 });
  });

  it('reads the Chat Completions shape', () => {
    expect(tokenUsage({ prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 })).toEqual({ input: 100, output: 7 });
  });

  it('keeps a count the provider left out as unknown, and nothing at all as null', () => {
    expect(tokenUsage({ completion_tokens: 7 })).toEqual({ input: null, output: 7 });
    expect(tokenUsage({ total_tokens: 9 })).toBeNull();
    expect(tokenUsage(null)).toBeNull();
    expect(tokenUsage('12 tokens')).toBeNull();
    expect(tokenUsage({ prompt_tokens: -1, completion_tokens: 2.5 })).toBeNull();
  });

  it('says it in words', () => {
    expect(usageText({ input: 1234, output: 56 })).toBe('1,234 in, 56 out');
    expect(usageText({ input: null, output: 7 })).toBe('input not reported, 7 out');
    expect(usageText({ input: 3, output: null })).toBe('3 in, output not reported');
    expect(usageText(null)).toBe('not reported by the provider');
  });

  it('is a line in the sidebar once a model answered, and nothing before', () => {
    expect(usageLine({ input: 100, output: 7 })).toBe('Tokens: 100 in, 7 out');
    expect(usageLine(null)).toBe('Tokens: not reported by the provider');
    expect(usageLine(undefined)).toBe('');
  });
});

// The golden vectors pytest also reads (python/crane_llm/present.py usage_line).
const golden: { cases: { name: string; reported: unknown; usage: unknown; line: string }[] } = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'usage.json'), 'utf-8')
);

describe('the tokens line, as the magic and the CLI also print it', () => {
  it.each(golden.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(tokenUsage(c.reported)).toEqual(c.usage);
    expect(usageLine(tokenUsage(c.reported))).toBe(c.line);
  });
});
