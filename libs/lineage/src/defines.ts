/**
 * Where a notebook cell's current text binds a name at module level: a line scanner.
 *
 * Twin of python/crane_llm/lineage/defines.py, held to the same answers by the golden vectors.
 * A scanner, not a parser, because the browser has no Python parser and both sides must agree:
 * it reads assignments, def/class, imports, for/with/except-as targets and `:=`, and skips
 * strings, comments, magics and the bodies of functions and classes. It only points at cells
 * that have not run, so a miss costs a hint, never a wrong claim about what ran.
 */

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEF = /^(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)/;
const CLASS = /^class\s+([A-Za-z_][A-Za-z0-9_]*)/;
const IMPORT = /^import\s+(.+)$/;
const FROM_IMPORT = /^from\s+\S+\s+import\s+(.+)$/;
const FOR = /^(?:async\s+)?for\s+(.+?)\s+in\b/;
const AS_TARGET = /\bas\s+([A-Za-z_][A-Za-z0-9_]*)/g;
const WALRUS = /\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*:=/g;
const HEADER = /^(if|elif|else|while|try|finally|for|async\s+for|with|async\s+with|except)\b/;
const BLOCK = /^(?:async\s+def|def|class)\b/;
const AUGMENT_CHARS = '+-*/%&|^@<>!=:';

/** Each line with string contents blanked and comments removed; line count preserved. */
export function codeLines(source: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i];
    if (ch === '\n') {
      out.push(current);
      current = '';
      if (quote.length === 1) quote = ''; // an unterminated one-line string ends with its line
      i += 1;
      continue;
    }
    if (quote) {
      if (ch === '\\') {
        i += i + 1 < n && source[i + 1] !== '\n' ? 2 : 1;
        continue;
      }
      if (source.startsWith(quote, i)) {
        current += quote;
        i += quote.length;
        quote = '';
        continue;
      }
      i += 1;
      continue;
    }
    if (ch === '#') {
      while (i < n && source[i] !== '\n') i += 1;
      continue;
    }
    if (ch === "'" || ch === '"') {
      const triple = source.slice(i, i + 3);
      quote = triple === "'''" || triple === '"""' ? triple : ch;
      current += quote;
      i += quote.length;
      continue;
    }
    current += ch;
    i += 1;
  }
  out.push(current);
  return out;
}

/** The positions of `sep` outside brackets. */
function topLevel(text: string, sep: string): number[] {
  const found: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ('([{'.includes(ch)) depth += 1;
    else if (')]}'.includes(ch)) depth -= 1;
    else if (ch === sep && depth === 0) found.push(i);
  }
  return found;
}

function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const i of topLevel(text, sep)) {
    parts.push(text.slice(start, i));
    start = i + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

function words(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

function targetNames(text: string): string[] {
  const names: string[] = [];
  for (let part of splitTop(text, ',')) {
    part = part.trim().replace(/^\*+/, '').trim();
    while ((part.startsWith('(') || part.startsWith('[')) && (part.endsWith(')') || part.endsWith(']'))) {
      names.push(...targetNames(part.slice(1, -1)));
      part = '';
    }
    if (IDENT.test(part)) names.push(part);
  }
  return names;
}

function assignmentTargets(stmt: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const i of topLevel(stmt, '=')) {
    const before = i > 0 ? stmt[i - 1] : '';
    const after = i + 1 < stmt.length ? stmt[i + 1] : '';
    // a comparison, or an augmented assignment: no new binding
    if (after === '=' || AUGMENT_CHARS.includes(before)) return [];
    pieces.push(stmt.slice(start, i));
    start = i + 1;
  }
  const names: string[] = [];
  for (const target of pieces) names.push(...targetNames(splitTop(target, ':')[0]));
  return names;
}

function statementNames(raw: string): string[] {
  const stmt = raw.trim();
  if (!stmt || '%!?'.includes(stmt[0])) return [];
  const defined = DEF.exec(stmt) ?? CLASS.exec(stmt);
  if (defined) return [defined[1]];
  let m = IMPORT.exec(stmt);
  if (m) {
    const names: string[] = [];
    for (const part of m[1].split(',')) {
      const w = words(part);
      if (w.length === 3 && w[1] === 'as') names.push(w[2]);
      else if (w.length) names.push(w[0].split('.')[0]);
    }
    return names.filter((n) => IDENT.test(n));
  }
  m = FROM_IMPORT.exec(stmt);
  if (m) {
    const names: string[] = [];
    for (const part of m[1].replace(/\(/g, ' ').replace(/\)/g, ' ').split(',')) {
      const w = words(part);
      if (w.length === 3 && w[1] === 'as') names.push(w[2]);
      else if (w.length === 1) names.push(w[0]);
    }
    return names.filter((n) => IDENT.test(n));
  }
  const names = [...stmt.matchAll(WALRUS)].map((x) => x[1]);
  const header = HEADER.exec(stmt);
  if (header) {
    const loop = FOR.exec(stmt);
    if (loop) names.push(...targetNames(loop[1]));
    const keyword = header[1];
    if (keyword.endsWith('with') || keyword === 'except') {
      const head = splitTop(stmt, ':')[0];
      names.push(...[...head.matchAll(AS_TARGET)].map((x) => x[1]));
    }
    const colon = splitTop(stmt, ':');
    if (colon.length > 1) names.push(...statementNames(colon.slice(1).join(':'))); // `if x: y = 1`
    return names;
  }
  return [...names, ...assignmentTargets(stmt)];
}

/** [line, name] for each module-level binding the scanner sees, in order. */
export function bindingLines(source: string): Array<[number, string]> {
  const found: Array<[number, string]> = [];
  let blockIndent: number | null = null; // inside a def/class body deeper than this indent
  let depth = 0;
  codeLines(source).forEach((line, i) => {
    const stripped = line.trim();
    const startsStatement = depth === 0;
    for (const ch of line) {
      if ('([{'.includes(ch)) depth += 1;
      else if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
    }
    if (!stripped || !startsStatement) return;
    const indent = line.length - line.trimStart().length;
    if (blockIndent !== null) {
      if (indent > blockIndent) return;
      blockIndent = null;
    }
    if (BLOCK.test(stripped)) blockIndent = indent;
    for (const stmt of splitTop(stripped, ';')) {
      for (const name of statementNames(stmt)) found.push([i + 1, name]);
    }
  });
  return found;
}

/** First line of the cell's text that binds `name` at module level, or null. */
export function definesLine(source: string, name: string): number | null {
  for (const [line, bound] of bindingLines(source)) if (bound === name) return line;
  return null;
}
