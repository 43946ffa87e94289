import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import { SETTINGS_PATH, ServerSettings, type FetchLike } from '@crane-llm/prompt';

/**
 * The browser's side of the Jupyter server extension: the resolved provider settings (never the
 * key) and a fetch that goes through ServerConnection, so the base URL prefix (JupyterHub's
 * /user/<name>/), the token and the XSRF cookie are always right.
 */

export class ServerExtensionError extends Error {
  /** `settings`: the server found a setting it cannot use (its message names it); otherwise `server`. */
  constructor(
    message: string,
    readonly problem: 'server' | 'settings' = 'server'
  ) {
    super(message);
  }
}

export function serverSettings(): ServerConnection.ISettings {
  return ServerConnection.makeSettings();
}

/** A fetch for the openai SDK whose requests carry the server's credentials. */
export function serverFetch(settings: ServerConnection.ISettings = serverSettings()): FetchLike {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return ServerConnection.makeRequest(url, init ?? {}, settings);
  };
}

/** `chosen`: the extension's own model and api settings, which the server ranks first (explicit arguments). */
export async function fetchProviderSettings(
  settings: ServerConnection.ISettings = serverSettings(),
  chosen: { model?: string; api?: string } = {}
): Promise<ServerSettings> {
  const base = URLExt.join(settings.baseUrl, SETTINGS_PATH);
  const query = new URLSearchParams();
  if (chosen.model) query.set('model', chosen.model);
  if (chosen.api) query.set('api', chosen.api);
  const url = query.toString() ? `${base}?${query.toString()}` : base;
  let response: Response;
  try {
    response = await ServerConnection.makeRequest(url, { method: 'GET' }, settings);
  } catch {
    throw new ServerExtensionError('The Jupyter server could not be reached for the CRANE-LLM settings.');
  }
  if (response.status === 404) {
    throw new ServerExtensionError(
      "The CRANE-LLM server extension is not enabled in this Jupyter server. Run `jupyter server extension enable crane_llm`, then restart Jupyter."
    );
  }
  if (!response.ok) {
    // A 400 says which setting cannot be used and where it came from (e.g. a base_url without http://).
    const message = await messageOf(response);
    if (response.status === 400 && message) throw new ServerExtensionError(message, 'settings');
    throw new ServerExtensionError(message ?? `The CRANE-LLM server extension answered HTTP ${response.status} for its settings.`);
  }
  const parsed = ServerSettings.safeParse(await response.json());
  if (!parsed.success) {
    throw new ServerExtensionError(
      'The CRANE-LLM server extension answered in a format this extension does not understand; make sure both come from the same crane-llm version.'
    );
  }
  return parsed.data;
}

async function messageOf(response: Response): Promise<string | null> {
  try {
    const body: unknown = await response.json();
    const message = (body as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}
