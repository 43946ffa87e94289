/**
 * The model call from the browser, through the official `openai` SDK.
 *
 * In JupyterLab the SDK's baseURL is the server extension's proxy (`<server base>crane-llm/v1`) and
 * `fetch` is built on ServerConnection.makeRequest, so cookies and XSRF are right; the key is
 * added server-side and the SDK only ever holds a placeholder. Streams the text as it arrives,
 * sends an output limit, retries once without each optional parameter a server refuses
 * (structured output, max_completion_tokens -> max_tokens, usage on the stream), leaves 429 / 5xx
 * retries to the SDK (it honours Retry-After, bounded), and ends every failure as a Problem
 * message, never a thrown error.
 */
import OpenAI from 'openai';
import type { Verdict } from '@crane-llm/core';
import type { BuiltPrompt } from './build';
import { describeFailure, rejectedParameter, type Failure, type Problem } from './errors';
import { cutVerdict, parseVerdict, toVerdict, type ParsedVerdict } from './parse';
import { DEFAULT_MAX_OUTPUT_TOKENS, requestBody, type ApiKind, type BodyOptions, type RequestBody } from './request';

export const DEFAULT_TIMEOUT_MS = 300_000; // reasoning models can think for minutes before the first token
export const DEFAULT_MAX_RETRIES = 3;
/** What the SDK sends as its key when the proxy adds the real one: never a secret. */
export const PLACEHOLDER_API_KEY = 'crane-llm-key-added-by-the-jupyter-server';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ModelCallOptions {
  prompt: BuiltPrompt;
  /** null when no model is set anywhere: the call then ends at once with a problem that says so. */
  model: string | null;
  apiKind: ApiKind;
  /** Where the SDK sends requests: the proxy in JupyterLab, the provider itself elsewhere. */
  baseURL: string;
  /** The provider's host, named in error messages (ServerSettings.providerHost). */
  providerHost: string;
  keyFound?: boolean;
  /** The configured base_url (null: OpenAI), named when a local server without /v1 answers 404. */
  configuredBaseUrl?: string | null;
  /** The answer's limit; null sends none. Default DEFAULT_MAX_OUTPUT_TOKENS. */
  maxOutputTokens?: number | null;
  fetch?: FetchLike;
  apiKey?: string;
  onText?: (chunk: string) => void;
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  /** The built-in checks ran first and found nothing certain (shown with the verdict). */
  checkerRanFirst?: boolean;
}

export interface ModelCallResult {
  /** null when the call failed: then `problem` says why. */
  verdict: Verdict | null;
  parsed: ParsedVerdict | null;
  raw: string;
  prompt: BuiltPrompt;
  problem: Problem | null;
  /** The server rejected structured output and the call was retried without it. */
  structuredFallback: boolean;
  /** The body of the last request sent. */
  requestBody: RequestBody;
  /** Token counts as the provider reported them (Responses: input/output_tokens; Chat: prompt/completion_tokens). */
  usage: Record<string, unknown> | null;
  /** The output limit that cut the answer short (then the verdict is unreadable), else null. */
  cutAtLimit: number | null;
}

/** The parts of the SDK's stream events read here (Responses events, Chat chunks). */
interface ResponsesEvent {
  type?: string;
  delta?: unknown;
  code?: string | null;
  message?: string;
  response?: {
    error?: { code?: string | null; message?: string } | null;
    incomplete_details?: { reason?: string } | null;
    usage?: Record<string, unknown> | null;
  };
}
interface ChatChunk {
  choices?: { delta?: { content?: string | null } | null; finish_reason?: string | null }[];
  usage?: Record<string, unknown> | null;
}

/** What one streamed answer gave: the text, the usage, and whether the output limit cut it. */
interface Answer {
  text: string;
  usage: Record<string, unknown> | null;
  cut: boolean;
}

class StreamFailure extends Error {
  constructor(readonly failure: Pick<Failure, 'status' | 'code' | 'message' | 'transport'>) {
    super(failure.message);
  }
}

