import type { Cell } from '@jupyterlab/cells';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { answerOf, problemAnswer, type AnswerTarget, type CheckAnswer, type CheckState, type Switches } from '@crane-llm/core';
import type { OriginEntry } from '@crane-llm/lineage';

/**
 * `crane-llm:check`: the check as a command that returns its answer, for other extensions and for
 * agents running in the browser. The same flow as the button (the verdict also appears under the
 * cell), answered as JSON in the shape of wire/check-answer.ts, like the MCP tool and the CLI.
 */
export const CHECK_ARGS_SCHEMA = {
  type: 'object',
  properties: {
    notebookPath: {
      type: 'string',
      description: 'Path of an open notebook, relative to the server root; the current notebook when left out.'
    },
    cellId: { type: 'string', description: 'Id of the code cell to check.' },
    cellIndex: { type: 'integer', minimum: 0, description: '0-based position of the cell among all cells.' },
    useLlm: {
      type: 'boolean',
      default: false,
      description: 'Also ask the configured model when the built-in checks find nothing certain.'
    }
  },
  additionalProperties: false
} as const;

export interface CheckArgs {
  notebookPath?: string;
  cellId?: string;
  cellIndex?: number;
  useLlm?: boolean;
}

export interface CheckCommandDeps {
  tracker: INotebookTracker;
  switches: () => Switches;
  refusal: (panel: NotebookPanel) => Promise<{ problem: string; message: string } | null>;
  /** Runs the button's check on that cell; `keepOrigin` receives the whole origin entries. */
  check: (panel: NotebookPanel, cell: Cell, switches: Switches, keepOrigin: (entries: OriginEntry[]) => void) => Promise<CheckState>;
  /** Resolves once the notebook's kernel is idle again after the check's own request (bounded). */
  settled: (panel: NotebookPanel) => Promise<void>;
}

export function readCheckArgs(args: Readonly<Record<string, unknown>>): CheckArgs {
  const out: CheckArgs = {};
  if (typeof args.notebookPath === 'string') out.notebookPath = args.notebookPath;
  if (typeof args.cellId === 'string') out.cellId = args.cellId;
  if (typeof args.cellIndex === 'number') out.cellIndex = args.cellIndex;
  if (typeof args.useLlm === 'boolean') out.useLlm = args.useLlm;
  return out;
}

export async function runCheckCommand(args: CheckArgs, deps: CheckCommandDeps): Promise<CheckAnswer> {
  let target: AnswerTarget = { notebook: args.notebookPath ?? null, cellId: args.cellId ?? null, cellIndex: args.cellIndex ?? null };
  const panel = findPanel(deps.tracker, args.notebookPath);
  if (!panel) {
    const what = args.notebookPath ? `${args.notebookPath} is not open` : 'No notebook is open';
    return problemAnswer(target, 'no-notebook', `${what}: open it in JupyterLab, run its earlier cells, then check again.`);
  }
  const cells = panel.content.widgets;
  const index = findCell(panel, args);
  target = { notebook: panel.context.path, cellId: index === null ? target.cellId : cells[index].model.id, cellIndex: index };
  if (index === null) {
    const why = args.cellId ? `no cell with id ${args.cellId}` : `no cell at index ${args.cellIndex} (it has ${cells.length})`;
    return problemAnswer(target, 'no-cell', `The notebook has ${why}.`);
  }
  const cell = cells[index];
  if (cell.model.type !== 'code') {
    return problemAnswer(target, 'not-code', `Cell ${index} is a ${cell.model.type} cell; only code cells can be checked.`);
  }
  const refused = await deps.refusal(panel);
  if (refused) return problemAnswer(target, refused.problem, refused.message);
  let origin: OriginEntry[] = [];
  const state = await deps.check(panel, cell, { ...deps.switches(), useLlm: args.useLlm ?? false }, entries => {
    origin = entries;
  });
  // (an agent checks the next cell as soon as this answer arrives: the kernel must be idle by then)
  await deps.settled(panel);
  return answerOf(state, target, origin);
}

function findPanel(tracker: INotebookTracker, path: string | undefined): NotebookPanel | null {
  if (path === undefined) return tracker.currentWidget;
  const wanted = path.replace(/^\/+/, '');
  return tracker.find(panel => panel.context.path === wanted) ?? null;
}

function findCell(panel: NotebookPanel, args: CheckArgs): number | null {
  const cells = panel.content.widgets;
  if (args.cellId !== undefined) {
    const at = cells.findIndex(cell => cell.model.id === args.cellId);
    return at < 0 ? null : at;
  }
  if (args.cellIndex !== undefined) return args.cellIndex >= 0 && args.cellIndex < cells.length ? args.cellIndex : null;
  const active = panel.content.activeCellIndex;
  return active >= 0 && active < cells.length ? active : null;
}
