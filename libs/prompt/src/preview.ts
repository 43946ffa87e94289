/**
 * The request a check is about to send, described for the user: where it goes, which model and API,
 * how big it is, what it holds back, and the prompt itself. The magic's `--preview` prints it and
 * JupyterLab's "Ask before sending" dialog shows it. Twin: python/crane_llm/prompt/preview.py,
 * held by fixtures/preview/cases.json.
 */
import type { Disclosure } from './from-check';

export const STAYS_HERE = 'stays on this machine';
export const LEAVES = 'leaves this machine';

/** What the preview needs to know about the provider (never the key). */
export interface PreviewProvider {
  providerHost: string;
  /** The endpoint is this machine: localhost, 127.x, ::1, a unix socket (the server decides). */
  providerLocal: boolean;
  model: string | null;
  apiKind: 'responses' | 'chat';
}

export interface RequestPreview {
  host: string;
  /** "stays on this machine" or "leaves this machine". */
  where: string;
  local: boolean;
  model: string;
  api: string;
  /** "about 1,234 tokens" */
  size: string;
  /** "2 secrets masked; data values left out" */
  heldBack: string;
  prompt: string;
}

/** "2 secrets masked; data values left out": what the prompt holds back. */
export function disclosureText(d: Disclosure): string {
  const parts = [d.masked === 1 ? '1 secret masked' : `${d.masked} secrets masked`];
  if (d.runtimeInfoLeftOut) parts.push('runtime information left out');
  else if (d.valuesLeftOut) parts.push('data values left out');
  return parts.join('; ');
}

export function requestPreview(
  provider: PreviewProvider,
  prompt: { text: string; estimatedTokens: number },
  disclosure: Disclosure
): RequestPreview {
  return {
    host: provider.providerHost,
    where: provider.providerLocal ? STAYS_HERE : LEAVES,
    local: provider.providerLocal,
    model: provider.model ?? '(no model set)',
    api: provider.apiKind === 'chat' ? 'Chat Completions' : 'Responses API',
    size: `about ${prompt.estimatedTokens.toLocaleString('en')} tokens`,
    heldBack: disclosureText(disclosure),
    prompt: prompt.text
  };
}

/** The preview's heading lines, label and value, in the order every host shows them. */
export function previewRows(p: RequestPreview): [string, string][] {
  return [
    ['Host', `${p.host} (${p.where})`],
    ['Model', p.model],
    ['API', p.api],
    ['Size', p.size],
    ['Held back', p.heldBack]
  ];
}
