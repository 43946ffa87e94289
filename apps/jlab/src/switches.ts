import { Signal, type ISignal } from '@lumino/signaling';
import type { Switches } from '@crane-llm/core';

export type { Switches } from '@crane-llm/core';

export type SwitchName = keyof Switches;

export const DEFAULT_SWITCHES: Readonly<Switches> = { useLlm: true, includeRuntimeInfo: true };

export const SWITCH_LABEL: Record<SwitchName, string> = {
  useLlm: 'Use the LLM',
  includeRuntimeInfo: 'Include runtime information'
};

export const SWITCH_HELP: Record<SwitchName, string> = {
  useLlm: 'Off: only the built-in checks run, nothing is sent to any model, and no API key is needed.',
  includeRuntimeInfo:
    'Off: the model predicts from the code alone, and the built-in checks are skipped (they read the live kernel state). No effect while the LLM is off.'
};

/** Where the switches are persisted: JupyterLab's settings registry, or nowhere in tests. */
export interface SwitchBackend {
  load(): Promise<Partial<Switches>>;
  save(name: SwitchName, value: boolean): Promise<void>;
  /** Called when the stored values change elsewhere (the settings editor, another tab). */
  watch(onChange: (values: Partial<Switches>) => void): void;
}

/**
 * The one copy of the switches every view reads (toolbar popup, sidebar, palette). A change is
 * shown at once and written through to the backend.
 */
export class SwitchStore {
  private values: Switches = { ...DEFAULT_SWITCHES };
  private readonly changedSignal = new Signal<this, Switches>(this);

  constructor(private readonly backend: SwitchBackend | null = null) {}

  get changed(): ISignal<this, Switches> {
    return this.changedSignal;
  }

  get value(): Readonly<Switches> {
    return this.values;
  }

  async restore(): Promise<void> {
    if (!this.backend) return;
    this.accept(await this.backend.load());
    this.backend.watch(v => this.accept(v));
  }

  async set(name: SwitchName, value: boolean): Promise<void> {
    if (this.values[name] === value) return;
    this.values = { ...this.values, [name]: value };
    this.changedSignal.emit(this.values);
    await this.backend?.save(name, value);
  }

  toggle(name: SwitchName): Promise<void> {
    return this.set(name, !this.values[name]);
  }

  /** "Include runtime information" does nothing while the LLM is off: views show it disabled. */
  effective(name: SwitchName): boolean {
    return name === 'includeRuntimeInfo' ? this.values.useLlm : true;
  }

  private accept(values: Partial<Switches>): void {
    const next = {
      useLlm: typeof values.useLlm === 'boolean' ? values.useLlm : this.values.useLlm,
      includeRuntimeInfo:
        typeof values.includeRuntimeInfo === 'boolean' ? values.includeRuntimeInfo : this.values.includeRuntimeInfo
    };
    if (next.useLlm === this.values.useLlm && next.includeRuntimeInfo === this.values.includeRuntimeInfo) return;
    this.values = next;
    this.changedSignal.emit(this.values);
  }
}

/** Builds a switch row (checkbox + label + help) bound to the store; used by the popup and the sidebar. */
export function switchControls(store: SwitchStore, idPrefix: string): { node: HTMLElement; dispose: () => void } {
  const node = document.createElement('div');
  node.className = 'crane-switches';
  const inputs = new Map<SwitchName, HTMLInputElement>();
  for (const name of ['useLlm', 'includeRuntimeInfo'] as SwitchName[]) {
    const row = document.createElement('label');
    row.className = 'crane-switch';
    row.dataset.switch = name;
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.id = `${idPrefix}-${name}`;
    input.setAttribute('role', 'switch');
    input.addEventListener('change', () => void store.set(name, input.checked));
    const text = document.createElement('span');
    text.className = 'crane-switch-text';
    const label = document.createElement('span');
    label.className = 'crane-switch-label';
    label.textContent = SWITCH_LABEL[name];
    const help = document.createElement('span');
    help.className = 'crane-switch-help';
    help.textContent = SWITCH_HELP[name];
    text.append(label, help);
    row.append(input, text);
    row.title = SWITCH_HELP[name];
    node.append(row);
    inputs.set(name, input);
  }
  const sync = () => {
    for (const [name, input] of inputs) {
      input.checked = store.value[name];
      input.setAttribute('aria-checked', String(store.value[name]));
      const inert = !store.effective(name);
      input.closest('.crane-switch')!.classList.toggle('crane-switch-inert', inert);
    }
  };
  sync();
  store.changed.connect(sync);
  return { node, dispose: () => store.changed.disconnect(sync) };
}
