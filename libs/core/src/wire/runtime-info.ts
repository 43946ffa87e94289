import { z } from 'zod';

/**
 * Runtime information: what the target cell uses from the live kernel, one summary per variable
 * (the README's table, "What the runtime information contains"). Produced by
 * python/crane_llm/runinfo, rendered for the prompt by libs/prompt (runinfo-text) and its Python twin.
 *
 * Numbers that JSON cannot carry travel as text: NaN and infinities as "nan" / "inf" / "-inf",
 * Python ints as decimal strings (they can exceed 2**53). Figures computed from a sample rather
 * than the whole object carry an explicit `...Approx: true` flag.
 */

/** A minimum or maximum: a number, a boolean, or text (dates, "nan", "inf"); null when unknown. */
export const Stat = z.union([z.number(), z.boolean(), z.string()]).nullable();
export type Stat = z.infer<typeof Stat>;

/** One distinct value as shown in the prompt: strings are already cut to 20 characters. */
export const ScalarValue = z.union([z.number(), z.boolean(), z.string(), z.null()]);
export type ScalarValue = z.infer<typeof ScalarValue>;

const Binary = z.strictObject({ valueKind: z.literal('binary'), values: z.array(ScalarValue).length(2) });
const Categorical = z.strictObject({
  valueKind: z.literal('categorical'),
  distinct: z.number().int().nonnegative(),
  distinctApprox: z.literal(true).optional().describe('The count is estimated from a sample.'),
  values: z.array(ScalarValue).max(5).optional().describe('Listed when there are 5 or fewer.')
});
const Continuous = z.strictObject({
  valueKind: z.literal('continuous'),
  min: Stat,
  max: Stat,
  rangeApprox: z.literal(true).optional().describe('Min and max of a sample (very long lists only).')
});

/** The value summary of a 1-D array, a Series or a flat list. */
export const ValueSummary = z.discriminatedUnion('valueKind', [Binary, Categorical, Continuous]);
export type ValueSummary = z.infer<typeof ValueSummary>;

const IntValue = z.strictObject({ kind: z.literal('int'), value: z.string().regex(/^-?\d+$/) });
const FloatValue = z.strictObject({ kind: z.literal('float'), value: z.union([z.number(), z.enum(['nan', 'inf', '-inf'])]) });
const StrValue = z.strictObject({ kind: z.literal('str'), value: z.string(), length: z.number().int().nonnegative() });
const BoolValue = z.strictObject({ kind: z.literal('bool'), value: z.boolean() });
const NoneValue = z.strictObject({ kind: z.literal('none') });

const Sequence = z.strictObject({
  kind: z.literal('sequence'),
  type: z.enum(['list', 'tuple', 'set', 'frozenset']),
  length: z.number().int().nonnegative(),
  values: ValueSummary.optional().describe('Flat lists only (every element a builtin scalar).')
});

const DictEntries = z.strictObject({
  kind: z.literal('dict'),
  length: z.number().int().nonnegative(),
  entries: z
    .array(z.strictObject({ key: z.string(), value: z.string() }))
    .max(5)
    .describe('The first 5 entries; each value up to 50 characters.')
});
const DictHistory = z.strictObject({
  kind: z.literal('dict-history'),
  length: z.number().int().nonnegative(),
  metrics: z.array(z.string()),
  epochs: z.number().int().nonnegative()
}).describe('A Keras training history (or its dict): metric name -> one value per epoch.');
const DictDataset = z.strictObject({
  kind: z.literal('dict-dataset'),
  length: z.number().int().nonnegative(),
  keys: z.array(z.string()),
  dataShape: z.array(z.number().int()).nullable(),
  targetShape: z.array(z.number().int()).nullable()
}).describe('A scikit-learn dataset Bunch.');
const DictNumbers = z.strictObject({ kind: z.literal('dict-numbers'), length: z.number().int().nonnegative(), keys: z.array(z.string()) });

/** The layout of an n-dimensional array, a NumPy array or a tensor alike. */
const ArrayLayout = {
  shape: z.array(z.number().int().nonnegative()),
  dtype: z.string()
};

const NdArray = z.strictObject({
  kind: z.literal('ndarray'),
  ...ArrayLayout,
  hasNaN: z.boolean().nullable(),
  min: Stat,
  max: Stat,
  values: ValueSummary.optional().describe('1-D numeric or boolean arrays.')
});

