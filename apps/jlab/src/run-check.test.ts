import { describe, expect, it } from 'vitest';
import type { CheckRequest, CheckResult, CheckState, Verdict } from '@crane-llm/core';
import { ASKING_LABEL, NOT_SENT_TEXT, NOTHING_CERTAIN_TEXT, answeredDetail, budgetDetail, runCheck, type CheckEffects, type ModelAnswer, type ProviderInfo } from './run-check';

/**
 * The check flow with its effects replaced by plain functions: what it asks for, in which order,
 * and every state it shows. (The real kernel, server and provider are exercised by the e2e.)
 */

function facts(overrides: Partial<CheckResult['checks']> = {}): CheckResult {
  return {
    protocol: 1,
    craneVersion: '0.1.0',
    python: '3.11',
    checks: { ran: true, crash: null, stoppedAt: { line: 2, reason: 'a call to a user function' }, elapsedMs: 1.5, ...overrides },
    usedNames: ['df'],
    runtimeInfo: null,
    log: { version: 1, runs: [{ executionCount: 1, cellId: 'a', code: 'df = 1', recorded: true, raised: null, effects: [] }] },
    problem: null
  };
}

const provider: ProviderInfo = { model: 'fake-model', host: '127.0.0.1:9', keyFound: true, keyRequired: true };
const predicted: Verdict = {
  kind: 'predicted-crash',
  source: { type: 'llm', model: 'fake-model' },
  exception: 'KeyError',
  line: 1,
  explanation: 'b is not a column',
  variables: ['df'],
  checkerRanFirst: true
};

function harness(over: Partial<CheckEffects> & { answer?: (onText: (c: string) => void, signal: AbortSignal) => Promise<ModelAnswer> } = {}) {
  const calls: string[] = [];
  const requests: CheckRequest[] = [];
  const states: CheckState[] = [];
  const effects: CheckEffects = {
    facts: async req => {
      calls.push(states.length ? 'facts' : 'facts:before-any-state');
      requests.push(req);
      return facts();
    },
    provider: async () => {
      calls.push('provider');
      return provider;
    },
    prompt: (_f, source, options) => {
      calls.push(`prompt:${options.includeRuntimeInfo}`);
      return { text: `PROMPT ${source}`, detail: 'about 10 tokens', built: null };
    },
    predict: async call => {
      calls.push(`predict:${call.checkerRanFirst}`);
      if (over.answer) return over.answer(call.onText, call.signal);
      call.onText('{"crash": ');
      call.onText('true}');
      return { verdict: predicted, raw: '{"crash": true}', problem: null };
    },
    ...over
  };
  return { calls, requests, states, effects, emit: (s: CheckState) => states.push(s) };
}

const cell = { id: 'c1', source: "df['b']" };

describe('budgetDetail', () => {
  it('says what the kernel left out, in the same words as the magic (tests/budget/test_gather_budget.py)', () => {
    const ranOut = {
      ...facts(),
      budget: { seconds: 2, source: 'default (2 s)', ranOut: true, cut: ['runtime information for df, model'], warning: null }
    };
    expect(budgetDetail(ranOut)).toBe('; the time budget of 2 s ran out, so the kernel left out runtime information for df, model');
  });
  it('is empty within the budget, and for a kernel that sends no budget', () => {
    expect(budgetDetail({ ...facts(), budget: { seconds: 2, source: 'default (2 s)', ranOut: false, cut: [], warning: null } })).toBe('');
    expect(budgetDetail(facts())).toBe('');
  });
  it('shows the checks step with what was cut', async () => {
    const h = harness({
      facts: async () => ({
        ...facts(),
        budget: { seconds: 0.5, source: 'the argument', ranOut: true, cut: ['the rest of the built-in checks'], warning: null }
      })
    });
    const end = await runCheck(cell, { useLlm: false, includeRuntimeInfo: true }, h.effects, h.emit);
    expect(end.steps[0].detail).toContain('the time budget of 0.5 s ran out, so the kernel left out the rest of the built-in checks');
  });
});

