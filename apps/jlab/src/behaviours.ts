import type { ISettingRegistry } from '@jupyterlab/settingregistry';
import { Signal, type ISignal } from '@lumino/signaling';

/** The two optional behaviours, both off by default: settings, toggled from the palette too. */
export interface Behaviours {
  checkAsYouGo: boolean;
  checkBeforeRunning: boolean;
}

export type BehaviourName = keyof Behaviours;

export const BEHAVIOUR_LABEL: Record<BehaviourName, string> = {
  checkAsYouGo: 'Check as you go',
  checkBeforeRunning: 'Check before running'
};

/**
 * The behaviours as the settings registry holds them (the settings editor, the palette's toggles
 * and another tab all write there); without a registry both stay off.
 */
export class BehaviourSettings {
  private values: Behaviours = { checkAsYouGo: false, checkBeforeRunning: false };
  private settings: ISettingRegistry.ISettings | null = null;
  private readonly changedSignal = new Signal<this, Behaviours>(this);

  constructor(loaded: Promise<ISettingRegistry.ISettings> | null) {
    void loaded?.then(
      settings => {
        this.settings = settings;
        this.accept(settings.composite);
        settings.changed.connect(() => this.accept(settings.composite));
      },
      () => undefined
    );
  }

  get changed(): ISignal<this, Behaviours> {
    return this.changedSignal;
  }

  get value(): Readonly<Behaviours> {
    return this.values;
  }

  async toggle(name: BehaviourName): Promise<void> {
    const next = !this.values[name];
    this.accept({ ...this.values, [name]: next });
    await this.settings?.set(name, next);
  }

  private accept(composite: Partial<Record<string, unknown>>): void {
    const next: Behaviours = {
      checkAsYouGo: composite.checkAsYouGo === true,
      checkBeforeRunning: composite.checkBeforeRunning === true
    };
    if (next.checkAsYouGo === this.values.checkAsYouGo && next.checkBeforeRunning === this.values.checkBeforeRunning) return;
    this.values = next;
    this.changedSignal.emit(next);
  }
}
