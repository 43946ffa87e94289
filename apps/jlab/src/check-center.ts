import type { Cell } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { Signal, type ISignal } from '@lumino/signaling';
import { outlinedCells, refused, type CheckState, type OriginItem, type ProblemKind, type StaleReason, type ViewActions } from '@crane-llm/core';
import { CellVerdict } from './cell-verdict';
import { applyOriginMarks } from './origin-marks';
import { drawAfterGrace } from './progress-grace';
import { runCheck, type CheckEffects, type CheckOptions, type ProviderInfo, type StopReason } from './run-check';

/**
 * Which check belongs to which notebook: the latest one (what the sidebar shows), the running one
 * (what Cancel, a kernel restart or closing the notebook stop), and the origin outlines it draws.
 */
export class CheckCenter {
  private readonly latest = new WeakMap<NotebookPanel, CellVerdict>();
  private readonly running = new WeakMap<NotebookPanel, AbortController>();
  private readonly changedSignal = new Signal<this, NotebookPanel>(this);
  /** Notebooks with origin outlines drawn. */
  private readonly outlined = new WeakSet<NotebookPanel>();

  constructor(private readonly actionsFor: (panel: NotebookPanel, cell: Cell | null) => ViewActions) {}

  /** Emitted whenever the latest check of a notebook changes, streamed text included. */
  get changed(): ISignal<this, NotebookPanel> {
    return this.changedSignal;
  }

  latestOf(panel: NotebookPanel): { cell: Cell; state: CheckState } | null {
    const box = this.latest.get(panel);
    if (!box || box.isDisposed || !box.current) return null;
    return { cell: box.cell, state: box.current };
  }

  isRunning(panel: NotebookPanel): boolean {
    return this.running.has(panel);
  }

  async check<Provider extends ProviderInfo, Built>(
    panel: NotebookPanel,
    cell: Cell,
    options: CheckOptions,
    effects: CheckEffects<Provider, Built>
  ): Promise<CheckState> {
    this.stop(panel, { kind: 'cancel', message: 'A new check started.' });
    const box = this.boxFor(panel, cell);
    const controller = new AbortController();
    this.running.set(panel, controller);
    try {
      return await runCheck(
        { id: cell.model.id, source: cell.model.sharedModel.getSource() },
        options,
        effects,
        drawAfterGrace(state => box.render(state)),
        controller.signal
      );
    } finally {
      if (this.running.get(panel) === controller) this.running.delete(panel);
      this.changedSignal.emit(panel);
    }
  }

  /** A check that could not start (no kernel, another language): said under the cell and in the sidebar. */
  refuse(panel: NotebookPanel, cell: Cell, problem: ProblemKind, message: string): void {
    this.boxFor(panel, cell).render(refused(cell.model.id, problem, message));
  }

  private boxFor(panel: NotebookPanel, cell: Cell): CellVerdict {
    const previous = this.latest.get(panel);
    const box = CellVerdict.for(cell);
    box.actions = this.actionsFor(panel, cell);
    if (previous !== box) {
      previous?.changed.disconnect(this.onBoxChanged, this);
      box.changed.connect(this.onBoxChanged, this);
      this.latest.set(panel, box);
    }
    return box;
  }

  /** Stop the running check of a notebook, if any; `cancel` is the user's Cancel. */
  stop(panel: NotebookPanel, reason: StopReason): boolean {
    const controller = this.running.get(panel);
    if (!controller) return false;
    this.running.delete(panel);
    controller.abort(reason);
    return true;
  }

  markStale(panel: NotebookPanel, reason: StaleReason, except?: Cell): void {
    for (const cell of panel.content.widgets) {
      if (cell !== except) CellVerdict.find(cell)?.markStale(reason);
    }
  }

  private onBoxChanged(box: CellVerdict): void {
    const panel = findPanel(box);
    if (!panel) return;
    const state = box.current;
    const marks = state ? outlinedCells(state) : new Map<string, OriginItem[]>();
    // Most states outline nothing: the cells are walked only to draw outlines or to take old ones away.
    if (marks.size || this.outlined.has(panel)) {
      const cells = panel.content.widgets.map(c => ({ id: c.model.id, node: c.node }));
      applyOriginMarks(cells, marks);
      if (marks.size) this.outlined.add(panel);
      else this.outlined.delete(panel);
    }
    this.changedSignal.emit(panel);
  }
}

function findPanel(box: CellVerdict): NotebookPanel | null {
  let w = box.parent;
  while (w && !('sessionContext' in w && 'content' in w)) w = w.parent;
  return (w as NotebookPanel | null) ?? null;
}
