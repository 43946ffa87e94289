import { Signal, type ISignal } from '@lumino/signaling';
import type { Switches } from '@crane-llm/core';
import type { PolicyLevel } from '@crane-llm/prompt';

export type { Switches } from '@crane-llm/core';

export type SwitchName = keyof Switches;

export const SWITCH_NAMES: readonly SwitchName[] = ['useLlm', 'includeRuntimeInfo', 'includeValues'];

export const DEFAULT_SWITCHES: Readonly<Switches> = { useLlm: true, includeRuntimeInfo: true, includeValues: true };

export const SWITCH_LABEL: Record<SwitchName, string> = {
  useLlm: 'Use the LLM',
  includeRuntimeInfo: 'Include runtime information',
  includeValues: 'Include data values'
};

export const SWITCH_HELP: Record<SwitchName, string> = {
  useLlm: 'Off: only the built-in checks run, nothing is sent to any model, and no API key is needed.',
  includeRuntimeInfo:
    'Off: the model predicts from the code alone, and the built-in checks are skipped (they read the live kernel state). No effect while the LLM is off.',
  includeValues:
    'Off: the runtime information keeps its structure (types, shapes, dtypes, lengths, column names, dict keys) and no data value is sent. The built-in checks are unaffected.'
};

/** The administrator's ceiling (CRANE_LLM_POLICY), as the server extension reports it. */
export type Policy = PolicyLevel;

export const SET_BY_ADMINISTRATOR = 'set by your administrator';

/** The switches a policy holds off: each level also caps the ones below it. */
export function cappedBy(policy: Policy | null): ReadonlySet<SwitchName> {
  if (policy === 'no-llm') return new Set<SwitchName>(['useLlm', 'includeRuntimeInfo', 'includeValues']);
  if (policy === 'no-runinfo') return new Set<SwitchName>(['includeRuntimeInfo', 'includeValues']);
  if (policy === 'no-values') return new Set<SwitchName>(['includeValues']);
  return new Set();
}

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
  private policyValue: Policy | null = null;
  private readonly changedSignal = new Signal<this, Switches>(this);

  constructor(private readonly backend: SwitchBackend | null = null) {}

  get changed(): ISignal<this, Switches> {
    return this.changedSignal;
  }

  /** What a check uses: the user's choices under the administrator's ceiling. */
  get value(): Readonly<Switches> {
    return this.policyValue === null ? this.values : this.cap(this.values);
  }

  get policy(): Policy | null {
    return this.policyValue;
  }

  /** The ceiling the server reported; the user's own choices are kept underneath it. */
  setPolicy(policy: Policy | null): void {
    if (policy === this.policyValue) return;
    this.policyValue = policy;
    this.changedSignal.emit(this.value);
  }

  /** Any switches (a command's arguments, say) under the same ceiling. */
  cap(switches: Switches): Switches {
    const out = { ...switches };
    for (const name of cappedBy(this.policyValue)) out[name] = false;
    return out;
  }

  isCapped(name: SwitchName): boolean {
    return cappedBy(this.policyValue).has(name);
  }

  async restore(): Promise<void> {
    if (!this.backend) return;
    this.accept(await this.backend.load());
    this.backend.watch(v => this.accept(v));
  }

  async set(name: SwitchName, value: boolean): Promise<void> {
    if (this.values[name] === value || this.isCapped(name)) return;
    this.values = { ...this.values, [name]: value };
    this.changedSignal.emit(this.value);
    await this.backend?.save(name, value);
  }

  toggle(name: SwitchName): Promise<void> {
    return this.set(name, !this.values[name]);
  }

  /** A switch under one that is off does nothing: views show it inert. */
  effective(name: SwitchName): boolean {
    const v = this.value;
    if (name === 'includeRuntimeInfo') return v.useLlm;
    if (name === 'includeValues') return v.useLlm && v.includeRuntimeInfo;
    return true;
  }

  private accept(values: Partial<Switches>): void {
    const next = { ...this.values };
    for (const name of SWITCH_NAMES) if (typeof values[name] === 'boolean') next[name] = values[name];
    if (SWITCH_NAMES.every(name => next[name] === this.values[name])) return;
    this.values = next;
    this.changedSignal.emit(this.value);
  }
}

/** Builds the switch rows (checkbox + label + help) bound to the store; used by the popup and the sidebar. */
export function switchControls(store: SwitchStore, idPrefix: string): { node: HTMLElement; dispose: () => void } {
  const node = document.createElement('div');
  node.className = 'crane-switches';
  const inputs = new Map<SwitchName, HTMLInputElement>();
  for (const name of SWITCH_NAMES) {
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
    const admin = document.createElement('span');
    admin.className = 'crane-switch-admin';
    admin.textContent = SET_BY_ADMINISTRATOR;
    text.append(label, help, admin);
    row.append(input, text);
    row.title = SWITCH_HELP[name];
    node.append(row);
    inputs.set(name, input);
  }
  const sync = () => {
    for (const [name, input] of inputs) {
      input.checked = store.value[name];
      input.setAttribute('aria-checked', String(store.value[name]));
      const capped = store.isCapped(name);
      input.disabled = capped;
      const row = input.closest('.crane-switch')!;
      row.classList.toggle('crane-switch-inert', !store.effective(name));
      row.classList.toggle('crane-switch-capped', capped);
    }
  };
  sync();
  store.changed.connect(sync);
  return { node, dispose: () => store.changed.disconnect(sync) };
}
