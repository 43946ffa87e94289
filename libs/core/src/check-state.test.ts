import { describe, expect, it } from 'vitest';
import {
  STALE_TEXT,
  mayChangeKernelState,
  cancelled,
  concluded,
  failed,
  madeStale,
  originFound,
  outlinedCells,
  promptBuilt,
  rawReceived,
  rawReset,
  refused,
  started,
  stepEnded,
  stepStarted
} from './check-state';
import { certainCrash, nothingCertain, type Verdict } from './verdict';
import { badgeOf, colourOf, headlineOf } from './present';

const crash = certainCrash({ exception: 'NameError', line: 2, message: "name 'dff' is not defined", variables: ['dff'] });
const predicted: Verdict = {
  kind: 'predicted-crash',
  source: { type: 'llm', model: 'gpt-5' },
  exception: 'KeyError',
  line: 3,
  explanation: 'The column was dropped.',
  variables: ['df'],
  checkerRanFirst: true
};

describe('check state transitions', () => {
  it('runs steps in order and concludes', () => {
    let s = started('cell-1');
    s = stepStarted(s, 'checks', 'Built-in checks');
    s = stepEnded(s, 'checks', 'done', 'nothing certain; stopped at line 3');
    s = stepStarted(s, 'prompt', 'Building the prompt');
    s = promptBuilt(s, 'PROMPT');
    s = stepEnded(s, 'prompt', 'done');
    s = stepStarted(s, 'model', 'Waiting for gpt-5');
    s = rawReceived(rawReceived(s, '{"crash":'), ' true}');
    s = stepEnded(s, 'model', 'done');
    s = concluded(s, predicted);
    expect(s.phase).toBe('done');
    expect(s.steps.map(x => [x.id, x.status])).toEqual([
      ['checks', 'done'],
      ['prompt', 'done'],
      ['model', 'done']
    ]);
    expect(s.steps[0].detail).toBe('nothing certain; stopped at line 3');
    expect(s.prompt).toBe('PROMPT');
    expect(s.raw).toBe('{"crash": true}');
  });

  it('never mutates the previous state', () => {
    const a = started(null);
    const b = stepStarted(a, 'checks', 'x');
    expect(a.steps).toHaveLength(0);
    expect(b.steps).toHaveLength(1);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('restarting a step resets it instead of duplicating it', () => {
    let s = stepStarted(started(null), 'model', 'a');
    s = stepEnded(s, 'model', 'failed', 'timeout');
    s = stepStarted(s, 'model', 'b');
    expect(s.steps).toEqual([{ id: 'model', label: 'b', status: 'running', detail: null }]);
  });

  it('fails with a message and marks running steps failed', () => {
    const s = failed(stepStarted(started(null), 'model', 'm'), 'No API key');
    expect(s.phase).toBe('failed');
    expect(s.error).toBe('No API key');
    expect(s.problem).toBe('internal');
    expect(s.steps[0].status).toBe('failed');
  });

  it('keeps the kind of problem so the host can say what to do', () => {
    let s = stepStarted(started('c'), 'checks', 'Built-in checks');
    s = stepEnded(s, 'checks', 'done', 'nothing certain');
    s = failed(s, 'No API key was found', 'no-key');
    expect(s.problem).toBe('no-key');
    // The checks' outcome stays visible next to the message.
    expect(s.steps[0]).toMatchObject({ status: 'done', detail: 'nothing certain' });
    for (const kind of ['kernel-restarted', 'closed', 'not-installed', 'provider'] as const) {
      expect(failed(started(null), 'x', kind).problem).toBe(kind);
    }
  });

  it('a refusal is a finished failure with nothing run', () => {
    const s = refused('c', 'busy', 'wait');
    expect(s).toMatchObject({ phase: 'failed', problem: 'busy', error: 'wait', steps: [], verdict: null });
    expect(madeStale(s, 'edited')).toBe(s);
  });

  it('streams the raw response, restarts it on a retry, and drops chunks after the end', () => {
    let s = stepStarted(started(null), 'model', 'm');
    s = rawReceived(s, '{"cr');
    s = rawReceived(s, 'ash"');
    expect(s.raw).toBe('{"crash"');
    expect(rawReceived(s, '')).toBe(s);
    s = rawReset(s);
    expect(s.raw).toBe('');
    s = rawReceived(s, 'new');
    const c = cancelled(s);
    expect(rawReceived(c, 'late')).toBe(c);
    expect(promptBuilt(c, 'late prompt').prompt).toBeNull();
    expect(c.raw).toBe('new');
  });

  it('cancel skips running steps and ignores a late verdict', () => {
    let s = cancelled(stepStarted(started(null), 'model', 'm'));
    expect(s.phase).toBe('cancelled');
    expect(s.steps[0].status).toBe('skipped');
    s = concluded(s, predicted);
    expect(s.verdict).toBeNull();
    expect(failed(s, 'late').error).toBeNull();
  });

  it('goes stale only once it has a verdict, and keeps the first reason', () => {
    const running = started(null);
    expect(madeStale(running, 'edited')).toBe(running);
    let s = concluded(running, crash);
    s = madeStale(s, 'other-cell-ran');
    s = madeStale(s, 'edited');
    expect(s.stale).toBe('other-cell-ran');
    expect(STALE_TEXT[s.stale!]).toMatch(/another cell ran/);
  });
});

describe('origin of the crash', () => {
  const items = [
    { cellId: 'a', variable: 'df', note: 'assigned df (line 1)', sentence: 'Cell 1 assigned `df` at line 1.', line: 1, codeOnly: false, editedSinceRun: false },
    { cellId: 'b', variable: 'df', note: 'dropped columns in place', sentence: 'Cell 2 dropped columns of `df` in place.', line: 2, codeOnly: false, editedSinceRun: true },
    { cellId: 'a', variable: 'x', note: 'assigned x', sentence: 'Cell 1 assigned `x`.', line: 3, codeOnly: true, editedSinceRun: false },
    { cellId: null, variable: 'y', note: 'a deleted cell', sentence: 'A deleted cell assigned `y`.', line: null, codeOnly: false, editedSinceRun: false }
  ];

  it('arrives after the verdict, and only then', () => {
    expect(originFound(started(null), items).origin).toEqual([]);
    const s = originFound(concluded(started(null), crash), items);
    expect(s.origin).toHaveLength(4);
    expect([...outlinedCells(s).keys()]).toEqual(['a', 'b']);
    expect(outlinedCells(s).get('a')!.map(i => i.variable)).toEqual(['df', 'x']);
  });

  it('vanishes when the verdict goes stale', () => {
    const s = madeStale(originFound(concluded(started(null), crash), items), 'edited');
    expect(s.origin).toEqual([]);
    expect(outlinedCells(s).size).toBe(0);
    expect(originFound(s, items).origin).toEqual([]);
  });
});

describe('presentation', () => {
  it('derives colours from the kind, grey when stale', () => {
    expect(colourOf('certain-crash', false)).toBe('red');
    expect(colourOf('predicted-crash', false)).toBe('red');
    expect(colourOf('no-crash', false)).toBe('green');
    expect(colourOf('unreadable', false)).toBe('amber');
    expect(colourOf('nothing-certain', false)).toBe('blue');
    for (const k of ['certain-crash', 'no-crash', 'unreadable', 'nothing-certain'] as const) {
      expect(colourOf(k, true)).toBe('grey');
    }
  });

  it('badges say where the verdict came from', () => {
    expect(badgeOf(crash)).toBe('Built-in check · certain');
    expect(badgeOf(predicted)).toBe('LLM prediction · gpt-5');
    expect(badgeOf(nothingCertain('x'))).toBe('Built-in checks only');
  });

  it('headlines name the exception and the line', () => {
    expect(headlineOf(crash)).toBe('This cell will crash: NameError at line 2');
    expect(headlineOf({ ...predicted, line: null })).toBe('Crash predicted: KeyError');
    expect(headlineOf(nothingCertain('x'))).toBe('The built-in checks found no certain crash');
  });
});

describe('what makes a verdict stale', () => {
  it('any cell that runs code, but not a %%crane_llm check', () => {
    expect(mayChangeKernelState('df = df.dropna()')).toBe(true);
    expect(mayChangeKernelState('%time x = 1')).toBe(true);
    expect(mayChangeKernelState('# %%crane_llm\nx = 1')).toBe(true);
    expect(mayChangeKernelState('%%crane_llm\nmodel.fit(X, y)')).toBe(false);
    expect(mayChangeKernelState('\n  %%crane_llm --no-llm\nx')).toBe(false);
    expect(mayChangeKernelState('%%crane_llmx\n')).toBe(true);
  });
});
