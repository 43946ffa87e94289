import { CommandToolbarButton, LabIcon } from '@jupyterlab/ui-components';
import type { CommandRegistry } from '@lumino/commands';
import { Panel } from '@lumino/widgets';
import { el } from '@crane-llm/core';
import { switchControls, type SwitchStore } from './switches';

export const craneIcon = new LabIcon({
  name: 'crane-llm:icon',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">' +
    '<path class="jp-icon3" fill="#616161" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16z"/>' +
    '<path class="jp-icon3" fill="#616161" d="M11 6h2v7h-2zM11 15h2v2h-2z"/></svg>'
});

const HIDE_DELAY_MS = 250;
/** A pointer passing over the toolbar should not open the popup: only one that rests on the button. */
export const OPEN_DELAY_MS = 400;
/** Each popup's controls need ids of their own. */
let popupCount = 0;

/**
 * The toolbar's CRANE-LLM button. A click runs the check (and closes the popup, which would cover
 * the verdict); resting the pointer on it, or focusing it from the keyboard, opens a small popup
 * with the switches. The popup lives on document.body so the toolbar's own overflow
 * handling never clips it.
 */
export class CraneToolbarItem extends Panel {
  private readonly popup: HTMLElement;
  private readonly disposeControls: () => void;
  private hideTimer: number | null = null;
  private openTimer: number | null = null;
  /** After a click the popup stays closed until the pointer leaves the button. */
  private clicked = false;

  constructor(commands: CommandRegistry, commandId: string, switches: SwitchStore) {
    super();
    this.addClass('crane-toolbar-item');
    this.addWidget(new CommandToolbarButton({ commands, id: commandId, args: { toolbar: true }, icon: craneIcon, label: 'CRANE-LLM' }));
    this.popup = el('div', 'crane-switch-popup');
    this.popup.setAttribute('role', 'dialog');
    this.popup.setAttribute('aria-label', 'CRANE-LLM switches');
    const controls = switchControls(switches, `crane-popup-${popupCount++}`);
    this.disposeControls = controls.dispose;
    this.popup.append(el('div', 'crane-switch-popup-title', 'CRANE-LLM'), controls.node);
    this.node.addEventListener('mouseenter', this.openSoon);
    this.popup.addEventListener('mouseenter', this.open);
    this.node.addEventListener('click', this.onClick, true);
    this.node.addEventListener('mouseleave', () => {
      this.clicked = false;
    });
    for (const node of [this.node, this.popup]) {
      node.addEventListener('mouseleave', () => this.closeSoon(false));
      node.addEventListener('focusout', () => this.closeSoon(true));
    }
    // Keyboard focus opens it at once; the focus a click gives the button does not.
    this.node.addEventListener('focusin', event => {
      if ((event.target as HTMLElement).matches(':focus-visible')) this.open();
    });
    this.popup.addEventListener('focusin', this.open);
    this.popup.addEventListener('keydown', event => {
      if (event.key === 'Escape') this.hidePopup();
    });
  }

  get isOpen(): boolean {
    return this.popup.isConnected;
  }

  private readonly openSoon = (): void => {
    if (this.hideTimer !== null) window.clearTimeout(this.hideTimer);
    this.hideTimer = null;
    if (this.openTimer !== null || this.isOpen || this.clicked) return;
    this.openTimer = window.setTimeout(() => {
      this.openTimer = null;
      if (this.node.matches(':hover') && !this.clicked) this.open();
    }, OPEN_DELAY_MS);
  };

  private readonly onClick = (): void => {
    this.clicked = true;
    this.cancelOpen();
    this.popup.remove();
  };

  private cancelOpen(): void {
    if (this.openTimer !== null) window.clearTimeout(this.openTimer);
    this.openTimer = null;
  }

  private readonly open = (): void => {
    if (this.hideTimer !== null) window.clearTimeout(this.hideTimer);
    this.hideTimer = null;
    if (!this.isAttached || this.isOpen) return;
    const rect = this.node.getBoundingClientRect();
    this.popup.style.top = `${Math.round(rect.bottom + 2)}px`;
    this.popup.style.left = `${Math.round(Math.max(4, Math.min(rect.left, window.innerWidth - 330)))}px`;
    document.body.append(this.popup);
  };

  /** The pointer leaving closes it; focus leaving closes it unless the pointer is still over it. */
  private closeSoon(focusLeft: boolean): void {
    if (!focusLeft) this.cancelOpen();
    if (this.hideTimer !== null) window.clearTimeout(this.hideTimer);
    this.hideTimer = window.setTimeout(() => this.hidePopup(focusLeft), HIDE_DELAY_MS);
  }

  private hidePopup(focusLeft = true): void {
    this.hideTimer = null;
    if (this.node.matches(':hover') || this.popup.matches(':hover')) return;
    const focused = this.popup.contains(document.activeElement) || this.node.contains(document.activeElement);
    if (focusLeft && focused) return;
    this.popup.remove();
  }

  dispose(): void {
    if (this.isDisposed) return;
    if (this.hideTimer !== null) window.clearTimeout(this.hideTimer);
    this.cancelOpen();
    this.popup.remove();
    this.disposeControls();
    super.dispose();
  }
}
