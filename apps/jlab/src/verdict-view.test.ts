import { describe, expect, it, vi } from 'vitest';
import {
  cancelled,
  certainCrash,
  concluded,
  failed,
  madeStale,
  nothingCertain,
  originFound,
  rawReceived,
  started,
  stepEnded,
  stepStarted,
  promptBuilt,
  CheckRenderer,
  RAW_TAIL_CHARS,
  rawTail,
  renderCheck,
  type CheckState,
  type Verdict
} from '@crane-llm/core';
import { applyOriginMarks, originNote, ORIGIN_CLASS } from './origin-marks';
import { answeringLabel } from './run-check';

const llm = (kind: Verdict['kind'], checkerRanFirst = true): Verdict => ({
  kind,
  source: { type: 'llm', model: 'gpt-5' },
  exception: kind === 'predicted-crash' ? 'KeyError' : null,
  line: kind === 'predicted-crash' ? 4 : null,
  explanation: 'Because.',
  variables: [],
  checkerRanFirst
});
const done = (v: Verdict): CheckState => concluded(started('c'), v);
const item = { cellId: 'a', variable: 'df', note: 'assigned df (line 1)', sentence: 'Cell 1 assigned `df` at line 1.', line: 1, codeOnly: false, editedSinceRun: false };

describe('verdict rendering', () => {
  it.each([
    [done(certainCrash({ exception: 'NameError', line: 2, message: 'x is not defined', variables: ['x'] })), 'red', '✖', 'Built-in check · certain', /will crash: NameError at line 2/],
    [done(llm('predicted-crash')), 'red', '✖', 'LLM prediction · gpt-5', /Crash predicted: KeyError at line 4/],
    [done(llm('no-crash')), 'green', '✔', 'LLM prediction · gpt-5', /No crash predicted/],
    [done(llm('unreadable')), 'amber', '?', 'LLM prediction · gpt-5', /could not be read/],
    [done(nothingCertain('not a no-crash prediction')), 'blue', 'ℹ', 'Built-in checks only', /no certain crash/],
    [madeStale(done(llm('no-crash')), 'edited'), 'grey', '◷', 'LLM prediction · gpt-5', /No crash predicted/]
  ])('colour with text, icon and badge (%#)', (state, colour, icon, badge, headline) => {
    const node = renderCheck(state);
    expect(node.dataset.colour).toBe(colour);
    expect(node.classList.contains(`crane-${colour}`)).toBe(true);
    expect(node.querySelector('.crane-icon')!.textContent).toBe(icon);
    expect(node.querySelector('.crane-badge')!.textContent).toBe(badge);
    expect(node.querySelector('.crane-title')!.textContent).toMatch(headline);
  });

  it('a model verdict says the checker ran first, or that it was skipped', () => {
    expect(renderCheck(done(llm('no-crash'))).textContent).toContain('The built-in checker ran first and found no certain crash.');
    expect(renderCheck(done(llm('no-crash', false))).textContent).toContain('the built-in checks were skipped');
    expect(renderCheck(done(nothingCertain('x'))).textContent).not.toContain('checker ran first');
  });

  it('stale says why', () => {
    expect(renderCheck(madeStale(done(llm('no-crash')), 'other-cell-ran')).querySelector('.crane-stale')!.textContent).toMatch(/another cell ran/);
  });

  it('progress shows steps, the growing response and a working Cancel', () => {
    const cancel = vi.fn();
    const state = rawReceived(stepStarted(started('c'), 'model', 'Waiting for gpt-5'), '{"crash"');
    const node = renderCheck(state, { cancel });
    expect(node.dataset.phase).toBe('running');
    expect(node.querySelector('[data-step="model"]')!.getAttribute('data-status')).toBe('running');
    expect(node.querySelector('.crane-raw-live')!.textContent).toBe('{"crash"');
    (node.querySelector('.crane-cancel') as HTMLButtonElement).click();
    expect(cancel).toHaveBeenCalledOnce();
    expect(renderCheck(cancelled(state)).textContent).toContain('Check cancelled');
  });

  it('errors name the problem and keep the steps', () => {
    const node = renderCheck(failed(stepStarted(started('c'), 'checks', 'Built-in checker'), 'Run `%pip install crane-llm`', 'not-installed'));
    expect(node.dataset.problem).toBe('not-installed');
    expect(node.textContent).toContain('crane_llm is not installed in this kernel');
    expect(node.textContent).toContain('%pip install crane-llm');
    expect(node.querySelector('.crane-step-failed')).not.toBeNull();
  });

  it('origin entries jump to their cell and carry their flags', () => {
    const jumpTo = vi.fn();
    const state = originFound(done(llm('predicted-crash')), [item, { ...item, cellId: 'b', codeOnly: true, editedSinceRun: true }]);
    const node = renderCheck(state, { jumpTo });
    expect(node.querySelector('.crane-origin-title')!.textContent).toBe('Origin of the crash');
    const entries = node.querySelectorAll<HTMLButtonElement>('.crane-origin-entry');
    expect(entries).toHaveLength(2);
    entries[1].click();
    expect(jumpTo).toHaveBeenCalledWith('b');
    expect(node.textContent).toContain('edited since it ran');
    expect(node.textContent).toContain('known from its code only');
  });

  it('long responses show their tail under the cell', () => {
    const raw = 'x'.repeat(RAW_TAIL_CHARS + 50) + 'END';
    expect(rawTail(raw).endsWith('END')).toBe(true);
    expect(rawTail(raw).length).toBe(RAW_TAIL_CHARS + 1);
    expect(rawTail('short')).toBe('short');
  });

  it('the renderer updates only the streamed text while nothing else changes', () => {
    const host = document.createElement('div');
    const r = new CheckRenderer(host, () => ({ cancel: () => undefined }));
    let s = rawReceived(stepStarted(started('c'), 'model', 'm'), 'a');
    r.render(s);
    const cancel = host.querySelector('.crane-cancel');
    s = rawReceived(s, 'b');
    r.render(s);
    expect(host.querySelector('.crane-cancel')).toBe(cancel);
    expect(host.querySelector('.crane-raw-live')!.textContent).toBe('ab');
    r.render(concluded(s, llm('no-crash')));
    expect(host.querySelector('.crane-cancel')).toBeNull();
    expect(host.querySelector('[data-colour="green"]')).not.toBeNull();
  });

  it('the model step counting tokens as they stream does not redraw Cancel either', () => {
    const host = document.createElement('div');
    const r = new CheckRenderer(host, () => ({ cancel: () => undefined }));
    let s = rawReceived(stepStarted(started('c'), 'model', 'Waiting for m'), 'a');
    r.render(s);
    const cancel = host.querySelector('.crane-cancel');
    s = rawReceived(stepStarted(s, 'model', 'm is answering: about 5 tokens so far'), 'b');
    r.render(s);
    expect(host.querySelector('.crane-cancel')).toBe(cancel);
    expect(host.querySelector('[data-step="model"] .crane-step-label')!.textContent).toBe('m is answering: about 5 tokens so far');
    expect(host.querySelector('.crane-raw-live')!.textContent).toBe('ab');
  });
});

