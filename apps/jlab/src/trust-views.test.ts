import { describe, expect, it } from 'vitest';
import { renderSentCalls, type Verdict } from '@crane-llm/core';
import type { BuiltPrompt, ServerSettings } from '@crane-llm/prompt';
import { previewOf, renderPreview } from './ask-view';
import { SENT_LOG_LIMIT, SentLog, sentCallOf } from './sent-log';
import type { PreparedPrompt } from './run-check';
import { serverProvider } from './model-effects';

/** The two views "Ask before sending" and "What was sent, this session" draw, from plain data. */

const KEY = 'sk-proj-never-in-the-browser-1234567890';

function settings(over: Partial<ServerSettings> = {}): ServerSettings {
  const src = { source: 'default', name: null, label: 'default' } as const;
  return {
    model: 'local-model', baseUrl: 'http://127.0.0.1:8123/v1', api: 'auto', maxOutputTokens: 8000, apiKind: 'chat',
    providerHost: '127.0.0.1:8123', providerLocal: true, keyFound: true, keyRequired: false, includeValues: true, policy: null,
    sources: { model: src, baseUrl: src, apiKey: src, includeValues: src, policy: src, api: src, maxOutputTokens: src },
    ...over
  };
}

const prompt: PreparedPrompt<BuiltPrompt> = {
  text: 'INSTRUCTIONS\n\n## Target cell\nprint(<b>x</b>)',
  detail: '',
  built: { text: 'INSTRUCTIONS\n\n## Target cell\nprint(<b>x</b>)', estimatedTokens: 2345 } as BuiltPrompt,
  disclosure: { masked: 2, valuesLeftOut: true, runtimeInfoLeftOut: false }
};

describe('the "Ask before sending" body', () => {
  it('names the host and says it stays here, the model, API, size, what was held back, and the whole prompt as text', () => {
    const node = renderPreview(previewOf(prompt, serverProvider(settings())));
    const row = (name: string) => node.querySelector(`[data-row="${name}"]`)!.textContent;
    expect(row('Host')).toBe('127.0.0.1:8123 (stays on this machine)');
    expect(row('Model')).toBe('local-model');
    expect(row('API')).toBe('Chat Completions');
    expect(row('Size')).toBe('about 2,345 tokens');
    expect(row('Held back')).toBe('2 secrets masked; data values left out');
    expect(node.querySelector('.crane-ask-prompt')!.textContent).toBe(prompt.built.text);
    expect(node.querySelector('b')).toBeNull(); // prompt text is never markup
  });

  it('a remote host is said to leave the machine', () => {
    const node = renderPreview(previewOf(prompt, serverProvider(settings({ providerHost: 'api.openai.com', providerLocal: false, apiKind: 'responses' }))));
    expect(node.querySelector('[data-row="Host"]')!.textContent).toBe('api.openai.com (leaves this machine)');
    expect(node.querySelector('.crane-ask-leaves')).not.toBeNull();
    expect(node.textContent).not.toContain(KEY);
  });
});

describe('the session sent-list', () => {
  const verdict: Verdict = {
    kind: 'no-crash', source: { type: 'llm', model: 'local-model' }, exception: null, line: null,
    explanation: 'fine', variables: [], checkerRanFirst: true
  };

  it('keeps each call with its exact prompt and raw response; a click opens one and a second click closes it', () => {
    const log = new SentLog();
    let changes = 0;
    log.changed.connect(() => (changes += 1));
    const provider = serverProvider(settings());
    log.add(sentCallOf('a.ipynb, cell 1', { prompt, provider, answer: { verdict, raw: '{"crash": false}', problem: null, usage: { prompt_tokens: 7, completion_tokens: 3 } }, at: new Date() }));
    log.add(sentCallOf('a.ipynb, cell 2', { prompt, provider, answer: { verdict: null, raw: '', problem: { kind: 'server', message: 'HTTP 500' } }, at: new Date() }));
    expect(changes).toBe(2);
    let chosen: number | null = null;
    const draw = () => renderSentCalls(log.all, chosen, id => (chosen = id));
    let node = draw();
    const buttons = node.querySelectorAll<HTMLButtonElement>('.crane-sent-call');
    expect([...buttons].map(b => b.querySelector('.crane-sent-head')!.textContent!.split(' · ')[1])).toEqual(['a.ipynb, cell 2', 'a.ipynb, cell 1']);
    expect(buttons[1].textContent).toContain('No crash predicted');
    expect(buttons[1].textContent).toContain('7 in, 3 out');
    expect(buttons[0].textContent).toContain('the call failed');
    expect(node.querySelector('.crane-sent-detail')).toBeNull();
    buttons[1].click();
    node = draw();
    expect(node.querySelector('.crane-sent-prompt')!.textContent).toBe(prompt.built.text);
    expect(node.querySelector('.crane-sent-raw')!.textContent).toBe('{"crash": false}');
    node.querySelector<HTMLButtonElement>('[aria-expanded="true"]')!.click();
    expect(chosen).toBeNull();
  });

  it('says so when nothing was sent, and keeps at most the last calls', () => {
    expect(renderSentCalls([], null, () => undefined).textContent).toBe('Nothing was sent to a model in this session.');
    const log = new SentLog();
    const call = sentCallOf('c', { prompt, provider: serverProvider(settings()), answer: { verdict, raw: '', problem: null }, at: new Date() });
    for (let i = 0; i < SENT_LOG_LIMIT + 5; i++) log.add(call);
    expect(log.all).toHaveLength(SENT_LOG_LIMIT);
    expect(log.all[0].id).toBe(6);
  });
});
