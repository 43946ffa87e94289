import type { ISettingRegistry } from '@jupyterlab/settingregistry';
import type { Preferences, SwitchBackend } from './switches';

/** The extension's settings in JupyterLab's registry: the two switches, and the model a user chose. */
export function settingsBackend(registry: ISettingRegistry | null, pluginId: string): SwitchBackend | null {
  if (!registry) return null;
  const loaded = registry.load(pluginId);
  const read = (s: ISettingRegistry.ISettings): Partial<Preferences> => s.composite as Partial<Preferences>;
  return {
    load: async () => read(await loaded),
    save: async (name, value) => {
      await (await loaded).set(name, value);
    },
    watch: onChange => {
      void loaded.then(s => s.changed.connect(() => onChange(read(s))));
    }
  };
}

/** The provider settings chosen in the extension's settings; '' lets the server's resolved one stand. */
export interface ProviderArguments {
  model: string;
  /** '' | 'auto' | 'responses' | 'chat' */
  api: string;
}

/** The model and the api set in the extension's settings (the first step of the settings order). */
export async function configuredArguments(registry: ISettingRegistry | null, pluginId: string): Promise<ProviderArguments> {
  const composite = registry ? (await registry.load(pluginId)).composite : {};
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return { model: text(composite.model), api: text(composite.api) };
}