/**
 * A 401/403 without an OpenAI error object, through the proxy, came from the Jupyter server itself
 * (an expired session, a missing XSRF token), not from the provider: saying "the key was refused"
 * would send the user the wrong way.
 */
function jupyterRefusal(err: unknown, baseURL: string): Problem | null {
  if (!(err instanceof OpenAI.APIError) || (err.status !== 401 && err.status !== 403)) return null;
  if (err.error !== undefined && err.error !== null) return null;
  if (!/\/crane-llm\/v1\/?$/.test(baseURL)) return null;
  return {
    kind: 'auth',
    message: `The Jupyter server refused the request (HTTP ${err.status}). Your session may have expired: reload the page and log in again.`
  };
}

function failureOf(err: unknown, timedOut: boolean): Pick<Failure, 'status' | 'code' | 'message' | 'transport'> | 'cancelled' {
  if (err instanceof StreamFailure) return err.failure;
  if (timedOut) return { status: null, code: null, message: '', transport: 'timeout' };
  if (err instanceof OpenAI.APIUserAbortError) return 'cancelled';
  if (err instanceof OpenAI.APIConnectionTimeoutError) return { status: null, code: null, message: '', transport: 'timeout' };
  if (err instanceof OpenAI.APIConnectionError) {
    return { status: null, code: null, message: err.message, transport: 'connection' };
  }
  if (err instanceof OpenAI.APIError) {
    const body = (err.error ?? {}) as Record<string, unknown>;
    const message = typeof body.message === 'string' ? body.message : err.message;
    const code = typeof body.code === 'string' ? body.code : null;
    // The server extension's proxy says so when the provider itself could not be reached.
    const proxyType = typeof body.type === 'string' ? body.type : '';
    if (proxyType === 'crane_llm_proxy_unreachable') return { status: null, code, message, transport: 'connection' };
    if (proxyType === 'crane_llm_proxy_timeout') return { status: null, code, message, transport: 'timeout' };
    return { status: err.status ?? null, code, message: message ?? '', transport: null };
  }
  if (err instanceof Error && err.name === 'AbortError') return 'cancelled';
  return { status: null, code: null, message: err instanceof Error ? err.message : String(err), transport: null };
}

async function streamText(
  client: OpenAI,
  apiKind: ApiKind,
  body: RequestBody,
  onText: (chunk: string) => void,
  options: { signal: AbortSignal; timeout: number; maxRetries: number }
): Promise<Answer> {
  const chunks: string[] = [];
  const answer: Answer = { text: '', usage: null, cut: false };
  if (apiKind === 'responses') {
    // `never`: the body is ours, built to the golden vectors; the SDK sends it as it is.
    const stream = (await client.responses.create(body as never, options)) as unknown as AsyncIterable<ResponsesEvent>;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') {
        chunks.push(event.delta);
        onText(event.delta);
      } else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
        answer.usage = event.response?.usage ?? null;
        answer.cut = event.response?.incomplete_details?.reason === 'max_output_tokens';
      } else if (event.type === 'response.failed' || event.type === 'error') {
        const err = event.response?.error ?? event;
        throw new StreamFailure({ status: null, code: err?.code ?? null, message: err?.message ?? '', transport: null });
      }
    }
  } else {
    const stream = (await client.chat.completions.create(body as never, options)) as unknown as AsyncIterable<ChatChunk>;
    for await (const chunk of stream) {
      const choice = chunk?.choices?.[0];
      const piece = choice?.delta?.content;
      if (typeof piece === 'string' && piece) {
        chunks.push(piece);
        onText(piece);
      }
      if (choice?.finish_reason === 'length') answer.cut = true;
      // With stream_options.include_usage the usage comes in a last chunk without choices.
      if (chunk?.usage) answer.usage = chunk.usage;
    }
  }
  // The SDK ends a stream quietly when its signal aborts, so a cut-off answer must be caught here.
  if (options.signal.aborted) throw new OpenAI.APIUserAbortError();
  answer.text = chunks.join('');
  return answer;
}

