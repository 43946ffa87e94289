// The browser-side model call against the real local OpenAI-compatible server, spawned as a process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildPrompt, type PromptInput } from './build';
import { callModel, PLACEHOLDER_API_KEY, proxyBaseUrl } from './call';
import type { ServerSettings } from './settings';
import { FakeOpenAIProcess, verdictText } from './testing/fake-openai';

const fixture = JSON.parse(
  readFileSync(join(__dirname, '..', 'fixtures', 'prompt', 'junobench-nbspecific-1-runinfo.json'), 'utf-8')
) as {
  input: PromptInput & { model: string };
  expected: Record<'responsesBody' | 'chatBody' | 'responsesBodyPlain' | 'chatBodyPlain', unknown> & { prompt: { text: string } };
};
const promptInput: PromptInput = {
  executed: fixture.input.executed,
  runtimeInfoText: fixture.input.runtimeInfoText,
  target: fixture.input.target,
  budgetTokens: fixture.input.budgetTokens,
  style: fixture.input.style
};
const prompt = buildPrompt(promptInput);
const crash = verdictText({ crash: true, explanation: 'tf_idf is never defined.', exception: 'NameError', line: 1, variables: ['tf_idf'] });

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
  callModel({ prompt, model: 'gpt-5', apiKind, baseURL: fake.baseURL, providerHost: 'api.example.test', maxRetries: 1, ...extra });

