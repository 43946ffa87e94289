import {
  cancelled,
  checksRun,
  certainCrash,
  concluded,
  failed,
  nothingCertain,
  originFound,
  promptBuilt,
  rawReceived,
  usageReported,
  rawReset,
  started,
  stepEnded,
  stepStarted,
  type CheckRequest,
  type CheckResult,
  type CheckState,
  type ExecutionLog,
  type OriginItem,
  ProblemKind,
  type Switches,
  type Verdict
} from '@crane-llm/core';
import type { Disclosure, Problem } from '@crane-llm/prompt';

/** What the provider side reports before a model call: enough to say where it goes and whether it can. */
export interface ProviderInfo {
  model: string | null;
  /** Host (and port) of the provider, for the steps and the error messages. */
  host: string;
  keyFound: boolean;
  keyRequired: boolean;
}

/** A prompt ready to send: what the sidebar shows, and the built prompt the predict effect sends. */
export interface PreparedPrompt<Built> {
  /** What the sidebar shows as the prompt. */
  text: string;
  /** Shown as the step's detail, e.g. "about 1,200 tokens; cells 1-3 left out". */
  detail: string;
  built: Built;
  /** What the prompt holds back (masked secrets, values or runtime information left out). */
  disclosure?: Disclosure;
}

export interface ModelAnswer {
  verdict: Verdict | null;
  raw: string;
  /** Why there is no verdict; `cancelled` when the signal stopped it. */
  problem: Problem | null;
  /** Token counts as the provider reported them, when it did. */
  usage?: Record<string, unknown> | null;
  /** The output limit that cut the answer short, else null. */
  cutAtLimit?: number | null;
}

/**
 * The model step's label while the answer streams (twin of the magic's answering_label). The count
 * is of streamed pieces, an estimate of the tokens: OpenAI, llama.cpp and Ollama send one token a
 * piece, other servers may group several; only the provider's count once answered is exact.
 */
export function answeringLabel(model: string, host: string, pieces: number): string {
  return `${model} at ${host} is answering: about ${pieces.toLocaleString('en')} token${pieces === 1 ? '' : 's'} so far`;
}

/**
 * The model step's label once the answer is in (twin of the magic's asked_label): no longer the
 * running count, which counts streamed pieces and would read as stuck next to the provider's own
 * count in the detail ("answering: about 9 tokens so far — cut at the output limit of 16 tokens").
 */
export function askedLabel(model: string, host: string): string {
  return `Asked ${model} at ${host}`;
}

/**
 * "answered (412 tokens)", the provider's count, or why the answer is not a verdict (twin of the
 * magic's answered_detail); a provider that reports no usage leaves the estimate, "about 412 tokens".
 */
export function answeredDetail(answer: ModelAnswer, verdict: Verdict, pieces: number): string {
  const usage = answer.usage ?? {};
  const reported = [usage.output_tokens, usage.completion_tokens].find(n => typeof n === 'number' && n > 0) as number | undefined;
  const count = reported !== undefined ? `${reported.toLocaleString('en')} tokens` : pieces ? `about ${pieces.toLocaleString('en')} tokens` : '';
  const said = count ? `answered (${count})` : 'answered';
  if (answer.cutAtLimit) return `cut at the output limit of ${answer.cutAtLimit.toLocaleString('en')} tokens`;
  if (verdict.kind === 'unreadable') return `${said}, but not with a readable verdict`;
  return said;
}

/**
 * The effects a check needs, injected so the flow itself can be tested without a kernel or a server.
 * What the provider effect answers (Provider) and the prompt effect builds (Built) is handed to
 * predict as it is: the flow reads the ProviderInfo part and passes the rest through.
 */
export interface CheckEffects<Provider extends ProviderInfo = ProviderInfo, Built = null> {
  facts(req: CheckRequest): Promise<CheckResult>;
  provider(): Promise<Provider>;
  prompt(facts: CheckResult, source: string, options: CheckOptions): PreparedPrompt<Built>;
  predict(call: {
    prompt: PreparedPrompt<Built>;
    provider: Provider;
    checkerRanFirst: boolean;
    onText: (chunk: string) => void;
    onRetry: () => void;
    signal: AbortSignal;
  }): Promise<ModelAnswer>;
  /**
   * "Ask before sending": shows the request about to go out; false sends nothing. Absent when the
   * setting is off.
   */
  confirm?(call: { prompt: PreparedPrompt<Built>; provider: Provider; signal: AbortSignal }): Promise<boolean>;
  /** Told of every request that went out, whatever came of it ("What was sent, this session"). */
  sent?(call: { cellId: string | null; prompt: PreparedPrompt<Built>; provider: Provider; answer: ModelAnswer; at: Date }): void;
  /** The origin of the crash for a crash verdict; absent until the lineage is wired. */
  origin?(verdict: Verdict, facts: CheckResult, cellId: string | null): OriginItem[];
  /**
   * The execution log a reply left out (`logDeferred`), asked for once the verdict is drawn. Its
   * presence makes the facts request ask for that (`deferLog`): a certain verdict then waits for
   * nothing the verdict does not show. Null: the kernel could not give it (no origin then).
   */
  log?(deferred: { runs: number }): Promise<ExecutionLog | null>;
}

