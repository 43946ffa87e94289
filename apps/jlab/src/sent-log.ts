import { Signal, type ISignal } from '@lumino/signaling';
import { tokenUsage, type SentCall } from '@crane-llm/core';
import type { BuiltPrompt } from '@crane-llm/prompt';
import type { ModelAnswer, PreparedPrompt } from './run-check';
import type { ServerProvider } from './model-effects';

/** How many calls the session keeps; the oldest go first (the list is a record, not an archive). */
export const SENT_LOG_LIMIT = 200;

/** This session's model calls, in memory only: a page reload empties it. */
export class SentLog {
  private calls: SentCall[] = [];
  private nextId = 1;
  private readonly changedSignal = new Signal<this, void>(this);

  get changed(): ISignal<this, void> {
    return this.changedSignal;
  }

  get all(): readonly SentCall[] {
    return this.calls;
  }

  add(call: Omit<SentCall, 'id'>): SentCall {
    const entry = { ...call, id: this.nextId++ };
    this.calls = [...this.calls, entry].slice(-SENT_LOG_LIMIT);
    this.changedSignal.emit();
    return entry;
  }
}

/** A sent request as the list keeps it, from what the check flow reports. */
export function sentCallOf(
  cell: string,
  call: { prompt: PreparedPrompt<BuiltPrompt>; provider: ServerProvider; answer: ModelAnswer; at: Date }
): Omit<SentCall, 'id'> {
  const { answer, provider } = call;
  const outcome: SentCall['outcome'] = answer.verdict
    ? { verdict: answer.verdict }
    : { problem: answer.problem?.kind === 'cancelled' ? 'cancelled' : 'failed', message: answer.problem?.message ?? 'The model call failed.' };
  return {
    at: call.at.toISOString(),
    cell,
    host: provider.settings.providerHost,
    local: provider.settings.providerLocal,
    model: provider.settings.model ?? '(no model set)',
    promptTokens: call.prompt.built.estimatedTokens,
    usage: tokenUsage(answer.usage),
    outcome,
    prompt: call.prompt.built.text,
    raw: answer.raw
  };
}
