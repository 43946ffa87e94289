import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, IToolbarWidgetRegistry, Notification } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { mayChangeKernelState, type ProblemKind } from '@crane-llm/core';
import type { ServerSettings } from '@crane-llm/prompt';
import { revealSidePanel, sidePanelRank } from '@crane-llm/notebook7';
import { CheckCenter } from './check-center';
import { requestFacts, startRecorder } from './kernel-bridge';
import { predict, preparePrompt, providerInfo } from './model-effects';
import { fetchProviderSettings, serverFetch, serverSettings } from './provider';
import type { CheckEffects } from './run-check';
import { CraneSidebar } from './sidebar';
import { SWITCH_LABEL, SwitchStore, type SwitchBackend, type SwitchName, type Switches } from './switches';
import { CraneToolbarItem, craneIcon } from './toolbar-button';
import type { ViewActions } from './verdict-view';
import { originEffect } from './origin';

export const PLUGIN_ID = 'crane-llm-jlab:plugin';
export const COMMANDS = {
  run: 'crane-llm:run',
  cancel: 'crane-llm:cancel',
  toggleLlm: 'crane-llm:toggle-llm',
  toggleRuntimeInfo: 'crane-llm:toggle-runtime-info',
  toggleValues: 'crane-llm:toggle-values',
  showSidebar: 'crane-llm:show-sidebar'
} as const;
/** Kept for the foundation's callers. */
export const RUN_COMMAND = COMMANDS.run;

export const BUSY_MESSAGE =
  'CRANE-LLM waits for the notebook to be idle: reading the kernel state means running code in the kernel, and with cells still running the answer would describe the state afterwards. Try again when the running cells have finished.';

const STARTING_MESSAGE = 'The kernel is still starting. Run your cells once it is idle, then check again.';

/** Why a notebook cannot be checked right now, or null when it can. */
async function refusal(panel: NotebookPanel | null): Promise<{ problem: ProblemKind; message: string } | null> {
  if (!panel) return { problem: 'no-kernel', message: 'Open a notebook and select a cell to check.' };
  const context = panel.sessionContext;
  if (context.hasNoKernel) {
    return { problem: 'no-kernel', message: 'This notebook has no kernel. Select a Python kernel, run your cells, then check again.' };
  }
  const kernel = context.session?.kernel;
  if (!kernel || !context.isReady) return { problem: 'busy', message: STARTING_MESSAGE };
  // Read the status at the moment of the click, before anything is awaited.
  if (kernel.status !== 'idle') return { problem: 'busy', message: BUSY_MESSAGE };
  let language = '';
  try {
    language = (await kernel.spec)?.language ?? '';
  } catch {
    language = panel.sessionContext.kernelPreference.language ?? '';
  }
  if (language && language.toLowerCase() !== 'python') {
    return {
      problem: 'not-python',
      message: `CRANE-LLM checks Python cells, and this notebook's kernel is ${panel.sessionContext.kernelDisplayName} (${language}). Switch to a Python kernel to check its cells.`
    };
  }
  return null;
}

function settingsBackend(registry: ISettingRegistry | null): SwitchBackend | null {
  if (!registry) return null;
  const loaded = registry.load(PLUGIN_ID);
  const read = (s: ISettingRegistry.ISettings): Partial<Switches> => s.composite as Partial<Switches>;
  return {
    load: async () => read(await loaded),
    save: async (name, value) => {
      await (await loaded).set(name, value);
    },
    watch: onChange => {
      void loaded.then(s => s.changed.connect(() => onChange(read(s))));
    }
  };
}

