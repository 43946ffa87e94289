import type { CheckResult } from '@crane-llm/core';
import {
  buildPrompt,
  callModel,
  promptInputFromCheck,
  proxyBaseUrl,
  type BuiltPrompt,
  disclosureText,
  type FetchLike,
  type ServerSettings
} from '@crane-llm/prompt';
import type { CheckEffects, CheckOptions, ModelAnswer, PreparedPrompt, ProviderInfo } from './run-check';

/**
 * The model half of a check, from libs/prompt: the prompt from the kernel's facts, and the call
 * through the Jupyter server extension's proxy (the key is added there, never in the browser).
 */

/** The provider as the check flow reads it, with the server's settings the call is made with. */
export type ServerProvider = ProviderInfo & { settings: ServerSettings };

/** The effects a JupyterLab check has, with the provider and prompt types they carry to predict. */
export type JupyterCheckEffects = CheckEffects<ServerProvider, BuiltPrompt>;

export function providerInfo(settings: ServerSettings): ProviderInfo {
  return { model: settings.model, host: settings.providerHost, keyFound: settings.keyFound, keyRequired: settings.keyRequired };
}

export function serverProvider(settings: ServerSettings): ServerProvider {
  return { ...providerInfo(settings), settings };
}

export function preparePrompt(
  facts: CheckResult,
  source: string,
  options: Pick<CheckOptions, 'includeRuntimeInfo' | 'includeValues'>
): PreparedPrompt<BuiltPrompt> {
  // The switches are the truth: with one off, nothing it covers goes out, whatever arrived.
  const input = promptInputFromCheck(options.includeRuntimeInfo ? facts : { ...facts, runtimeInfo: null }, source, null, options.includeValues);
  const built = buildPrompt(input);
  const parts = [`about ${built.estimatedTokens.toLocaleString('en')} tokens`, `${input.executed.length} executed cells`];
  if (built.dropped.length) parts.push(`the oldest ${built.dropped.length} left out to fit the size limit`);
  if (built.runtimeInfoCut) parts.push(`${built.runtimeInfoCut} lines of runtime information left out to fit the size limit`);
  if (built.overBudget) parts.push('still over the size limit');
  parts.push(disclosureText(input.disclosure));
  return { text: built.text, detail: parts.join('; '), built, disclosure: input.disclosure };
}

export async function predict(
  call: Parameters<JupyterCheckEffects['predict']>[0],
  serverBaseUrl: string,
  fetch: FetchLike
): Promise<ModelAnswer> {
  const { settings } = call.provider;
  const result = await callModel({
    prompt: call.prompt.built,
    model: settings.model,
    apiKind: settings.apiKind,
    baseURL: proxyBaseUrl(serverBaseUrl),
    providerHost: settings.providerHost,
    keyFound: settings.keyFound || !settings.keyRequired,
    configuredBaseUrl: settings.baseUrl,
    maxOutputTokens: settings.maxOutputTokens,
    fetch,
    onText: call.onText,
    signal: call.signal,
    checkerRanFirst: call.checkerRanFirst
  });
  return { verdict: result.verdict, raw: result.raw, problem: result.problem, usage: result.usage, cutAtLimit: result.cutAtLimit };
}
