import { Notification } from '@jupyterlab/apputils';
import { NotebookActions, type INotebookTracker } from '@jupyterlab/notebook';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { mayChangeKernelState } from '@crane-llm/core';
import type { CheckCenter } from './check-center';
import { startRecorder } from './kernel-bridge';
import { followRequests } from './running-code';

/**
 * Staleness and interruptions. A verdict goes stale when another cell runs (from this notebook,
 * or from anything else sharing the kernel: its execute_input shows on iopub, while the checks'
 * own silent requests never do), and a running check stops when the kernel restarts or the
 * notebook closes.
 */
export function watchNotebooks(tracker: INotebookTracker, center: CheckCenter): void {
  NotebookActions.executionScheduled.connect((_, { notebook, cell }) => {
    const panel = tracker.find(p => p.content === notebook);
    if (panel && mayChangeKernelState(cell.model.sharedModel.getSource())) center.markStale(panel, 'other-cell-ran');
  });
  tracker.widgetAdded.connect((_, panel) => {
    let watched: Kernel.IKernelConnection | null = null;
    const onIopub = (_: unknown, msg: KernelMessage.IIOPubMessage) => {
      if (msg.header.msg_type === 'execute_input' && mayChangeKernelState(String((msg.content as { code?: unknown }).code ?? ''))) {
        center.markStale(panel, 'other-cell-ran');
      }
    };
    const start = () => {
      watched?.iopubMessage.disconnect(onIopub);
      watched = panel.sessionContext.session?.kernel ?? null;
      watched?.iopubMessage.connect(onIopub);
      if (watched) followRequests(watched);
      if (watched) void startRecorder(watched);
    };
    panel.sessionContext.kernelChanged.connect(start);
    panel.sessionContext.statusChanged.connect((_, status) => {
      if (status === 'restarting' || status === 'autorestarting') {
        center.stop(panel, {
          kind: 'kernel-restarted',
          message: 'The kernel restarted while this cell was being checked, so the check stopped. Nothing in the notebook was changed. Run your cells again, then check.'
        });
        center.markStale(panel, 'kernel-restarted');
      } else if (status === 'dead') {
        center.stop(panel, { kind: 'kernel', message: 'The kernel died during the check. Nothing in the notebook was changed.' });
      }
    });
    panel.disposed.connect(() => {
      watched?.iopubMessage.disconnect(onIopub);
      if (center.stop(panel, { kind: 'closed', message: 'The notebook was closed during the check.' })) {
        Notification.info(`CRANE-LLM stopped checking ${panel.context.localPath}: the notebook was closed. Nothing was changed.`, {
          autoClose: 6000
        });
      }
    });
    void panel.sessionContext.ready.then(start);
  });
}
