import { ICON, colourOf, headlineOf, type Colour } from './present';
import type { Verdict } from './verdict';
import { usageText, type TokenUsage } from './usage';

/**
 * One model call of this session, as "What was sent, this session" lists it. Kept in the browser's
 * memory only: never written to the notebook, the settings or a log. Holds no key (the browser has none).
 */
export interface SentCall {
  /** Increasing within the session; the list's newest first. */
  id: number;
  /** When the request went out (ISO 8601). */
  at: string;
  /** "analysis.ipynb, cell 3" */
  cell: string;
  host: string;
  /** The endpoint is on this machine. */
  local: boolean;
  model: string;
  /** The prompt's estimated size (as the token budget counts it: promptWeight / 4 in @crane-llm/prompt). */
  promptTokens: number;
  /** Token counts as the provider reported them, or null. */
  usage: TokenUsage | null;
  /** What came of it: a verdict, or why there is none. */
  outcome: { verdict: Verdict } | { problem: 'failed' | 'cancelled'; message: string };
  /** Exactly the prompt that was sent, and the response as it arrived. */
  prompt: string;
  raw: string;
}

/** One row of the list, as text: every host draws these words. */
export interface SentRow {
  time: string;
  cell: string;
  host: string;
  model: string;
  size: string;
  usage: string;
  verdict: string;
  colour: Colour;
  icon: string;
}

const n = (value: number) => value.toLocaleString('en');

/** "14:03:27" in the user's clock, 24-hour, so rows line up. */
export function timeText(iso: string): string {
  const d = new Date(iso);
  const two = (v: number) => String(v).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export function sentRow(call: SentCall): SentRow {
  const outcome = call.outcome;
  const verdict = 'verdict' in outcome ? outcome.verdict : null;
  const problem = 'problem' in outcome ? outcome.problem : null;
  const colour: Colour = verdict ? colourOf(verdict.kind, false) : 'amber';
  return {
    time: timeText(call.at),
    cell: call.cell,
    host: `${call.host} (${call.local ? 'this machine' : 'left this machine'})`,
    model: call.model,
    size: `about ${n(call.promptTokens)} tokens`,
    usage: usageText(call.usage),
    verdict: verdict ? headlineOf(verdict) : problem === 'cancelled' ? 'Cancelled while answering' : 'No verdict: the call failed',
    colour,
    icon: ICON[colour]
  };
}