export type CheckOptions = Switches;

/** Why a running check was stopped from outside: the user, a kernel restart, a closed notebook. */
export interface StopReason {
  kind: 'cancel' | ProblemKind;
  message: string;
}

/** The model step's detail when the user chose Cancel in "Ask before sending". */
export const NOT_SENT_TEXT = 'not sent: you chose Cancel in "Ask before sending", so nothing left for the model';

export const ASKING_LABEL = 'Ask before sending: waiting for Send or Cancel';

export const NOTHING_CERTAIN_TEXT =
  'This is not a "no crash" prediction: the built-in checks only report crashes they are certain of, and nothing was sent to any model.';

export function noKeyMessage(host: string): string {
  return (
    `No API key was found for ${host}, and "Use the LLM" is on. Set one in any notebook cell with ` +
    '`import crane_llm; crane_llm.set_api_key("sk-...")` (or the CRANE_LLM_API_KEY environment variable), then check again; ' +
    'or turn "Use the LLM" off to run the built-in checks only. The built-in checks already ran and found no certain crash.'
  );
}

/**
 * What the kernel's time budget cut, added to the checks step (same words as the magic's steps).
 * Empty when the budget did not run out and its setting was usable.
 */
export function budgetDetail(facts: CheckResult): string {
  const budget = facts.budget;
  if (!budget) return '';
  let text = '';
  if (budget.ranOut) text += `; the time budget of ${budget.seconds} s ran out, so the kernel left out ${budget.cut.join('; ')}`;
  if (budget.warning) text += ` (${budget.warning})`;
  return text;
}

function checksDetail(facts: CheckResult): string {
  const stop = facts.checks.stoppedAt;
  const ms = `${facts.checks.elapsedMs.toFixed(1)} ms`;
  if (facts.checks.crash) return `found a certain ${facts.checks.crash.exception} (${ms})`;
  if (!stop) return `nothing certain; read the whole cell (${ms})`;
  const where = stop.line === null || /\bline\b/.test(stop.reason) ? '' : ` at line ${stop.line}`;
  return `nothing certain; stopped${where}: ${stop.reason} (${ms})`;
}

/**
 * One check of one cell: the built-in checks in the kernel first, then, if they found nothing
 * certain and the LLM is on, the prompt and the model. Every intermediate state is emitted so the
 * UI shows the steps as they happen; a stop (cancel, kernel restart, closed notebook) ends it at
 * once, and whatever arrives afterwards is ignored.
 */
