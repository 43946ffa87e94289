import type { Cell } from '@jupyterlab/cells';
import { Signal, type ISignal } from '@lumino/signaling';
import { PanelLayout, Widget } from '@lumino/widgets';
import { CheckRenderer, madeStale, type CheckState, type StaleReason, type ViewActions } from '@crane-llm/core';

/**
 * The box under a cell that shows its latest check. It owns the rendering and the cell's staleness
 * on edit; the check flow feeds it states.
 */
export class CellVerdict extends Widget {
  private readonly view: CheckRenderer;
  private readonly changedSignal = new Signal<this, CheckState>(this);
  actions: ViewActions = {};

  constructor(readonly cell: Cell) {
    super();
    this.addClass('crane-cell-verdict');
    this.view = new CheckRenderer(this.node, () => this.actions);
    this.cell.model.sharedModel.changed.connect(this.onShared, this);
  }

  /** The cell's box, if a check has run on it. */
  static find(cell: Cell): CellVerdict | undefined {
    return (cell.layout as PanelLayout | null)?.widgets.find(w => w instanceof CellVerdict) as CellVerdict | undefined;
  }

  static for(cell: Cell): CellVerdict {
    const existing = CellVerdict.find(cell);
    if (existing) return existing;
    const box = new CellVerdict(cell);
    (cell.layout as PanelLayout).addWidget(box);
    return box;
  }

  get changed(): ISignal<this, CheckState> {
    return this.changedSignal;
  }

  get current(): CheckState | null {
    return this.view.state;
  }

  render(state: CheckState): void {
    if (this.isDisposed) return;
    this.view.render(state);
    this.changedSignal.emit(state);
  }

  markStale(reason: StaleReason): void {
    const state = this.view.state;
    if (state) {
      const next = madeStale(state, reason);
      if (next !== state) this.render(next);
    }
  }

  // Outputs change when the cell runs; only a change to its source is an edit.
  private onShared(_: unknown, change: { sourceChange?: unknown }): void {
    if (change.sourceChange) this.markStale('edited');
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.cell.model?.sharedModel.changed.disconnect(this.onShared, this);
    Signal.clearData(this);
    super.dispose();
  }
}
