import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAGIC_MIME_TYPE, MagicDocument, MagicVerdictRenderer, rendererFactory } from './index';
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';

const FIXTURES = join(__dirname, '..', 'fixtures');

function doc(state: Partial<MagicDocument['state']>, notes: string[] = []): MagicDocument {
  return {
    version: 1,
    displayId: 'crane-llm-test',
    options: { useLlm: true, includeRuntimeInfo: true, model: null },
    notes,
    state: {
      cellId: null,
      phase: 'done',
      steps: [],
      verdict: null,
      error: null,
      problem: null,
      stale: null,
      prompt: null,
      raw: '',
      origin: [],
      ...state
    }
  };
}

const certain = {
  kind: 'certain-crash' as const,
  source: { type: 'checks' as const },
  exception: 'NameError',
  line: 1,
  explanation: "name 'dff' is not defined",
  variables: ['dff'],
  checkerRanFirst: true
};

async function render(data: unknown): Promise<HTMLElement> {
  const renderer = rendererFactory.createRenderer({ mimeType: MAGIC_MIME_TYPE } as IRenderMime.IRendererOptions) as MagicVerdictRenderer;
  const model = { data: { [MAGIC_MIME_TYPE]: data }, metadata: {}, trusted: false } as unknown as IRenderMime.IMimeModel;
  await renderer.renderModel(model);
  return renderer.node;
}

