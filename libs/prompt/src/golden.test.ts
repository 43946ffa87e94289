// The golden vectors in ../fixtures: pytest runs the same files against the Python twin.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPrompt, type PromptInput } from './build';
import { describeFailure, isContextLength, isFormatRejection, rejectedParameter, type Failure } from './errors';
import { cutVerdict, parseVerdict } from './parse';
import { DEFAULT_MAX_OUTPUT_TOKENS, requestBody } from './request';
import { ServerSettings } from './settings';
import { previewRows, requestPreview, type PreviewProvider } from './preview';
import type { Disclosure } from './from-check';

const FIXTURES = join(__dirname, '..', 'fixtures');
const read = (path: string) => JSON.parse(readFileSync(join(FIXTURES, path), 'utf-8'));

const promptFiles = readdirSync(join(FIXTURES, 'prompt')).filter((f) => f.endsWith('.json')).sort();
const parseCases: { name: string; raw: string; expected: unknown }[] = read('parse/cases.json');
const errorCases: {
  describe: { name: string; failure: Failure; expected: unknown }[];
  classify: { name: string; status: number | null; code: string | null; message: string; expected: unknown }[];
} = read('errors/cases.json');

const cutCases: { name: string; limit: number; expected: unknown }[] = read('parse/cut.json');
const settingsCases: { name: string; expected: unknown }[] = read('settings/cases.json');
const previewCases: {
  name: string;
  provider: PreviewProvider;
  prompt: { text: string; estimatedTokens: number };
  disclosure: Disclosure;
  expected: unknown;
}[] = read('preview/cases.json');

describe('golden vectors', () => {
  it('has vectors of every kind', () => {
    expect(promptFiles.length).toBeGreaterThanOrEqual(8);
    expect(parseCases.length).toBeGreaterThanOrEqual(20);
    expect(errorCases.describe.length).toBeGreaterThanOrEqual(15);
  });

  it.each(promptFiles)('prompt and request bodies: %s', (file) => {
    const { input, expected } = read(`prompt/${file}`) as {
      input: PromptInput & { model: string; maxOutputTokens?: number };
      expected: Record<string, unknown> & { prompt: unknown };
    };
    const prompt = buildPrompt(input);
    const maxOutputTokens = input.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    expect(prompt).toEqual(expected.prompt);
    expect(requestBody('responses', prompt, input.model, { maxOutputTokens })).toEqual(expected.responsesBody);
    expect(requestBody('chat', prompt, input.model, { maxOutputTokens })).toEqual(expected.chatBody);
    expect(requestBody('responses', prompt, input.model, { structured: false, maxOutputTokens })).toEqual(expected.responsesBodyPlain);
    expect(requestBody('chat', prompt, input.model, { structured: false, maxOutputTokens })).toEqual(expected.chatBodyPlain);
    const older = requestBody('chat', prompt, input.model, { maxOutputTokens, limitField: 'max_tokens', streamUsage: false });
    // Byte-identical, not just equal: the key order of the body is part of the contract.
    expect(JSON.stringify(older)).toBe(JSON.stringify(expected.chatBodyOlderServer));
    expect(JSON.stringify(requestBody('chat', prompt, input.model, { maxOutputTokens }))).toBe(JSON.stringify(expected.chatBody));
    expect(JSON.stringify(requestBody('responses', prompt, input.model, { maxOutputTokens }))).toBe(JSON.stringify(expected.responsesBody));
  });

  it.each(cutCases.map((c) => [c.name, c] as const))('an answer cut at the output limit: %s', (_name, c) => {
    expect(cutVerdict(c.limit)).toEqual(c.expected);
  });

  it.each(parseCases.map((c) => [c.name, c] as const))('parse: %s', (_name, c) => {
    expect(parseVerdict(c.raw)).toEqual(c.expected);
  });

  it.each(errorCases.describe.map((c) => [c.name, c] as const))('error message: %s', (_name, c) => {
    expect(describeFailure(c.failure)).toEqual(c.expected);
  });

  it.each(errorCases.classify.map((c) => [c.name, c] as const))('error classification: %s', (_name, c) => {
    expect({
      formatRejection: isFormatRejection(c.status, c.code, c.message),
      contextLength: isContextLength(c.status, c.code, c.message),
      rejectedParameter: rejectedParameter(c.status, c.code, c.message)
    }).toEqual(c.expected);
  });

  it.each(settingsCases.map((c) => [c.name, c] as const))('the server settings Python answers fit the schema: %s', (_name, c) => {
    expect(ServerSettings.parse(c.expected)).toEqual(c.expected);
  });

  it.each(previewCases.map((c) => [c.name, c] as const))('the request preview (--preview, Ask before sending): %s', (_name, c) => {
    const preview = requestPreview(c.provider, c.prompt, c.disclosure);
    expect({ preview, rows: previewRows(preview) }).toEqual(c.expected);
  });
});