describe('callModel against the local OpenAI-compatible server', () => {
  it('streams a Responses API answer and sends exactly the golden body', async () => {
    await fake.script({ text: crash, chunk_size: 5 });
    const chunks: string[] = [];
    const result = await call('responses', { onText: (c) => chunks.push(c) });
    expect(result.problem).toBeNull();
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(crash);
    expect(result.raw).toBe(crash);
    expect(result.verdict).toEqual({
      kind: 'predicted-crash',
      source: { type: 'llm', model: 'gpt-5' },
      exception: 'NameError',
      line: 1,
      explanation: 'tf_idf is never defined.',
      variables: ['tf_idf'],
      checkerRanFirst: true
    });
    const [req] = await fake.requests();
    expect(req.path).toBe('/v1/responses');
    expect(req.body).toEqual(fixture.expected.responsesBody);
    expect(req.headers['authorization']).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
  });

  it('streams a Chat Completions answer and sends exactly the golden body', async () => {
    await fake.script({ text: verdictText({ crash: false, explanation: 'Runs.' }) });
    const result = await call('chat');
    expect(result.verdict?.kind).toBe('no-crash');
    expect(result.verdict?.explanation).toBe('Runs.');
    const [req] = await fake.requests();
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.body).toEqual(fixture.expected.chatBody);
  });

  it.each(['chat', 'responses'] as const)('retries once without structured output when %s rejects it', async (kind) => {
    await fake.script({ reject_format: true, text: '```json\n' + crash + '\n```' });
    const result = await call(kind);
    expect(result.structuredFallback).toBe(true);
    expect(result.verdict?.kind).toBe('predicted-crash');
    const reqs = await fake.requests();
    expect(reqs).toHaveLength(2);
    const plain = kind === 'chat' ? fixture.expected.chatBodyPlain : fixture.expected.responsesBodyPlain;
    expect(reqs[1].body).toEqual(plain);
  });

  it('keeps an unreadable answer as raw text', async () => {
    await fake.script({ text: 'I think it will probably crash.' });
    const result = await call('chat');
    expect(result.verdict?.kind).toBe('unreadable');
    expect(result.raw).toBe('I think it will probably crash.');
  });

  it.each([
    ['unauthorized', 'auth', /api\.example\.test refused the API key/],
    ['forbidden', 'auth', /HTTP 403/],
    ['model_not_found', 'model-not-found', /answered 404 for the model "gpt-5"/],
    ['context_length', 'context-length', /too long for the model "gpt-5" at api\.example\.test/]
  ])('turns %s into a clear problem without retrying', async (preset, kind, message) => {
    await fake.script({ preset });
    const result = await call('chat');
    expect(result.verdict).toBeNull();
    expect(result.problem?.kind).toBe(kind);
    expect(result.problem?.message).toMatch(message);
    expect(await fake.requests()).toHaveLength(1);
  });

  it('never repeats the provider text of a 401, which can quote the key', async () => {
    await fake.script({ status: 401, error: { message: 'Incorrect API key provided: sk-secr********1234' } });
    const result = await call('chat');
    expect(result.problem?.message).not.toMatch(/sk-/);
  });

  it('honours Retry-After on 429, then answers', async () => {
    await fake.script({ preset: 'rate_limited', retry_after: 1 }, { text: crash });
    const result = await call('chat');
    expect(result.verdict?.kind).toBe('predicted-crash');
    const reqs = await fake.requests();
    expect(reqs).toHaveLength(2);
    expect(reqs[1].time - reqs[0].time).toBeGreaterThanOrEqual(0.9);
  });

  it('gives up on 429 after the bounded retries', async () => {
    await fake.script({ preset: 'rate_limited', retry_after: 0.2 }, { preset: 'rate_limited', retry_after: 0.2 });
    const result = await call('responses');
    expect(result.problem?.kind).toBe('rate-limit');
    expect(result.problem?.message).toMatch(/still after 1 retries/);
    expect(await fake.requests()).toHaveLength(2);
  });

  it('retries a 500 and reports it when it persists', async () => {
    await fake.script({ preset: 'server_error' }, { text: crash });
    expect((await call('chat')).verdict?.kind).toBe('predicted-crash');
    await fake.reset();
    await fake.script({ preset: 'server_error' }, { preset: 'overloaded' });
    const result = await call('chat');
    expect(result.problem?.kind).toBe('server');
    expect(result.problem?.message).toMatch(/HTTP 503/);
  });

  it('times out a hung provider with a clear message', async () => {
    await fake.script({ hang: true });
    const started = Date.now();
    const result = await call('chat', { timeoutMs: 1000, maxRetries: 0 });
    expect(result.problem?.kind).toBe('timeout');
    expect(result.problem?.message).toBe(
      'api.example.test did not answer within 1 seconds. Try again, or allow more time with the timeout setting.'
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('keeps one deadline across retries', async () => {
    await fake.script({ preset: 'server_error' }, { hang: true }, { hang: true });
    const started = Date.now();
    const result = await call('chat', { timeoutMs: 1500, maxRetries: 3 });
    expect(result.problem?.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('times out a stream that stalls after it started', async () => {
    await fake.script({ text: crash, chunk_size: 4, chunk_delay: 0.4 });
    const chunks: string[] = [];
    const result = await call('chat', { timeoutMs: 1500, maxRetries: 0, onText: (c) => chunks.push(c) });
    expect(chunks.length).toBeGreaterThan(0);
    expect(result.problem?.kind).toBe('timeout');
  });

  it('reports an unreachable base_url', async () => {
    const result = await call('chat', { baseURL: 'http://127.0.0.1:9/v1', providerHost: '127.0.0.1:9', maxRetries: 0 });
    expect(result.problem?.kind).toBe('unreachable');
    expect(result.problem?.message).toMatch(/Could not connect to 127\.0\.0\.1:9/);
  });

  it('stops when the caller cancels', async () => {
    await fake.script({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await call('chat', { signal: controller.signal });
    expect(result.problem?.kind).toBe('cancelled');
  });
});

describe('a check\'s call through the server proxy', () => {
  const settings = (over: Partial<ServerSettings> = {}): ServerSettings => ({
    model: 'qwen2.5-coder:32b',
    baseUrl: 'http://localhost:11434/v1',
    api: 'auto',
    maxOutputTokens: 8000,
    apiKind: 'chat',
    providerHost: 'localhost:11434',
    keyFound: false,
    keyRequired: false,
    sources: {
      model: { source: 'config', name: 'model', label: '~/.crane_llm/config.json' },
      baseUrl: { source: 'config', name: 'base_url', label: '~/.crane_llm/config.json' },
      apiKey: { source: 'unset', name: null, label: 'not set' },
      api: { source: 'default', name: null, label: 'default (auto)' },
      maxOutputTokens: { source: 'default', name: null, label: 'default (8,000)' }
    },
    ...over
  });

  it('builds the prompt and calls through the proxy path under the server base URL', async () => {
    await fake.script({ text: crash });
    const seen: string[] = [];
    const s = settings();
    const result = await callModel({
      prompt: buildPrompt(promptInput),
      model: s.model,
      apiKind: s.apiKind,
      providerHost: s.providerHost,
      baseURL: proxyBaseUrl(`${fake.url}/user/someone/`),
      fetch: (input, init) => {
        seen.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      }
    });
    expect(result.verdict?.source).toEqual({ type: 'llm', model: 'qwen2.5-coder:32b' });
    expect(result.prompt.text).toBe(fixture.expected.prompt.text);
    expect(seen).toEqual([`${fake.url}/user/someone/crane-llm/v1/chat/completions`]);
    const [req] = await fake.requests();
    expect(req.body.model).toBe('qwen2.5-coder:32b');
  });

  it('sends the resolved model to the Responses path, and says so plainly when there is none', async () => {
    await fake.script({ text: crash });
    const withModel = await callModel({
      prompt,
      model: settings({ model: 'gpt-5-mini' }).model,
      apiKind: 'responses',
      providerHost: 'api.openai.com',
      baseURL: proxyBaseUrl(`${fake.url}/`),
      fetch
    });
    expect(withModel.verdict?.source).toEqual({ type: 'llm', model: 'gpt-5-mini' });
    expect((await fake.requests())[0].path).toBe('/crane-llm/v1/responses');
    const none = await callModel({ prompt, model: settings({ model: null }).model, apiKind: 'chat', providerHost: 'localhost:11434', baseURL: proxyBaseUrl('/'), fetch });
    expect(none.problem?.message).toMatch(/No model is set for localhost:11434/);
  });

  it("tells a Jupyter refusal (expired session, no XSRF) from the provider's", async () => {
    await fake.script({ status: 403, body: { message: 'Forbidden', reason: null } });
    const viaProxy = await callModel({
      prompt,
      model: 'm',
      apiKind: 'chat',
      baseURL: proxyBaseUrl(`${fake.url}/`),
      providerHost: 'api.openai.com',
      maxRetries: 0
    });
    expect(viaProxy.problem?.message).toMatch(/^The Jupyter server refused the request \(HTTP 403\)/);
    await fake.script({ preset: 'forbidden' });
    const fromProvider = await callModel({
      prompt,
      model: 'm',
      apiKind: 'chat',
      baseURL: proxyBaseUrl(`${fake.url}/`),
      providerHost: 'api.openai.com',
      maxRetries: 0
    });
    expect(fromProvider.problem?.message).toMatch(/^api\.openai\.com refused access \(HTTP 403\)/);
  });

  it('joins the proxy path to any server base URL', () => {
    expect(proxyBaseUrl('/')).toBe('/crane-llm/v1');
    expect(proxyBaseUrl('/user/me/')).toBe('/user/me/crane-llm/v1');
    expect(proxyBaseUrl('http://h:8888/lab-base')).toBe('http://h:8888/lab-base/crane-llm/v1');
  });
});
