import { Dialog, showDialog, type ISessionContext } from '@jupyterlab/apputils';
import { NotebookActions, type Notebook } from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';
import { el, guardsRun, type CertainCrash, type RunRequest } from '@crane-llm/core';
import { certainCrashOf } from './quiet-check';
import { codeRuns } from './running-code';

/**
 * "Check before running": the run of one selected cell (Shift+Enter, Ctrl+Enter, Alt+Enter, the
 * toolbar's run button) first runs the built-in checks; a certain crash asks "Run anyway" or
 * "Cancel", anything else runs at once. The three run actions every one of those goes through are
 * wrapped in place, so the keyboard, the toolbar and the menus are all covered, and Run All
 * (`runAll`, not wrapped) never is.
 */
const GUARDED: Record<'run' | 'runAndAdvance' | 'runAndInsert', RunRequest['command']> = {
  run: 'run',
  runAndAdvance: 'run-and-advance',
  runAndInsert: 'run-and-insert'
};

type RunAction = (notebook: Notebook, sessionContext?: ISessionContext, ...rest: unknown[]) => Promise<boolean>;

export function installRunGuard(enabled: () => boolean): void {
  const actions = NotebookActions as unknown as Record<string, RunAction>;
  for (const [name, command] of Object.entries(GUARDED)) {
    const original = actions[name];
    if (typeof original !== 'function') continue;
    actions[name] = async function guarded(this: unknown, notebook, sessionContext, ...rest) {
      if (await mayRun(notebook, sessionContext, enabled(), command)) return original.call(this, notebook, sessionContext, ...rest);
      return false;
    };
  }
}

async function mayRun(notebook: Notebook, sessionContext: ISessionContext | undefined, enabled: boolean, command: RunRequest['command']): Promise<boolean> {
  const kernel = sessionContext?.session?.kernel;
  const cell = notebook.activeCell;
  const cells = notebook.widgets.filter(c => notebook.isSelectedOrActive(c)).length;
  if (!kernel || !cell || cell.model.type !== 'code') return true;
  if (!guardsRun(enabled, { cells, command }, !codeRuns(kernel))) return true;
  const index = notebook.activeCellIndex;
  const crash = await certainCrashOf(kernel, { id: cell.model.id, source: cell.model.sharedModel.getSource() });
  if (!crash) return true;
  const runAnyway = await ask(crash);
  // The run acts on the active cell: make it the checked one again if the user moved meanwhile.
  if (runAnyway && notebook.activeCellIndex !== index && notebook.widgets[index] === cell) {
    notebook.deselectAll();
    notebook.activeCellIndex = index;
  }
  return runAnyway;
}

async function ask(crash: CertainCrash): Promise<boolean> {
  const body = el('div', 'crane-guard');
  body.append(
    el('p', 'crane-guard-what', `${crash.exception}${crash.line === null ? '' : ` at line ${crash.line}`}`),
    el('p', 'crane-guard-why', crash.message),
    el('p', 'crane-guard-how', 'Found for certain by the built-in checks on the live kernel state (no model was asked). Run it anyway?')
  );
  const result = await showDialog({
    title: 'CRANE-LLM: this cell will crash',
    body: new Widget({ node: body }),
    buttons: [Dialog.cancelButton({ label: 'Cancel' }), Dialog.warnButton({ label: 'Run anyway' })],
    defaultButton: 0
  });
  return result.button.accept;
}
