/**
 * Origin of the crash: which cells gave the crash's variables their state.
 *
 * Pure: the execution log, the crash's variables, which of them exist now and, in JupyterLab,
 * the notebook's current cells in; origin entries out. Twin of
 * python/crane_llm/lineage/origin.py: the golden vectors in ../fixtures hold both to the same
 * output, so every branch here has its counterpart there.
 */
import type { Effect, ExecutionLog, ExecutionRun } from '@crane-llm/core';
import { definesLine } from './defines';

/** A cell of the notebook as it is now (JupyterLab only). `index` is 0-based. */
export interface NotebookCell {
  cellId: string;
  index: number;
  source: string;
}

export type OriginKind =
  | 'assigned' // the run that last assigned the variable for certain
  | 'modified' // a run that changed it in place since
  | 'maybe' // a run that may have changed it (branch, loop, user function, ...)
  | 'deleted' // a run that deleted it (del, %reset)
  | 'raised-before' // a run that raised before reaching its assignment
  | 'conditional' // a run whose assignment is conditional and did not happen
  | 'not-run' // a notebook cell that defines it and has not run
  | 'edited'; // a notebook cell that defines it now, but what ran did not

export interface OriginEntry {
  variable: string;
  kind: OriginKind;
  cellId: string | null;
  executionCount: number | null;
  /** 0-based position in the notebook, when the notebook's cells were given. */
  index: number | null;
  /** 1-based line in the cell. */
  line: number | null;
  /** False: the run happened before recording began and is known from its code only. */
  recorded: boolean;
  /** The cell's code has changed since the run this entry describes. */
  edited: boolean;
  /** Short, for the note on the cell: "line 3: dropped columns of `df` in place". */
  note: string;
  /** A full sentence, for the list under the verdict. */
  sentence: string;
}

export interface OriginInput {
  log: ExecutionLog;
  /** The crash's variables; `df.columns` counts as `df`. */
  variables: string[];
  /** Names that exist in the kernel now (e.g. CheckResult.usedNames); null: judged from the log. */
  defined?: string[] | null;
  /** The notebook's current cells; null outside JupyterLab. */
  cells?: NotebookCell[] | null;
  /** The cell being checked, so cells below it can be called out. */
  targetCellId?: string | null;
}

const METHOD_PHRASES = new Map<string, string>([
  ['append', 'appended to {t}'], ['extend', 'extended {t}'], ['insert', 'inserted into {t}'],
  ['pop', 'popped from {t}'], ['remove', 'removed an item from {t}'], ['clear', 'cleared {t}'],
  ['sort', 'sorted {t} in place'], ['reverse', 'reversed {t} in place'], ['update', 'updated {t}'],
  ['setdefault', 'set a default in {t}'], ['popitem', 'popped from {t}'], ['add', 'added to {t}'],
  ['discard', 'discarded from {t}'], ['fill', 'filled {t}'], ['resize', 'resized {t}'],
  ['put', 'put values into {t}'], ['compile', 'compiled {t}'], ['load_state_dict', 'loaded weights into {t}'],
  ['load_weights', 'loaded weights into {t}'], ['set_weights', 'set the weights of {t}'],
  ['train', 'set {t} to training mode'], ['eval', 'set {t} to evaluation mode'], ['to', 'moved {t} to a device'],
  ['cuda', 'moved {t} to the GPU'], ['cpu', 'moved {t} to the CPU']
]);
const INPLACE_PHRASES = new Map<string, string>([
  ['drop:columns', 'dropped columns of {t} in place'], ['drop:rows', 'dropped rows of {t} in place'],
  ['dropna', 'dropped missing values of {t} in place'], ['fillna', 'filled missing values of {t} in place'],
  ['rename', 'renamed labels of {t} in place'], ['set_index', 'set the index of {t} in place'],
  ['reset_index', 'reset the index of {t} in place'], ['sort_values', 'sorted {t} in place'],
  ['sort_index', 'sorted {t} in place'], ['drop_duplicates', 'dropped duplicate rows of {t} in place'],
  ['replace', 'replaced values of {t} in place'], ['astype', 'changed the types of {t} in place']
]);
const FIT_PHRASES = new Map<string, string>([
  ['partial_fit', 'partially fitted {t}'],
  ['train_on_batch', 'trained {t} on a batch']
]);
const QUALIFIERS = new Map<string, string>([
  ['branch', 'inside a conditional branch, which may not have run'],
  ['loop', 'inside a loop, which may have run zero times'],
  ['try', 'inside a try block, which may have stopped before it'],
  ['chained', 'through a chained call, which may not change it'],
  ['dynamic', 'which may or may not change it'],
  ['script-raised', 'in a script that raised before it finished'],
  ['magic-raised', "in a cell magic's body that raised before it finished"]
]);