describe('the token count while an answer streams', () => {
  it('follows every piece, under the cell and in the sidebar, with Cancel never redrawn', () => {
    // The states run-check emits: finished steps with details, then one model step relabelled per piece.
    let s = stepEnded(stepStarted(started('c'), 'checks', 'Built-in checker'), 'checks', 'done', 'nothing certain');
    s = stepEnded(promptBuilt(stepStarted(s, 'prompt', 'Building the prompt'), 'P'), 'prompt', 'done', 'about 399 tokens');
    s = stepStarted(s, 'model', 'Waiting for m at h');
    const hosts = [document.createElement('div'), document.createElement('div')];
    const views = [
      new CheckRenderer(hosts[0], () => ({ cancel: () => undefined, showDetails: () => undefined })),
      new CheckRenderer(hosts[1], () => ({ cancel: () => undefined }), { finishedSteps: 'open' })
    ];
    views.forEach(v => v.render(s));
    const cancels = hosts.map(h => h.querySelector('.crane-cancel'));
    let text = '';
    for (let pieces = 1; pieces <= 40; pieces++) {
      const piece = pieces % 7 === 0 ? ' ' : `t${pieces}`; // whitespace is a token too
      text += piece;
      s = stepStarted(rawReceived(s, piece), 'model', answeringLabel('m', 'h', pieces));
      views.forEach(v => v.render(s));
      for (const host of hosts) {
        expect(host.querySelector('[data-step="model"] .crane-step-label')!.textContent).toBe(`m at h is answering: about ${pieces} token${pieces === 1 ? '' : 's'} so far`);
        expect(host.querySelector('.crane-raw-live')!.textContent).toBe(rawTail(text));
      }
    }
    expect(hosts.map(h => h.querySelector('.crane-cancel'))).toEqual(cancels);
  });
});

