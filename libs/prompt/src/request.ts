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

export type RequestBody = Record<string, unknown>;

export function responsesBody(prompt: BuiltPrompt, model: string, structured = true): RequestBody {
  const body: RequestBody = { model, instructions: prompt.instructions, input: prompt.input };
  if (structured) {
    body.text = { format: { type: 'json_schema', name: SCHEMA_NAME, schema: VERDICT_SCHEMA, strict: true } };
  }
  body.stream = true;
  return body;
}

export function chatBody(prompt: BuiltPrompt, model: string, structured = true): RequestBody {
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
      json_schema: { name: SCHEMA_NAME, schema: VERDICT_SCHEMA, strict: true }
    };
  }
  body.stream = true;
  return body;
}

export function requestBody(apiKind: ApiKind, prompt: BuiltPrompt, model: string, structured = true): RequestBody {
  return apiKind === 'responses' ? responsesBody(prompt, model, structured) : chatBody(prompt, model, structured);
}
