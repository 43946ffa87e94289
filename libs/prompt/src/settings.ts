/**
 * What the Jupyter server extension's GET /crane-llm/settings answers: the resolved model settings
 * and where each came from, never the key itself.
 */
import { z } from 'zod';

export const SettingSource = z.strictObject({
  source: z.enum(['argument', 'env', 'dotenv', 'config', 'kaggle', 'colab', 'default', 'unset']),
  /** The variable, config field or secret name, e.g. "CRANE_LLM_MODEL"; null for argument/default/unset. */
  name: z.string().nullable(),
  label: z.string().describe('For people, e.g. "environment variable CRANE_LLM_MODEL" or "CRANE_LLM_MODEL in /home/me/project/.env".')
});
export type SettingSource = z.infer<typeof SettingSource>;

export const ServerSettings = z.strictObject({
  model: z.string().nullable(),
  baseUrl: z.string().nullable(),
  /** The api setting: auto follows the rule (no base_url: Responses; a base_url: Chat Completions). */
  api: z.enum(['auto', 'responses', 'chat']),
  /** The answer's output limit in tokens (max_output_tokens / max_completion_tokens). */
  maxOutputTokens: z.number().int().positive(),
  /** The API requests use: the api setting, or the rule when it is auto. */
  apiKind: z.enum(['responses', 'chat']),
  /** Host (and port) of the provider, named in error messages. */
  providerHost: z.string(),
  /** The endpoint is on this machine (localhost, 127.x, ::1, a unix socket): its requests never leave it. */
  providerLocal: z.boolean(),
  keyFound: z.boolean(),
  /** False for a local base_url (localhost), which needs no key. */
  keyRequired: z.boolean(),
  /** "Include data values" from CRANE_LLM_INCLUDE_VALUES or config.json (text when it could not be read). */
  includeValues: z.union([z.boolean(), z.string()]).nullable(),
  /** The administrator's ceiling, CRANE_LLM_POLICY: "no-llm", "no-runinfo", "no-values"; other text counts as "no-llm". */
  policy: z.string().nullable(),
  sources: z.strictObject({ model: SettingSource, baseUrl: SettingSource, apiKey: SettingSource, includeValues: SettingSource, policy: SettingSource, api: SettingSource, maxOutputTokens: SettingSource }),
  /** Files that could not be read (a config.json that is not JSON, a .env that is not UTF-8), each named; absent when none. */
  warnings: z.array(z.string()).optional()
});
export type ServerSettings = z.infer<typeof ServerSettings>;

export type PolicyLevel = 'no-llm' | 'no-runinfo' | 'no-values';

/** The ceiling in force: an unreadable level closes everything rather than nothing. */
export function policyLevel(policy: string | null | undefined): PolicyLevel | null {
  if (!policy) return null;
  return policy === 'no-runinfo' || policy === 'no-values' || policy === 'no-llm' ? policy : 'no-llm';
}

/** The server-relative path of the settings endpoint (join it to the server's base URL). */
export const SETTINGS_PATH = 'crane-llm/settings';
