import { describe, expect, it } from 'vitest';
import { answerOf, problemAnswer } from './answer';
import { concluded, failed, refused, started } from './check-state';
import { CheckAnswer, type OriginEntryJson } from './wire/check-answer';
import { certainCrash } from './verdict';

const target = { notebook: 'a.ipynb', cellId: 'c3', cellIndex: 3 };
const entry: OriginEntryJson = {
  variable: 'df',
  kind: 'modified',
  cellId: 'c1',
  executionCount: 2,
  index: 1,
  line: 1,
  recorded: true,
  edited: false,
  note: 'line 1: dropped columns of `df` in place',
  sentence: 'Cell 2 (In [2]), line 1, dropped columns of `df` in place.'
};

describe('answerOf', () => {
  it('a crash keeps its verdict and its origin, and validates', () => {
    const crash = certainCrash({ exception: 'KeyError', line: 1, message: "df has no column 'b'", variables: ['df'] });
    const answer = answerOf(concluded(started('c3'), crash), target, [entry]);
    expect(CheckAnswer.parse(answer)).toEqual(answer);
    expect(answer).toMatchObject({ verdict: { kind: 'certain-crash', exception: 'KeyError' }, origin: [entry], problem: null });
  });

  it('no crash: no origin, even if lineage found some', () => {
    const fine = { ...certainCrash({ exception: 'X', line: null, message: '', variables: [] }), kind: 'no-crash' as const };
    expect(answerOf(concluded(started('c3'), fine), target, [entry]).origin).toEqual([]);
  });

  it('a failed or refused check is a problem with its kind and message, never a verdict', () => {
    const busy = answerOf(refused('c3', 'busy', 'Wait for the cells to finish.'), target, []);
    expect(busy).toEqual({ ...target, verdict: null, origin: [], problem: { kind: 'busy', message: 'Wait for the cells to finish.' } });
    const noKey = answerOf(failed(started('c3'), 'No API key was found.', 'no-key'), target, []);
    expect(noKey.problem).toEqual({ kind: 'no-key', message: 'No API key was found.' });
    expect(CheckAnswer.parse(problemAnswer(target, 'no-cell', 'No such cell.')).problem?.kind).toBe('no-cell');
  });
});
