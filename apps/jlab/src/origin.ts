import type { NotebookPanel } from '@jupyterlab/notebook';
import type { CheckResult, OriginItem, Verdict } from '@crane-llm/core';
import { origin, type NotebookCell, type OriginEntry } from '@crane-llm/lineage';
import type { CheckEffects } from './run-check';

/**
 * The origin of the crash for a notebook: libs/lineage over the kernel's execution log and the
 * notebook's cells as they are now (which is how "edited since it ran" and "not run yet" are known).
 */

export function toOriginItem(entry: OriginEntry): OriginItem {
  return {
    cellId: entry.cellId,
    variable: entry.variable,
    note: entry.note,
    sentence: entry.sentence,
    line: entry.line,
    codeOnly: !entry.recorded,
    editedSinceRun: entry.edited,
    kind: entry.kind,
    index: entry.index
  };
}

export function originEntries(verdict: Verdict, facts: CheckResult, cells: NotebookCell[], targetCellId: string | null): OriginEntry[] {
  if (!facts.log || verdict.variables.length === 0) return [];
  return origin({ log: facts.log, variables: verdict.variables, defined: facts.usedNames, cells, targetCellId });
}

export function originItems(verdict: Verdict, facts: CheckResult, cells: NotebookCell[], targetCellId: string | null): OriginItem[] {
  return originEntries(verdict, facts, cells, targetCellId).map(toOriginItem);
}

function notebookCells(panel: NotebookPanel): NotebookCell[] {
  return panel.content.widgets.map((cell, index) => ({ cellId: cell.model.id, index, source: cell.model.sharedModel.getSource() }));
}

/**
 * The origin effect of a check in this notebook. `keep` receives the whole entries, for hosts that
 * answer with more than the view draws (the crane-llm:check command).
 */
export function originEffect(panel: NotebookPanel, keep?: (entries: OriginEntry[]) => void): CheckEffects['origin'] {
  return (verdict, facts, cellId) => {
    const entries = originEntries(verdict, facts, notebookCells(panel), cellId);
    keep?.(entries);
    return entries.map(toOriginItem);
  };
}
