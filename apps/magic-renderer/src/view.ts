import {
  CHECKER_RAN_FIRST,
  CODE_ONLY_NOTE,
  ICON,
  PROBLEM_TITLE,
  STALE_TEXT,
  STEP_ICON,
  badgeOf,
  colourOf,
  headlineOf,
  type Verdict
} from '@crane-llm/core';
import type { MagicDocument, MagicOriginItem, MagicState } from './document';

/**
 * Draws the magic's document as DOM with the JupyterLab verdict box's classes (crane-verdict,
 * crane-<colour>, crane-badge, ...), so a magic verdict looks like a button verdict and is styled
 * by the same stylesheet. Only textContent is ever set: cell code, data and model text stay text.
 */


function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function steps(list: MagicState['steps']): HTMLElement {
  const ol = el('ol', 'crane-steps');
  for (const step of list) {
    const item = el('li', `crane-step crane-step-${step.status}`);
    item.dataset.step = step.id;
    item.dataset.status = step.status;
    item.append(el('span', 'crane-step-icon', STEP_ICON[step.status]), el('span', 'crane-step-label', step.label));
    if (step.detail) item.append(el('span', 'crane-step-detail', step.detail));
    ol.append(item);
  }
  return ol;
}

function originEntryText(item: MagicOriginItem): string {
  if (item.sentence) return item.sentence;
  const run = item.executionCount === null || item.executionCount === undefined ? '' : `In [${item.executionCount}] `;
  return `${run}${item.variable}: ${item.note}`;
}

function origin(items: readonly MagicOriginItem[]): HTMLElement {
  const box = el('div', 'crane-origin');
  box.append(el('div', 'crane-origin-title', 'Origin of the crash'));
  const list = el('ul', 'crane-origin-list');
  for (const item of items) {
    const entry = el('li', 'crane-origin-item');
    entry.dataset.variable = item.variable;
    entry.append(el('span', 'crane-origin-entry', originEntryText(item)));
    if (item.codeOnly && !item.sentence) entry.append(el('span', 'crane-origin-flag', 'ran before recording began: known from its code only'));
    list.append(entry);
  }
  box.append(list);
  return box;
}

function promptAndRaw(state: MagicState): HTMLElement | null {
  if (state.prompt === null && !state.raw) return null;
  const details = el('details', 'crane-prompt-raw');
  details.append(el('summary', '', 'Prompt and raw response'));
  if (state.prompt !== null) details.append(el('div', 'crane-section-label', 'Prompt'), el('pre', 'crane-prompt', state.prompt));
  details.append(el('div', 'crane-section-label', 'Raw response'), el('pre', 'crane-raw', state.raw));
  return details;
}

function notes(lines: readonly string[]): HTMLElement | null {
  return lines.length ? el('div', 'crane-settings-source crane-note', lines.join(' ')) : null;
}

function append(parent: HTMLElement, ...children: (HTMLElement | null)[]): void {
  for (const child of children) if (child) parent.append(child);
}

export function renderMagic(doc: MagicDocument): HTMLElement {
  const state = doc.state;
  const box = el('div', 'crane-verdict crane-magic');
  box.setAttribute('role', 'status');
  box.dataset.phase = state.phase;
  box.dataset.displayId = doc.displayId;
  if (state.phase === 'running' || state.phase === 'cancelled') {
    box.classList.add(state.phase === 'running' ? 'crane-progress' : 'crane-cancelled');
    const head = el('div', 'crane-headline');
    head.append(
      el('span', 'crane-icon', state.phase === 'running' ? '⟳' : '■'),
      el('span', 'crane-title', state.phase === 'running' ? 'CRANE-LLM is checking this cell…' : 'Check cancelled. Nothing was changed.')
    );
    box.append(head, steps(state.steps));
    if (state.raw) box.append(el('pre', 'crane-raw crane-raw-live', state.raw));
    return box;
  }
  if (state.phase === 'failed' || !state.verdict) {
    box.classList.add('crane-error');
    if (state.problem) box.dataset.problem = state.problem;
    const head = el('div', 'crane-headline');
    head.append(el('span', 'crane-icon', '⚠'), el('span', 'crane-title', PROBLEM_TITLE[state.problem ?? 'internal']));
    box.append(head, el('div', 'crane-explanation', state.error ?? 'The check could not finish.'));
    if (state.steps.length) box.append(steps(state.steps));
    append(box, notes(doc.notes), promptAndRaw(state));
    return box;
  }
  const verdict = state.verdict as Verdict;
  const colour = colourOf(verdict.kind, state.stale !== null);
  box.classList.add(`crane-${colour}`);
  box.dataset.colour = colour;
  box.dataset.kind = verdict.kind;
  const head = el('div', 'crane-headline');
  const icon = el('span', 'crane-icon', ICON[colour]);
  icon.setAttribute('aria-hidden', 'true');
  head.append(icon, el('span', 'crane-title', headlineOf(verdict)), el('span', 'crane-badge', badgeOf(verdict)));
  box.append(head);
  if (verdict.explanation) box.append(el('div', 'crane-explanation', verdict.explanation));
  if (verdict.source.type === 'llm') box.append(el('div', 'crane-note', verdict.checkerRanFirst ? CHECKER_RAN_FIRST : CODE_ONLY_NOTE));
  if (state.origin.length) box.append(origin(state.origin));
  if (state.stale) box.append(el('div', 'crane-stale', STALE_TEXT[state.stale]));
  append(box, notes(doc.notes), promptAndRaw(state));
  return box;
}

/** What a malformed payload shows instead of a verdict: never a guess. */
export function renderUnreadable(reason: string): HTMLElement {
  const box = el('div', 'crane-verdict crane-magic crane-error');
  const head = el('div', 'crane-headline');
  head.append(el('span', 'crane-icon', '⚠'), el('span', 'crane-title', 'This CRANE-LLM output could not be read'));
  box.append(head, el('div', 'crane-explanation', reason));
  return box;
}