/** Adapts the request to a refused optional parameter, once each; false when nothing is left to change. */
function adapt(shape: Required<BodyOptions>, apiKind: ApiKind, failure: Pick<Failure, 'status' | 'code' | 'message'>): boolean {
  const refused = rejectedParameter(failure.status, failure.code, failure.message);
  if (refused === 'format' && shape.structured) shape.structured = false;
  else if (refused === 'limit' && apiKind === 'chat' && shape.limitField === 'max_completion_tokens') shape.limitField = 'max_tokens';
  else if (refused === 'stream-usage' && apiKind === 'chat' && shape.streamUsage) shape.streamUsage = false;
  else return false;
  return true;
}

/** One model call for a built prompt. Never throws for a provider problem. */
export async function callModel(opts: ModelCallOptions): Promise<ModelCallResult> {
  if (!opts.model) {
    return {
      verdict: null,
      parsed: null,
      raw: '',
      prompt: opts.prompt,
      problem: {
        kind: 'other',
        message: `No model is set for ${opts.providerHost}. Set one with crane_llm.set_api_key(model="...") or the CRANE_LLM_MODEL variable.`
      },
      structuredFallback: false,
      requestBody: requestBody(opts.apiKind, opts.prompt, '', { maxOutputTokens: opts.maxOutputTokens }),
      usage: null,
      cutAtLimit: null
    };
  }
  const model = opts.model;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  const client = new OpenAI({
    apiKey: opts.apiKey ?? PLACEHOLDER_API_KEY,
    baseURL: opts.baseURL,
    fetch: opts.fetch,
    dangerouslyAllowBrowser: true,
    maxRetries,
    timeout: timeoutMs
  });
  const onText = opts.onText ?? (() => undefined);
  // One deadline for the whole call, streaming included: the SDK's own timeout stops at the headers.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);
  if (opts.signal?.aborted) controller.abort();
  const shape: Required<BodyOptions> = {
    structured: true,
    maxOutputTokens: opts.maxOutputTokens === undefined ? DEFAULT_MAX_OUTPUT_TOKENS : opts.maxOutputTokens,
    limitField: 'max_completion_tokens',
    streamUsage: true
  };
  let body = requestBody(opts.apiKind, opts.prompt, model, shape);
  const result = (partial: Partial<ModelCallResult>): ModelCallResult => ({
    verdict: null,
    parsed: null,
    raw: '',
    prompt: opts.prompt,
    problem: null,
    structuredFallback: !shape.structured,
    requestBody: body,
    usage: null,
    cutAtLimit: null,
    ...partial
  });
  try {
    for (;;) {
      try {
        const answer = await streamText(client, opts.apiKind, body, onText, {
          signal: controller.signal,
          timeout: timeoutMs,
          maxRetries
        });
        const cutAtLimit = answer.cut ? shape.maxOutputTokens : null;
        const parsed = cutAtLimit ? cutVerdict(cutAtLimit) : parseVerdict(answer.text);
        return result({
          raw: answer.text,
          parsed,
          verdict: toVerdict(parsed, model, opts.checkerRanFirst ?? true),
          usage: answer.usage,
          cutAtLimit
        });
      } catch (err) {
        const refusal = jupyterRefusal(err, opts.baseURL);
        if (refusal) return result({ problem: refusal });
        const failure = failureOf(err, timedOut);
        if (failure === 'cancelled') {
          return result({ problem: { kind: 'cancelled', message: 'The check was cancelled.' } });
        }
        if (adapt(shape, opts.apiKind, failure)) {
          body = requestBody(opts.apiKind, opts.prompt, model, shape);
          continue;
        }
        const problem = describeFailure({
          ...failure,
          host: opts.providerHost,
          model,
          keyFound: opts.keyFound ?? true,
          retries: maxRetries,
          timeoutSeconds: timeoutMs / 1000,
          baseUrl: opts.configuredBaseUrl ?? null
        });
        return result({ problem });
      }
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The proxy's URL under a Jupyter server base URL (which may carry a JupyterHub prefix). */
export function proxyBaseUrl(serverBaseUrl: string): string {
  return `${serverBaseUrl.replace(/\/+$/, '')}/crane-llm/v1`;
}
