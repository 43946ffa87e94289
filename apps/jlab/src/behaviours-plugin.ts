import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { BEHAVIOUR_LABEL, BehaviourSettings, type BehaviourName } from './behaviours';
import { CheckAsYouGo } from './check-as-you-go';
import { COMMANDS, PLUGIN_ID } from './plugin';
import { installRunGuard } from './run-guard';

export const BEHAVIOUR_COMMANDS: Record<BehaviourName, string> = {
  checkAsYouGo: 'crane-llm:toggle-check-as-you-go',
  checkBeforeRunning: 'crane-llm:toggle-check-before-running'
};

/**
 * The two optional behaviours, "Check as you go" and "Check before running": settings of the main
 * plugin (schema/plugin.json), off by default, with a palette toggle each.
 */
export const behavioursPlugin: JupyterFrontEndPlugin<void> = {
  id: 'crane-llm-jlab:behaviours',
  description: 'CRANE-LLM checks without a click: marks as you go, and a guard before running a cell.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ICommandPalette, ISettingRegistry],
  activate: (app: JupyterFrontEnd, tracker: INotebookTracker, palette: ICommandPalette | null, registry: ISettingRegistry | null) => {
    const behaviours = new BehaviourSettings(registry ? registry.load(PLUGIN_ID) : null);
    const asYouGo = new CheckAsYouGo(
      tracker,
      () => behaviours.value.checkAsYouGo,
      (panel, cell) => {
        const index = panel.content.widgets.indexOf(cell);
        if (index < 0) return;
        panel.content.deselectAll();
        panel.content.activeCellIndex = index;
        void app.commands.execute(COMMANDS.run);
      }
    );
    installRunGuard(() => behaviours.value.checkBeforeRunning);
    behaviours.changed.connect(() => {
      asYouGo.refresh();
      app.commands.notifyCommandChanged();
    });
    for (const [name, id] of Object.entries(BEHAVIOUR_COMMANDS) as [BehaviourName, string][]) {
      app.commands.addCommand(id, {
        label: `CRANE-LLM: ${BEHAVIOUR_LABEL[name]}`,
        isToggleable: true,
        isToggled: () => behaviours.value[name],
        execute: () => behaviours.toggle(name)
      });
      palette?.addItem({ command: id, category: 'CRANE-LLM' });
    }
  }
};
