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
/** Free text from the kernel (names, dtypes, keys, reasons) is shown up to this many characters. */
export const TEXT_SHOWN = 200;
/** A string variable's value is shown up to this many characters. */
export const STR_SHOWN = 10000;
/** Lists (columns, keys, entries, fields, samples) show this many items, then say how many there were. */
export const ITEMS_SHOWN = 20;

/** The first `n` code points of `text` (never splitting a surrogate pair), without copying the rest. */
function firstChars(text: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < text.length; k++) {
    const c = text.charCodeAt(i);
    const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    i += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, i);
}

/** Code points in `text`. */
function chars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Free text cut to `limit` characters, with a visible note saying how long it was. */
export function clip(text: string, limit: number = TEXT_SHOWN): string {
  if (text.length <= limit) return text;
  const total = chars(text);
  return total <= limit ? text : `${firstChars(text, limit)}… (${total} characters in all)`;
}

/** Quoted text cut to `limit` characters; the note stands outside the quotes. */
function quoteClip(text: string, limit: number = TEXT_SHOWN): string {
  if (text.length <= limit) return quote(text);
  const total = chars(text);
  return total <= limit ? quote(text) : `${quote(firstChars(text, limit))}… (${total} characters in all)`;
}

/** At most ITEMS_SHOWN items joined, then how many there were. */
function items<T>(list: readonly T[], render: (item: T) => string, sep = ', '): string {
  const shown = list.slice(0, ITEMS_SHOWN).map(render).join(sep);
  return list.length > ITEMS_SHOWN ? `${shown}${sep}… (${list.length} in all)` : shown;
}

/** At most ITEMS_SHOWN lines, then one saying how many were left out. */
function lineItems<T>(list: readonly T[], render: (item: T) => string): string[] {
  const lines = list.slice(0, ITEMS_SHOWN).map(render);
  if (list.length > ITEMS_SHOWN) lines.push(`(… ${list.length - ITEMS_SHOWN} more not shown)`);
  return lines;
}

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

/**
 * Bidirectional controls (LRM/RLM, ALM, the embeddings, overrides and isolates): shown raw, a
 * column named "x\u202ey" would read backwards from there on, so they are escaped like controls;
 * so are the line and paragraph separators, which end a line where the quote should go on, and
 * lone surrogates, which no UTF-8 text can carry (a prompt holding one could not be sent).
 */
const LAYOUT_CONTROLS = new Set([
  0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069
]);
const isLoneSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdfff;

/** Double-quoted with backslash escapes for quotes, backslashes, control characters (C0, DEL and C1), bidirectional controls and line separators only. */
export function quote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || LAYOUT_CONTROLS.has(code) || isLoneSurrogate(code)) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + '"';
}

/** A number or a boolean as Python writes it; text through `asText`; a missing value as `missing`. */
function valueText(value: string | number | boolean | null | undefined, missing: string, asText: (text: string) => string): string {
  if (value === null || value === undefined) return missing;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return formatNumber(value);
  return asText(value);
}

/** A data value (a category, an example): None is Python's None, text is quoted. */
function scalar(value: ScalarValue): string {
  return valueText(value, 'None', quoteClip);
}

/** A statistic (a min, a max): one that could not be found is "unknown", text (a date) stands bare. */
function stat(value: Stat | undefined): string {
  return valueText(value, 'unknown', clip);
}

