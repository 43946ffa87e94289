/**
 * The prompt: executed cells in the order they ran, the runtime information, the target cell.
 * Twin of python/crane_llm/prompt/build.py; fixtures/prompt/*.json hold both to the same text.
 * The layout follows the paper's prompt input.
 */
import type { ExecutedCell } from '@crane-llm/core';

export const DEFAULT_BUDGET_TOKENS = 24000;

const HEAD_LINES = `You check cells of machine-learning notebooks for crashes before they run.
You are given:
`;
const CELLS_ITEM = `- [Executed Cells]: the cells that have already run, in the order they ran; they all finished without error,
`;
// In JupyterLab, and with `crane-llm check --keep-going`, the log can hold cells that raised.
const CELLS_ITEM_SOME_RAISED = `- [Executed Cells]: the cells that have already run, in the order they ran; each finished without error unless its heading says it raised,
`;
// With `--context slice`, the cells are only those the target depends on, and lines inside them it
// does not depend on are replaced by a marker (python/crane_llm/lineage/slice.py).
const CELLS_RAN = 'the cells that have already run, in the order they ran;';
const CELLS_RAN_SLICE =
  'the cells already run that the target depends on, in the order they ran (`# ...` marks lines left out);';
const SHARED_HEAD = HEAD_LINES + CELLS_ITEM;
const RUNINFO_ITEM = `- [Current relevant runtime information]: facts about the live objects the target cell uses (types, shapes, dtypes, columns, fitted state, values), read from the running kernel just now,
`;
const SHARED_TAIL = `- [Target Cell]: the cell about to run. It has not run yet.

Decide whether running the [Target Cell] now will raise an exception.
Answer with one JSON object and nothing else:
{"explanation": string, "crash": boolean, "exception": string or null, "line": integer or null, "variables": [string]}
- explanation: one or two sentences; if it crashes, the diagnosis (what fails and why), otherwise why it runs.
- crash: true only if you are CERTAIN the [Target Cell] will raise; when you are not certain, false.
- exception: the type name of the exception it raises, such as "KeyError"; null when crash is false.
- line: the 1-based line of the [Target Cell] that raises; null when crash is false or unknown.
- variables: the names of the variables involved in the crash; [] when there are none.`;
// The product's answer also carries a fix; the paper's prompt (the benchmark's `--prompt paper`) does not.
const FIX_TAIL = SHARED_TAIL.replace(
  '"variables": [string]}',
  '"variables": [string], "fix": string or null}'
).concat('\n- fix: when crash is true, the whole [Target Cell] corrected so that it runs; null when crash is false or you cannot tell.');

export type PromptStyle = 'product' | 'paper';

export const INSTRUCTIONS_WITH_RUNINFO = SHARED_HEAD + RUNINFO_ITEM + SHARED_TAIL;
export const INSTRUCTIONS_CODE_ONLY = SHARED_HEAD + SHARED_TAIL;
export const INSTRUCTIONS: Record<PromptStyle, { withRuntimeInfo: string; codeOnly: string }> = {
  paper: { withRuntimeInfo: INSTRUCTIONS_WITH_RUNINFO, codeOnly: INSTRUCTIONS_CODE_ONLY },
  product: { withRuntimeInfo: SHARED_HEAD + RUNINFO_ITEM + FIX_TAIL, codeOnly: SHARED_HEAD + FIX_TAIL }
};

const NO_CELLS = 'No cell has been executed.\n\n';

export interface PromptInput {
  /** Cells in the order they ran (the kernel's `executed`); `%%crane_llm` cells are left out. */
  executed: ExecutedCell[];
  /** The rendered runtime information; null when "Include runtime information" is off. */
  runtimeInfoText: string | null;
  /** The target cell's source. */
  target: string;
  /** Token budget; null or absent: DEFAULT_BUDGET_TOKENS. */
  budgetTokens?: number | null;
  /** 'product' (default) also asks for the fixed cell; 'paper' leaves that out, so the benchmark's figures compare with the paper's. */
  style?: PromptStyle;
  /** 'slice' when `executed` is the target's slice (the instructions then say so); default 'all'. */
  context?: 'all' | 'slice';
}

export interface DroppedCell {
  /** 1-based position in the executed list (its "Cell n" number). */
  position: number;
  executionCount: number | null;
  cellId: string | null;
}

export interface BuiltPrompt {
  /** Which answer the request asks for: with a fix (product) or without (paper). */
  style: PromptStyle;
  /** The instruction (the Responses API's `instructions`, the Chat system message). */
  instructions: string;
  /** The cells, runtime information and target (the Responses `input`, the Chat user message). */
  input: string;
  /** What the sidebar shows as "the prompt": instructions, a blank line, input. */
  text: string;
  /** The oldest executed cells left out to fit the budget, so the sidebar can say so. */
  dropped: DroppedCell[];
  estimatedTokens: number;
  budgetTokens: number;
  /** Lines of runtime information left out, last first, once every executed cell was dropped. */
  runtimeInfoCut: number;
  /** Still over budget after dropping every executed cell and cutting the runtime information (the target stays). */
  overBudget: boolean;
}

/**
 * Characters as Unicode code points, the unit both implementations agree on (not UTF-16 units),
 * for lengths shown ("<masked: N chars>"); the token budget counts promptWeight instead.
 */
export function countChars(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * The text's size in quarter tokens, the unit of the token budget: an ASCII character weighs 1,
 * any other code point of the Basic Multilingual Plane 4 (one token), one above U+FFFF 8 (two).
 * Code and English run about four characters a token, but other scripts (CJK, Cyrillic, Arabic,
 * accented text, emoji) run about a token a character or more, so counting characters / 4 would
 * let such a prompt overrun the budget several times over. A surrogate pair is one code point
 * above U+FFFF; a lone surrogate counts as a BMP code point, as in the Python twin.
 */
export function promptWeight(text: string): number {
  let weight = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      weight += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        weight += 8;
        i++;
      } else {
        weight += 4;
      }
    } else {
      weight += 4;
    }
  }
  return weight;
}

