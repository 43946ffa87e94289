import type { ISettingRegistry } from '@jupyterlab/settingregistry';
import type { SwitchBackend, Switches } from './switches';

/** The extension's settings in JupyterLab's registry: the two switches, and the model a user chose. */
export function settingsBackend(registry: ISettingRegistry | null, pluginId: string): SwitchBackend | null {
  if (!registry) return null;
  const loaded = registry.load(pluginId);
  const read = (s: ISettingRegistry.ISettings): Partial<Switches> => s.composite as Partial<Switches>;
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

/** The model set in the extension's settings, or '' to let the server's resolved one stand. */
export async function configuredModel(registry: ISettingRegistry | null, pluginId: string): Promise<string> {
  const model = registry ? (await registry.load(pluginId)).composite.model : '';
  return typeof model === 'string' ? model.trim() : '';
}
