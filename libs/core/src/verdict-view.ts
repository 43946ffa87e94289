import { el } from './dom';
import { STALE_TEXT, type CheckState, type OriginItem, type Step } from './check-state';
import { fixActions, lineDiff, type FixAction } from './fix-actions';
import type { Correction } from './verdict';
import { CHECKER_RAN_FIRST, CODE_ONLY_NOTE, ICON, PROBLEM_TITLE, STEP_ICON, badgeOf, colourOf, headlineOf } from './present';
import { usageLine } from './usage';

/**
 * Draws a CheckState as DOM: the box under the cell, the sidebar and the %%crane_llm output are
 * this one view. Pure with respect to the notebook: it only builds elements, and only ever sets
 * textContent, so cell code, data and model text stay text. Actions arrive as callbacks.
 */

export interface ViewActions {
  cancel?(): void;
  showDetails?(): void;
  jumpTo?(cellId: string): void;
  /** Run that cell alone (a "Run cell 3 first" action). */
  runCell?(cellId: string): void;
  /** Make the correction in the checked cell; nothing runs. */
  replace?(correction: Correction): void;
  /** Put the model's fixed version in the checked cell; nothing runs. */
  applyFix?(code: string): void;
  copy?(text: string): void;
  /** The checked cell's code now, to show the model's fix as a diff against it. */
  cellSource?(): string | null;
}

const DIFF_CLASS = { ' ': 'same', '-': 'removed', '+': 'added' } as const;

const STEP_STATUS_TEXT: Record<Step['status'], string> = {
  running: 'in progress',
  done: 'done',
  skipped: 'skipped',
  failed: 'failed'
};


/** How much of a growing response the box under the cell shows; the sidebar shows it all. */
export const RAW_TAIL_CHARS = 600;

function button(cls: string, text: string, onClick: () => void, title?: string): HTMLButtonElement {
  const b = el('button', `jp-Button jp-mod-minimal crane-button ${cls}`, text);
  b.type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', event => {
    event.preventDefault();
    event.stopPropagation();
    onClick();
  });
  return b;
}

export function renderSteps(steps: readonly Step[]): HTMLElement {
  const list = el('ol', 'crane-steps');
  list.setAttribute('aria-label', 'Steps');
  for (const step of steps) {
    const item = el('li', `crane-step crane-step-${step.status}`);
    item.dataset.step = step.id;
    item.dataset.status = step.status;
    const icon = el('span', 'crane-step-icon', STEP_ICON[step.status]);
    icon.setAttribute('aria-label', STEP_STATUS_TEXT[step.status]);
    item.append(icon, el('span', 'crane-step-label', step.label));
    if (step.detail) item.append(el('span', 'crane-step-detail', step.detail));
    list.append(item);
  }
  return list;
}

/** The last part of a streamed response: the user sees it grow without the box growing forever. */
export function rawTail(raw: string, limit = RAW_TAIL_CHARS): string {
  return raw.length <= limit ? raw : `…${raw.slice(raw.length - limit)}`;
}

/** An origin entry in words: its sentence, or the run and what it did when no sentence came. */
export function originText(item: OriginItem): string {
  if (item.sentence) return item.sentence;
  const run = item.executionCount === null || item.executionCount === undefined ? '' : `In [${item.executionCount}] `;
  return `${run}${item.variable}: ${item.note}`;
}

export function renderOrigin(items: readonly OriginItem[], actions: ViewActions = {}): HTMLElement {
  const box = el('div', 'crane-origin');
  box.append(el('div', 'crane-origin-title', 'Origin of the crash'));
  const list = el('ul', 'crane-origin-list');
  for (const item of items) {
    const entry = el('li', 'crane-origin-item');
    entry.dataset.variable = item.variable;
    const label = originText(item);
    const target =
      item.cellId && actions.jumpTo
        ? button('crane-origin-entry', label, () => actions.jumpTo!(item.cellId!), 'Jump to this cell')
        : el('span', 'crane-origin-entry', label);
    if (item.cellId) target.dataset.cellId = item.cellId;
    entry.append(target);
    // The flags are for scanning; the sentence may already say the same in words.
    if (item.codeOnly) {
      entry.append(el('span', 'crane-origin-flag', /before recording|code only/i.test(label) ? 'code only' : 'ran before recording began: known from its code only'));
    }
    if (item.editedSinceRun) entry.append(el('span', 'crane-origin-flag crane-origin-edited', 'edited since it ran'));
    list.append(entry);
  }
  box.append(list);
  return box;
}

