import type { Cell } from '@jupyterlab/cells';
import { INotebookTracker, NotebookActions, type NotebookPanel } from '@jupyterlab/notebook';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import {
  IDLE_AS_YOU_GO,
  STALE_TEXT,
  answerStillValid,
  asYouGo,
  dropWhenBusy,
  dueCheck,
  el,
  staleMark,
  type AsYouGo,
  type AsYouGoEvent,
  type CertainCrash,
  type CrashMark,
  type MarkEvent
} from '@crane-llm/core';
import { certainCrashOf } from './quiet-check';
import { codeRuns } from './running-code';

/**
 * "Check as you go": the active cell is checked by the built-in checks when it becomes active and
 * when its text has been quiet for a moment, only while the kernel is idle; a certain crash puts a
 * small red mark by its prompt. The rules of when are libs/core's `schedule.ts`; this is the wiring.
 */
export class CheckAsYouGo {
  private state: AsYouGo = IDLE_AS_YOU_GO;
  private timer: number | null = null;
  private watchedCell: Cell | null = null;
  private readonly marks = new Map<Cell, MarkView>();

  constructor(
    private readonly tracker: INotebookTracker,
    private readonly enabled: () => boolean,
    /** What a click on a mark does: show the full verdict, as the toolbar button would. */
    private readonly showVerdict: (panel: NotebookPanel, cell: Cell) => void
  ) {
    tracker.activeCellChanged.connect(() => this.onActiveCell());
    NotebookActions.executionScheduled.connect((_, { notebook, cell }) => {
      this.userRan(this.tracker.find(p => p.content === notebook) ?? null, cell.model.sharedModel.getSource());
    });
    tracker.widgetAdded.connect((_, panel) => this.watchKernel(panel));
  }

  /** The setting was switched: start from the active cell, or take every mark away. */
  refresh(): void {
    if (this.enabled()) {
      this.onActiveCell();
      return;
    }
    this.state = IDLE_AS_YOU_GO;
    this.clearTimer();
    for (const [cell, mark] of this.marks) {
      mark.dispose();
      this.marks.delete(cell);
    }
  }

  private get panel(): NotebookPanel | null {
    return this.tracker.currentWidget;
  }

  private onActiveCell(): void {
    const cell = this.tracker.activeCell;
    this.watchedCell?.model?.sharedModel.changed.disconnect(this.onEdit, this);
    this.watchedCell = cell?.model.type === 'code' ? cell : null;
    this.watchedCell?.model.sharedModel.changed.connect(this.onEdit, this);
    if (this.watchedCell && this.enabled()) this.dispatch({ kind: 'activated', cellId: this.watchedCell.model.id, now: Date.now() });
  }

  private onEdit(_: unknown, change: { sourceChange?: unknown }): void {
    const cell = this.watchedCell;
    if (!change.sourceChange || !cell) return;
    this.marks.get(cell)?.update(m => staleMark(m, { kind: 'edited', cellId: cell.model.id }));
    if (this.enabled()) this.dispatch({ kind: 'edited', cellId: cell.model.id, now: Date.now() });
  }

  private userRan(panel: NotebookPanel | null, code: string): void {
    this.dispatch({ kind: 'user-ran' });
    if (panel) this.staleAll(panel, { kind: 'ran', code });
  }

  private staleAll(panel: NotebookPanel, event: MarkEvent): void {
    for (const cell of panel.content.widgets) this.marks.get(cell)?.update(m => staleMark(m, event));
  }

  /** Executions from elsewhere sharing the kernel (a console) and restarts reach the marks too. */
  private watchKernel(panel: NotebookPanel): void {
    let watched: Kernel.IKernelConnection | null = null;
    const onIopub = (_: unknown, msg: KernelMessage.IIOPubMessage) => {
      if (msg.header.msg_type === 'execute_input') this.userRan(panel, String((msg.content as { code?: unknown }).code ?? ''));
    };
    const follow = () => {
      watched?.iopubMessage.disconnect(onIopub);
      watched = panel.sessionContext.session?.kernel ?? null;
      watched?.iopubMessage.connect(onIopub);
    };
    panel.sessionContext.kernelChanged.connect(follow);
    panel.sessionContext.statusChanged.connect((_, status) => {
      if (status === 'restarting' || status === 'autorestarting') {
        this.dispatch({ kind: 'user-ran' });
        this.staleAll(panel, { kind: 'kernel-restarted' });
      } else if (status === 'idle') {
        this.tick();
      }
    });
    panel.disposed.connect(() => watched?.iopubMessage.disconnect(onIopub));
    void panel.sessionContext.ready.then(follow);
  }

