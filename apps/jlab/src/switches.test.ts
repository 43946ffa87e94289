import { describe, expect, it } from 'vitest';
import { DEFAULT_SWITCHES, SwitchStore, switchControls, type Preferences, type SwitchBackend } from './switches';

function memoryBackend(initial: Partial<Preferences>) {
  const saved: Array<[string, boolean]> = [];
  let listener: ((v: Partial<Preferences>) => void) | null = null;
  const backend: SwitchBackend = {
    load: async () => initial,
    save: async (name, value) => {
      saved.push([name, value]);
    },
    watch: fn => {
      listener = fn;
    }
  };
  return { backend, saved, external: (v: Partial<Preferences>) => listener!(v) };
}

describe('switches', () => {
  it('are all on by default', () => {
    // "Ask before sending" is the one that starts off.
    expect(new SwitchStore().value).toEqual({ useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false });
    expect(DEFAULT_SWITCHES).toEqual({ useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false });
  });

  it('restore from the backend, write changes through, and follow outside edits', async () => {
    const m = memoryBackend({ useLlm: false });
    const store = new SwitchStore(m.backend);
    await store.restore();
    expect(store.value).toEqual({ useLlm: false, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false });
    await store.toggle('includeRuntimeInfo');
    await store.toggle('includeValues');
    await store.toggle('askBeforeSending');
    expect(m.saved).toEqual([['includeRuntimeInfo', false], ['includeValues', false], ['askBeforeSending', true]]);
    m.external({ useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false });
    expect(store.value).toEqual({ useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false });
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

  it('"Include data values" is inert while runtime information is off', () => {
    const store = new SwitchStore();
    const view = switchControls(store, 'v');
    const row = view.node.querySelector('[data-switch="includeValues"]')!;
    expect(row.textContent).toContain('Include data values');
    expect(row.classList.contains('crane-switch-inert')).toBe(false);
    void store.set('includeRuntimeInfo', false);
    expect(row.classList.contains('crane-switch-inert')).toBe(true);
  });

  it.each([
    ['no-llm', { useLlm: false, includeRuntimeInfo: false, includeValues: false, askBeforeSending: false }],
    ['no-runinfo', { useLlm: true, includeRuntimeInfo: false, includeValues: false, askBeforeSending: false }],
    ['no-values', { useLlm: true, includeRuntimeInfo: true, includeValues: false, askBeforeSending: false }]
  ] as const)('the policy %s caps the switches, disables them and says who set them', async (policy, expected) => {
    const m = memoryBackend({});
    const store = new SwitchStore(m.backend);
    await store.restore();
    const view = switchControls(store, 'p');
    store.setPolicy(policy);
    expect(store.value).toEqual(expected);
    for (const [name, on] of Object.entries(expected).filter(([name]) => name !== 'askBeforeSending')) {
      const row = view.node.querySelector(`[data-switch="${name}"]`)!;
      const input = row.querySelector('input')!;
      expect(input.disabled).toBe(!on);
      expect(input.checked).toBe(on);
      expect(row.classList.contains('crane-switch-capped')).toBe(!on);
      if (!on) expect(row.querySelector('.crane-switch-admin')!.textContent).toBe('set by your administrator');
    }
    // The user cannot lift the ceiling, and nothing is written for the attempt.
    await store.set('includeValues', true);
    expect(store.value.includeValues).toBe(false);
    expect(m.saved).toEqual([]);
    // Without the policy, the user's own choices come back.
    store.setPolicy(null);
    expect(store.value).toEqual({ useLlm: true, includeRuntimeInfo: true, includeValues: true, askBeforeSending: false });
  });

  it('"Ask before sending" is shown with the switches, never capped, and inert while the LLM is off', async () => {
    const store = new SwitchStore();
    const view = switchControls(store, 'ask');
    const row = view.node.querySelector('[data-switch="askBeforeSending"]')!;
    const input = row.querySelector('input')!;
    expect(row.textContent).toContain('Ask before sending');
    expect(input.checked).toBe(false);
    input.checked = true;
    input.dispatchEvent(new Event('change'));
    expect(store.value.askBeforeSending).toBe(true);
    store.setPolicy('no-values');
    expect(input.disabled).toBe(false);
    await store.set('useLlm', false);
    expect(row.classList.contains('crane-switch-inert')).toBe(true);
  });
});
