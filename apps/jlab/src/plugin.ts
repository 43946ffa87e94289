import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette, IToolbarWidgetRegistry, Notification } from '@jupyterlab/apputils';
import type { Cell } from '@jupyterlab/cells';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import type { Switches, ViewActions } from '@crane-llm/core';
import type { OriginEntry } from '@crane-llm/lineage';
import { revealSidePanel, sidePanelRank } from '@crane-llm/notebook7';
import { policyLevel } from '@crane-llm/prompt';
import { CheckCenter } from './check-center';
import { CHECK_ARGS_SCHEMA, readCheckArgs, runCheckCommand } from './check-command';
import { jupyterCheckEffects } from './check-effects';
import { fixEffects } from './fix-effects';
import { jumpTo } from './jump-to';
import { untilNoCodeRuns } from './running-code';
import { fetchProviderSettings, serverFetch, serverSettings } from './provider';
import { refusal } from './refusal';
import { configuredArguments, settingsBackend } from './settings-backend';
import { CraneSidebar } from './sidebar';
import { SentLog } from './sent-log';
import { watchNotebooks } from './staleness';
import { SWITCH_LABEL, SwitchStore, type SwitchName } from './switches';
import { CraneToolbarItem, craneIcon } from './toolbar-button';

export const PLUGIN_ID = 'crane-llm-jlab:plugin';
export const COMMANDS = {
  run: 'crane-llm:run',
  cancel: 'crane-llm:cancel',
  toggleLlm: 'crane-llm:toggle-llm',
  toggleRuntimeInfo: 'crane-llm:toggle-runtime-info',
  toggleValues: 'crane-llm:toggle-values',
  toggleAsk: 'crane-llm:toggle-ask-before-sending',
  showSidebar: 'crane-llm:show-sidebar',
  check: 'crane-llm:check'
} as const;
/** Kept for the foundation's callers. */
export const RUN_COMMAND = COMMANDS.run;

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
    const switches = new SwitchStore(settingsBackend(registry, PLUGIN_ID));
    void switches.restore().catch(() => undefined);
    const server = serverSettings();
    const fetch = serverFetch(server);
    // Every read of the server's settings also brings the administrator's ceiling to the switches,
    // and CRANE_LLM_INCLUDE_VALUES / config.json's include_values (off there means off here too).
    let serverIncludesValues = true;
    const loadProvider = async () => {
      const settings = await fetchProviderSettings(server, await configuredArguments(registry, PLUGIN_ID));
      switches.setPolicy(policyLevel(settings.policy));
      serverIncludesValues = settings.includeValues !== false;
      return settings;
    };
    // A check waits for the first read, so a click right after start-up cannot slip past the ceiling.
    const policyKnown = loadProvider().then(
      () => undefined,
      () => undefined
    );
    /** Every check, from the toolbar or the command, runs under the ceiling and the server's include_values. */
    // "What was sent, this session": in this page's memory only.
    const sentLog = new SentLog();
    // "Ask before sending" is the user's own setting, read per check: a command's arguments cannot skip it.
    const trust = { ask: () => switches.value.askBeforeSending, log: sentLog };
    const checkUnderCeiling = async (panel: NotebookPanel, cell: Cell, options: Switches, keepOrigin?: (entries: OriginEntry[]) => void) => {
      await policyKnown;
      const capped = switches.cap(options);
      capped.includeValues = capped.includeValues && serverIncludesValues;
      return center.check(panel, cell, capped, jupyterCheckEffects(panel, loadProvider, server.baseUrl, fetch, trust, keepOrigin));
    };

    const actionsFor = (panel: NotebookPanel, cell: Cell | null): ViewActions => ({
      ...fixEffects(panel, cell),
      cancel: () => center.stop(panel, { kind: 'cancel', message: 'Cancelled.' }),
      showDetails: () => void app.commands.execute(COMMANDS.showSidebar),
      jumpTo: cellId => jumpTo(panel, cellId)
    });
    const center = new CheckCenter(actionsFor);
    const sidebar = new CraneSidebar(center, switches, actionsFor, () => loadProvider(), sentLog);
    sidebar.title.icon = craneIcon;
    app.shell.add(sidebar, 'right', { rank: sidePanelRank(app) });
    tracker.currentChanged.connect((_, panel) => sidebar.follow(panel));
    sidebar.follow(tracker.currentWidget);

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
        await checkUnderCeiling(panel!, cell, { ...switches.value });
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
    toggle(COMMANDS.toggleAsk, 'askBeforeSending');
    switches.changed.connect(() => app.commands.notifyCommandChanged());
    app.commands.addCommand(COMMANDS.showSidebar, {
      label: 'Show the CRANE-LLM sidebar',
      execute: () => revealSidePanel(app, sidebar.id)
    });
    // For other extensions and in-browser agents: returns the answer as JSON (not in the palette).
    app.commands.addCommand(COMMANDS.check, {
      label: 'CRANE-LLM: check a cell and return the verdict',
      describedBy: { args: CHECK_ARGS_SCHEMA },
      execute: args =>
        runCheckCommand(readCheckArgs(args), {
          tracker,
          switches: () => switches.value,
          refusal,
          check: checkUnderCeiling,
          settled: panel => untilNoCodeRuns(panel.sessionContext.session?.kernel)
        })
    });
    for (const command of Object.values(COMMANDS)) {
      if (command !== COMMANDS.check) palette?.addItem({ command, category: 'CRANE-LLM' });
    }

    toolbars?.addFactory('Notebook', 'crane-llm', () => new CraneToolbarItem(app.commands, COMMANDS.run, switches));
    watchNotebooks(tracker, center);
  }
};

