/**
 * Secrets never leave the machine: the masking step every prompt goes through.
 *
 * Twin of python/crane_llm/prompt/mask.py; fixtures/mask/cases.json holds both to the same
 * output. Two rules, always on: a string with the shape of a known credential, anywhere in the code
 * or in a value; and the value given to a name that looks like a secret (`key`, `token`, `secret`,
 * `password`, `passwd`, `credential`, `auth` as a word part). Either becomes `<masked: N chars>`.
 * The expressions use only syntax JavaScript and Python read alike (no `\s`, no `$`).
 */
import type { RuntimeInfo, ValueSummary, VariableSummary } from '@crane-llm/core';
import { countChars } from './build';
import { floatText } from './runinfo-text';

const TOKEN_PREFIXES = '(?:sk-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abposr]-|AIza|eyJ)';
const CREDENTIAL_SOURCE = [
  // A value cut short by the runtime information ("sk-proj-abcd…") still gives a prefix away.
  `(?<![A-Za-z0-9])${TOKEN_PREFIXES}[A-Za-z0-9_.-]{4,}\u2026`,
  '(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}',
  '(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}',
  '(?<![A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}',
  '(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}',
  '(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}',
  '(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{30,}',
  '(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}',
  // Up to its END line, or to the closing quote of the literal that holds it.
  `-----BEGIN[A-Z ]*PRIVATE KEY-----(?:[^-"']|-(?!----END))*(?:-----END[A-Z ]*PRIVATE KEY-----)?`,
  '[Bb]earer [A-Za-z0-9._~+/=-]{16,}',
  `(?<=://)[^/:@ "'\\n]+:[^/@ "'\\n]+(?=@)`
].join('|');

const SECRET_WORDS = new Set(['key', 'apikey', 'token', 'secret', 'secrets', 'password', 'passwd', 'credential', 'credentials', 'auth']);
const NAME_PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

export function placeholder(text: string): string {
  return `<masked: ${countChars(text)} chars>`;
}

/** True when a word part of the name (split at _, digits and camelCase) is a secret word. */
export function looksSecret(name: string): boolean {
  return (name.match(NAME_PART) ?? []).some((part) => SECRET_WORDS.has(part.toLowerCase()));
}

export interface Masked<T> {
  value: T;
  /** How many secrets were replaced. */
  masked: number;
}

/** Credential-shaped parts of a text replaced. */
export function maskText(text: string): Masked<string> {
  let masked = 0;
  const value = text.replace(new RegExp(CREDENTIAL_SOURCE, 'g'), (match) => {
    masked++;
    return placeholder(match);
  });
  return { value, masked };
}

// --- code: one small lexer, written out the same way in both languages ---------------------------

type Token = ['name' | 'string' | 'op', string];
const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_]/;
const STRING_PREFIXES = new Set(['r', 'u', 'b', 'f', 'br', 'rb', 'fr', 'rf']);
const TWO_CHAR_OPS = new Set(['==', '!=', '<=', '>=', ':=', '->', '**', '//']);

/**
 * Does the literal after these tokens give a value to a secret-looking name? `password = "..."`,
 * `api_key="..."`, `cfg.token = "..."`, `{"secret": "..."}`, `os.environ["API_KEY"] = "..."`.
 */
function secretContext(tokens: Token[]): boolean {
  const n = tokens.length;
  if (n < 2) return false;
  const [lastKind, lastText] = tokens[n - 1];
  if (lastKind !== 'op' || !['=', ':', ':='].includes(lastText)) return false;
  let [kind, text] = tokens[n - 2];
  if (kind === 'op' && text === ']' && n >= 3) [kind, text] = tokens[n - 3];
  return (kind === 'name' || kind === 'string') && looksSecret(text);
}

