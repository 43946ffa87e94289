import { Signal, type ISignal } from '@lumino/signaling';
import { el, type Switches } from '@crane-llm/core';
import type { PolicyLevel } from '@crane-llm/prompt';

export type { Switches } from '@crane-llm/core';

/**
 * The check's switches and "Ask before sending", shown together everywhere. Asking is not a switch
 * of the check (the kernel and the prompt never see it): the check's confirm effect reads it.
 */
export interface Preferences extends Switches {
  askBeforeSending: boolean;
}

export type SwitchName = keyof Preferences;

export const SWITCH_NAMES: readonly SwitchName[] = ['useLlm', 'includeRuntimeInfo', 'includeValues', 'askBeforeSending'];

export const DEFAULT_SWITCHES: Readonly<Preferences> = { useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false };

export const SWITCH_LABEL: Record<SwitchName, string> = {
  useLlm: 'Use the LLM',
  includeRuntimeInfo: 'Include runtime information',
  includeValues: 'Include data values',
  askBeforeSending: 'Ask before sending'
};

export const SWITCH_HELP: Record<SwitchName, string> = {
  useLlm: 'Off: only the built-in checks run, nothing is sent to any model, and no API key is needed.',
  includeRuntimeInfo:
    'Off: the model predicts from the code alone, and the built-in checks are skipped (they read the live kernel state). No effect while the LLM is off.',
  includeValues:
    'Off: the runtime information keeps its structure (types, shapes, dtypes, lengths, column names, dict keys) and no data value is sent. The built-in checks are unaffected.',
  askBeforeSending:
    'On: before any model call, a dialog shows the exact request (host, model, API, the whole prompt, its size, what was masked or left out); nothing is sent until you click Send.'
};

/** The administrator's ceiling (CRANE_LLM_POLICY), as the server extension reports it. */
export type Policy = PolicyLevel;

export const SET_BY_ADMINISTRATOR = 'set by your administrator';

/** The switches a policy holds off: each level also caps the ones below it. */
export function cappedBy(policy: Policy | null): ReadonlySet<keyof Switches> {
  if (policy === 'no-llm') return new Set<keyof Switches>(['useLlm', 'includeRuntimeInfo', 'includeValues']);
  if (policy === 'no-runinfo') return new Set<keyof Switches>(['includeRuntimeInfo', 'includeValues']);
  if (policy === 'no-values') return new Set<keyof Switches>(['includeValues']);
  return new Set();
}

/** Where the switches are persisted: JupyterLab's settings registry, or nowhere in tests. */
export interface SwitchBackend {
  load(): Promise<Partial<Preferences>>;
  save(name: SwitchName, value: boolean): Promise<void>;
  /** Called when the stored values change elsewhere (the settings editor, another tab). */
  watch(onChange: (values: Partial<Preferences>) => void): void;
}

/**
 * The one copy of the switches every view reads (toolbar popup, sidebar, palette). A change is
 * shown at once and written through to the backend.
 */
export class SwitchStore {
  private values: Preferences = { ...DEFAULT_SWITCHES };
  private policyValue: Policy | null = null;
  private readonly changedSignal = new Signal<this, Preferences>(this);

  constructor(private readonly backend: SwitchBackend | null = null) {}

  get changed(): ISignal<this, Preferences> {
    return this.changedSignal;
  }

  /** What a check uses: the user's choices under the administrator's ceiling. */
  get value(): Readonly<Preferences> {
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
  cap<T extends Switches>(switches: T): T {
    const out = { ...switches };
    for (const name of cappedBy(this.policyValue)) out[name] = false;
    return out;
  }

  isCapped(name: SwitchName): boolean {
    return (cappedBy(this.policyValue) as ReadonlySet<SwitchName>).has(name);
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
    if (name === 'askBeforeSending') return v.useLlm;
    return true;
  }

  private accept(values: Partial<Preferences>): void {
    const next = { ...this.values };
    for (const name of SWITCH_NAMES) if (typeof values[name] === 'boolean') next[name] = values[name];
    if (SWITCH_NAMES.every(name => next[name] === this.values[name])) return;
    this.values = next;
    this.changedSignal.emit(this.value);
  }
}

/** Builds the switch rows (checkbox + label + help) bound to the store; used by the popup and the sidebar. */
export function switchControls(store: SwitchStore, idPrefix: string): { node: HTMLElement; dispose: () => void } {
  const node = el('div', 'crane-switches');
  const inputs = new Map<SwitchName, HTMLInputElement>();
  for (const name of SWITCH_NAMES) {
    const row = el('label', 'crane-switch');
    row.dataset.switch = name;
    const input = el('input', '');
    input.type = 'checkbox';
    input.id = `${idPrefix}-${name}`;
    input.setAttribute('role', 'switch');
    input.addEventListener('change', () => void store.set(name, input.checked));
    const text = el('span', 'crane-switch-text');
    text.append(
      el('span', 'crane-switch-label', SWITCH_LABEL[name]),
      el('span', 'crane-switch-help', SWITCH_HELP[name]),
      el('span', 'crane-switch-admin', SET_BY_ADMINISTRATOR)
    );
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
