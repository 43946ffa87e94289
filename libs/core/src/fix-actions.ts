import type { CheckState } from './check-state';
import type { Correction } from './verdict';

/**
 * What the user can do about a crash before running the cell. Only edits or runs what the user
 * clicks: a "Run cell 3 first" runs that cell alone, a "Replace" edits the target, never runs it.
 */
export type FixAction =
  | { kind: 'run-cell'; cellId: string; label: string; title: string }
  | { kind: 'replace'; correction: Correction; label: string; title: string };

/** The actions a fresh certain crash offers; none for anything else (a stale verdict offers nothing). */
export function fixActions(state: CheckState): FixAction[] {
  const verdict = state.verdict;
  if (state.phase !== 'done' || state.stale !== null || !verdict || verdict.kind !== 'certain-crash') return [];
  const actions: FixAction[] = [];
  if (verdict.exception === 'NameError') {
    const definer = state.origin.find(item => item.cellId !== null && (item.kind === 'not-run' || item.kind === 'raised-before'));
    if (definer?.cellId) {
      const which = typeof definer.index === 'number' ? `cell ${definer.index + 1}` : 'the cell that defines it';
      actions.push({
        kind: 'run-cell',
        cellId: definer.cellId,
        label: `Run ${which} first`,
        title: `Runs ${which} only (it defines \`${definer.variable}\`); this cell stays unrun.`
      });
    }
  }
  if (verdict.correction) {
    const { old, new: replacement } = verdict.correction;
    actions.push({
      kind: 'replace',
      correction: verdict.correction,
      label: `Replace ${old} with ${replacement}`,
      title: `Edits line ${verdict.correction.line} of this cell; nothing runs.`
    });
  }
  return actions;
}

const WORD = /[A-Za-z0-9_]/;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The same string literal in the other quote style, which the cell may use ('a' and "a" are one column). */
function otherQuotes(text: string): string | null {
  const q = text[0];
  if (text.length < 2 || (q !== "'" && q !== '"') || text[text.length - 1] !== q) return null;
  const inner = text.slice(1, -1);
  const other = q === "'" ? '"' : "'";
  return /['"\\]/.test(inner) ? null : other + inner + other;
}

function findWhole(line: string, text: string): number {
  const before = WORD.test(text[0]) ? '(?<![A-Za-z0-9_])' : '';
  const after = WORD.test(text[text.length - 1]) ? '(?![A-Za-z0-9_])' : '';
  return line.search(new RegExp(before + escape(text) + after));
}

/**
 * The cell with the correction made: the first whole occurrence of `old` on its line (a quoted
 * column in either quote style). Null when the line no longer holds it (edited since the check).
 */
export function applyCorrection(source: string, correction: Correction): string | null {
  const lines = source.split('\n');
  const at = correction.line - 1;
  if (at < 0 || at >= lines.length || correction.old === '') return null;
  const forms: [string, string][] = [[correction.old, correction.new]];
  const [oldSwapped, newSwapped] = [otherQuotes(correction.old), otherQuotes(correction.new)];
  if (oldSwapped && newSwapped) forms.push([oldSwapped, newSwapped]);
  for (const [old, replacement] of forms) {
    const index = findWhole(lines[at], old);
    if (index >= 0) {
      lines[at] = lines[at].slice(0, index) + replacement + lines[at].slice(index + old.length);
      return lines.join('\n');
    }
  }
  return null;
}

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Beyond this many line pairs a diff is shown as "all removed, all added" rather than computed. */
const DIFF_CELLS_LIMIT = 4_000_000;

/** A line diff of a cell and its proposed fix (longest common subsequence). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > DIFF_CELLS_LIMIT) {
    return [...a.map(text => ({ op: '-' as const, text })), ...b.map(text => ({ op: '+' as const, text }))];
  }
  // common[i][j]: length of the longest common subsequence of a[i:] and b[j:].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] });
      i++;
      j++;
    } else if (common[i + 1][j] >= common[i][j + 1]) {
      out.push({ op: '-', text: a[i++] });
    } else {
      out.push({ op: '+', text: b[j++] });
    }
  }
  while (i < a.length) out.push({ op: '-', text: a[i++] });
  while (j < b.length) out.push({ op: '+', text: b[j++] });
  return out;
}