const code = (name: string): string => '`' + name + '`';
const fill = (template: string, t: string): string => template.replace('{t}', t);
const qualifier = (why: string | null): string => QUALIFIERS.get(why || 'dynamic') ?? (QUALIFIERS.get('dynamic') as string);

export function rootOf(variable: string): string {
  return variable.trim().split(/[.[( ]/)[0];
}

/** A verb phrase for what an effect did, e.g. 'dropped columns of `df` in place'. */
export function what(effect: Effect, variable: string): string {
  const { how, detail } = effect;
  const v = code(variable);
  const t = effect.target ? code(effect.target) : v;
  if (how === 'call') return `called ${code(detail || '?')}, which may ${effect.op} ${v}`;
  if (how === 'dynamic') return `called ${code((detail || '?') + '()')}, which may change any variable`;
  if (how === 'import-star') return `may have assigned ${v} with ${code(`from ${detail || '?'} import *`)}`;
  if (how === 'run' && effect.name === '*') return `ran ${code('%run ' + (detail || '?'))}, which may assign any variable`;
  if (how === 'unread') return `is too long to read (${detail || '?'} characters), so it may assign any variable`;
  if (effect.op === 'assign') {
    switch (how) {
      case 'def': return 'defined the function ' + v;
      case 'class': return 'defined the class ' + v;
      case 'import': return 'imported ' + v;
      case 'for': return `assigned ${v} as a loop variable`;
      case 'with': return `assigned ${v} in a with statement`;
      case 'except': return `assigned ${v} in an except clause`;
      case 'magic': return `assigned ${v} with ${detail}`;
      case 'run': return `assigned ${v} by running ${effect.via || detail}`;
      case 'assign-none': return `assigned ${v} the result of ${code(`${detail}(inplace=True)`)}, which is None`;
      default: return 'assigned ' + v;
    }
  }
  if (effect.op === 'delete') {
    if (how === 'reset') return 'deleted every variable with ' + (detail || '%reset');
    if (how === 'xdel') return `deleted ${v} with %xdel`;
    return 'deleted ' + v;
  }
  switch (how) {
    case 'augmented': return `updated ${t} with ${detail}`;
    case 'item-store':
    case 'attr-store': return 'set ' + t;
    case 'item-delete':
    case 'attr-delete': return 'deleted ' + t;
    case 'inplace': {
      const phrase = INPLACE_PHRASES.get(detail || '');
      return phrase ? fill(phrase, t) : `changed ${t} in place with ${code(`${(detail || '').split(':')[0]}(inplace=True)`)}`;
    }
    case 'fit': return fill(FIT_PHRASES.get(detail || '') ?? 'fitted {t}', t);
    case 'method': {
      const phrase = METHOD_PHRASES.get(detail || '');
      return phrase ? fill(phrase, t) : `changed ${t} in place with ${code(`${detail}()`)}`;
    }
    case 'function':
      if ((detail || '').endsWith('shuffle')) return `shuffled ${t} in place`;
      return `changed ${t} in place with ${code(`${detail}()`)}`;
    case 'out': return `wrote into ${t} with ${code(`${detail}(out=...)`)}`;
    default: return 'changed ' + t;
  }
}

class Cells {
  readonly cells: NotebookCell[] | null;
  private readonly byId: Map<string, NotebookCell>;
  readonly target: NotebookCell | null;

  constructor(cells: NotebookCell[] | null | undefined, targetCellId: string | null | undefined) {
    this.cells = cells ?? null;
    this.byId = new Map((this.cells ?? []).map((c) => [c.cellId, c]));
    this.target = targetCellId ? (this.byId.get(targetCellId) ?? null) : null;
  }

  of(run: ExecutionRun): NotebookCell | null {
    if (this.cells === null) return null;
    if (run.cellId !== null) return this.byId.get(run.cellId) ?? null;
    const same = this.cells.filter((c) => c.source === run.code);
    return same.length === 1 ? same[0] : null;
  }

  belowTarget(cell: NotebookCell | null): boolean {
    return !!(cell && this.target && cell.index > this.target.index);
  }
}

function label(run: ExecutionRun | null, cell: NotebookCell | null, cells: Cells): string {
  const bits: string[] = [];
  if (cells.belowTarget(cell)) bits.push('below this one');
  const count = run ? run.executionCount : null;
  let head: string;
  if (cell !== null) {
    head = `Cell ${cell.index + 1}`;
    if (count !== null) bits.push(`In [${count}]`);
  } else if (count !== null) {
    head = `In [${count}]`;
  } else {
    head = 'A cell';
  }
  if (run !== null && !run.recorded) bits.push('run before recording began, known from its code only');
  return bits.length ? `${head} (${bits.join('; ')})` : head;
}

const runKey = (run: ExecutionRun): string => (run.cellId !== null ? 'id:' + run.cellId : 'code:' + run.code);

function entry(
  variable: string, kind: OriginKind, run: ExecutionRun | null, cell: NotebookCell | null,
  line: number | null, note: string, sentence: string, edited: boolean
): OriginEntry {
  return {
    variable,
    kind,
    cellId: run && run.cellId !== null ? run.cellId : cell ? cell.cellId : null,
    executionCount: run ? run.executionCount : null,
    index: cell ? cell.index : null,
    line,
    recorded: run ? run.recorded : true,
    edited,
    note,
    sentence
  };
}

function effectEntry(variable: string, kind: OriginKind, run: ExecutionRun, effect: Effect, cells: Cells, again: boolean): OriginEntry {
  const cell = cells.of(run);
  const edited = cell !== null && cell.source !== run.code;
  const phrase = what(effect, variable);
  const line = effect.line;
  let qual = '';
  const selfExplained = ['call', 'dynamic', 'import-star', 'unread'].includes(effect.how) || (effect.how === 'run' && effect.name === '*');
  if (effect.status === 'maybe' && !selfExplained) {
    if (effect.why === 'raised-inside') {
      const raised = run.raised;
      qual = `, possibly: the cell raised ${raised ? raised.exception : 'an exception'} at line ${raised?.line || '?'}`;
    } else {
      qual = ', ' + qualifier(effect.why);
    }
  }
  let sentence = `${label(run, cell, cells)}, line ${line}, ${phrase}${again ? ', again' : ''}${qual}.`;
  if (edited) sentence += ' The cell has been edited since it ran.';
  const note = `line ${line}: ${phrase}${again ? ' (again)' : ''}${kind === 'maybe' && qual ? ' (maybe)' : ''}`;
  return entry(variable, kind, run, cell, line, note, sentence, edited);
}

const touches = (effect: Effect, variable: string): boolean => effect.name === variable || effect.name === '*';

function kindOf(effect: Effect): OriginKind {
  if (effect.status === 'maybe') return 'maybe';
  return effect.op === 'assign' ? 'assigned' : effect.op === 'modify' ? 'modified' : 'deleted';
}

type Position = [number, number];

function lastAssignment(runs: ExecutionRun[], variable: string): Position | null {
  for (let r = runs.length - 1; r >= 0; r--) {
    const effects = runs[r].effects;
    for (let e = effects.length - 1; e >= 0; e--) {
      const eff = effects[e];
      if (eff.name === variable && eff.op === 'assign' && eff.status === 'done') return [r, e];
    }
  }
  return null;
}

/** The assignment that set it, then what changed (or may have changed) it; if missing, what deleted it. */
function history(runs: ExecutionRun[], variable: string, cells: Cells, start: Position | null, exists: boolean): OriginEntry[] {
  if (start === null && !exists) return [];
  const out: OriginEntry[] = [];
  const seen = new Set<string>();
  const [firstRun, firstEffect] = start ?? [0, 0];
  for (let r = firstRun; r < runs.length; r++) {
    const run = runs[r];
    // the first certain deletion explains it; later ones add nothing
    if (!exists && out.length && out[out.length - 1].kind === 'deleted') break;
    run.effects.forEach((effect, e) => {
      if (r === firstRun && e < firstEffect) return;
      if (!touches(effect, variable) || effect.status === 'skipped') return;
      const isStart = start !== null && r === firstRun && e === firstEffect;
      if (!exists && !isStart && effect.op !== 'delete') return;
      const kind: OriginKind = isStart ? 'assigned' : kindOf(effect);
      const key = `${runKey(run)}|${effect.how}|${effect.detail}|${effect.line}`;
      const again = seen.has(key);
      seen.add(key);
      out.push(effectEntry(variable, kind, run, effect, cells, again));
    });
  }
  return out;
}

/** Runs whose assignment of a missing variable did not happen: the latest run of each cell. */
function attempts(runs: ExecutionRun[], variable: string, cells: Cells, after: number): OriginEntry[] {
  const latest = new Map<string, number>();
  runs.forEach((run, r) => latest.set(runKey(run), r));
  const out: OriginEntry[] = [];
  const v = code(variable);
  for (let r = after + 1; r < runs.length; r++) {
    const run = runs[r];
    if (latest.get(runKey(run)) !== r) continue;
    const effect = run.effects.find((e) => e.name === variable && e.op === 'assign' && e.status !== 'done');
    if (!effect) continue;
    const cell = cells.of(run);
    const edited = cell !== null && cell.source !== run.code;
    const lab = label(run, cell, cells);
    const exc = run.raised ? run.raised.exception : null;
    const raisedLine = run.raised?.line || '?';
    const line = effect.line;
    let kind: OriginKind;
    let sentence: string;
    let note: string;
    if (effect.status === 'skipped' && effect.why === 'syntax') {
      kind = 'raised-before';
      sentence = `${lab} did not run: it has a ${exc ?? 'SyntaxError'} at line ${raisedLine}, so the assignment of ${v} at line ${line} never ran.`;
      note = `${exc ?? 'SyntaxError'} at line ${raisedLine}: ${v} (line ${line}) never ran`;
    } else if (effect.status === 'skipped' || effect.why === 'raised-inside') {
      kind = 'raised-before';
      const possibly = effect.status === 'skipped' ? '' : 'possibly ';
      if (run.raised?.line === line) {
        sentence = `${lab} raised ${exc ?? 'an exception'} at line ${line}, in the statement that assigns ${v}.`;
      } else {
        sentence = `${lab} raised ${exc ?? 'an exception'} at line ${raisedLine}, ${possibly}before reaching the assignment of ${v} at line ${line}.`;
      }
      note = `raised ${exc ?? 'an exception'} at line ${raisedLine} before assigning ${v} (line ${line})`;
    } else if (effect.how === 'call') {
      kind = 'conditional';
      sentence = `${lab} calls ${code(effect.detail || '?')} at line ${line}, which may assign ${v}; it did not, since ${v} is not defined now.`;
      note = `calls ${code(effect.detail || '?')}, which may assign ${v} (line ${line})`;
    } else {
      kind = 'conditional';
      sentence = `${lab} assigns ${v} at line ${line} ${qualifier(effect.why)}; it did not, since ${v} is not defined now.`;
      note = `assigns ${v} only conditionally (line ${line})`;
    }
    if (edited) sentence += ' The cell has been edited since it ran.';
    out.push(entry(variable, kind, run, cell, line, note, sentence, edited));
  }
  return out;
}

/** Notebook cells whose current code defines the variable, and why that did not count. */
function unrunDefinitions(runs: ExecutionRun[], variable: string, cells: Cells, explained: OriginEntry[]): OriginEntry[] {
  if (cells.cells === null) return [];
  const since = runs.some((r) => !r.recorded) ? 'since recording began' : 'since the kernel started';
  const latest = new Map<string, ExecutionRun>();
  for (const run of runs) {
    const cell = cells.of(run);
    if (cell !== null) latest.set(cell.cellId, run);
  }
  const mentioned = new Set(explained.map((e) => e.cellId).filter((id) => id !== null));
  const out: OriginEntry[] = [];
  const v = code(variable);
  for (const cell of [...cells.cells].sort((a, b) => a.index - b.index)) {
    if (cells.target !== null && cell.cellId === cells.target.cellId) continue;
    const line = definesLine(cell.source, variable);
    if (line === null || mentioned.has(cell.cellId)) continue;
    const run = latest.get(cell.cellId) ?? null;
    const where = cells.belowTarget(cell) ? `cell ${cell.index + 1}, below this one,` : `cell ${cell.index + 1},`;
    if (run === null) {
      const sentence = `${v} is defined at line ${line} of ${where} which has not run ${since}.`;
      const note = `defines ${v} (line ${line}); not run ${since}`;
      out.push(entry(variable, 'not-run', null, cell, line, note, sentence, false));
    } else if (run.code !== cell.source && !run.effects.some((e) => e.name === variable && e.op === 'assign')) {
      const count = run.executionCount !== null ? String(run.executionCount) : '?';
      const sentence = `${v} is defined at line ${line} of ${where} but the cell was edited after it last ran (In [${count}]): the code that ran did not assign it.`;
      const note = `defines ${v} (line ${line}); edited since it ran`;
      out.push(entry(variable, 'edited', run, cell, line, note, sentence, true));
    }
  }
  return out;
}

/**
 * The execution count of the run that last assigned `name` for certain, when nothing deleted it
 * since: the cell a "Did you mean `df`?" can point to. Null when the log does not know one.
 */
export function definedIn(log: ExecutionLog, name: string): number | null {
  const runs = log.runs;
  const start = lastAssignment(runs, name);
  if (start === null || deletedSince(runs, name, start)) return null;
  return runs[start[0]].executionCount ?? null;
}

function deletedSince(runs: ExecutionRun[], variable: string, start: Position): boolean {
  return runs.some((run, r) =>
    r >= start[0] && run.effects.some((e, i) =>
      (r > start[0] || i >= start[1]) && e.op === 'delete' && e.status === 'done' && touches(e, variable)));
}

/** Origin entries for each variable, in the order the variables are given. */
export function origin(input: OriginInput): OriginEntry[] {
  const runs = input.log.runs;
  const cells = new Cells(input.cells, input.targetCellId);
  const defined = input.defined ?? null;
  const out: OriginEntry[] = [];
  const seen = new Set<string>();
  for (const raw of input.variables) {
    const variable = rootOf(raw);
    if (!variable || seen.has(variable)) continue;
    seen.add(variable);
    const start = lastAssignment(runs, variable);
    let exists: boolean;
    if (defined !== null) {
      exists = defined.includes(variable);
    } else {
      exists = start !== null && !deletedSince(runs, variable, start);
    }
    const found = history(runs, variable, cells, start, exists);
    out.push(...found);
    if (!exists) {
      const tried = attempts(runs, variable, cells, start !== null ? start[0] : -1);
      out.push(...tried, ...unrunDefinitions(runs, variable, cells, [...found, ...tried]));
    }
  }
  return out;
}
