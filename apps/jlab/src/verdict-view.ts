import {
  STALE_TEXT,
  badgeOf,
  colourOf,
  headlineOf,
  type CheckState,
  type Colour,
  type Step
} from '@crane-llm/core';

/**
 * Draws a CheckState as DOM. Pure with respect to the notebook: it only builds elements, so the
 * same view serves the box under the cell and the sidebar.
 */

const ICON: Record<Colour, string> = { red: '✖', green: '✔', amber: '?', blue: 'ℹ', grey: '◷' };
const STEP_ICON: Record<Step['status'], string> = { running: '…', done: '✓', skipped: '–', failed: '✖' };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function renderSteps(steps: readonly Step[]): HTMLElement {
  const list = el('ol', 'crane-steps');
  for (const step of steps) {
    const item = el('li', `crane-step crane-step-${step.status}`);
    item.dataset.step = step.id;
    item.append(el('span', 'crane-step-icon', STEP_ICON[step.status]), el('span', 'crane-step-label', step.label));
    if (step.detail) item.append(el('span', 'crane-step-detail', step.detail));
    list.append(item);
  }
  return list;
}

export function renderCheck(state: CheckState): HTMLElement {
  const box = el('div', 'crane-verdict');
  box.setAttribute('role', 'status');
  if (state.phase === 'running' || state.phase === 'cancelled') {
    box.classList.add('crane-progress');
    box.append(el('div', 'crane-headline', state.phase === 'running' ? 'CRANE-LLM is checking this cell…' : 'Check cancelled.'));
    box.append(renderSteps(state.steps));
    return box;
  }
  if (state.phase === 'failed' || !state.verdict) {
    box.classList.add('crane-error');
    box.append(el('div', 'crane-headline', `⚠ ${state.error ?? 'The check could not finish.'}`));
    if (state.steps.length) box.append(renderSteps(state.steps));
    return box;
  }
  const verdict = state.verdict;
  const colour = colourOf(verdict.kind, state.stale !== null);
  box.classList.add(`crane-${colour}`);
  box.dataset.colour = colour;
  box.dataset.kind = verdict.kind;
  const head = el('div', 'crane-headline');
  head.append(el('span', 'crane-icon', ICON[colour]), el('span', 'crane-title', headlineOf(verdict)));
  head.append(el('span', 'crane-badge', badgeOf(verdict)));
  box.append(head);
  if (verdict.explanation) box.append(el('div', 'crane-explanation', verdict.explanation));
  if (verdict.source.type === 'llm' && verdict.checkerRanFirst) {
    box.append(el('div', 'crane-note', 'The built-in checker ran first and found no certain crash.'));
  }
  if (state.stale) box.append(el('div', 'crane-stale', STALE_TEXT[state.stale]));
  return box;
}
