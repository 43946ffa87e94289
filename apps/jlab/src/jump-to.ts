import { Notification } from '@jupyterlab/apputils';
import type { NotebookPanel } from '@jupyterlab/notebook';

/** Selects and shows a notebook cell, for an origin entry's link. */
export function jumpTo(panel: NotebookPanel, cellId: string): void {
  const index = panel.content.widgets.findIndex(c => c.model.id === cellId);
  if (index < 0) {
    Notification.info('That cell is no longer in the notebook.', { autoClose: 4000 });
    return;
  }
  panel.content.deselectAll();
  panel.content.activeCellIndex = index;
  panel.content.mode = 'command';
  void panel.content.scrollToItem(index, 'center');
  panel.content.activeCell?.node.focus();
}
