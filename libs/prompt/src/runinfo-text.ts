/**
 * The runtime information as prompt text: a pure function of the RuntimeInfo JSON.
 *
 * Its Python twin is python/crane_llm/prompt/runinfo_text.py; both must produce the same bytes
 * for the vectors in fixtures/runinfo/. Numbers are formatted by one rule written out in both
 * (JSON cannot tell 1.0 from 1, and JavaScript and Python print exponents differently), and
 * strings are quoted by one rule too, rather than by either language's own repr.
 */
import type { FrameColumn, RuntimeInfo, RuntimeVariable, ScalarValue, Stat, ValueSummary, VariableSummary } from '@crane-llm/core';

const INDENT = '  ';

/** Shortest round-trip digits; positional between 1e-5 and 1e16, else `d.ddde+XX` (Python's style). */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(0);
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp >= -5 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return frac ? `${sign}${whole}.${frac}` : `${sign}${whole}`;
  }
  const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expAbs = Math.abs(exp).toString().padStart(2, '0');
  return `${sign}${lead}e${exp < 0 ? '-' : '+'}${expAbs}`;
}

/** Double-quoted with backslash escapes for quotes, backslashes and control characters only. */
export function quote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

function scalar(value: ScalarValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return formatNumber(value);
  return quote(value);
}

function stat(value: Stat | undefined): string {
  if (value === null || value === undefined) return 'unknown';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return formatNumber(value);
  return value;
}

