/**
 * The request bodies for both APIs, exactly as sent (twin of python/crane_llm/prompt/request.py).
 * No base_url: the Responses API, as the paper's experiments used. A base_url: Chat Completions.
 * `structured: false` is the one retry for servers that reject the structured-output parameter.
 */
import type { BuiltPrompt } from './build';

export type ApiKind = 'responses' | 'chat';

export const SCHEMA_NAME = 'crane_llm_verdict';

// Explanation first, so a model without hidden reasoning writes its diagnosis before the boolean;
// strict mode needs every property required and nullables written as type lists.
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    explanation: { type: 'string' },
    crash: { type: 'boolean' },
    exception: { type: ['string', 'null'] },
    line: { type: ['integer', 'null'] },
    variables: { type: 'array', items: { type: 'string' } }
  },
  required: ['explanation', 'crash', 'exception', 'line', 'variables'],
  additionalProperties: false
} as const;

/** The product prompt's answer: the paper's fields, then the fixed cell. */
export const FIX_VERDICT_SCHEMA = {
  ...VERDICT_SCHEMA,
  properties: { ...VERDICT_SCHEMA.properties, fix: { type: ['string', 'null'] } },
  required: [...VERDICT_SCHEMA.required, 'fix']
} as const;

function answerSchema(prompt: BuiltPrompt) {
  return prompt.style === 'paper' ? VERDICT_SCHEMA : FIX_VERDICT_SCHEMA;
}

export type RequestBody = Record<string, unknown>;

/** Room for a reasoning model to think before it answers; the verdict itself is a few hundred tokens. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8000;
export type ChatLimitField = 'max_completion_tokens' | 'max_tokens';

/**
 * The optional parts of a request. Every request carries an output limit (a runaway answer from a
 * small model once took 6,000 tokens and two minutes); Chat Completions names it
 * max_completion_tokens (OpenAI's current name) and asks for usage on the stream. `max_tokens` and
 * `streamUsage: false` are the retries for servers that refuse those.
 */
export interface BodyOptions {
  structured?: boolean;
  /** null: no limit sent. */
  maxOutputTokens?: number | null;
  limitField?: ChatLimitField;
  streamUsage?: boolean;
}

export function responsesBody(prompt: BuiltPrompt, model: string, options: BodyOptions = {}): RequestBody {
  const { structured = true, maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS } = options;
  const body: RequestBody = { model, instructions: prompt.instructions, input: prompt.input };
  if (structured) {
    body.text = { format: { type: 'json_schema', name: SCHEMA_NAME, schema: answerSchema(prompt), strict: true } };
  }
  if (maxOutputTokens) body.max_output_tokens = maxOutputTokens;
  body.stream = true;
  return body;
}

export function chatBody(prompt: BuiltPrompt, model: string, options: BodyOptions = {}): RequestBody {
  const { structured = true, maxOutputTokens = DEFAULT_MAX_OUTPUT_TOKENS, limitField = 'max_completion_tokens', streamUsage = true } = options;
  const body: RequestBody = {
    model,
    messages: [
      { role: 'system', content: prompt.instructions },
      { role: 'user', content: prompt.input }
    ]
  };
  if (structured) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: SCHEMA_NAME, schema: answerSchema(prompt), strict: true }
    };
  }
  if (maxOutputTokens) body[limitField] = maxOutputTokens;
  body.stream = true;
  if (streamUsage) body.stream_options = { include_usage: true };
  return body;
}

/** limitField and streamUsage concern Chat Completions only. */
export function requestBody(apiKind: ApiKind, prompt: BuiltPrompt, model: string, options: BodyOptions = {}): RequestBody {
  return apiKind === 'responses' ? responsesBody(prompt, model, options) : chatBody(prompt, model, options);
}