export function floatText(value: number | string): string {
  if (typeof value === 'string') return clip(value);
  const text = formatNumber(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

function shape(dims: number[]): string {
  if (dims.length === 1) return `(${dims[0]},)`;
  return `(${items(dims, String)})`;
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
      return `binary: ${items(v.values, scalar)}`;
    case 'categorical': {
      const listed = v.values ? `: ${items(v.values, scalar)}` : '';
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
  const parts = [clip(c.dtype), distinctText(c.distinct, c.distinctApprox)];
  if (includeValues && c.values !== undefined) parts.push(c.values.length ? `values ${items(c.values, scalar)}` : 'no values');
  else if (includeValues) parts.push(`min ${stat(c.min)}`, `max ${stat(c.max)}${c.rangeApprox ? ' (of a sample)' : ''}`);
  return `${quoteClip(c.name)}: ${parts.join(', ')}`;
}

export const LEFT_OUT = 'value left out';

type Body = { inline: string | null; lines: string[] };

function frameBody(s: Extract<VariableSummary, { kind: 'dataframe' }>, includeValues: boolean): Body {
  const listed = s.columns.slice(0, ITEMS_SHOWN);
  const lines = listed.map((c) => column(c, includeValues));
  if (s.shape[1] > listed.length) lines.push(`(first ${listed.length} of ${s.shape[1]} columns shown)`);
  return { inline: `shape ${shape(s.shape)}; has NaN: ${yesNo(s.hasNaN, s.hasNaNApprox)}${lines.length ? '; columns:' : ''}`, lines };
}

/** A value summary, or with the values left out only its kind. */
function summaryOf(v: ValueSummary, includeValues: boolean): string {
  return includeValues ? valueSummary(v) : valueStructure(v);
}

function arrayBody(s: Extract<VariableSummary, { kind: 'ndarray' }>, includeValues: boolean): Body {
  const range = includeValues ? `; min ${stat(s.min)}; max ${stat(s.max)}` : '';
  return {
    inline: `shape ${shape(s.shape)}; dtype ${clip(s.dtype)}; has NaN: ${yesNo(s.hasNaN)}${range}`,
    lines: s.values ? [`values ${summaryOf(s.values, includeValues)}`] : []
  };
}

function seriesBody(s: Extract<VariableSummary, { kind: 'series' }>, includeValues: boolean): Body {
  return {
    inline: `${s.name !== undefined ? `name ${quoteClip(s.name)}; ` : ''}dtype ${clip(s.dtype)}; length ${s.length}; has NaN: ${yesNo(s.hasNaN, s.hasNaNApprox)}`,
    lines: s.values ? [`values ${summaryOf(s.values, includeValues)}`] : []
  };
}

/**
 * The body of a summary that is all data value (a number, a string, a dict's entries), with the
 * values left out; null for the kinds that write their structure either way.
 */
function structureBody(s: VariableSummary): Body | null {
  switch (s.kind) {
    case 'int':
    case 'float':
    case 'bool':
      return { inline: LEFT_OUT, lines: [] };
    case 'str':
      return { inline: `${s.length} characters, text left out`, lines: [] };
    case 'dict':
      return {
        inline: `length ${s.length}${s.entries.length ? `; first ${s.entries.length} keys: ${items(s.entries, (e) => clip(e.key))}` : ''}`,
        lines: []
      };
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
      return { inline: `= ${clip(s.value)}`, lines: [] };
    case 'float':
      return { inline: `= ${floatText(s.value)}`, lines: [] };
    case 'bool':
      return { inline: `= ${s.value ? 'True' : 'False'}`, lines: [] };
    case 'str': {
      const shown = firstChars(s.value, STR_SHOWN);
      const count = chars(shown);
      const cut = s.length > count ? `; the first ${count} shown` : '';
      return { inline: `= ${quote(shown)}${cut ? '…' : ''} (${s.length} characters${cut})`, lines: [] };
    }
    case 'none':
      return { inline: '= None', lines: [] };
    case 'sequence':
      return { inline: `length ${s.length}${s.values ? `; values ${summaryOf(s.values, includeValues)}` : ''}`, lines: [] };
    case 'dict':
      return {
        inline: `length ${s.length}${s.entries.length ? `; first ${s.entries.length} entries:` : ''}`,
        lines: lineItems(s.entries, (e) => `${clip(e.key)}: ${clip(e.value)}`)
      };
    case 'dict-history':
      return { inline: `training history, ${s.epochs} epochs; metrics ${items(s.metrics, (m) => quoteClip(m))}`, lines: [] };
    case 'dict-dataset':
      return {
        inline: `scikit-learn dataset, keys ${items(s.keys, (k) => quoteClip(k))}; data shape ${s.dataShape !== null ? shape(s.dataShape) : 'unknown'}; target shape ${s.targetShape !== null ? shape(s.targetShape) : 'unknown'}`,
        lines: []
      };
    case 'dict-numbers':
      return { inline: `length ${s.length}; numbers under keys ${items(s.keys, (k) => quoteClip(k))}`, lines: [] };
    case 'ndarray':
      return arrayBody(s, includeValues);
    case 'series':
      return seriesBody(s, includeValues);
    case 'dataframe':
      return frameBody(s, includeValues);
    case 'tensor':
      return {
        inline: `shape ${shape(s.shape)}; dtype ${clip(s.dtype)}; device ${clip(s.device)}; requires_grad ${s.requiresGrad ? 'True' : 'False'}; has NaN: ${yesNo(s.hasNaN)}`,
        lines: []
      };
    case 'dataloader':
    case 'torch-subset': {
      const counts = [`${s.examples ?? 'unknown'} examples`];
      if (s.kind === 'dataloader') counts.push(`${s.batches ?? 'unknown'} batches`, `batch size ${s.batchSize ?? 'None'}`);
      const fields = s.fields.length ? ` with fields ${items(s.fields, (f) => `${clip(f.name)} (${clip(f.type)})`)}` : '';
      const lines = [`dataset ${clip(s.datasetType)}${fields}`];
      if (s.samplesUnavailable !== undefined) lines.push(`samples not read: ${clip(s.samplesUnavailable)}`);
      if (s.sampleShapes !== undefined && s.sampleShapes.length) {
        const same = s.sampleShapes.every((x) => x === s.sampleShapes![0]);
        if (same) lines.push(`first ${s.sampleShapes.length} samples: ${clip(s.sampleShapes[0])}`);
        else lines.push(...lineItems(s.sampleShapes.map((x, i) => [x, i] as const), ([x, i]) => `sample ${i}: ${clip(x)}`));
      }
      if (s.batchShape !== undefined) lines.push(`a batch of them: ${clip(s.batchShape)}`);
      return { inline: counts.join('; '), lines };
    }
    case 'tf-dataset':
      return { inline: `element spec ${clip(s.elementSpec)}`, lines: [] };
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
      return { inline: `summary unavailable: ${clip(s.reason)}`, lines: [] };
  }
}

function variable(v: RuntimeVariable, includeValues: boolean): string[] {
  const uses = v.attributes.length ? `, uses ${items(v.attributes, (a) => `.${clip(a)}`, ' ')}` : '';
  const { inline, lines } = body(v.summary, includeValues);
  const header = `${clip(v.name)} (${clip(v.type)}${uses})${inline === null ? '' : `: ${inline}`}`;
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