/** [end of the body, end of the literal]: at the closing quote, or where an unterminated one stops. */
function stringEnd(code: string, start: number, quote: string): [number, number] {
  const n = code.length;
  const triple = quote.length === 3;
  let i = start;
  while (i < n) {
    const ch = code[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (!triple && ch === '\n') return [i, i];
    if (code.startsWith(quote, i)) return [i, i + quote.length];
    i++;
  }
  return [n, n];
}

/** The cell's code with secrets masked: literals given to secret names, then credential shapes. */
export function maskCode(code: string): Masked<string> {
  const out: string[] = [];
  const tokens: Token[] = [];
  let masked = 0;
  let i = 0;
  let copied = 0;
  const n = code.length;
  while (i < n) {
    const ch = code[i];
    if (ch === '#') {
      const end = code.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (' \t\r\n\\'.includes(ch)) {
      i++;
      continue;
    }
    let prefixEnd = i;
    if (IDENT_START.test(ch)) {
      let j = i + 1;
      while (j < n && IDENT_CHAR.test(code[j])) j++;
      const word = code.slice(i, j);
      if (!(j < n && (code[j] === "'" || code[j] === '"') && STRING_PREFIXES.has(word.toLowerCase()))) {
        tokens.push(['name', word]);
        i = j;
        continue;
      }
      prefixEnd = j;
    }
    if (code[prefixEnd] === "'" || code[prefixEnd] === '"') {
      const q = code[prefixEnd];
      const quote = code.startsWith(q.repeat(3), prefixEnd) ? q.repeat(3) : q;
      const bodyStart = prefixEnd + quote.length;
      const [rawBodyEnd, end] = stringEnd(code, bodyStart, quote);
      const bodyEnd = Math.min(rawBodyEnd, n);
      const body = code.slice(bodyStart, bodyEnd);
      if (body && secretContext(tokens)) {
        out.push(code.slice(copied, bodyStart), placeholder(body));
        copied = bodyEnd;
        masked++;
      }
      tokens.push(['string', body]);
      i = end;
      continue;
    }
    const two = code.slice(i, i + 2);
    if (TWO_CHAR_OPS.has(two)) {
      tokens.push(['op', two]);
      i += 2;
      continue;
    }
    tokens.push(['op', ch]);
    i++;
  }
  out.push(code.slice(copied));
  const shaped = maskText(out.join(''));
  return { value: shaped.value, masked: masked + shaped.masked };
}

// --- runtime information --------------------------------------------------------------------------

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type AnyRecord = Record<string, unknown>;

function maskStrings(values: unknown[]): number {
  let count = 0;
  values.forEach((v, i) => {
    if (typeof v === 'string') {
      const m = maskText(v);
      values[i] = m.value;
      count += m.masked;
    }
  });
  return count;
}

function maskField(record: AnyRecord, key: string): number {
  const v = record[key];
  if (typeof v !== 'string') return 0;
  const m = maskText(v);
  record[key] = m.value;
  return m.masked;
}

function maskValueSummary(v: AnyRecord): number {
  let count = Array.isArray(v.values) ? maskStrings(v.values as unknown[]) : 0;
  count += maskField(v, 'min') + maskField(v, 'max');
  return count;
}

/** Masks one summary in place; only the fields the prompt will show are touched and counted. */
function maskSummary(summary: VariableSummary, secret: boolean, includeValues: boolean): number {
  const s = summary as Mutable<VariableSummary> & AnyRecord;
  let count = 0;
  switch (s.kind) {
    case 'str': {
      if (!includeValues) return 0;
      if (secret) {
        s.value = placeholder(s.value);
        count = 1;
      } else {
        count = maskField(s, 'value');
      }
      // The length shown is the masked text's, so it does not read as cut short.
      if (count) s.length = countChars(s.value);
      return count;
    }
    case 'int':
      if (!includeValues || !secret) return 0;
      s.value = placeholder(s.value);
      return 1;
    case 'float':
      if (!includeValues || !secret) return 0;
      (s as AnyRecord).value = placeholder(floatText(s.value));
      return 1;
    case 'sequence':
    case 'ndarray':
    case 'series':
      if (s.kind === 'series') count += maskField(s, 'name');
      if (!includeValues) return count;
      if (secret && s.values !== undefined) {
        delete s.values;
        count += 1;
      } else if (s.values !== undefined) {
        count += maskValueSummary(s.values as ValueSummary as unknown as AnyRecord);
      }
      if (s.kind === 'ndarray') count += maskValueSummary(s);
      return count;
    case 'dict':
      for (const entry of s.entries as { key: string; value: string }[]) {
        count += maskField(entry, 'key');
        if (!includeValues) continue;
        if (secret || looksSecret(entry.key)) {
          entry.value = placeholder(entry.value);
          count += 1;
        } else {
          count += maskField(entry, 'value');
        }
      }
      return count;
    case 'dict-dataset':
    case 'dict-numbers':
      return maskStrings(s.keys as string[]);
    case 'dict-history':
      return maskStrings(s.metrics as string[]);
    case 'dataframe':
      for (const column of s.columns as AnyRecord[]) {
        count += maskField(column, 'name');
        if (includeValues) count += maskValueSummary(column);
      }
      return count;
    default:
      return 0;
  }
}

/**
 * A masked copy of the runtime information. With data values left out, only what the prompt still
 * shows (names, keys, column names) is scanned, so the count says what masking kept from leaving.
 */
export function maskRuntimeInfo(info: RuntimeInfo, includeValues = true): Masked<RuntimeInfo> {
  const copy = structuredClone(info) as RuntimeInfo;
  let masked = 0;
  for (const variable of copy.variables) masked += maskSummary(variable.summary, looksSecret(variable.name), includeValues);
  return { value: copy, masked };
}