  private dispatch(event: AsYouGoEvent): void {
    this.state = asYouGo(this.state, event);
    this.arm();
  }

  /** A timer for the pending check's due time (a check in flight re-arms it when it ends). */
  private arm(): void {
    this.clearTimer();
    const pending = this.state.pending;
    if (pending) this.timer = window.setTimeout(() => this.tick(), Math.max(0, pending.due - Date.now()));
  }

  private clearTimer(): void {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    const panel = this.panel;
    const kernel = panel?.sessionContext.session?.kernel ?? null;
    const now = Date.now();
    // The status of the moment: a cell the user has just queued makes it busy, and then no check.
    const idle = !!kernel && !codeRuns(kernel) && !!panel?.sessionContext.isReady;
    this.state = dropWhenBusy(this.state, now, idle);
    const cell = this.watchedCell;
    const cellId = dueCheck(this.state, now, idle, cell?.model.id ?? null);
    if (!cellId || !cell || !panel || !kernel || !this.enabled()) return;
    void this.check(panel, kernel, cell);
  }

  private async check(panel: NotebookPanel, kernel: Kernel.IKernelConnection, cell: Cell): Promise<void> {
    const source = cell.model.sharedModel.getSource();
    this.dispatch({ kind: 'started', cellId: cell.model.id, source });
    const crash = source.trim() ? await certainCrashOf(kernel, { id: cell.model.id, source }) : null;
    const valid = answerStillValid(this.state, cell.model.id, cell.isDisposed ? '' : cell.model.sharedModel.getSource());
    this.state = asYouGo(this.state, { kind: 'finished' });
    if (valid && this.enabled()) this.show(panel, cell, crash);
    this.arm();
  }

  private show(panel: NotebookPanel, cell: Cell, crash: CertainCrash | null): void {
    this.marks.get(cell)?.dispose();
    this.marks.delete(cell);
    if (!crash) return;
    const mark: CrashMark = { cellId: cell.model.id, exception: crash.exception, line: crash.line, reason: crash.message, stale: null };
    const view = new MarkView(cell, mark, () => this.showVerdict(panel, cell));
    this.marks.set(cell, view);
    cell.disposed.connect(() => {
      view.dispose();
      this.marks.delete(cell);
    });
  }
}

/** The small red mark by a cell's prompt; grey when stale, as a stale verdict is. */
class MarkView {
  private readonly node: HTMLButtonElement;

  constructor(
    private readonly cell: Cell,
    private mark: CrashMark,
    onClick: () => void
  ) {
    this.node = el('button', 'crane-mark');
    this.node.type = 'button';
    this.node.addEventListener('click', event => {
      event.stopPropagation();
      onClick();
    });
    // Beside the prompt, inside the input area, so JupyterLab's prompt rendering leaves it alone.
    cell.node.querySelector('.jp-Cell-inputArea')?.append(this.node);
    cell.addClass('crane-has-mark');
    this.render();
  }

  update(next: (m: CrashMark) => CrashMark): void {
    const after = next(this.mark);
    if (after === this.mark) return;
    this.mark = after;
    this.render();
  }

  private render(): void {
    const m = this.mark;
    const where = m.line === null ? '' : ` (line ${m.line})`;
    const text = `Certain ${m.exception}${where}: ${m.reason}`;
    this.node.title = m.stale ? `${text}\n${STALE_TEXT[m.stale]}` : `${text}\nClick for the full verdict.`;
    this.node.setAttribute('aria-label', `CRANE-LLM: ${text}`);
    this.node.dataset.exception = m.exception;
    this.node.classList.toggle('crane-mark-stale', m.stale !== null);
  }

  dispose(): void {
    this.node.remove();
    this.cell.removeClass('crane-has-mark');
  }
}
