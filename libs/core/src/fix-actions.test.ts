import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckState, concluded, madeStale, originFound, started, type OriginItem } from './check-state';
import { applyCorrection, fixActions, lineDiff } from './fix-actions';
import { certainCrash, type Verdict } from './verdict';

const nameError = certainCrash({ exception: 'NameError', line: 1, message: "name 'token' is not defined", variables: ['token'] });
const notRun: OriginItem = {
  cellId: 'c2',
  variable: 'token',
  note: 'line 2: defines `token`, not run yet',
  line: 2,
  codeOnly: false,
  editedSinceRun: false,
  kind: 'not-run',
  index: 2
};

function done(verdict: Verdict, origin: OriginItem[] = []) {
  return originFound(concluded(started('t'), verdict), origin);
}

describe('fixActions', () => {
  it('a NameError whose defining cell never ran offers to run that cell first', () => {
    expect(fixActions(done(nameError, [notRun]))).toEqual([
      { kind: 'run-cell', cellId: 'c2', label: 'Run cell 3 first', title: 'Runs cell 3 only (it defines `token`); this cell stays unrun.' }
    ]);
  });

  it('a cell that raised before its assignment counts too; an assignment that ran does not', () => {
    expect(fixActions(done(nameError, [{ ...notRun, kind: 'raised-before' }]))[0].kind).toBe('run-cell');
    expect(fixActions(done(nameError, [{ ...notRun, kind: 'assigned' }]))).toEqual([]);
  });

  it('a correction becomes a Replace action; stale or predicted verdicts offer nothing', () => {
    const misspelt = certainCrash({ ...nameError, message: 'x', correction: { old: 'dff', new: 'df', line: 1 } });
    const [replace] = fixActions(done(misspelt));
    expect(replace).toMatchObject({ kind: 'replace', label: 'Replace dff with df' });
    expect(fixActions(madeStale(done(misspelt), 'edited'))).toEqual([]);
    expect(fixActions(done({ ...misspelt, kind: 'predicted-crash' }))).toEqual([]);
  });
});

describe('applyCorrection', () => {
  it('replaces the whole name on its line only', () => {
    const cell = 'dff2 = 1\nprint(dff, dff2)\ndff';
    expect(applyCorrection(cell, { old: 'dff', new: 'df', line: 2 })).toBe('dff2 = 1\nprint(df, dff2)\ndff');
  });
  it('replaces a quoted column as written', () => {
    expect(applyCorrection("df['Pclas'].mean()", { old: "'Pclas'", new: "'Pclass'", line: 1 })).toBe("df['Pclass'].mean()");
  });
  it('finds a column written in the other quote style, and keeps that style', () => {
    expect(applyCorrection('df["Pclas"].mean()', { old: "'Pclas'", new: "'Pclass'", line: 1 })).toBe('df["Pclass"].mean()');
  });
  it('replaces an attribute with its dot, not a name that happens to match', () => {
    expect(applyCorrection('hed = df.hed()', { old: '.hed', new: '.head', line: 1 })).toBe('hed = df.head()');
  });
  it('says null when the line no longer holds it', () => {
    expect(applyCorrection('df.head()', { old: 'dff', new: 'df', line: 1 })).toBeNull();
    expect(applyCorrection('dff', { old: 'dff', new: 'df', line: 5 })).toBeNull();
  });
});

describe('lineDiff', () => {
  it('keeps common lines and marks the changed ones', () => {
    expect(lineDiff("a = 1\ndf['b']\nc", "a = 1\ndf['a']\nc")).toEqual([
      { op: ' ', text: 'a = 1' },
      { op: '-', text: "df['b']" },
      { op: '+', text: "df['a']" },
      { op: ' ', text: 'c' }
    ]);
  });
  it('identical cells are all common', () => {
    expect(lineDiff('x\ny', 'x\ny').every(l => l.op === ' ')).toBe(true);
  });
});

describe('fix-actions golden vector (shared with python/crane_llm/present.py)', () => {
  const golden = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'fix-actions.json'), 'utf8')) as {
    cases: { name: string; state: unknown; expected: unknown }[];
  };
  for (const c of golden.cases) {
    it(c.name, () => expect(fixActions(CheckState.parse(c.state))).toEqual(c.expected));
  }
});
