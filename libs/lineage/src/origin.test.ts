import { describe, expect, it } from 'vitest';
import type { Effect, ExecutionLog, ExecutionRun } from '@crane-llm/core';
import { origin, rootOf, what } from './origin';

const effect = (over: Partial<Effect>): Effect => ({
  name: 'df', line: 1, op: 'assign', how: 'assign', detail: null, target: null, via: null, status: 'done', why: null,
  ...over
});
const run = (over: Partial<ExecutionRun>): ExecutionRun => ({
  executionCount: 1, cellId: 'a', code: 'df = 1', recorded: true, raised: null, effects: [], ...over
});
const log = (...runs: ExecutionRun[]): ExecutionLog => ({ version: 1, runs });

describe('origin', () => {
  it('reads the root of dotted and indexed variables, once each', () => {
    expect(rootOf(' df.columns ')).toBe('df');
    expect(rootOf("df['a']")).toBe('df');
    const l = log(run({ effects: [effect({})] }));
    const entries = origin({ log: l, variables: ['df.columns', 'df', "df['a']"], defined: ['df'] });
    expect(entries.map((e) => e.kind)).toEqual(['assigned']);
  });

  it('never turns a maybe into a certainty', () => {
    const l = log(
      run({ effects: [effect({})] }),
      run({ executionCount: 2, cellId: 'b', effects: [effect({ op: 'assign', how: 'call', detail: 'load', status: 'maybe', why: 'call' })] })
    );
    const entries = origin({ log: l, variables: ['df'], defined: ['df'] });
    expect(entries.map((e) => [e.kind, e.executionCount])).toEqual([['assigned', 1], ['maybe', 2]]);
    expect(entries[1].sentence).toBe('In [2], line 1, called `load`, which may assign `df`.');
  });

  it('flags cells edited since they ran and places entries in the notebook', () => {
    const l = log(run({ effects: [effect({ line: 2 })] }));
    const cells = [
      { cellId: 'a', index: 4, source: 'df = 2' },
      { cellId: 't', index: 1, source: 'df.x' }
    ];
    const [e] = origin({ log: l, variables: ['df'], defined: ['df'], cells, targetCellId: 't' });
    expect(e).toMatchObject({ cellId: 'a', index: 4, line: 2, edited: true });
    expect(e.sentence).toBe('Cell 5 (below this one; In [1]), line 2, assigned `df`. The cell has been edited since it ran.');
  });

  it('gives nothing for a variable no run touched and no cell defines', () => {
    expect(origin({ log: log(), variables: ['ghost'], defined: [], cells: [] })).toEqual([]);
  });

  it('phrases in-place changes by what they did', () => {
    expect(what(effect({ op: 'modify', how: 'inplace', detail: 'drop:columns', target: 'df' }), 'df')).toBe(
      'dropped columns of `df` in place'
    );
    expect(what(effect({ op: 'modify', how: 'fit', detail: 'fit', target: 'model' }), 'model')).toBe('fitted `model`');
    expect(what(effect({ op: 'modify', how: 'method', detail: 'append', target: 'xs' }), 'xs')).toBe('appended to `xs`');
    expect(what(effect({ op: 'modify', how: 'method', detail: 'constructor', target: 'xs' }), 'xs')).toBe(
      'changed `xs` in place with `constructor()`'
    );
  });
});
