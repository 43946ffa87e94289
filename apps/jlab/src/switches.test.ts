import { describe, expect, it } from 'vitest';
import { DEFAULT_SWITCHES, SwitchStore, switchControls, type SwitchBackend, type Switches } from './switches';

function memoryBackend(initial: Partial<Switches>) {
  const saved: Array<[string, boolean]> = [];
  let listener: ((v: Partial<Switches>) => void) | null = null;
  const backend: SwitchBackend = {
    load: async () => initial,
    save: async (name, value) => {
      saved.push([name, value]);
    },
    watch: fn => {
      listener = fn;
    }
  };
  return { backend, saved, external: (v: Partial<Switches>) => listener!(v) };
}

describe('switches', () => {
  it('are both on by default', () => {
    expect(new SwitchStore().value).toEqual({ useLlm: true, includeRuntimeInfo: true });
    expect(DEFAULT_SWITCHES).toEqual({ useLlm: true, includeRuntimeInfo: true });
  });

  it('restore from the backend, write changes through, and follow outside edits', async () => {
    const m = memoryBackend({ useLlm: false });
    const store = new SwitchStore(m.backend);
    await store.restore();
    expect(store.value).toEqual({ useLlm: false, includeRuntimeInfo: true });
    await store.toggle('includeRuntimeInfo');
    expect(m.saved).toEqual([['includeRuntimeInfo', false]]);
    m.external({ useLlm: true, includeRuntimeInfo: true });
    expect(store.value).toEqual({ useLlm: true, includeRuntimeInfo: true });
  });

  it('controls reflect and change the store; runtime info shows as inert while the LLM is off', async () => {
    const store = new SwitchStore();
    const a = switchControls(store, 'a');
    const b = switchControls(store, 'b');
    const llmA = a.node.querySelector<HTMLInputElement>('[data-switch="useLlm"] input')!;
    const llmB = b.node.querySelector<HTMLInputElement>('[data-switch="useLlm"] input')!;
    expect(llmA.checked).toBe(true);
    llmA.checked = false;
    llmA.dispatchEvent(new Event('change'));
    expect(store.value.useLlm).toBe(false);
    expect(llmB.checked).toBe(false);
    expect(b.node.querySelector('[data-switch="includeRuntimeInfo"]')!.classList.contains('crane-switch-inert')).toBe(true);
    expect(a.node.textContent).toContain('Use the LLM');
    expect(a.node.textContent).toContain('Include runtime information');
    b.dispose();
    await store.set('useLlm', true);
    expect(llmB.checked).toBe(false); // disposed views stop following
    expect(llmA.checked).toBe(true);
  });
});