export async function runCheck<Provider extends ProviderInfo, Built>(
  cell: { id: string | null; source: string },
  options: CheckOptions,
  effects: CheckEffects<Provider, Built>,
  emit: (state: CheckState) => void,
  signal: AbortSignal = new AbortController().signal
): Promise<CheckState> {
  let state = started(cell.id);
  const update = (next: (s: CheckState) => CheckState): CheckState => {
    const after = next(state);
    if (after !== state) {
      state = after;
      emit(state);
    }
    return state;
  };
  const onStop = () => {
    const reason = signal.reason as StopReason | undefined;
    const kind = reason?.kind ?? 'cancel';
    if (kind === 'cancel') update(cancelled);
    else update(s => failed(s, reason!.message, kind));
  };
  // The kernel request goes out before anything is drawn: the kernel answers while the browser
  // shows the steps, instead of after.
  const factsAnswer = signal.aborted
    ? null
    : effects.facts({
        protocol: 1,
        source: cell.source,
        cellId: cell.id,
        useLlm: options.useLlm,
        includeRuntimeInfo: options.includeRuntimeInfo,
        ...(effects.log ? { deferLog: true } : {})
      });
  factsAnswer?.catch(() => undefined); // awaited (and its failure reported) in flow()
  emit(state);
  if (signal.aborted || !factsAnswer) {
    onStop();
    return state;
  }
  signal.addEventListener('abort', onStop, { once: true });
  try {
    return await flow(factsAnswer);
  } finally {
    signal.removeEventListener('abort', onStop);
  }

  async function flow(factsAnswer: Promise<CheckResult>): Promise<CheckState> {
    const checksOn = checksRun(options);
    update(s =>
      stepStarted(s, 'checks', checksOn ? 'Built-in checker on the live kernel state' : 'Reading the executed cells from the kernel')
    );
    let facts: CheckResult;
    try {
      facts = await factsAnswer;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const kind: ProblemKind = (error as { kind?: string }).kind === 'not-installed' ? 'not-installed' : 'kernel';
      return update(s => failed(s, message, kind));
    }
    if (signal.aborted) return state;
    update(s =>
      facts.checks.ran
        ? stepEnded(s, 'checks', 'done', checksDetail(facts) + budgetDetail(facts))
        : stepEnded(s, 'checks', 'skipped', 'built-in checks skipped: runtime information is off, so the model gets the code alone' + budgetDetail(facts))
    );
    const crash = facts.checks.crash;
    if (crash) {
      // A "Did you mean `df`?" names the run that defined `df`, as the kernel found it in its log.
      return await finish(certainCrash(crash, facts.definedIn ?? null), facts);
    }
    if (!options.useLlm) return update(s => concluded(s, nothingCertain(NOTHING_CERTAIN_TEXT)));

    // The provider settings are asked for only now: a certain verdict needs nothing but the kernel's
    // answer, and a request to the Jupyter server alongside it would compete with the relay of that answer.
    const settled = await effects.provider().then(ok, bad);
    if (signal.aborted) return state;
    if ('error' in settled) return update(s => failed(s, settled.error, settled.problem ?? 'server'));
    const info = settled.value;
    if (!info.keyFound && info.keyRequired) return update(s => failed(s, noKeyMessage(info.host), 'no-key'));

    update(s => stepStarted(s, 'prompt', options.includeRuntimeInfo ? 'Building the prompt (code and runtime information)' : 'Building the prompt (code only)'));
    let prompt: PreparedPrompt<Built>;
    try {
      prompt = effects.prompt(facts, cell.source, options);
    } catch (error) {
      return update(s => failed(s, `The prompt could not be built: ${String(error)}`, 'internal'));
    }
    update(s => stepEnded(promptBuilt(s, prompt.text), 'prompt', 'done', prompt.detail));

    if (effects.confirm) {
      update(s => stepStarted(s, 'model', ASKING_LABEL));
      let send: boolean;
      try {
        send = await effects.confirm({ prompt, provider: settled.value, signal });
      } catch {
        send = false; // a dialog that could not be shown is no consent
      }
      if (signal.aborted) return state;
      if (!send) return update(s => cancelled(stepEnded(s, 'model', 'skipped', NOT_SENT_TEXT)));
    }
    update(s => stepStarted(s, 'model', `Waiting for ${info.model ?? 'the model'} at ${info.host}`));
    const sentAt = new Date();
    let pieces = 0; // streamed pieces: about one token each (see answeringLabel)
    const answer = await effects.predict({
      prompt,
      provider: info,
      checkerRanFirst: facts.checks.ran,
      onText: chunk => {
        pieces += 1;
        // A chunk arriving after a cancel changes nothing: the check has ended.
        update(s => (s.phase !== 'running' ? s : stepStarted(rawReceived(s, chunk), 'model', answeringLabel(info.model ?? 'the model', info.host, pieces))));
      },
      onRetry: () => {
        pieces = 0;
        update(rawReset);
      },
      signal
    });
    try {
      effects.sent?.({ cellId: cell.id, prompt, provider: settled.value, answer, at: sentAt });
    } catch {
      // The list is a record of what went out; failing to keep it does not change the verdict.
    }
    if (signal.aborted) return state;
    update(s => usageReported(s, answer.usage));
    if (!answer.verdict) {
      if (answer.problem?.kind === 'cancelled') return update(cancelled);
      // Keep what arrived: the raw text helps to see what went wrong.
      if (answer.raw && !state.raw) update(s => rawReceived(s, answer.raw));
      return update(s => failed(s, answer.problem?.message ?? 'The model call failed.', 'provider'));
    }
    if (answer.raw !== state.raw) update(s => rawReceived(rawReset(s), answer.raw));
    const verdict = answer.verdict;
    const asked = askedLabel(info.model ?? 'the model', info.host);
    update(s => stepEnded(stepStarted(s, 'model', asked), 'model', 'done', answeredDetail(answer, verdict, pieces)));
    return await finish(verdict, facts);
  }

  async function finish(verdict: Verdict, facts: CheckResult): Promise<CheckState> {
    update(s => concluded(s, verdict));
    const crashed = verdict.kind === 'certain-crash' || verdict.kind === 'predicted-crash';
    if (crashed && effects.origin) {
      // The verdict reaches the screen first; its origin follows a task later, with the log the
      // reply left out fetched only now.
      await new Promise(resolve => setTimeout(resolve, 0));
      if (signal.aborted) return state;
      try {
        const log = !facts.log && facts.logDeferred && effects.log ? await effects.log(facts.logDeferred) : facts.log;
        if (signal.aborted) return state;
        const items = effects.origin(verdict, { ...facts, log }, cell.id);
        if (items.length) update(s => originFound(s, items));
      } catch {
        // The origin is an aid: without it the verdict still stands.
      }
    }
    return state;
  }
}

type Settled<T> = { value: T } | { error: string; problem?: ProblemKind };
const ok = <T>(value: T): Settled<T> => ({ value });
const bad = (error: unknown): Settled<never> => ({
  error: error instanceof Error ? error.message : String(error),
  problem: problemOf(error)
});

/** An effect's error may say which kind of problem it is (the provider effect's settings check does). */
function problemOf(error: unknown): ProblemKind | undefined {
  const parsed = ProblemKind.safeParse((error as { problem?: unknown } | null)?.problem);
  return parsed.success ? parsed.data : undefined;
}
