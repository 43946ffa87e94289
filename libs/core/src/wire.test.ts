import { describe, expect, it } from 'vitest';
import { CheckRequest, CheckResult } from './wire';

const result = {
  protocol: 1,
  craneVersion: '0.1.0',
  python: '3.11.7',
  checks: {
    ran: true,
    crash: { exception: 'NameError', line: 1, column: 0, message: "name 'x' is not defined", rule: 'undefined-name', variables: ['x'] },
    stoppedAt: null,
    elapsedMs: 0.4
  },
  usedNames: ['df'],
  runtimeInfo: null,
  log: { version: 1, runs: [{ executionCount: 1, cellId: 'a', code: 'df = 1', recorded: true, raised: null, effects: [] }] },
  problem: null
};

describe('wire schemas', () => {
  it('round-trips a check result through JSON', () => {
    expect(CheckResult.parse(JSON.parse(JSON.stringify(result)))).toEqual(result);
  });

  it('rejects unknown fields and wrong types', () => {
    expect(CheckResult.safeParse({ ...result, extra: 1 }).success).toBe(false);
    expect(CheckResult.safeParse({ ...result, protocol: 2 }).success).toBe(false);
    expect(CheckRequest.safeParse({ protocol: 1, source: 'x', cellId: null, useLlm: 'yes', includeRuntimeInfo: true }).success).toBe(false);
  });

  it('accepts a minimal request', () => {
    const req = { protocol: 1, source: 'x', cellId: null, useLlm: false, includeRuntimeInfo: true };
    expect(CheckRequest.parse(req)).toEqual(req);
  });
});
