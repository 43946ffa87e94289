import { describe, expect, it } from 'vitest';
import { RuntimeInfo, VariableSummary } from './runtime-info';

const variable = (summary: unknown) => ({ name: 'v', type: 'T', attributes: ['fit'], summary });

const valid: unknown[] = [
  { kind: 'int', value: '-12345678901234567890' },
  { kind: 'float', value: 'nan' },
  { kind: 'float', value: 0.5 },
  { kind: 'str', value: 'x', length: 1 },
  { kind: 'bool', value: true },
  { kind: 'none' },
  { kind: 'sequence', type: 'list', length: 3, values: { valueKind: 'binary', values: [0, 1] } },
  { kind: 'dict', length: 0, entries: [] },
  { kind: 'dict-history', length: 2, metrics: ['loss', 'acc'], epochs: 5 },
  { kind: 'dict-dataset', length: 8, keys: ['data', 'target'], dataShape: [150, 4], targetShape: null },
  { kind: 'dict-numbers', length: 1, keys: ['C'] },
  { kind: 'ndarray', shape: [3, 4], dtype: 'float64', hasNaN: false, min: 0, max: '-inf' },
  { kind: 'series', dtype: 'str', length: 2, hasNaN: false, hasNaNApprox: true, values: { valueKind: 'categorical', distinct: 9, distinctApprox: true } },
  {
    kind: 'dataframe',
    shape: [10, 2],
    hasNaN: true,
    columns: [
      { name: 'a', dtype: 'int64', distinct: 3, min: 1, max: 3 },
      { name: 'b', dtype: 'str', distinct: null, values: ['x', 'y'] }
    ]
  },
  { kind: 'tensor', shape: [], dtype: 'float32', device: 'cpu', requiresGrad: false, hasNaN: null },
  { kind: 'dataloader', examples: 10, batches: 2, batchSize: 5, datasetType: 'D', fields: [], sampleShapes: ['int'], batchShape: 'Tensor[1] int64' },
  { kind: 'torch-subset', examples: null, datasetType: 'D', fields: [{ name: 'x', type: 'list' }], samplesUnavailable: 'iterable' },
  { kind: 'tf-dataset', elementSpec: 'TensorSpec(shape=(), dtype=tf.int32, name=None)' },
  { kind: 'keras-iterator', samples: 6, classes: 2, batchSize: 4, imageShape: [32, 32, 3] },
  { kind: 'sklearn-estimator', fitted: true, nFeaturesIn: 4, nOutputs: 1 },
  { kind: 'module' },
  { kind: 'unavailable', reason: 'took longer than 2 s' }
];

const invalid: unknown[] = [
  { kind: 'int', value: 3 }, // ints travel as text (beyond 2**53)
  { kind: 'float', value: 'NaN' },
  { kind: 'sequence', type: 'deque', length: 1 },
  { kind: 'ndarray', shape: [3], dtype: 'f', hasNaN: false, min: 0, max: 1, extra: 1 },
  { kind: 'series', dtype: 'x', length: 1, hasNaN: false, values: { valueKind: 'binary', values: [1] } },
  { kind: 'series', dtype: 'x', length: 1, hasNaN: false, values: { valueKind: 'categorical', distinct: 6, values: [1, 2, 3, 4, 5, 6] } },
  { kind: 'dataframe', shape: [1, 1, 1], hasNaN: false, columns: [] },
  { kind: 'dict', length: 6, entries: Array.from({ length: 6 }, (_, i) => ({ key: `${i}`, value: '' })) },
  { kind: 'series', dtype: 'x', length: 1, hasNaN: false, hasNaNApprox: false },
  { kind: 'callable' }
];

describe('RuntimeInfo wire schema', () => {
  it.each(valid.map((s) => [(s as { kind: string }).kind, s] as const))('accepts a %s summary', (_kind, summary) => {
    expect(RuntimeInfo.parse({ variables: [variable(summary)] })).toEqual({ variables: [variable(summary)] });
  });

  it.each(invalid.map((s, i) => [i, s] as const))('rejects malformed summary #%s', (_i, summary) => {
    expect(VariableSummary.safeParse(summary).success).toBe(false);
  });

  it('requires the variable fields and nothing else', () => {
    expect(RuntimeInfo.safeParse({ variables: [{ name: 'v', type: 'T', summary: { kind: 'none' } }] }).success).toBe(false);
    expect(RuntimeInfo.safeParse({ variables: [], extra: 1 }).success).toBe(false);
  });
});
