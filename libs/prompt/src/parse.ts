/**
 * The model's raw answer becomes a verdict, or is declared unreadable (twin of parse.py).
 * Tolerant of what models wrap around JSON (code fences, prose, a <think> block), strict about the
 * verdict itself: only a JSON object with a boolean "crash" counts, and objects that disagree make
 * the answer unreadable. A verdict is never guessed from free text.
 */
import type { Verdict } from '@crane-llm/core';

export const UNREADABLE_EXPLANATION =
  "The model's answer did not contain a verdict in the JSON form the prompt asks for.";

export interface ParsedVerdict {
  kind: 'predicted-crash' | 'no-crash' | 'unreadable';
  exception: string | null;
  line: number | null;
  explanation: string;
  variables: string[];
  /** The model's corrected cell, present only when it gave one for a crash. */
  fix?: string;
}

type Json = Record<string, unknown>;

const THINK = /<think>[\s\S]*?<\/think>/g;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Every top-level {...} span, braces balanced outside JSON strings, in order of appearance. */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (text[i] !== '{') {
      i++;
      continue;
    }
    let depth = 0;
    let inStr = false;
    let esc = false;
    let end = -1;
    for (let j = i; j < n; j++) {
      const c = text[j];
      if (inStr) {
        if (esc) esc = false;
        else if (c === '\\') esc = true;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          end = j;
          break;
        }
      }
    }
    if (end < 0) {
      i++;
      continue;
    }
    spans.push(text.slice(i, end + 1));
    i = end + 1;
  }
  return spans;
}

function candidates(raw: string): Json[] {
  const text = raw.replace(THINK, '').trim();
  const whole = tryParse(text);
  if (whole.ok && isObject(whole.value)) return [whole.value];
  const found: Json[] = [];
  for (const span of balancedObjects(text)) {
    const parsed = tryParse(span);
    if (parsed.ok && isObject(parsed.value)) found.push(parsed.value);
  }
  return found;
}

function lineOf(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value) || value < 1) return null;
  return value;
}

export function parseVerdict(raw: string): ParsedVerdict {
  const verdicts = candidates(raw).filter((c) => typeof c.crash === 'boolean');
  if (verdicts.length === 0 || verdicts.some((v) => v.crash !== verdicts[0].crash)) {
    return { kind: 'unreadable', exception: null, line: null, explanation: UNREADABLE_EXPLANATION, variables: [] };
  }
  const v = verdicts[0];
  const crash = v.crash as boolean;
  const exception = crash && typeof v.exception === 'string' ? v.exception.trim() || null : null;
  const parsed: ParsedVerdict = {
    kind: crash ? 'predicted-crash' : 'no-crash',
    exception,
    line: crash ? lineOf(v.line) : null,
    explanation: typeof v.explanation === 'string' ? v.explanation.trim() : '',
    variables: Array.isArray(v.variables) ? v.variables.filter((x): x is string => typeof x === 'string') : []
  };
  // A fix only makes sense for a crash, and only as code (not blank); trailing blank lines go.
  const fix = crash && typeof v.fix === 'string' ? v.fix.replace(/[ \t\r\n]+$/, '') : '';
  if (fix.replace(/^[ \t\r\n]+/, '') !== '') parsed.fix = fix;
  return parsed;
}

/** The libs/core Verdict for a model verdict. */
export function toVerdict(parsed: ParsedVerdict, model: string, checkerRanFirst: boolean): Verdict {
  return {
    kind: parsed.kind,
    source: { type: 'llm', model },
    exception: parsed.exception,
    line: parsed.line,
    explanation: parsed.explanation,
    variables: [...parsed.variables],
    checkerRanFirst,
    ...(parsed.fix === undefined ? {} : { fix: parsed.fix })
  };
}

export function cutExplanation(limit: number): string {
  return (
    `The answer was cut at the output limit of ${limit.toLocaleString('en')} tokens, before the model finished it. ` +
    'Raise the limit (max_output_tokens) if this model needs more room.'
  );
}

/** An answer the output limit cut short is unreadable, whatever part of it looks like a verdict. */
export function cutVerdict(limit: number): ParsedVerdict {
  return { kind: 'unreadable', exception: null, line: null, explanation: cutExplanation(limit), variables: [] };
}
