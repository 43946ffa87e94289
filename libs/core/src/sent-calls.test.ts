import { describe, expect, it } from 'vitest';
import { sentRow, timeText, type SentCall } from './sent-calls';
import type { Verdict } from './verdict';

const verdict: Verdict = {
  kind: 'predicted-crash',
  source: { type: 'llm', model: 'gpt-5' },
  exception: 'KeyError',
  line: 2,
  explanation: "no column 'b'",
  variables: ['df'],
  checkerRanFirst: true
};

const call = (over: Partial<SentCall> = {}): SentCall => ({
  id: 1,
  at: new Date(2026, 10, 30, 9, 5, 7).toISOString(),
  cell: 'a.ipynb, cell 3',
  host: 'api.openai.com',
  local: false,
  model: 'gpt-5',
  promptTokens: 1234,
  usage: { input: 1300, output: 96 },
  outcome: { verdict },
  prompt: 'P',
  raw: 'R',
  ...over
});

describe('the sent-list rows', () => {
  it('say when, which cell, where, which model, how big, what it cost and what came of it', () => {
    expect(sentRow(call())).toEqual({
      time: '09:05:07',
      cell: 'a.ipynb, cell 3',
      host: 'api.openai.com (left this machine)',
      model: 'gpt-5',
      size: 'about 1,234 tokens',
      usage: '1,300 in, 96 out',
      verdict: 'Crash predicted: KeyError at line 2',
      colour: 'red',
      icon: '✖'
    });
  });

  it('say so when the provider reported no usage', () => {
    expect(sentRow(call({ usage: null })).usage).toBe('not reported by the provider');
  });

  it('a local host, a failed call and a cancelled one read as such', () => {
    const local = sentRow(call({ host: '127.0.0.1:8000', local: true, outcome: { problem: 'failed', message: 'HTTP 500' } }));
    expect(local.host).toBe('127.0.0.1:8000 (this machine)');
    expect(local.verdict).toBe('No verdict: the call failed');
    expect(local.colour).toBe('amber');
    expect(sentRow(call({ outcome: { problem: 'cancelled', message: 'Cancelled.' } })).verdict).toBe('Cancelled while answering');
  });

  it('the time is the local clock, zero-padded', () => {
    expect(timeText(new Date(2026, 0, 1, 0, 0, 9).toISOString())).toBe('00:00:09');
  });
});