export function floatText(value: number | string): string {
  if (typeof value === 'string') return value;
  const text = formatNumber(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

function shape(dims: number[]): string {
  if (dims.length === 1) return `(${dims[0]},)`;
  return `(${dims.join(', ')})`;
}

function yesNo(value: boolean | null, approx?: boolean): string {
  if (value === null) return 'unknown';
  if (value) return 'yes';
  return approx ? 'none in a sample (not fully scanned)' : 'no';
}

function distinctText(count: number | null, approx?: boolean): string {
  if (count === null) return 'distinct values unknown';
  return approx ? `about ${count} distinct (estimated from a sample)` : `${count} distinct`;
}

function valueSummary(v: ValueSummary): string {
  switch (v.valueKind) {
    case 'binary':
      return `binary: ${v.values.map(scalar).join(', ')}`;
    case 'categorical': {
      const listed = v.values ? `: ${v.values.map(scalar).join(', ')}` : '';
      return `categorical, ${distinctText(v.distinct, v.distinctApprox)}${listed}`;
    }
    case 'continuous':
      return `continuous, min ${stat(v.min)}, max ${stat(v.max)}${v.rangeApprox ? ' (of a sample)' : ''}`;
  }
}

/** A value summary without the values: its kind and, where it has one, the distinct count. */
function valueStructure(v: ValueSummary): string {
  if (v.valueKind === 'categorical') return `categorical, ${distinctText(v.distinct, v.distinctApprox)}`;
  return v.valueKind;
}

function column(c: FrameColumn, includeValues = true): string {
  const parts = [c.dtype, distinctText(c.distinct, c.distinctApprox)];
  if (includeValues && c.values !== undefined) parts.push(c.values.length ? `values ${c.values.map(scalar).join(', ')}` : 'no values');
  else if (includeValues) parts.push(`min ${stat(c.min)}`, `max ${stat(c.max)}${c.rangeApprox ? ' (of a sample)' : ''}`);
  return `${quote(c.name)}: ${parts.join(', ')}`;
}

export const LEFT_OUT = 'value left out';

type Body = { inline: string | null; lines: string[] };

/**
 * The body of a summary that carries data values, with the values left out; null for the kinds
 * that carry structure only (they render the same either way).
 */
function structureBody(s: VariableSummary): Body | null {
  switch (s.kind) {
    case 'int':
    case 'float':
    case 'bool':
      return { inline: LEFT_OUT, lines: [] };
    case 'str':
      return { inline: `${s.length} characters, text left out`, lines: [] };
    case 'sequence':
      return { inline: `length ${s.length}${s.values ? `; values ${valueStructure(s.values)}` : ''}`, lines: [] };
    case 'dict': {
      const keys = s.entries.map((e) => e.key);
      return { inline: `length ${s.length}${keys.length ? `; first ${keys.length} keys: ${keys.join(', ')}` : ''}`, lines: [] };
    }
    case 'ndarray':
      return {
        inline: `shape ${shape(s.shape)}; dtype ${s.dtype}; has NaN: ${yesNo(s.hasNaN)}`,
        lines: s.values ? [`values ${valueStructure(s.values)}`] : []
      };
    case 'series':
      return {
        inline: `${s.name !== undefined ? `name ${quote(s.name)}; ` : ''}dtype ${s.dtype}; length ${s.length}; has NaN: ${yesNo(s.hasNaN, s.hasNaNApprox)}`,
        lines: s.values ? [`values ${valueStructure(s.values)}`] : []
      };
    case 'dataframe': {
      const lines = s.columns.map((c) => column(c, false));
      if (s.shape[1] > s.columns.length) lines.push(`(first ${s.columns.length} of ${s.shape[1]} columns shown)`);
      return { inline: `shape ${shape(s.shape)}; has NaN: ${yesNo(s.hasNaN, s.hasNaNApprox)}${lines.length ? '; columns:' : ''}`, lines };
    }
    default:
      return null;
  }
}

/** The lines under a variable's header (the first may be joined onto the header). */
function body(s: VariableSummary, includeValues: boolean): Body {
  if (!includeValues) {
    const structure = structureBody(s);
    if (structure !== null) return structure;
  }
  switch (s.kind) {
    case 'int':
      return { inline: `= ${s.value}`, lines: [] };
    case 'float':
      return { inline: `= ${floatText(s.value)}`, lines: [] };
    case 'bool':
      return { inline: `= ${s.value ? 'True' : 'False'}`, lines: [] };
    case 'str':
      return { inline: `= ${quote(s.value)} (${s.length} characters)`, lines: [] };
    case 'none':
      return { inline: '= None', lines: [] };
    case 'sequence':
      return { inline: `length ${s.length}${s.values ? `; values ${valueSummary(s.values)}` : ''}`, lines: [] };
    case 'dict':
      return {
        inline: `length ${s.length}${s.entries.length ? `; first ${s.entries.length} entries:` : ''}`,
        lines: s.entries.map((e) => `${e.key}: ${e.value}`)
      };
    case 'dict-history':
      return { inline: `training history, ${s.epochs} epochs; metrics ${s.metrics.map(quote).join(', ')}`, lines: [] };
    case 'dict-dataset':
      return {
        inline: `scikit-learn dataset, keys ${s.keys.map(quote).join(', ')}; data shape ${s.dataShape !== null ? shape(s.dataShape) : 'unknown'}; target shape ${s.targetShape !== null ? shape(s.targetShape) : 'unknown'}`,
        lines: []
      };
    case 'dict-numbers':
      return { inline: `length ${s.length}; numbers under keys ${s.keys.map(quote).join(', ')}`, lines: [] };
    case 'ndarray':
      return {
        inline: `shape ${shape(s.shape)}; dtype ${s.dtype}; has NaN: ${yesNo(s.hasNaN)}; min ${stat(s.min)}; max ${stat(s.max)}`,
        lines: s.values ? [`values ${valueSummary(s.values)}`] : []
      };
    case 'series':
      return {
        inline: `${s.name !== undefined ? `name ${quote(s.name)}; ` : ''}dtype ${s.dtype}; length ${s.length}; has NaN: ${yesNo(s.hasNaN, s.hasNaNApprox)}`,
        lines: s.values ? [`values ${valueSummary(s.values)}`] : []
      };
    case 'dataframe': {
      const lines = s.columns.map((c) => column(c));
      if (s.shape[1] > s.columns.length) lines.push(`(first ${s.columns.length} of ${s.shape[1]} columns shown)`);
      return { inline: `shape ${shape(s.shape)}; has NaN: ${yesNo(s.hasNaN, s.hasNaNApprox)}${lines.length ? '; columns:' : ''}`, lines };
    }
    case 'tensor':
      return {
        inline: `shape ${shape(s.shape)}; dtype ${s.dtype}; device ${s.device}; requires_grad ${s.requiresGrad ? 'True' : 'False'}; has NaN: ${yesNo(s.hasNaN)}`,
        lines: []
      };
    case 'dataloader':
    case 'torch-subset': {
      const counts = [`${s.examples ?? 'unknown'} examples`];
      if (s.kind === 'dataloader') counts.push(`${s.batches ?? 'unknown'} batches`, `batch size ${s.batchSize ?? 'None'}`);
      const lines = [`dataset ${s.datasetType}${s.fields.length ? ` with fields ${s.fields.map((f) => `${f.name} (${f.type})`).join(', ')}` : ''}`];
      if (s.samplesUnavailable !== undefined) lines.push(`samples not read: ${s.samplesUnavailable}`);
      if (s.sampleShapes !== undefined && s.sampleShapes.length) {
        const same = s.sampleShapes.every((x) => x === s.sampleShapes![0]);
        if (same) lines.push(`first ${s.sampleShapes.length} samples: ${s.sampleShapes[0]}`);
        else s.sampleShapes.forEach((x, i) => lines.push(`sample ${i}: ${x}`));
      }
      if (s.batchShape !== undefined) lines.push(`a batch of them: ${s.batchShape}`);
      return { inline: counts.join('; '), lines };
    }
    case 'tf-dataset':
      return { inline: `element spec ${s.elementSpec}`, lines: [] };
    case 'keras-iterator':
      return {
        inline: `${s.samples ?? 'unknown'} samples; ${s.classes ?? 'unknown'} classes; batch size ${s.batchSize ?? 'unknown'}; image shape ${s.imageShape !== null ? shape(s.imageShape) : 'unknown'}`,
        lines: []
      };
    case 'sklearn-estimator': {
      if (!s.fitted) return { inline: 'not fitted', lines: [] };
      const parts = ['fitted'];
      if (s.nFeaturesIn != null) parts.push(`${s.nFeaturesIn} input features`);
      if (s.nOutputs != null) parts.push(`${s.nOutputs} outputs`);
      if (s.nClasses != null) parts.push(`${s.nClasses} classes`);
      return { inline: parts.join('; '), lines: [] };
    }
    case 'function':
    case 'class':
    case 'module':
    case 'object':
      return { inline: null, lines: [] };
    case 'unavailable':
      return { inline: `summary unavailable: ${s.reason}`, lines: [] };
  }
}

function variable(v: RuntimeVariable, includeValues: boolean): string[] {
  const uses = v.attributes.length ? `, uses ${v.attributes.map((a) => `.${a}`).join(' ')}` : '';
  const { inline, lines } = body(v.summary, includeValues);
  const header = `${v.name} (${v.type}${uses})${inline === null ? '' : `: ${inline}`}`;
  return [header, ...lines.map((l) => INDENT + l)];
}

/**
 * The runtime information block of the prompt; no trailing newline. With `includeValues` false
 * ("Include data values" off) only structure is written: types, shapes, dtypes, lengths, column
 * names, dict keys, fitted state, counts; no value ranges, example values, string contents or dict values.
 */
export function runtimeInfoText(info: RuntimeInfo, includeValues = true): string {
  if (info.variables.length === 0) return 'The target cell uses no variables from the kernel.';
  return info.variables.flatMap((v) => variable(v, includeValues)).join('\n');
}
