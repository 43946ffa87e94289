import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServerConnection } from '@jupyterlab/services';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchProviderSettings } from './provider';

// A real local HTTP server answering GET crane-llm/settings as the server extension would.
let server: Server | null = null;

async function serve(status: number, body: string): Promise<ServerConnection.ISettings> {
  server = createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>(resolve => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}/`;
  return ServerConnection.makeSettings({ baseUrl: base, wsUrl: base.replace('http', 'ws'), fetch: globalThis.fetch });
}

afterEach(async () => {
  await new Promise(resolve => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

describe('the provider settings from the server extension', () => {
  it('show the message of settings that cannot be used, naming the setting and its source', async () => {
    const message =
      'The base_url "localhost:11434/v1" from environment variable CRANE_LLM_BASE_URL cannot be used: it does not start with http:// or https://.';
    const settings = await serve(400, JSON.stringify({ message }));
    await expect(fetchProviderSettings(settings)).rejects.toMatchObject({ message, problem: 'settings' });
  });

  it('fall back to the status when the answer says nothing readable', async () => {
    const settings = await serve(500, '<html>oops</html>');
    await expect(fetchProviderSettings(settings)).rejects.toThrow('answered HTTP 500 for its settings');
    await expect(fetchProviderSettings(settings)).rejects.toMatchObject({ problem: 'server' });
  });
});

describe('the provider box in the sidebar', () => {
  it('names each file that could not be read', async () => {
    // jsdom has no DragEvent, which Lumino's drag-and-drop module reads when the sidebar imports it.
    (globalThis as { DragEvent?: unknown }).DragEvent ??= class extends Event {};
    const { renderProvider } = await import('./sidebar');
    const unset = { source: 'unset' as const, name: null, label: 'not set' };
    const warning = '/home/me/.crane_llm/config.json is not valid JSON (Expecting value: line 1 column 2): its settings are ignored until it is fixed.';
    const box = renderProvider(
      {
        model: 'gpt-5', baseUrl: null, api: 'auto', maxOutputTokens: 8000, apiKind: 'responses', providerHost: 'api.openai.com',
        keyFound: false, keyRequired: true,
        sources: { model: unset, baseUrl: unset, apiKey: unset, api: unset, maxOutputTokens: unset }, warnings: [warning]
      },
      null
    );
    expect(box.textContent).toContain(warning);
    expect(box.querySelectorAll('.crane-provider-error')).toHaveLength(1);
  });

  it('shows the api and the output limit with where each came from', async () => {
    (globalThis as { DragEvent?: unknown }).DragEvent ??= class extends Event {};
    const { renderProvider } = await import('./sidebar');
    const unset = { source: 'unset' as const, name: null, label: 'not set' };
    const env = (name: string) => ({ source: 'env' as const, name, label: `environment variable ${name}` });
    const box = renderProvider(
      {
        model: 'smollm2', baseUrl: 'http://127.0.0.1:4000/v1', api: 'responses', maxOutputTokens: 2000, apiKind: 'responses',
        providerHost: '127.0.0.1:4000', keyFound: false, keyRequired: false,
        sources: { model: unset, baseUrl: unset, apiKey: unset, api: env('CRANE_LLM_API'), maxOutputTokens: env('CRANE_LLM_MAX_OUTPUT_TOKENS') }
      },
      null
    );
    const text = box.textContent ?? '';
    expect(text).toContain('Responses APIfrom environment variable CRANE_LLM_API');
    expect(text).toContain('2,000 tokensfrom environment variable CRANE_LLM_MAX_OUTPUT_TOKENS');
  });
});
