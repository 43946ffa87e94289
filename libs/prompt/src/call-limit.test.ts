// The output limit, the cut answer, usage on Chat streams and the retries for servers that refuse
// one of those parameters, against the real local OpenAI-compatible server (twin of
// python/tests/model/test_output_limit_and_usage.py).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildPrompt, type PromptInput } from './build';
import { callModel } from './call';
import { FakeOpenAIProcess, verdictText } from './testing/fake-openai';

const fixture = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'prompt', 'no-executed-cells.json'), 'utf-8')) as {
  input: PromptInput & { model: string; maxOutputTokens: number };
  expected: Record<string, unknown>;
};
const prompt = buildPrompt(fixture.input);
const limit = fixture.input.maxOutputTokens;
const crash = verdictText({ crash: true, explanation: 'x is not defined.', exception: 'NameError', line: 1, variables: ['x'] });

let fake: FakeOpenAIProcess;
beforeAll(async () => {
  fake = await FakeOpenAIProcess.start();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(async () => {
  await fake.reset();
});

const call = (apiKind: 'responses' | 'chat', extra: Partial<Parameters<typeof callModel>[0]> = {}) =>
  callModel({ prompt, model: fixture.input.model, apiKind, baseURL: fake.baseURL, providerHost: 'local', maxRetries: 0, maxOutputTokens: limit, ...extra });

describe('output limit and usage', () => {
  it.each([
    ['responses', 'responsesBody'],
    ['chat', 'chatBody']
  ] as const)('%s: sends the golden body, limit included', async (apiKind, golden) => {
    await fake.script({ text: crash });
    expect((await call(apiKind)).verdict?.kind).toBe('predicted-crash');
    const [req] = await fake.requests();
    expect(req.body).toEqual(fixture.expected[golden]);
  });

  it.each(['responses', 'chat'] as const)('%s: an answer cut at the limit is amber and says so, even when it parses', async (apiKind) => {
    await fake.script({ text: `${crash} and then the model kept going`, cut: true });
    const result = await call(apiKind);
    expect(result.problem).toBeNull();
    expect(result.cutAtLimit).toBe(limit);
    expect(result.verdict?.kind).toBe('unreadable');
    expect(result.verdict?.explanation).toContain('cut at the output limit of 512 tokens');
    expect(result.raw.startsWith(crash)).toBe(true);
  });

  it('asks a Chat stream for usage and returns it', async () => {
    await fake.script({ text: crash, chunk_size: 4 });
    const result = await call('chat');
    const chunks = Math.ceil(crash.length / 4);
    expect(result.usage).toMatchObject({ prompt_tokens: 100, completion_tokens: chunks, total_tokens: 100 + chunks });
  });

  it('drops each refused parameter once for an older server, and ends with the golden older-server body', async () => {
    await fake.script({ text: crash, refuse: ['max_completion_tokens', 'stream_options'] });
    const result = await call('chat');
    expect(result.verdict?.kind).toBe('predicted-crash');
    const requests = await fake.requests();
    expect(requests).toHaveLength(3);
    expect(requests[1].body).toMatchObject({ max_tokens: limit, stream_options: { include_usage: true } });
    expect(JSON.stringify(requests[2].body)).toBe(JSON.stringify(fixture.expected.chatBodyOlderServer));
    expect(result.usage).toBeNull();
  });

  it('reports a refusal of max_tokens too instead of looping', async () => {
    await fake.script({ text: crash, refuse: ['max_completion_tokens', 'max_tokens'] });
    const result = await call('chat');
    expect(result.problem?.kind).toBe('bad-request');
    expect(await fake.requests()).toHaveLength(2);
  });
});
