import { Clipboard, Notification } from '@jupyterlab/apputils';
import type { Cell } from '@jupyterlab/cells';
import { NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
import { applyCorrection, type Correction, type ViewActions } from '@crane-llm/core';

/**
 * What the actions under a verdict do in a notebook. Edits go through the cell's shared model, so
 * the notebook's own undo brings the user's version back; only "Run cell N first" runs anything,
 * and then only that cell.
 */
export function fixEffects(panel: NotebookPanel, cell: Cell | null): ViewActions {
  return {
    runCell: cellId => void runAlone(panel, cellId),
    replace: correction => cell && replace(cell, correction),
    applyFix: code => cell?.model.sharedModel.setSource(code),
    copy: text => Clipboard.copyToSystem(text),
    cellSource: () => (cell && !cell.isDisposed ? cell.model.sharedModel.getSource() : null)
  };
}

async function runAlone(panel: NotebookPanel, cellId: string): Promise<void> {
  const notebook = panel.content;
  const index = notebook.widgets.findIndex(c => c.model.id === cellId);
  if (index < 0) {
    Notification.info('That cell is no longer in the notebook.', { autoClose: 4000 });
    return;
  }
  notebook.deselectAll();
  notebook.activeCellIndex = index;
  notebook.mode = 'command';
  await NotebookActions.run(notebook, panel.sessionContext);
}

function replace(cell: Cell, correction: Correction): void {
  const next = applyCorrection(cell.model.sharedModel.getSource(), correction);
  if (next === null) {
    Notification.info(`Line ${correction.line} no longer reads ${correction.old}: nothing was replaced.`, { autoClose: 5000 });
    return;
  }
  cell.model.sharedModel.setSource(next);
}
