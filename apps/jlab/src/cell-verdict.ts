import type { Cell } from '@jupyterlab/cells';
import { PanelLayout, Widget } from '@lumino/widgets';
import { madeStale, type CheckState, type StaleReason } from '@crane-llm/core';
import { renderCheck } from './verdict-view';

/**
 * The box under a cell that shows its latest check. It owns nothing but the rendering: the
 * state comes from the check flow, and staleness from the notebook's signals.
 */
export class CellVerdict extends Widget {
  private state: CheckState | null = null;

  constructor(private readonly cell: Cell) {
    super();
    this.addClass('crane-cell-verdict');
    this.cell.model.sharedModel.changed.connect(this.onShared, this);
  }

  /** The cell's box, if a check has run on it. */
  static find(cell: Cell): CellVerdict | undefined {
    return (cell.layout as PanelLayout).widgets.find(w => w instanceof CellVerdict) as CellVerdict | undefined;
  }

  static for(cell: Cell): CellVerdict {
    const existing = CellVerdict.find(cell);
    if (existing) return existing;
    const box = new CellVerdict(cell);
    (cell.layout as PanelLayout).addWidget(box);
    return box;
  }

  get current(): CheckState | null {
    return this.state;
  }

  render(state: CheckState): void {
    this.state = state;
    this.node.replaceChildren(renderCheck(state));
  }

  markStale(reason: StaleReason): void {
    if (this.state) {
      const next = madeStale(this.state, reason);
      if (next !== this.state) this.render(next);
    }
  }

  // Outputs change when the cell runs; only a change to its source is an edit.
  private onShared(_: unknown, change: { sourceChange?: unknown }): void {
    if (change.sourceChange) this.markStale('edited');
  }

  dispose(): void {
    if (!this.isDisposed) this.cell.model?.sharedModel.changed.disconnect(this.onShared, this);
    super.dispose();
  }
}