describe('the %%crane_llm renderer', () => {
  it('is a safe factory for its MIME type, ranked ahead of the static HTML', () => {
    expect(rendererFactory.mimeTypes).toEqual(['application/vnd.crane-llm.verdict+json']);
    expect(rendererFactory.safe).toBe(true);
    expect(rendererFactory.defaultRank).toBeLessThan(50);
  });

  it('draws a certain crash red with the built-in badge, like the toolbar verdict', async () => {
    const node = await render(doc({ verdict: certain }));
    const box = node.querySelector<HTMLElement>('.crane-verdict')!;
    expect(box.dataset.colour).toBe('red');
    expect(box.classList.contains('crane-red')).toBe(true);
    expect(box.querySelector('.crane-title')!.textContent).toBe('This cell will crash: NameError at line 1');
    expect(box.querySelector('.crane-badge')!.textContent).toBe('Built-in check · certain');
    expect(box.querySelector('.crane-explanation')!.textContent).toBe("name 'dff' is not defined");
    expect(box.querySelector('details')).toBeNull();
    expect(node.dataset.mimeType).toBe(MAGIC_MIME_TYPE);
  });

  it('draws each model verdict in its colour with the model badge and the checker note', async () => {
    const cases = [
      ['predicted-crash', 'red'],
      ['no-crash', 'green'],
      ['unreadable', 'amber']
    ] as const;
    for (const [kind, colour] of cases) {
      const verdict = { ...certain, kind, source: { type: 'llm' as const, model: 'gpt-5-mini' }, exception: null, line: null };
      const box = (await render(doc({ verdict, prompt: 'P', raw: 'R' }))).querySelector<HTMLElement>('.crane-verdict')!;
      expect(box.dataset.colour).toBe(colour);
      expect(box.querySelector('.crane-badge')!.textContent).toBe('LLM prediction · gpt-5-mini');
      expect(box.querySelector('.crane-note')!.textContent).toBe('The built-in checker ran first and found no certain crash.');
      const details = box.querySelector('details.crane-prompt-raw')!;
      expect(details.hasAttribute('open')).toBe(false);
      expect(details.querySelector('summary')!.textContent).toBe('Prompt and raw response');
      expect(details.querySelector('.crane-prompt')!.textContent).toBe('P');
      expect(details.querySelector('.crane-raw')!.textContent).toBe('R');
    }
  });

  it('shows checks-only as blue and stale as grey with the stale sentence', async () => {
    const blue = { ...certain, kind: 'nothing-certain' as const, exception: null, line: null };
    expect((await render(doc({ verdict: blue }))).querySelector<HTMLElement>('.crane-verdict')!.dataset.colour).toBe('blue');
    const node = await render(doc({ verdict: certain, stale: 'other-cell-ran' }));
    const box = node.querySelector<HTMLElement>('.crane-verdict')!;
    expect(box.dataset.colour).toBe('grey');
    expect(box.querySelector('.crane-stale')!.textContent).toContain('another cell ran');
  });

  it('lists the origin of the crash by run, without jump links', async () => {
    const node = await render(
      doc({
        verdict: certain,
        origin: [
          { cellId: null, variable: 'df', note: 'line 1: assigned df', line: 1, codeOnly: false, editedSinceRun: false, executionCount: 3, sentence: 'In [3], line 1, assigned df.' },
          { cellId: null, variable: 'x', note: 'line 2: assigned x', line: 2, codeOnly: true, editedSinceRun: false, executionCount: 1 }
        ]
      })
    );
    expect(node.querySelector('.crane-origin-title')!.textContent).toBe('Origin of the crash');
    const items = [...node.querySelectorAll('.crane-origin-item')].map(e => e.textContent);
    expect(items[0]).toBe('In [3], line 1, assigned df.');
    expect(items[1]).toContain('In [1] x: line 2: assigned x');
    expect(items[1]).toContain('known from its code only');
    expect(node.querySelector('button')).toBeNull();
  });

  it('shows the steps while running, then a cancelled check, then a failure with its title', async () => {
    const steps = [
      { id: 'checks' as const, label: 'Built-in checker on the live kernel state', status: 'done' as const, detail: 'nothing certain' },
      { id: 'model' as const, label: 'Waiting for m at h', status: 'running' as const, detail: null }
    ];
    let node = await render(doc({ phase: 'running', steps, raw: '{"expl' }));
    expect(node.querySelector('.crane-title')!.textContent).toBe('CRANE-LLM is checking this cell…');
    expect([...node.querySelectorAll<HTMLElement>('.crane-step')].map(s => s.dataset.status)).toEqual(['done', 'running']);
    expect(node.querySelector('.crane-raw-live')!.textContent).toBe('{"expl');
    node = await render(doc({ phase: 'cancelled', steps }));
    expect(node.querySelector('.crane-title')!.textContent).toBe('Check cancelled. Nothing was changed.');
    node = await render(doc({ phase: 'failed', problem: 'no-key', error: 'No API key was found for api.openai.com.' }, ['Model gpt-5 from the default.']));
    expect(node.querySelector('.crane-title')!.textContent).toBe('No API key');
    expect(node.querySelector('.crane-explanation')!.textContent).toBe('No API key was found for api.openai.com.');
    expect(node.querySelector('.crane-settings-source')!.textContent).toBe('Model gpt-5 from the default.');
  });

  it('keeps hostile text as text', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(1)>';
    const verdict = { ...certain, kind: 'predicted-crash' as const, source: { type: 'llm' as const, model: hostile }, exception: hostile, explanation: hostile };
    const node = await render(doc({ verdict, prompt: hostile, raw: hostile }, [hostile]));
    expect(node.querySelector('script')).toBeNull();
    expect(node.querySelector('img')).toBeNull();
    expect(node.querySelector('.crane-explanation')!.textContent).toBe(hostile);
    expect(node.querySelector('.crane-badge')!.textContent).toBe(`LLM prediction · ${hostile}`);
  });

  it('says so, instead of guessing, when the data is not a magic document', async () => {
    const node = await render({ version: 1, state: { phase: 'done' } });
    expect(node.querySelector('.crane-title')!.textContent).toBe('This CRANE-LLM output could not be read');
    expect(node.querySelector('[data-colour]')).toBeNull();
  });

  it('reads every document the Python magic wrote (fixtures/, regenerated by pytest)', async () => {
    const files = readdirSync(FIXTURES).filter(f => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const fixture = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { document: unknown; expect: Record<string, string | null> };
      expect(MagicDocument.safeParse(fixture.document).success, file).toBe(true);
      const box = (await render(fixture.document)).querySelector<HTMLElement>('.crane-verdict')!;
      expect(box.dataset.colour ?? null, file).toBe(fixture.expect.colour);
      expect(box.querySelector('.crane-title')!.textContent, file).toBe(fixture.expect.title);
      expect(box.querySelector('.crane-badge')?.textContent ?? null, file).toBe(fixture.expect.badge);
      expect(box.querySelector('.crane-usage')?.textContent ?? null, file).toBe(fixture.expect.usage);
    }
  });
});
