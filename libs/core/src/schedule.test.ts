import { describe, expect, it } from 'vitest';
import {
  DEBOUNCE_MS,
  IDLE_AS_YOU_GO,
  answerStillValid,
  asYouGo,
  dropWhenBusy,
  dueCheck,
  guardsRun,
  staleMark,
  type AsYouGo,
  type AsYouGoEvent,
  type CrashMark
} from './schedule';

const play = (...events: AsYouGoEvent[]): AsYouGo => events.reduce(asYouGo, IDLE_AS_YOU_GO);

describe('check as you go: when a check starts', () => {
  it('checks a newly active cell at once when the kernel is idle', () => {
    const s = play({ kind: 'activated', cellId: 'a', now: 1000 });
    expect(dueCheck(s, 1000, true, 'a')).toBe('a');
  });

  it('waits for 500 ms without a keystroke, and each keystroke restarts the wait', () => {
    let s = play({ kind: 'edited', cellId: 'a', now: 0 });
    expect(dueCheck(s, DEBOUNCE_MS - 1, true, 'a')).toBeNull();
    s = asYouGo(s, { kind: 'edited', cellId: 'a', now: 400 });
    expect(dueCheck(s, DEBOUNCE_MS, true, 'a')).toBeNull();
    expect(dueCheck(s, 400 + DEBOUNCE_MS - 1, true, 'a')).toBeNull();
    expect(dueCheck(s, 400 + DEBOUNCE_MS, true, 'a')).toBe('a');
  });

  it('never starts while the kernel is busy, and drops a check that comes due then', () => {
    const s = play({ kind: 'edited', cellId: 'a', now: 0 });
    expect(dueCheck(s, 600, false, 'a')).toBeNull();
    expect(dropWhenBusy(s, 100, false)).toBe(s); // not due yet: kept
    const dropped = dropWhenBusy(s, 600, false);
    expect(dropped.pending).toBeNull();
    expect(dueCheck(dropped, 700, true, 'a')).toBeNull(); // the kernel became idle: still nothing queued
    expect(dropWhenBusy(s, 600, true)).toBe(s);
  });

  it('drops whatever waits when the user runs anything', () => {
    const s = play({ kind: 'activated', cellId: 'a', now: 0 }, { kind: 'user-ran' });
    expect(s.pending).toBeNull();
    expect(dueCheck(s, 10_000, true, 'a')).toBeNull();
  });

  it('runs one check at a time, and only for the cell that is still active', () => {
    let s = play({ kind: 'activated', cellId: 'a', now: 0 }, { kind: 'started', cellId: 'a', source: 'x' });
    s = asYouGo(s, { kind: 'activated', cellId: 'b', now: 10 });
    expect(dueCheck(s, 10, true, 'b')).toBeNull(); // 'a' is still in flight
    s = asYouGo(s, { kind: 'finished' });
    expect(dueCheck(s, 20, true, 'b')).toBe('b');
    expect(dueCheck(s, 20, true, 'c')).toBeNull(); // the user moved on before it came due
  });
});

describe('check as you go: which answers are shown', () => {
  it('shows the answer for the text that was checked', () => {
    const s = play({ kind: 'started', cellId: 'a', source: 'dff.head()' });
    expect(answerStillValid(s, 'a', 'dff.head()')).toBe(true);
  });

  it('drops an answer when the text changed or the user ran something meanwhile', () => {
    const s = play({ kind: 'started', cellId: 'a', source: 'dff.head()' });
    expect(answerStillValid(s, 'a', 'df.head()')).toBe(false);
    expect(answerStillValid(asYouGo(s, { kind: 'user-ran' }), 'a', 'dff.head()')).toBe(false);
    expect(answerStillValid(s, 'b', 'dff.head()')).toBe(false);
  });
});

describe('marks go stale as verdicts do', () => {
  const mark: CrashMark = { cellId: 'a', exception: 'NameError', line: 1, reason: 'dff is not defined', stale: null };

  it('an edit stales only the edited cell', () => {
    expect(staleMark(mark, { kind: 'edited', cellId: 'a' }).stale).toBe('edited');
    expect(staleMark(mark, { kind: 'edited', cellId: 'b' })).toBe(mark);
  });

  it('a run stales every mark, except a %%crane_llm cell, which changes nothing', () => {
    expect(staleMark(mark, { kind: 'ran', code: 'dff = df' }).stale).toBe('other-cell-ran');
    expect(staleMark(mark, { kind: 'ran', code: '%%crane_llm\ndff.head()' })).toBe(mark);
  });

  it('a restart stales every mark, and the first reason stays', () => {
    const edited = staleMark(mark, { kind: 'edited', cellId: 'a' });
    expect(staleMark(mark, { kind: 'kernel-restarted' }).stale).toBe('kernel-restarted');
    expect(staleMark(edited, { kind: 'kernel-restarted' }).stale).toBe('edited');
  });
});

describe('check before running: which runs are guarded', () => {
  it('guards the run of one cell, by any of the run commands', () => {
    for (const command of ['run', 'run-and-advance', 'run-and-insert'] as const) {
      expect(guardsRun(true, { cells: 1, command }, true)).toBe(true);
    }
  });

  it('does not guard with the setting off, several cells, Run All, or a busy kernel', () => {
    expect(guardsRun(false, { cells: 1, command: 'run' }, true)).toBe(false);
    expect(guardsRun(true, { cells: 2, command: 'run' }, true)).toBe(false);
    expect(guardsRun(true, { cells: 1, command: 'run-all' }, true)).toBe(false);
    expect(guardsRun(true, { cells: 1, command: 'run-other' }, true)).toBe(false);
    expect(guardsRun(true, { cells: 1, command: 'run' }, false)).toBe(false);
  });
});
