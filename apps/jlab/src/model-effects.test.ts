import { describe, expect, it } from 'vitest';
import type { CheckResult } from '@crane-llm/core';
import { preparePrompt, providerInfo } from './model-effects';

const facts: CheckResult = {
  protocol: 1,
  craneVersion: '0.1.0',
  python: '3.11',
  checks: { ran: true, crash: null, stoppedAt: null, elapsedMs: 1 },
  usedNames: ['n'],
  runtimeInfo: { variables: [{ name: 'n', type: 'int', attributes: [], summary: { kind: 'int', value: '3' } }] },
  log: { version: 1, runs: [{ executionCount: 1, cellId: 'a', code: 'n = 3', recorded: true, raised: null, effects: [] }] },
  problem: null
} as unknown as CheckResult;

describe('the prompt a check sends', () => {
  it('has the code and the runtime information with the switch on', () => {
    const p = preparePrompt(facts, 'n + 1', { includeRuntimeInfo: true, includeValues: true });
    expect(p.text).toContain('# Target Cell:\nn + 1');
    expect(p.text).toContain('## Cell 1:\nn = 3');
    expect(p.text).toContain('# Current relevant runtime information');
    expect(p.detail).toMatch(/about \d+ tokens; 1 executed cells; 0 secrets masked$/);
  });

  it('has the code alone with the switch off, even if runtime information arrived', () => {
    const p = preparePrompt(facts, 'n + 1', { includeRuntimeInfo: false, includeValues: true });
    expect(p.text).not.toContain('runtime information:');
    expect(p.text).toContain('n + 1');
  });

  it('leaves the values out with that switch off, and masks secrets with it on', () => {
    const secret: CheckResult = {
      ...facts,
      runtimeInfo: { variables: [{ name: 'db_password', type: 'str', attributes: [], summary: { kind: 'str', value: 'hunter2-zz', length: 10 } }] },
      log: { version: 1, runs: [{ executionCount: 1, cellId: 'a', code: 'aws = "AKIAABCDEFGHIJKLMNOP"', recorded: true, raised: null, effects: [] }] }
    } as unknown as CheckResult;
    const on = preparePrompt(secret, 'print(db_password)', { includeRuntimeInfo: true, includeValues: true });
    expect(on.text).not.toMatch(/hunter2-zz|AKIAABCD/);
    expect(on.text).toContain('db_password (str): = "<masked: 10 chars>"');
    expect(on.detail).toMatch(/2 secrets masked$/);
    const off = preparePrompt(facts, 'n + 1', { includeRuntimeInfo: true, includeValues: false });
    expect(off.text).toContain('n (int): value left out');
    expect(off.detail).toMatch(/0 secrets masked; data values left out$/);
  });

  it('reports the provider without the key', () => {
    const info = providerInfo({
      model: 'm',
      baseUrl: null,
      apiKind: 'responses',
      providerHost: 'api.openai.com',
      keyFound: true,
      keyRequired: true,
      sources: {
        model: { source: 'default', name: null, label: 'default' },
        baseUrl: { source: 'unset', name: null, label: 'unset' },
        apiKey: { source: 'config', name: 'api_key', label: '~/.crane_llm/config.json' }
      }
    } as never);
    expect(info).toEqual({ model: 'm', host: 'api.openai.com', keyFound: true, keyRequired: true });
  });
});