describe('origin outlines', () => {
  it('outline and note the marked cells, and remove them when the marks go', () => {
    const a = document.createElement('div');
    const b = document.createElement('div');
    const cells = [
      { id: 'a', node: a },
      { id: 'b', node: b }
    ];
    applyOriginMarks(cells, new Map([['a', [item, { ...item, variable: 'x', editedSinceRun: true }]]]));
    expect(a.classList.contains(ORIGIN_CLASS)).toBe(true);
    expect(b.classList.contains(ORIGIN_CLASS)).toBe(false);
    expect(a.querySelector('.crane-origin-note')!.textContent).toBe(originNote([item, { ...item, variable: 'x', editedSinceRun: true }]));
    expect(a.textContent).toContain('edited since it ran');
    applyOriginMarks(cells, new Map([['a', [item]]]));
    expect(a.querySelectorAll('.crane-origin-note')).toHaveLength(1);
    applyOriginMarks(cells, new Map());
    expect(a.classList.contains(ORIGIN_CLASS)).toBe(false);
    expect(a.querySelector('.crane-origin-note')).toBeNull();
  });
});

describe('actions under a verdict', () => {
  const misspelt = certainCrash({
    exception: 'NameError',
    line: 1,
    message: "name 'dff' is not defined",
    variables: ['dff'],
    correction: { old: 'dff', new: 'df', line: 1 }
  });
  const notRun = { ...item, cellId: 'def', kind: 'not-run', index: 2 };

  it('buttons call the host: run the defining cell, replace the name', () => {
    const runCell = vi.fn();
    const replace = vi.fn();
    const node = renderCheck(originFound(done(misspelt), [notRun]), { runCell, replace });
    const buttons = [...node.querySelectorAll<HTMLButtonElement>('.crane-actions button')];
    expect(buttons.map(b => b.textContent)).toEqual(['Run cell 3 first', 'Replace dff with df']);
    buttons[0].click();
    buttons[1].click();
    expect(runCell).toHaveBeenCalledWith('def');
    expect(replace).toHaveBeenCalledWith({ old: 'dff', new: 'df', line: 1 });
  });

  it('a host that cannot act (the magic) shows the same words, not buttons', () => {
    const node = renderCheck(done(misspelt));
    expect(node.querySelector('.crane-actions button')).toBeNull();
    expect(node.querySelector('.crane-action-hint')!.textContent).toBe('Replace dff with df');
  });

  it("the model's fix is a diff against the cell, with Apply and Copy", () => {
    const applyFix = vi.fn();
    const copy = vi.fn();
    const state = done({ ...llm('predicted-crash'), fix: "x = 1\ndf['a'].sum()" });
    const node = renderCheck(state, { applyFix, copy, cellSource: () => "x = 1\ndf['b'].sum()" });
    const lines = [...node.querySelectorAll('.crane-fix-code .crane-diff-line')].map(l => [l.className.split(' ')[1], l.textContent]);
    expect(lines).toEqual([
      ['crane-diff-same', '  x = 1\n'],
      ['crane-diff-removed', "- df['b'].sum()\n"],
      ['crane-diff-added', "+ df['a'].sum()\n"]
    ]);
    node.querySelector<HTMLButtonElement>('.crane-apply-fix')!.click();
    node.querySelector<HTMLButtonElement>('.crane-copy-fix')!.click();
    expect(applyFix).toHaveBeenCalledWith("x = 1\ndf['a'].sum()");
    expect(copy).toHaveBeenCalledWith("x = 1\ndf['a'].sum()");
    expect(renderCheck(madeStale(state, 'edited'), { applyFix }).querySelector('.crane-fix')).toBeNull();
  });
});