describe('runCheck', () => {
  it('LLM off: only the checks, nothing certain is blue, nothing sent', async () => {
    const h = harness();
    const end = await runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(h.calls).toEqual(['facts:before-any-state']);
    expect(h.requests[0]).toMatchObject({ useLlm: false, includeRuntimeInfo: true, source: "df['b']", cellId: 'c1' });
    expect(end.verdict).toMatchObject({ kind: 'nothing-certain', explanation: NOTHING_CERTAIN_TEXT });
    expect(end.steps).toEqual([
      expect.objectContaining({ id: 'checks', status: 'done', detail: expect.stringContaining('stopped at line 2: a call to a user function') })
    ]);
  });

  it('LLM off ignores runtime info off: the checks still run', async () => {
    const h = harness();
    await runCheck(cell, { useLlm: false, includeRuntimeInfo: false, includeValues: true }, h.effects, h.emit);
    expect(h.calls).toEqual(['facts:before-any-state']);
    expect(h.states.at(-1)!.steps[0].label).toMatch(/Built-in checker/);
  });

  it('a certain crash stops before the model', async () => {
    const crash = { exception: 'NameError', line: 1, column: 0, message: "name 'x' is not defined", rule: 'undefined-name', variables: ['x'] };
    const h = harness({ facts: async () => ({ ...facts(), checks: { ran: true, crash, stoppedAt: null, elapsedMs: 1 } }) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end.verdict).toMatchObject({ kind: 'certain-crash', exception: 'NameError' });
    expect(h.calls).not.toContain('predict:true');
  });

  it("a certain crash's did-you-mean names the run the kernel found defined the suggestion (no log needed)", async () => {
    const crash = {
      exception: 'NameError', line: 1, column: 0, rule: 'undefined-name', variables: ['dff'],
      message: '`dff` is not defined in the kernel, nor assigned earlier in this cell. Did you mean `df`?',
      correction: { old: 'dff', new: 'df', line: 1 }
    };
    const h = harness({ facts: async () => ({ ...facts(), log: null, logDeferred: { runs: 4 }, definedIn: 4, checks: { ran: true, crash, stoppedAt: null, elapsedMs: 1 } }) });
    const end = await runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end.verdict!.explanation).toMatch(/Did you mean `df` \(defined in In \[4\]\)\?$/);
    const unknown = harness({ facts: async () => ({ ...facts(), definedIn: null, checks: { ran: true, crash, stoppedAt: null, elapsedMs: 1 } }) });
    const plain = await runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, unknown.effects, unknown.emit);
    expect(plain.verdict!.explanation).toBe(crash.message);
  });

  it('LLM on: steps in order, the raw response grows, then the verdict', async () => {
    const h = harness();
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(h.calls).toEqual(['facts:before-any-state', 'provider', 'prompt:true', 'predict:true']);
    const order = h.states.map(s => s.steps.map(x => `${x.id}:${x.status}`).join(','));
    expect(order).toContain('checks:running');
    expect(order).toContain('checks:done,prompt:running');
    expect(order).toContain('checks:done,prompt:done,model:running');
    const raws = h.states.map(s => s.raw).filter((r, i, all) => r !== all[i - 1]);
    expect(raws).toEqual(['', '{"crash": ', '{"crash": true}']);
    expect(end).toMatchObject({ phase: 'done', prompt: "PROMPT df['b']", raw: '{"crash": true}' });
    expect(end.verdict).toBe(predicted);
  });

  it('the model step estimates the tokens as they stream (one a piece), then says how many the provider reported', async () => {
    const h = harness({
      answer: async onText => {
        for (const piece of ['{"crash"', ': ', 'true}']) onText(piece);
        return { verdict: predicted, raw: '{"crash": true}', problem: null, usage: { completion_tokens: 1234 } };
      }
    });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true }, h.effects, h.emit);
    const labels = h.states.map(s => s.steps.find(x => x.id === 'model')?.label).filter(Boolean);
    expect(labels).toContain('fake-model at 127.0.0.1:9 is answering: about 1 token so far');
    expect(labels).toContain('fake-model at 127.0.0.1:9 is answering: about 3 tokens so far');
    // Once answered, the label no longer counts: the provider's count is in the detail.
    expect(end.steps.find(x => x.id === 'model')).toEqual({
      id: 'model',
      label: 'Asked fake-model at 127.0.0.1:9',
      status: 'done',
      detail: 'answered (1,234 tokens)'
    });
    expect(end.usage).toEqual({ input: null, output: 1234 });
  });

  it('keeps the usage of either API with the check, and none when no model was asked', async () => {
    for (const [usage, expected] of [
      [{ input_tokens: 900, output_tokens: 12, total_tokens: 912 }, { input: 900, output: 12 }], // Responses
      [{ prompt_tokens: 800, completion_tokens: 9, total_tokens: 809 }, { input: 800, output: 9 }], // Chat Completions
      [null, null] // a server that reports none
    ] as const) {
      const h = harness({ answer: async onText => (onText('{'), onText('}'), { verdict: predicted, raw: '{}', problem: null, usage }) });
      const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true }, h.effects, h.emit);
      expect(end.usage).toEqual(expected);
      // The provider's own count when it reported one, else the estimate from the streamed pieces.
      expect(end.steps.find(x => x.id === 'model')?.detail).toBe(`answered (${expected ? expected.output : 'about 2'} tokens)`);
    }
    expect(answeredDetail({ verdict: predicted, raw: '{}', problem: null, usage: null }, predicted, 0)).toBe('answered');
    const off = harness();
    expect((await runCheck(cell, { useLlm: false, includeRuntimeInfo: true }, off.effects, off.emit)).usage).toBeUndefined();
  });

  it('an answer cut at the output limit says so in the model step', async () => {
    const cut: Verdict = { ...predicted, kind: 'unreadable', exception: null, line: null, explanation: 'The answer was cut at the output limit of 8,000 tokens.' };
    const h = harness({ answer: async onText => (onText('{"cr'), { verdict: cut, raw: '{"cr', problem: null, cutAtLimit: 8000 }) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true }, h.effects, h.emit);
    expect(end.verdict?.kind).toBe('unreadable');
    expect(end.steps.find(x => x.id === 'model')?.detail).toBe('cut at the output limit of 8,000 tokens');
  });

  it('runtime info off: the checks are skipped and the model gets the code only', async () => {
    const h = harness({ facts: async () => ({ ...facts({ ran: false, stoppedAt: null }) }) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: false, includeValues: true }, h.effects, h.emit);
    expect(h.calls).toEqual(['provider', 'prompt:false', 'predict:false']);
    expect(end.steps[0]).toMatchObject({ id: 'checks', status: 'skipped' });
    expect(end.steps[1].label).toMatch(/code only/);
  });

  it('no key with the LLM on: says how to set one, after the checks ran', async () => {
    const h = harness({ provider: async () => ({ ...provider, keyFound: false }) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end).toMatchObject({ phase: 'failed', problem: 'no-key' });
    expect(end.error).toMatch(/crane_llm\.set_api_key/);
    expect(end.error).toMatch(/built-in checks already ran/);
    expect(end.steps[0].status).toBe('done');
    expect(h.calls).not.toContain('predict:true');
  });

  it('a local server needs no key', async () => {
    const h = harness({ provider: async () => ({ ...provider, keyFound: false, keyRequired: false }) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end.phase).toBe('done');
  });

  it('the server extension not answering is its own error', async () => {
    const h = harness({ provider: async () => Promise.reject(new Error('not enabled')) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end).toMatchObject({ phase: 'failed', problem: 'server', error: 'not enabled' });
  });

  it('settings the server cannot use are their own problem, with the server message, and nothing is sent', async () => {
    const message = 'The base_url "ftp://x/v1" from environment variable CRANE_LLM_BASE_URL cannot be used: not ftp://.';
    const error = Object.assign(new Error(message), { problem: 'settings' });
    const h = harness({ provider: async () => Promise.reject(error) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true }, h.effects, h.emit);
    expect(end).toMatchObject({ phase: 'failed', problem: 'settings', error: message });
    expect(h.calls.filter(c => c.startsWith('predict'))).toEqual([]);
  });

  it('a problem an effect names that is not a known kind stays a server problem', async () => {
    const error = Object.assign(new Error('odd'), { problem: 'made-up' });
    const h = harness({ provider: async () => Promise.reject(error) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true }, h.effects, h.emit);
    expect(end).toMatchObject({ phase: 'failed', problem: 'server' });
  });

  it('kernel without crane_llm: the not-installed problem', async () => {
    const error = Object.assign(new Error('Run `%pip install crane-llm`'), { kind: 'not-installed' });
    const h = harness({ facts: async () => Promise.reject(error) });
    const end = await runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end).toMatchObject({ phase: 'failed', problem: 'not-installed' });
    expect(end.steps[0].status).toBe('failed');
  });

  it('a provider problem fails with its message and keeps the raw text', async () => {
    const h = harness({ answer: async () => ({ verdict: null, raw: 'partial', problem: { kind: 'rate-limit', message: 'HTTP 429' } }) });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end).toMatchObject({ phase: 'failed', problem: 'provider', error: 'HTTP 429', raw: 'partial' });
  });

  it('cancel while the model streams: cancelled at once, later chunks ignored', async () => {
    const controller = new AbortController();
    let release!: () => void;
    const h = harness({
      answer: (onText, signal) =>
        new Promise(resolve => {
          onText('{"cra');
          release = () => {
            onText('sh": true}');
            resolve({ verdict: signal.aborted ? null : predicted, raw: '', problem: { kind: 'cancelled', message: 'x' } });
          };
        })
    });
    const running = runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit, controller.signal);
    await new Promise(r => setTimeout(r, 0));
    controller.abort({ kind: 'cancel', message: 'Cancelled.' });
    expect(h.states.at(-1)!.phase).toBe('cancelled');
    release();
    const end = await running;
    expect(end).toMatchObject({ phase: 'cancelled', raw: '{"cra', verdict: null });
    expect(end.steps.map(s => s.status)).toEqual(['done', 'done', 'skipped']);
  });

  it('a kernel restart during the kernel request fails with that reason', async () => {
    const controller = new AbortController();
    let answer!: (r: CheckResult) => void;
    const h = harness({ facts: () => new Promise(r => (answer = r)) });
    const running = runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit, controller.signal);
    controller.abort({ kind: 'kernel-restarted', message: 'The kernel restarted' });
    answer(facts());
    const end = await running;
    expect(end).toMatchObject({ phase: 'failed', problem: 'kernel-restarted', error: 'The kernel restarted', verdict: null });
  });

  it('the notebook closed before the check began: it never runs', async () => {
    const controller = new AbortController();
    controller.abort({ kind: 'closed', message: 'closed' });
    const h = harness();
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit, controller.signal);
    expect(end.problem).toBe('closed');
    expect(h.calls).toEqual([]);
  });

  it('a certain verdict is drawn before the log the reply left out is asked for; the origin reads that log', async () => {
    const crash = { exception: 'NameError', line: 1, column: 0, message: "name 'x' is not defined", rule: 'undefined-name', variables: ['x'] };
    const log = { version: 1, runs: [{ executionCount: 7, cellId: 'a', code: 'x = 1', recorded: true, raised: null, effects: [] }] };
    const item = { cellId: 'a', variable: 'x', note: 'n', sentence: 's', line: 1, codeOnly: false, editedSinceRun: false };
    const seen: unknown[] = [];
    const h = harness({
      facts: async req => {
        h.requests.push(req);
        return { ...facts(), log: null, logDeferred: { runs: 1 }, checks: { ran: true, crash, stoppedAt: null, elapsedMs: 1 } };
      },
      log: async deferred => {
        h.calls.push(`log:${deferred.runs}:verdict-shown:${h.states.at(-1)!.phase === 'done'}`);
        return log;
      },
      origin: (_v, f) => {
        seen.push(f.log);
        return [item];
      }
    });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(h.requests[0].deferLog).toBe(true);
    expect(h.calls).toEqual(['log:1:verdict-shown:true']);
    expect(seen).toEqual([log]);
    expect(end.origin).toEqual([item]);
    expect(end.verdict).toMatchObject({ kind: 'certain-crash', exception: 'NameError' });
  });

  it('a log the kernel no longer holds: the verdict stands without an origin', async () => {
    const crash = { exception: 'NameError', line: 1, column: 0, message: "name 'x' is not defined", rule: 'undefined-name', variables: ['x'] };
    const h = harness({
      facts: async () => ({ ...facts(), log: null, logDeferred: { runs: 3 }, checks: { ran: true, crash, stoppedAt: null, elapsedMs: 1 } }),
      log: async () => null,
      origin: (_v, f) => (f.log ? [{ cellId: 'a', variable: 'x', note: 'n', sentence: 's', line: 1, codeOnly: false, editedSinceRun: false }] : [])
    });
    const end = await runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end.verdict).toMatchObject({ kind: 'certain-crash' });
    expect(end.origin ?? []).toEqual([]);
  });

  it('without a log effect the request does not ask to defer the log', async () => {
    const h = harness();
    await runCheck(cell, { useLlm: false, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(h.requests[0].deferLog).toBeUndefined();
  });

  it('adds the origin of the crash to a crash verdict', async () => {
    const item = { cellId: 'a', variable: 'df', note: 'assigned df (line 1)', sentence: 'Cell 1 assigned `df` at line 1.', line: 1, codeOnly: false, editedSinceRun: false };
    const h = harness({ origin: () => [item] });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end.origin).toEqual([item]);
  });

  it('Ask before sending, Cancel: the model is never called, nothing is listed, and the check ends cancelled, not failed', async () => {
    const sent: unknown[] = [];
    const asked: string[] = [];
    const h = harness({
      confirm: async call => {
        asked.push(call.prompt.text);
        return false;
      },
      sent: call => sent.push(call)
    });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(asked).toEqual(["PROMPT df['b']"]);
    expect(h.calls).toEqual(['facts:before-any-state', 'provider', 'prompt:true']);
    expect(sent).toEqual([]);
    expect(h.states.some(s => s.steps.some(x => x.id === 'model' && x.label === ASKING_LABEL && x.status === 'running'))).toBe(true);
    expect(end.phase).toBe('cancelled');
    expect(end.problem).toBeNull();
    expect(end.steps.at(-1)).toMatchObject({ id: 'model', status: 'skipped', detail: NOT_SENT_TEXT });
  });

  it('Ask before sending, Send: the very prompt shown is the one predicted with, and the call is listed', async () => {
    const shown: unknown[] = [];
    const sent: { cellId: string | null; prompt: unknown; answer: ModelAnswer }[] = [];
    const h = harness({
      confirm: async call => {
        shown.push(call.prompt);
        return true;
      },
      sent: call => sent.push(call)
    });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(h.calls).toEqual(['facts:before-any-state', 'provider', 'prompt:true', 'predict:true']);
    expect(end.verdict).toBe(predicted);
    expect(sent).toHaveLength(1);
    expect(sent[0].prompt).toBe(shown[0]);
    expect(sent[0]).toMatchObject({ cellId: 'c1', answer: { raw: '{"crash": true}' } });
  });

  it('a failed call is still listed as sent', async () => {
    const sent: ModelAnswer[] = [];
    const h = harness({
      answer: async () => ({ verdict: null, raw: 'oops', problem: { kind: 'server', message: 'HTTP 500' } }),
      sent: call => sent.push(call.answer)
    });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit);
    expect(end.phase).toBe('failed');
    expect(sent).toEqual([expect.objectContaining({ raw: 'oops' })]);
  });

  it('a stop while the dialog is open ends the check and sends nothing', async () => {
    const controller = new AbortController();
    const h = harness({
      confirm: call =>
        new Promise(resolve => {
          call.signal.addEventListener('abort', () => resolve(false));
          controller.abort({ kind: 'cancel', message: 'Cancelled.' });
        })
    });
    const end = await runCheck(cell, { useLlm: true, includeRuntimeInfo: true, includeValues: true }, h.effects, h.emit, controller.signal);
    expect(h.calls).not.toContain('predict:true');
    expect(end.phase).toBe('cancelled');
  });
});