export const cranePlugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'Predict whether a notebook cell will crash, before it runs.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ICommandPalette, ISettingRegistry, IToolbarWidgetRegistry],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    palette: ICommandPalette | null,
    registry: ISettingRegistry | null,
    toolbars: IToolbarWidgetRegistry | null
  ) => {
    const switches = new SwitchStore(settingsBackend(registry));
    void switches.restore().catch(() => undefined);
    const server = serverSettings();
    const fetch = serverFetch(server);
    const configuredModel = async (): Promise<string> => {
      const model = registry ? (await registry.load(PLUGIN_ID)).composite.model : '';
      return typeof model === 'string' ? model.trim() : '';
    };
    const loadProvider = async () => fetchProviderSettings(server, await configuredModel());

    const actionsFor = (panel: NotebookPanel): ViewActions => ({
      cancel: () => center.stop(panel, { kind: 'cancel', message: 'Cancelled.' }),
      showDetails: () => void app.commands.execute(COMMANDS.showSidebar),
      jumpTo: cellId => jumpTo(panel, cellId)
    });
    const center = new CheckCenter(actionsFor);
    const sidebar = new CraneSidebar(center, switches, actionsFor, () => loadProvider());
    sidebar.title.icon = craneIcon;
    app.shell.add(sidebar, 'right', { rank: sidePanelRank(app) });
    tracker.currentChanged.connect((_, panel) => sidebar.follow(panel));
    sidebar.follow(tracker.currentWidget);

    const effectsFor = (panel: NotebookPanel): CheckEffects => {
      const kernel = panel.sessionContext.session!.kernel!;
      let settings: ServerSettings | null = null;
      return {
        facts: req => requestFacts(kernel, req),
        provider: async () => {
          settings = await loadProvider();
          return providerInfo(settings);
        },
        prompt: preparePrompt,
        predict: call => predict(call, settings!, server.baseUrl, fetch),
        origin: originEffect(panel)
      };
    };

    app.commands.addCommand(COMMANDS.run, {
      label: args => (args.toolbar ? 'CRANE-LLM' : 'Run CRANE-LLM'),
      caption: 'Predict whether the selected cell will crash, without running it',
      icon: args => (args.toolbar ? craneIcon : undefined),
      execute: async () => {
        const panel = tracker.currentWidget;
        const cell = panel?.content.activeCell;
        const why = await refusal(panel);
        if (why) {
          Notification.warning(why.message, { autoClose: 8000 });
          // Busy is a moment's wait, told by the toast; the others stay under the cell until fixed.
          if (panel && cell?.model.type === 'code' && why.problem !== 'busy') center.refuse(panel, cell, why.problem, why.message);
          return;
        }
        if (!cell || cell.model.type !== 'code') {
          Notification.info('Select a code cell to check.', { autoClose: 4000 });
          return;
        }
        await center.check(panel!, cell, { ...switches.value }, effectsFor(panel!));
        void sidebar.refreshProvider();
      }
    });
    app.commands.addCommand(COMMANDS.cancel, {
      label: 'Cancel the running CRANE-LLM check',
      isEnabled: () => !!tracker.currentWidget && center.isRunning(tracker.currentWidget),
      execute: () => {
        const panel = tracker.currentWidget;
        if (panel) center.stop(panel, { kind: 'cancel', message: 'Cancelled.' });
      }
    });
    const toggle = (id: string, name: SwitchName) =>
      app.commands.addCommand(id, {
        label: `CRANE-LLM: ${SWITCH_LABEL[name]}`,
        isToggleable: true,
        isToggled: () => switches.value[name],
        isEnabled: () => !switches.isCapped(name),
        execute: () => switches.toggle(name)
      });
    toggle(COMMANDS.toggleLlm, 'useLlm');
    toggle(COMMANDS.toggleRuntimeInfo, 'includeRuntimeInfo');
    toggle(COMMANDS.toggleValues, 'includeValues');
    switches.changed.connect(() => app.commands.notifyCommandChanged());
    app.commands.addCommand(COMMANDS.showSidebar, {
      label: 'Show the CRANE-LLM sidebar',
      execute: () => revealSidePanel(app, sidebar.id)
    });
    for (const command of Object.values(COMMANDS)) palette?.addItem({ command, category: 'CRANE-LLM' });

    toolbars?.addFactory('Notebook', 'crane-llm', () => new CraneToolbarItem(app.commands, COMMANDS.run, switches));
    watchNotebooks(tracker, center);
  }
};

function jumpTo(panel: NotebookPanel, cellId: string): void {
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

/**
 * Staleness and interruptions. A verdict goes stale when another cell runs (from this notebook,
 * or from anything else sharing the kernel: its execute_input shows on iopub, while the checks'
 * own silent requests never do), and a running check stops when the kernel restarts or the
 * notebook closes.
 */
function watchNotebooks(tracker: INotebookTracker, center: CheckCenter): void {
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
