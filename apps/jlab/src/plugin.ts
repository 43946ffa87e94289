import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, Notification } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
import type { Cell } from '@jupyterlab/cells';
import { CellVerdict } from './cell-verdict';
import { requestFacts, startRecorder } from './kernel-bridge';
import { runCheck } from './run-check';

export const PLUGIN_ID = 'crane-llm-jlab:plugin';
export const RUN_COMMAND = 'crane-llm:run';

const BUSY_MESSAGE =
  'CRANE-LLM waits for the notebook to be idle: reading the kernel state means running code in the kernel, and with cells still running the answer would describe the state afterwards.';

/** Why a notebook cannot be checked right now, or null when it can. */
function refusal(panel: NotebookPanel | null): string | null {
  if (!panel) return 'Open a notebook and select a cell to check.';
  const kernel = panel.sessionContext.session?.kernel;
  if (!kernel) return 'This notebook has no kernel. Start one, run your cells, then check again.';
  if (kernel.status !== 'idle') return BUSY_MESSAGE;
  const language = panel.sessionContext.kernelPreference.language ?? '';
  const spec = panel.sessionContext.kernelDisplayName;
  if (language && language.toLowerCase() !== 'python') return `CRANE-LLM checks Python cells; this notebook runs ${spec}.`;
  return null;
}

async function checkCell(panel: NotebookPanel, cell: Cell): Promise<void> {
  const box = CellVerdict.for(cell);
  const kernel = panel.sessionContext.session!.kernel!;
  await runCheck(
    { id: cell.model.id, source: cell.model.sharedModel.getSource() },
    // The LLM path is not wired yet: only the built-in checks run.
    { useLlm: false, includeRuntimeInfo: true },
    { facts: req => requestFacts(kernel, req) },
    state => box.render(state)
  );
}

/** Every verdict in a notebook goes stale once another cell runs: the kernel state it read may have changed. */
function watchExecutions(tracker: INotebookTracker): void {
  NotebookActions.executionScheduled.connect((_, { notebook }) => {
    for (const cell of notebook.widgets) CellVerdict.find(cell)?.markStale('other-cell-ran');
  });
  tracker.widgetAdded.connect((_, panel) => {
    const start = () => {
      const kernel = panel.sessionContext.session?.kernel;
      if (kernel) void startRecorder(kernel);
    };
    panel.sessionContext.kernelChanged.connect(start);
    panel.sessionContext.statusChanged.connect((_, status) => {
      if (status === 'restarting' || status === 'autorestarting') {
        for (const cell of panel.content.widgets) CellVerdict.find(cell)?.markStale('kernel-restarted');
      }
    });
    void panel.sessionContext.ready.then(start);
  });
}

export const cranePlugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'Predict whether a notebook cell will crash, before it runs.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ICommandPalette],
  activate: (app: JupyterFrontEnd, tracker: INotebookTracker, palette: ICommandPalette | null) => {
    app.commands.addCommand(RUN_COMMAND, {
      label: args => (args.toolbar ? 'CRANE-LLM' : 'Run CRANE-LLM'),
      caption: 'Predict whether the selected cell will crash, without running it',
      execute: async () => {
        const panel = tracker.currentWidget;
        const why = refusal(panel);
        if (why) {
          Notification.warning(why, { autoClose: 6000 });
          return;
        }
        const cell = panel!.content.activeCell;
        if (!cell || cell.model.type !== 'code') {
          Notification.info('Select a code cell to check.', { autoClose: 4000 });
          return;
        }
        await checkCell(panel!, cell);
      }
    });
    palette?.addItem({ command: RUN_COMMAND, category: 'CRANE-LLM' });
    watchExecutions(tracker);
  }
};