/**
 * About four characters a token for code and English, but about a token a character for non-Latin
 * text (two for a code point above U+FFFF): see promptWeight. Cheap, and the same in both languages.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(promptWeight(text) / 4);
}

function cellBlock(position: number, cell: ExecutedCell): string {
  const raised = cell.raised;
  if (!raised) return `## Cell ${position}:\n${cell.code}\n\n`;
  const where = raised.line != null ? ` at line ${raised.line}` : '';
  return `## Cell ${position} (it raised ${raised.exception}${where}):\n${cell.code}\n\n`;
}

function omittedNote(count: number): string {
  if (count === 0) return '';
  const cells = count === 1 ? 'Cell 1 was' : `Cells 1-${count} were`;
  return `(${cells} left out to keep the prompt within its size limit.)\n\n`;
}

function compose(blocks: string[], dropped: number, runtimeInfoText: string | null, target: string): string {
  const parts = ['# Executed Cells:\n'];
  if (blocks.length === 0 && dropped === 0) parts.push(NO_CELLS);
  parts.push(omittedNote(dropped));
  parts.push(...blocks.slice(dropped));
  if (runtimeInfoText !== null) parts.push(`# Current relevant runtime information:\n${runtimeInfoText}\n\n`);
  parts.push(`# Target Cell:\n${target}\n`);
  return parts.join('');
}

/** A `%%crane_llm` cell analysed its body and never ran it: it changed nothing in the kernel. */
export function isCraneLlmCell(code: string): boolean {
  return code.trimStart().startsWith('%%crane_llm');
}

function runtimeInfoCutNote(count: number): string {
  return `(${count} more line${count === 1 ? '' : 's'} of runtime information left out to keep the prompt within its size limit.)`;
}

/**
 * The runtime information cut to `allowance` (a promptWeight, quarter tokens): whole lines from the
 * top, then a note saying how many were left out. Returns the text and the number of lines left out.
 */
export function fitRuntimeInfo(text: string, allowance: number): [string, number] {
  if (promptWeight(text) <= allowance) return [text, 0];
  const lines = text.split('\n');
  let used = 0;
  let kept = 0;
  // The longest prefix of lines that fits with the note after it.
  for (let k = 1; k <= lines.length; k++) {
    const next = used + promptWeight(lines[k - 1]) + 1;
    if (next + promptWeight(runtimeInfoCutNote(lines.length - k)) > allowance) break;
    used = next;
    kept = k;
  }
  const cut = lines.length - kept;
  const shortened = [...lines.slice(0, kept), runtimeInfoCutNote(cut)].join('\n');
  // When not even the note fits (the target alone is over budget), a shorter original stays.
  return promptWeight(shortened) < promptWeight(text) ? [shortened, cut] : [text, 0];
}

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const budget = input.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const { target } = input;
  let runtimeInfoText = input.runtimeInfoText;
  const executed = input.executed.filter(cell => !isCraneLlmCell(cell.code));
  const style = input.style ?? 'product';
  const chosen = runtimeInfoText === null ? INSTRUCTIONS[style].codeOnly : INSTRUCTIONS[style].withRuntimeInfo;
  // When the log holds cells that raised, the instruction no longer says they all ran cleanly.
  const cleanly = executed.some(cell => cell.raised) ? chosen.replace(CELLS_ITEM, CELLS_ITEM_SOME_RAISED) : chosen;
  const instructions = input.context === 'slice' ? cleanly.replace(CELLS_RAN, CELLS_RAN_SLICE) : cleanly;
  const blocks = executed.map((cell, i) => cellBlock(i + 1, cell));
  // Weights (promptWeight: quarter tokens) once, then the smallest number of dropped cells that
  // fits: linear, not quadratic.
  const fixed =
    promptWeight(instructions) + 2 + promptWeight(compose([], 0, runtimeInfoText, target)) - promptWeight(NO_CELLS);
  const suffix = new Array<number>(blocks.length + 1).fill(0);
  for (let i = blocks.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + promptWeight(blocks[i]);
  let dropped = 0;
  for (let k = 0; k <= blocks.length; k++) {
    dropped = k;
    let total = fixed + suffix[k] + promptWeight(omittedNote(k));
    if (blocks.length === 0) total += promptWeight(NO_CELLS);
    if (Math.ceil(total / 4) <= budget) break;
  }
  let runtimeInfoCut = 0;
  if (runtimeInfoText !== null && dropped === blocks.length) {
    // Every executed cell is gone: what the variables hold is cut next, never the target cell.
    const others = promptWeight(instructions) + 2 + promptWeight(compose(blocks, dropped, '', target));
    [runtimeInfoText, runtimeInfoCut] = fitRuntimeInfo(runtimeInfoText, budget * 4 - others);
  }
  const promptInput = compose(blocks, dropped, runtimeInfoText, target);
  const text = `${instructions}\n\n${promptInput}`;
  const tokens = estimateTokens(text);
  return {
    style,
    instructions,
    input: promptInput,
    text,
    dropped: executed.slice(0, dropped).map((cell, i) => ({
      position: i + 1,
      executionCount: cell.executionCount ?? null,
      cellId: cell.cellId ?? null
    })),
    estimatedTokens: tokens,
    budgetTokens: budget,
    runtimeInfoCut,
    overBudget: tokens > budget
  };
}
