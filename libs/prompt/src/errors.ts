/**
 * Provider failures become one clear sentence naming the host and what to do (twin of
 * python/crane_llm/provider/errors.py; fixtures/errors/cases.json holds both to the same words).
 */

/** Which way a provider call failed (the check as a whole then fails with libs/core's ProblemKind 'provider'). */
export type ProviderFailureKind =
  | 'auth'
  | 'model-not-found'
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'unreachable'
  | 'context-length'
  | 'bad-request'
  | 'cancelled'
  | 'other';

export interface Problem {
  kind: ProviderFailureKind;
  message: string;
}

/** A failure reduced to plain data by the transport (the SDK here, the Python SDK in the kernel). */
export interface Failure {
  status: number | null;
  code: string | null;
  message: string;
  transport: 'timeout' | 'connection' | null;
  host: string | null;
  model: string;
  keyFound: boolean;
  retries: number;
  timeoutSeconds: number;
  /** The configured base_url (null or absent: OpenAI); a local one without /v1 explains a 404. */
  baseUrl?: string | null;
}

const CONTEXT =
  /context[ _-]?length|context window|maximum context|too many tokens|prompt is too long|reduce the length|input is too long/i;
// Also Gemini's wording, which names the translated fields (response_schema, additionalProperties):
// a wrong guess costs one extra request, a missed one costs the verdict.
const FORMAT =
  /response_format|json_schema|response_schema|text\.format|structured output|\bformat\b|\bschema\b|additionalProperties/i;

export function isContextLength(status: number | null, code: string | null, message: string): boolean {
  if (code === 'context_length_exceeded') return true;
  return (status === 400 || status === 413 || status === 422) && CONTEXT.test(message || '');
}

// Checked before FORMAT: a refusal of these names is about them, whatever else it says.
const LIMIT = /max_completion_tokens/i;
const STREAM_USAGE = /stream_options|include_usage/i;

export type RejectedParameter = 'limit' | 'stream-usage' | 'format';

/**
 * Which optional request parameter a 400/422 refuses, each worth one retry without it: "limit"
 * (max_completion_tokens: retry with max_tokens), "stream-usage" (stream_options), "format"
 * (structured output), or null.
 */
export function rejectedParameter(status: number | null, code: string | null, message: string): RejectedParameter | null {
  if ((status !== 400 && status !== 422) || isContextLength(status, code, message)) return null;
  const text = message || '';
  if (LIMIT.test(text)) return 'limit';
  if (STREAM_USAGE.test(text)) return 'stream-usage';
  if (FORMAT.test(text)) return 'format';
  return null;
}

/** A 400/422 that names the structured-output parameter: worth one retry without it. */
export function isFormatRejection(status: number | null, code: string | null, message: string): boolean {
  return rejectedParameter(status, code, message) === 'format';
}

/** Twin of crane_llm.settings.is_local_url. */
function isLocalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host === '::1' || host === '0.0.0.0' || host.startsWith('127.') || host.endsWith('.localhost');
}

/** A local server's base_url without a /v1 segment: the usual reason it answers 404. */
function lacksV1(baseUrl: string | null | undefined): baseUrl is string {
  if (typeof baseUrl !== 'string' || !isLocalUrl(baseUrl)) return false;
  return !new URL(baseUrl).pathname.includes('/v1');
}

function clip(text: string, limit = 300): string {
  const squeezed = (text || '').split(/\s+/).filter(Boolean).join(' ');
  const chars = Array.from(squeezed);
  return chars.length <= limit ? squeezed : chars.slice(0, limit - 1).join('') + '…';
}

export function describeFailure(failure: Failure): Problem {
  const { status, code, transport } = failure;
  const providerMessage = failure.message || '';
  const host = failure.host || 'the provider';
  const model = failure.model || '';
  const retries = failure.retries ?? 0;
  if (transport === 'timeout') {
    return {
      kind: 'timeout',
      message: `${host} did not answer within ${String(failure.timeoutSeconds)} seconds. Try again, or allow more time with the timeout setting.`
    };
  }
  if (transport === 'connection') {
    return {
      kind: 'unreachable',
      message: `Could not connect to ${host}. Check the base_url, and that the server is running and reachable from here.`
    };
  }
  if (status === 401) {
    if (failure.keyFound === false) {
      return {
        kind: 'auth',
        message: `No API key was found for ${host} (HTTP 401). Set one with crane_llm.set_api_key("...") or the CRANE_LLM_API_KEY variable.`
      };
    }
    // The provider's own text is left out on purpose: it can quote part of the key.
    return {
      kind: 'auth',
      message: `${host} refused the API key (HTTP 401). Set a valid key with crane_llm.set_api_key("...") or the CRANE_LLM_API_KEY variable.`
    };
  }
  if (status === 403) {
    return {
      kind: 'auth',
      message: `${host} refused access (HTTP 403): this key may not use the model "${model}". Check the key's permissions, or choose another model.`
    };
  }
  if (isContextLength(status, code, providerMessage)) {
    return {
      kind: 'context-length',
      message: `The prompt is too long for the model "${model}" at ${host}. Lower the prompt size limit, turn runtime information off, or use a model with a longer context.`
    };
  }
  if (status === 404 && lacksV1(failure.baseUrl)) {
    const base = failure.baseUrl.replace(/\/+$/, '');
    return {
      kind: 'model-not-found',
      message: `${host} answered 404 at ${base}. Local servers (Ollama, llama.cpp, vLLM, LM Studio) serve the OpenAI API under /v1: try base_url="${base}/v1".`
    };
  }
  if (status === 404) {
    return {
      kind: 'model-not-found',
      message: `${host} answered 404 for the model "${model}": the model does not exist there, or the base_url is wrong. Check both with crane_llm.set_api_key(base_url=..., model=...).`
    };
  }
  if (status === 429) {
    return {
      kind: 'rate-limit',
      message: `${host} is limiting requests (HTTP 429), still after ${retries} retries. Wait a minute and try again, or check your plan's limits.`
    };
  }
  if (status !== null && status >= 300 && status < 400) {
    return {
      kind: 'other',
      message: `${host} answered with a redirect (HTTP ${status}), which CRANE-LLM does not follow: check the base_url.`
    };
  }
  if (status !== null && status >= 500) {
    return {
      kind: 'server',
      message: `${host} had a server error (HTTP ${status}), still after ${retries} retries. Try again later.`
    };
  }
  if (status !== null) {
    return {
      kind: 'bad-request',
      message: `${host} rejected the request (HTTP ${status}): ${clip(providerMessage) || 'no reason given.'}`
    };
  }
  return { kind: 'other', message: `The call to ${host} failed: ${clip(providerMessage) || 'no reason given.'}` };
}