const Series = z.strictObject({
  kind: z.literal('series'),
  dtype: z.string(),
  length: z.number().int().nonnegative(),
  hasNaN: z.boolean().nullable(),
  hasNaNApprox: z.literal(true).optional().describe('No missing value in a sample; the rest was not scanned.'),
  name: z.string().optional(),
  values: ValueSummary.optional()
});

export const FrameColumn = z.strictObject({
  name: z.string(),
  dtype: z.string(),
  distinct: z.number().int().nonnegative().nullable(),
  distinctApprox: z.literal(true).optional(),
  min: Stat.optional().describe('Numeric columns.'),
  max: Stat.optional(),
  rangeApprox: z.literal(true).optional().describe('Min and max (and NaN) of a sample: the time budget had run out.'),
  values: z.array(ScalarValue).max(5).optional().describe('Other columns: up to 5 values, each up to 20 characters.')
});
export type FrameColumn = z.infer<typeof FrameColumn>;

const DataFrame = z.strictObject({
  kind: z.literal('dataframe'),
  shape: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  hasNaN: z.boolean(),
  hasNaNApprox: z.literal(true).optional(),
  columns: z.array(FrameColumn).max(20).describe('The first 20 columns.')
});

const Tensor = z.strictObject({
  kind: z.literal('tensor'),
  ...ArrayLayout,
  device: z.string(),
  requiresGrad: z.boolean(),
  hasNaN: z.boolean().nullable()
});

const TorchDataFields = {
  examples: z.number().int().nonnegative().nullable(),
  datasetType: z.string(),
  fields: z.array(z.strictObject({ name: z.string(), type: z.string() })),
  sampleShapes: z.array(z.string()).max(10).optional().describe('Structure of the first 10 samples.'),
  batchShape: z.string().optional().describe('Structure of a batch collated from those samples.'),
  samplesUnavailable: z.string().optional()
};
const DataLoader = z.strictObject({
  kind: z.literal('dataloader'),
  batchSize: z.number().int().nullable(),
  batches: z.number().int().nonnegative().nullable(),
  ...TorchDataFields
});
const TorchSubset = z.strictObject({ kind: z.literal('torch-subset'), ...TorchDataFields });

const TfDataset = z.strictObject({ kind: z.literal('tf-dataset'), elementSpec: z.string() });
const KerasIterator = z.strictObject({
  kind: z.literal('keras-iterator'),
  samples: z.number().int().nullable(),
  classes: z.number().int().nullable(),
  batchSize: z.number().int().nullable(),
  imageShape: z.array(z.number().int()).nullable()
});

const SklearnEstimator = z.strictObject({
  kind: z.literal('sklearn-estimator'),
  fitted: z.boolean(),
  nFeaturesIn: z.number().int().nullable().optional(),
  nOutputs: z.number().int().nullable().optional(),
  nClasses: z.number().int().nullable().optional().describe('A fitted LabelEncoder.')
});

const TypeOnly = z.strictObject({ kind: z.enum(['function', 'class', 'module', 'object']) });
const Unavailable = z.strictObject({ kind: z.literal('unavailable'), reason: z.string() });

/** One variable's summary, discriminated on `kind`. */
export const VariableSummary = z.discriminatedUnion('kind', [
  IntValue,
  FloatValue,
  StrValue,
  BoolValue,
  NoneValue,
  Sequence,
  DictEntries,
  DictHistory,
  DictDataset,
  DictNumbers,
  NdArray,
  Series,
  DataFrame,
  Tensor,
  DataLoader,
  TorchSubset,
  TfDataset,
  KerasIterator,
  SklearnEstimator,
  TypeOnly,
  Unavailable
]);
export type VariableSummary = z.infer<typeof VariableSummary>;

export const RuntimeVariable = z.strictObject({
  name: z.string(),
  type: z.string().describe('The exact type, "module.Qualname" (builtins unqualified).'),
  attributes: z.array(z.string()).describe('Attributes and methods the cell uses on it, first use first.'),
  summary: VariableSummary
});
export type RuntimeVariable = z.infer<typeof RuntimeVariable>;

/** The runtime information of one check: the variables the target cell uses, in first-use order. */
export const RuntimeInfo = z.strictObject({ variables: z.array(RuntimeVariable) });
export type RuntimeInfo = z.infer<typeof RuntimeInfo>;