/** The actions under a certain crash: buttons where the host can act, the same words where it cannot (the magic). */
export function renderFixActions(fixes: readonly FixAction[], actions: ViewActions): HTMLElement {
  const row = el('div', 'crane-actions');
  for (const fix of fixes) {
    const act =
      fix.kind === 'run-cell'
        ? actions.runCell && (() => actions.runCell!(fix.cellId))
        : actions.replace && (() => actions.replace!(fix.correction));
    const node = act ? button(`crane-action crane-action-${fix.kind}`, fix.label, act, fix.title) : el('span', 'crane-action-hint', fix.label);
    node.dataset.action = fix.kind;
    row.append(node);
  }
  return row;
}

/** The model's corrected cell, as a diff against the cell where the host knows it, with Apply and Copy. */
export function renderModelFix(fix: string, actions: ViewActions): HTMLElement {
  const box = el('div', 'crane-fix');
  box.append(el('div', 'crane-section-label', 'Suggested fix'));
  const code = el('pre', 'crane-fix-code');
  const source = actions.cellSource?.() ?? null;
  if (source === null) code.textContent = fix;
  else for (const line of lineDiff(source, fix)) code.append(el('span', `crane-diff-line crane-diff-${DIFF_CLASS[line.op]}`, `${line.op} ${line.text}\n`));
  box.append(code);
  const row = el('div', 'crane-actions');
  if (actions.applyFix) row.append(button('crane-action crane-apply-fix', 'Apply', () => actions.applyFix!(fix), 'Put this version in the cell; nothing runs, and undo brings yours back'));
  if (actions.copy) row.append(button('crane-action crane-copy-fix', 'Copy', () => actions.copy!(fix), 'Copy the fixed cell'));
  if (row.childElementCount) box.append(row);
  return box;
}

export interface ViewOptions {
  /** Show the whole streamed response rather than its tail. */
  fullRaw?: boolean;
  /** A finished check's steps: folded (under the cell), open (the sidebar) or left out (the magic, which has its own). */
  finishedSteps?: 'folded' | 'open' | 'hidden';
  /** What a host adds below a finished or failed check (the magic's settings notes, prompt and raw response). */
  footer?: () => (HTMLElement | null)[];
}

export function renderCheck(state: CheckState, actions: ViewActions = {}, options: ViewOptions = {}): HTMLElement {
  const box = el('div', 'crane-verdict');
  box.setAttribute('role', 'status');
  box.dataset.phase = state.phase;
  const tools = el('span', 'crane-tools');
  if (actions.showDetails) tools.append(button('crane-details', 'Details', actions.showDetails, 'Show the prompt and the raw response in the CRANE-LLM sidebar'));

  if (state.phase === 'running' || state.phase === 'cancelled') {
    box.classList.add(state.phase === 'running' ? 'crane-progress' : 'crane-cancelled');
    const head = el('div', 'crane-headline');
    head.append(
      el('span', 'crane-icon', state.phase === 'running' ? '⟳' : '■'),
      el('span', 'crane-title', state.phase === 'running' ? 'CRANE-LLM is checking this cell…' : 'Check cancelled. Nothing was changed.')
    );
    if (state.phase === 'running' && actions.cancel) tools.prepend(button('crane-cancel', 'Cancel', actions.cancel, 'Stop this check'));
    head.append(tools);
    box.append(head, renderSteps(state.steps));
    if (state.raw) {
      const raw = el('pre', 'crane-raw crane-raw-live', options.fullRaw ? state.raw : rawTail(state.raw));
      raw.setAttribute('aria-label', 'Raw response so far');
      // The box is a status region; announcing every streamed chunk would drown a screen reader.
      raw.setAttribute('aria-live', 'off');
      box.append(raw);
    }
    return box;
  }

  if (state.phase === 'failed' || !state.verdict) {
    box.classList.add('crane-error');
    if (state.problem) box.dataset.problem = state.problem;
    const head = el('div', 'crane-headline');
    head.append(el('span', 'crane-icon', '⚠'), el('span', 'crane-title', PROBLEM_TITLE[state.problem ?? 'internal']), tools);
    box.append(head, el('div', 'crane-explanation', state.error ?? 'The check could not finish.'));
    if (state.steps.length) box.append(renderSteps(state.steps));
    appendFooter(box, options);
    return box;
  }

  const verdict = state.verdict;
  const colour = colourOf(verdict.kind, state.stale !== null);
  box.classList.add(`crane-${colour}`);
  box.dataset.colour = colour;
  box.dataset.kind = verdict.kind;
  const head = el('div', 'crane-headline');
  const icon = el('span', 'crane-icon', ICON[colour]);
  icon.setAttribute('aria-hidden', 'true');
  head.append(icon, el('span', 'crane-title', headlineOf(verdict)), el('span', 'crane-badge', badgeOf(verdict)), tools);
  box.append(head);
  if (verdict.explanation) box.append(el('div', 'crane-explanation', verdict.explanation));
  if (verdict.source.type === 'llm') box.append(el('div', 'crane-note', verdict.checkerRanFirst ? CHECKER_RAN_FIRST : CODE_ONLY_NOTE));
  const fixes = fixActions(state);
  if (fixes.length) box.append(renderFixActions(fixes, actions));
  if (verdict.fix && verdict.kind === 'predicted-crash' && state.stale === null) box.append(renderModelFix(verdict.fix, actions));
  if (state.origin.length) box.append(renderOrigin(state.origin, actions));
  if (state.stale) box.append(el('div', 'crane-stale', STALE_TEXT[state.stale]));
  const shown = options.finishedSteps ?? 'folded';
  if (state.steps.length && shown !== 'hidden') {
    const steps = el('details', 'crane-steps-done');
    steps.open = shown === 'open';
    steps.append(el('summary', 'crane-steps-summary', 'Steps'), renderSteps(state.steps));
    box.append(steps);
  }
  appendFooter(box, options);
  return box;
}

