import { describe, expect, it } from 'vitest';
import { certainCrash, concluded, failed, started, stepStarted, type CheckState } from '@crane-llm/core';
import { drawAfterGrace, type Timers } from './progress-grace';

/** Timers run by hand: `fire()` is the grace running out. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  const timers: Timers = {
    set: run => {
      pending.set(++next, run);
      return next;
    },
    clear: handle => void pending.delete(handle as number)
  };
  return {
    timers,
    pending: () => pending.size,
    fire: () => {
      for (const [id, run] of [...pending]) {
        pending.delete(id);
        run();
      }
    }
  };
}

const crash = { exception: 'NameError', line: 1, column: 0, message: "name 'dff' is not defined", rule: 'undefined-name', variables: ['dff'] };
const running = (): CheckState => stepStarted(started('c1'), 'checks', 'Built-in checker on the live kernel state');
const done = (): CheckState => concluded(running(), certainCrash(crash));

describe('drawAfterGrace', () => {
  it('a check that ends within the grace is drawn once, as its verdict', () => {
    const t = manualTimers();
    const drawn: CheckState[] = [];
    const emit = drawAfterGrace(s => drawn.push(s), 200, t.timers);
    emit(started('c1'));
    emit(running());
    expect(drawn).toEqual([]);
    const end = done();
    emit(end);
    expect(drawn).toEqual([end]);
    expect(t.pending()).toBe(0); // nothing is drawn later over the verdict
  });

  it('a slower check shows its latest progress when the grace runs out, then every state', () => {
    const t = manualTimers();
    const drawn: CheckState[] = [];
    const emit = drawAfterGrace(s => drawn.push(s), 200, t.timers);
    const first = started('c1');
    const second = running();
    emit(first);
    emit(second);
    t.fire();
    expect(drawn).toEqual([second]);
    const third = stepStarted(second, 'model', 'Waiting for the model');
    emit(third);
    const end = failed(third, 'The model call failed.', 'provider');
    emit(end);
    expect(drawn).toEqual([second, third, end]);
  });

  it('a failure or a cancel within the grace is drawn at once', () => {
    const t = manualTimers();
    const drawn: CheckState[] = [];
    const emit = drawAfterGrace(s => drawn.push(s), 200, t.timers);
    emit(started('c1'));
    const end = failed(running(), 'The kernel did not answer.', 'kernel');
    emit(end);
    expect(drawn).toEqual([end]);
    t.fire();
    expect(drawn).toEqual([end]);
  });

  it('no grace draws every state', () => {
    const t = manualTimers();
    const drawn: CheckState[] = [];
    const emit = drawAfterGrace(s => drawn.push(s), 0, t.timers);
    emit(started('c1'));
    expect(drawn).toHaveLength(1);
    expect(t.pending()).toBe(0);
  });
});
