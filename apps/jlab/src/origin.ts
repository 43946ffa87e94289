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
    editedSinceRun: entry.edited
  };
}

export function originItems(verdict: Verdict, facts: CheckResult, cells: NotebookCell[], targetCellId: string | null): OriginItem[] {
  if (!facts.log || verdict.variables.length === 0) return [];
  return origin({ log: facts.log, variables: verdict.variables, defined: facts.usedNames, cells, targetCellId }).map(toOriginItem);
}

export function originEffect(panel: NotebookPanel): CheckEffects['origin'] {
  return (verdict, facts, cellId) => {
    const cells = panel.content.widgets.map((cell, index) => ({
      cellId: cell.model.id,
      index,
      source: cell.model.sharedModel.getSource()
    }));
    return originItems(verdict, facts, cells, cellId);
  };
}