function appendFooter(box: HTMLElement, options: ViewOptions): void {
  for (const child of options.footer?.() ?? []) if (child) box.append(child);
}

/** What a host shows instead of a verdict when what it was given cannot be read: never a guess. */
export function renderUnreadable(title: string, reason: string): HTMLElement {
  const box = el('div', 'crane-verdict crane-error');
  const head = el('div', 'crane-headline');
  head.append(el('span', 'crane-icon', '⚠'), el('span', 'crane-title', title));
  box.append(head, el('div', 'crane-explanation', reason));
  return box;
}

/** The prompt and the raw response, folded, for a host without a sidebar. */
export function renderPromptAndRaw(state: CheckState): HTMLElement | null {
  if (state.prompt === null && !state.raw) return null;
  const details = el('details', 'crane-prompt-raw');
  details.append(el('summary', '', 'Prompt and raw response'));
  if (state.prompt !== null) details.append(el('div', 'crane-section-label', 'Prompt'), el('pre', 'crane-prompt', state.prompt));
  details.append(el('div', 'crane-section-label', 'Raw response'), el('pre', 'crane-raw', state.raw));
  // Once a model answered, what it cost, as the sidebar says it (the magic has no sidebar).
  if (state.usage !== undefined) details.append(el('p', 'crane-usage', usageLine(state.usage)));
  return details;
}

/**
 * Keeps a rendered check up to date. While only the streamed text grows, it updates that text in
 * place, so a click on Cancel is never lost to a re-render mid-press.
 */
export class CheckRenderer {
  private last: CheckState | null = null;

  constructor(
    private readonly host: HTMLElement,
    private readonly actions: () => ViewActions,
    private readonly options: ViewOptions = {}
  ) {}

  get state(): CheckState | null {
    return this.last;
  }

  render(state: CheckState | null): void {
    const prev = this.last;
    this.last = state;
    if (!state) {
      this.host.replaceChildren();
      return;
    }
    if (prev && prev !== state && onlyStreamGrew(prev, state) && this.updateInPlace(state)) return;
    this.host.replaceChildren(renderCheck(state, this.actions(), this.options));
  }

  /** The streamed text and the steps' words, updated where they stand; false when the box must be drawn anew. */
  private updateInPlace(state: CheckState): boolean {
    const raw = this.host.querySelector<HTMLElement>('.crane-raw-live');
    if (state.raw && !raw) return false;
    const steps = state.steps.map(step => ({ step, node: this.host.querySelector<HTMLElement>(`.crane-step[data-step="${step.id}"]`) }));
    if (steps.some(({ step, node }) => !node || (step.detail !== null) !== !!node.querySelector('.crane-step-detail'))) return false;
    for (const { step, node } of steps) {
      node!.querySelector('.crane-step-label')!.textContent = step.label;
      const detail = node!.querySelector('.crane-step-detail');
      if (detail && step.detail !== null) detail.textContent = step.detail;
    }
    if (raw) raw.textContent = this.options.fullRaw ? state.raw : rawTail(state.raw);
    return true;
  }

  refresh(): void {
    const s = this.last;
    this.last = null;
    this.render(s);
  }
}

/** A running check whose steps only changed their words (the model step counting tokens) and whose text grew. */
function onlyStreamGrew(a: CheckState, b: CheckState): boolean {
  if (a.phase !== 'running' || b.phase !== 'running' || a.prompt !== b.prompt) return false;
  return a.steps === b.steps || (a.steps.length === b.steps.length && a.steps.every((s, i) => s.id === b.steps[i].id && s.status === b.steps[i].status));
}
