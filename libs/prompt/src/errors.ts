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

/** A 400/422 that names the structured-output parameter: worth one retry without it. */
export function isFormatRejection(status: number | null, code: string | null, message: string): boolean {
  if ((status !== 400 && status !== 422) || isContextLength(status, code, message)) return false;
  return FORMAT.test(message || '');
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
