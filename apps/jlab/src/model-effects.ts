import type { CheckResult } from '@crane-llm/core';
import {
  buildPrompt,
  callModel,
  promptInputFromCheck,
  proxyBaseUrl,
  type BuiltPrompt,
  type Disclosure,
  type FetchLike,
  type ServerSettings
} from '@crane-llm/prompt';
import type { CheckOptions, ModelAnswer, PreparedPrompt, ProviderInfo } from './run-check';

/**
 * The model half of a check, from libs/prompt: the prompt from the kernel's facts, and the call
 * through the Jupyter server extension's proxy (the key is added there, never in the browser).
 */

export function providerInfo(settings: ServerSettings): ProviderInfo {
  return { model: settings.model, host: settings.providerHost, keyFound: settings.keyFound, keyRequired: settings.keyRequired };
}

/** "2 secrets masked; data values left out": what the prompt holds back, in the words the sidebar shows. */
export function disclosureText(d: Disclosure): string {
  const parts = [d.masked === 1 ? '1 secret masked' : `${d.masked} secrets masked`];
  if (d.runtimeInfoLeftOut) parts.push('runtime information left out');
  else if (d.valuesLeftOut) parts.push('data values left out');
  return parts.join('; ');
}

export function preparePrompt(facts: CheckResult, source: string, options: Pick<CheckOptions, 'includeRuntimeInfo' | 'includeValues'>): PreparedPrompt {
  // The switches are the truth: with one off, nothing it covers goes out, whatever arrived.
  const input = promptInputFromCheck(options.includeRuntimeInfo ? facts : { ...facts, runtimeInfo: null }, source, null, options.includeValues);
  const built = buildPrompt(input);
  const parts = [`about ${built.estimatedTokens.toLocaleString('en')} tokens`, `${facts.executed.length} executed cells`];
  if (built.dropped.length) parts.push(`the oldest ${built.dropped.length} left out to fit the size limit`);
  if (built.overBudget) parts.push('still over the size limit');
  parts.push(disclosureText(input.disclosure));
  return { text: built.text, detail: parts.join('; '), payload: built, disclosure: input.disclosure };
}

export async function predict(
  call: {
    prompt: PreparedPrompt;
    checkerRanFirst: boolean;
    onText: (chunk: string) => void;
    signal: AbortSignal;
  },
  settings: ServerSettings,
  serverBaseUrl: string,
  fetch: FetchLike
): Promise<ModelAnswer> {
  if (!settings.model) {
    return {
      verdict: null,
      raw: '',
      problem: {
        kind: 'other',
        message: `No model is set for ${settings.providerHost}. Set one with crane_llm.set_api_key(model="...") or the CRANE_LLM_MODEL variable.`
      }
    };
  }
  const result = await callModel({
    prompt: call.prompt.payload as BuiltPrompt,
    model: settings.model,
    apiKind: settings.apiKind,
    baseURL: proxyBaseUrl(serverBaseUrl),
    providerHost: settings.providerHost,
    keyFound: settings.keyFound || !settings.keyRequired,
    fetch,
    onText: call.onText,
    signal: call.signal,
    checkerRanFirst: call.checkerRanFirst
  });
  return { verdict: result.verdict, raw: result.raw, problem: result.problem };
}
