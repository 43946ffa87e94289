import { z } from 'zod';

/**
 * The tokens one answer cost, as the provider reported them, in one shape for both APIs: the
 * Responses API says input_tokens/output_tokens, Chat Completions prompt_tokens/completion_tokens.
 * A count the provider left out is null (never guessed here).
 */
export const TokenUsage = z.object({ input: z.number().int().nonnegative().nullable(), output: z.number().int().nonnegative().nullable() });
export type TokenUsage = z.infer<typeof TokenUsage>;

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Either API's usage object (or anything else a server sent) as TokenUsage; null when it holds no count. */
export function tokenUsage(reported: unknown): TokenUsage | null {
  if (!reported || typeof reported !== 'object') return null;
  const u = reported as Record<string, unknown>;
  const input = count(u.input_tokens) ?? count(u.prompt_tokens);
  const output = count(u.output_tokens) ?? count(u.completion_tokens);
  return input === null && output === null ? null : { input, output };
}

/** "1,234 in, 56 out" (tokens), or what is known of it; the words the sidebar shows. */
export function usageText(usage: TokenUsage | null | undefined): string {
  if (!usage) return 'not reported by the provider';
  const input = usage.input === null ? 'input not reported' : `${usage.input.toLocaleString('en')} in`;
  const output = usage.output === null ? 'output not reported' : `${usage.output.toLocaleString('en')} out`;
  return `${input}, ${output}`;
}

/** "Tokens: 1,234 in, 56 out" under the raw response; empty while no model has answered (undefined). */
export function usageLine(usage: TokenUsage | null | undefined): string {
  return usage === undefined ? '' : `Tokens: ${usageText(usage)}`;
}
