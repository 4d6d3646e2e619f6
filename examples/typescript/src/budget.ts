/**
 * The token budget (spec/SPEC.md §8a, capabilities `budget` and
 * `tokens.cl100k`): exact cl100k_base counts, the context limits of models,
 * the 80% and 95% thresholds, pruning the oldest units, compressing into a
 * summary, and the check before every provider call.
 */

import { type Tiktoken, get_encoding } from 'tiktoken';
import { ConvspecError, type Message, classifyValid, isObject, unitRanges, unitStarts, validateMessages } from './messages';
import { SummarizerError, compact, withTimeout } from './summarize';

// ---------------------------------------------------------------------------
// Tokens (TOK-1 – TOK-3)

let cl100k: Tiktoken | undefined;

/** The cl100k_base encoder, loaded on first use from the tiktoken package (no network). */
function encoder(): Tiktoken {
  cl100k ??= get_encoding('cl100k_base');
  return cl100k;
}

/** The cl100k_base token ids of `text`, special-token text encoded as plain text (TOK-1). */
export function encode(text: string): number[] {
  return Array.from(encoder().encode_ordinary(text));
}

/** The number of cl100k_base tokens of `text`. */
export function countText(text: string): number {
  return encoder().encode_ordinary(text).length;
}

/** What a value that is not text counts: ⌈length of its compact JSON / 4⌉ (TOK-2). */
export function fallbackTokens(value: unknown): number {
  return Math.ceil(compact(value).length / 4);
}

function contentTokens(content: unknown): number {
  if (content === undefined || content === null) return 0;
  if (typeof content === 'string') return countText(content);
  if (!Array.isArray(content)) return fallbackTokens(content);
  let n = 0;
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') n += countText(block.text);
    else if (isObject(block) && block.type === 'tool_result') n += contentTokens(block.content);
    else n += fallbackTokens(block);
  }
  return n;
}

/** The tokens of one message: its role, its content, and its tool calls (TOK-2). */
export function messageTokens(m: Message): number {
  let n = countText(m.role) + contentTokens(m.content);
  if (m.tool_calls !== undefined && m.tool_calls !== null) n += fallbackTokens(m.tool_calls);
  return n;
}

/** Each message's count and their sum (TOK-3). */
export function countTokens(messages: readonly unknown[]): { tokens: number; perMessage: number[] } {
  validateMessages(messages);
  const perMessage = messages.map(messageTokens);
  return { tokens: perMessage.reduce((a, b) => a + b, 0), perMessage };
}

// ---------------------------------------------------------------------------
// Limits and thresholds (LIM-1, LIM-2, THR-1, THR-2)

/** The context limits of the known models, in tokens (LIM-1). */
export const CONTEXT_LIMITS: ReadonlyMap<string, number> = new Map([
  ['gemini-3-pro', 1_000_000],
  ['claude-3.5-sonnet', 200_000],
  ['gpt-4o', 128_000],
]);

export class UnknownModelError extends ConvspecError {
  constructor(readonly model: string) {
    super('unknown_model', `no context limit is known for the model ${JSON.stringify(model)}`);
  }
}

/** The context limit of `model`; `extra` adds models or overrides their limits. Throws UnknownModelError. */
export function contextLimit(model: string, extra: ReadonlyMap<string, number> = new Map()): number {
  const limit = extra.get(model) ?? CONTEXT_LIMITS.get(model);
  if (limit === undefined) throw new UnknownModelError(model);
  return limit;
}

/** Whether `tokens` is above `percent`% of `limit`, compared exactly. */
const above = (tokens: number, limit: number, percent: number): boolean => 100n * BigInt(tokens) > BigInt(percent) * BigInt(limit);

/** THR-1: above 80% of the limit. */
export const isApproachingLimit = (tokens: number, limit: number): boolean => above(tokens, limit, 80);

/** THR-2: above 95% of the limit. */
export const isAtLimit = (tokens: number, limit: number): boolean => above(tokens, limit, 95);

// ---------------------------------------------------------------------------
// pruneMessages (PRN-1 – PRN-5)

export class InvariantViolationError extends ConvspecError {
  constructor(message: string) {
    super('invariant_violation', message);
  }
}

export interface BudgetPruneResult {
  messages: Message[];
  /** Input positions removed, ascending. */
  removed: number[];
}

export const DEFAULT_TARGET_PERCENT = 80;

/**
 * `pruneMessages`: removes whole units, oldest first, from the one after the
 * first message's unit, until the count is below `targetPercent`% of `limit`
 * or only the units of the first and the final message are left. Throws
 * InvalidMessageError for an invalid message or a broken tool structure, and
 * InvariantViolationError for an empty conversation (PRN-4).
 */
export function pruneMessages(messages: readonly unknown[], limit: number, targetPercent = DEFAULT_TARGET_PERCENT): BudgetPruneResult {
  unitStarts(messages); // validates messages and tool structure
  const valid = messages as readonly Message[];
  const { messages: kept, removed } = pruneCounted(valid, valid.map(messageTokens), limit, targetPercent);
  return { messages: kept, removed };
}

/** pruneMessages with each message's count already known (PREP-5: each message is counted once). */
function pruneCounted(
  messages: readonly Message[],
  counts: readonly number[],
  limit: number,
  targetPercent: number,
): BudgetPruneResult & { tokens: number } {
  const units = unitRanges(unitStarts(messages));
  if (messages.length === 0) throw new InvariantViolationError('cannot prune an empty conversation: the result would have no system prompt');
  let tokens = counts.reduce((a, b) => a + b, 0);
  const below = (): boolean => 100n * BigInt(tokens) < BigInt(targetPercent) * BigInt(limit);
  const removed: number[] = [];
  for (let u = 1; u < units.length - 1 && !below(); u++) {
    const [start, end] = units[u]!;
    for (let i = start; i < end; i++) {
      tokens -= counts[i]!;
      removed.push(i);
    }
  }
  const gone = new Set(removed);
  return { messages: messages.filter((_, i) => !gone.has(i)), removed, tokens };
}

// ---------------------------------------------------------------------------
// summarizeAndCompress (CMP-1, CMP-2)

/** summaryFn: the summary of the messages it is given. */
export type SummaryFn = (messages: Message[]) => Promise<string> | string;

export interface CompressOptions {
  /** How long to wait for summaryFn before the call counts as failed (default 30 s). */
  timeoutMs?: number;
}

/**
 * `summarizeAndCompress`: `[system, summary, last user prompt]`, where the
 * summary is an assistant message holding summaryFn's reply, unchanged, for
 * every other message. Throws SummarizerError when summaryFn fails or does
 * not answer in time (CMP-2).
 */
export async function summarizeAndCompress(messages: readonly unknown[], summaryFn: SummaryFn, options: CompressOptions = {}): Promise<Message[]> {
  validateMessages(messages);
  const valid = messages as readonly Message[];
  const classes = valid.map((m) => classifyValid(m).class);
  const system = classes[0] === 'system' ? 0 : -1;
  const lastPrompt = classes.lastIndexOf('user_prompt');
  const rest = valid.filter((_, i) => i !== system && i !== lastPrompt);
  const reply = await withTimeout(() => summaryFn(rest), options.timeoutMs);
  return [
    ...(system === 0 ? [valid[0]!] : []),
    { role: 'assistant', content: reply },
    ...(lastPrompt >= 0 ? [valid[lastPrompt]!] : []),
  ];
}

// ---------------------------------------------------------------------------
// The check before a provider call (PREP-1 – PREP-5)

export type BudgetEvent =
  | { event: 'context_window_approaching'; tokenCount: number; limit: number }
  | { event: 'context_compressed'; originalTokenCount: number; compressedTokenCount: number }
  | { event: 'context_compression_failed'; error: string };

export class ContextWindowExhaustedError extends ConvspecError {
  constructor(
    readonly tokenCount: number,
    readonly limit: number,
    readonly model: string,
  ) {
    super('context_window_exhausted', `${tokenCount} tokens are still above 95% of the ${limit}-token context window of ${JSON.stringify(model)}`);
  }
}

export interface PrepareOptions extends CompressOptions {
  /** Limits added to, or overriding, CONTEXT_LIMITS. */
  limits?: ReadonlyMap<string, number>;
}

/**
 * Prepares a conversation for a provider call to `model`: unchanged at or
 * below 80% of its limit; pruned, with an event, up to 95%; above 95%
 * compressed with one summaryFn call (pruned if that fails). Throws
 * ContextWindowExhaustedError when the result is still above 95%.
 */
export async function prepareRequest(
  messages: readonly unknown[],
  model: string,
  summaryFn: SummaryFn,
  options: PrepareOptions = {},
): Promise<{ messages: Message[]; events: BudgetEvent[] }> {
  const limit = contextLimit(model, options.limits);
  // UNIT-2: a malformed tool structure is refused whatever the count — never
  // passed on unchanged (PREP-1) nor handed to the summarizer (PREP-3).
  unitStarts(messages);
  const valid = messages as readonly Message[];
  const counts = valid.map(messageTokens);
  const tokens = counts.reduce((a, b) => a + b, 0);
  const prune = (): { messages: Message[]; tokens: number } => pruneCounted(valid, counts, limit, DEFAULT_TARGET_PERCENT);
  if (!isApproachingLimit(tokens, limit)) return { messages: valid.slice(), events: [] }; // PREP-1
  if (!isAtLimit(tokens, limit)) {
    return { messages: prune().messages, events: [{ event: 'context_window_approaching', tokenCount: tokens, limit }] }; // PREP-2
  }
  // PREP-3: compress once; its own call is never checked.
  const events: BudgetEvent[] = [];
  let result: { messages: Message[]; tokens: number };
  try {
    const compressed = await summarizeAndCompress(valid, summaryFn, options);
    result = { messages: compressed, tokens: compressed.reduce((n, m) => n + messageTokens(m), 0) };
    events.push({ event: 'context_compressed', originalTokenCount: tokens, compressedTokenCount: result.tokens });
  } catch (e) {
    if (!(e instanceof SummarizerError)) throw e;
    events.push({ event: 'context_compression_failed', error: e.reason });
    result = prune();
  }
  const after = result.tokens;
  if (isAtLimit(after, limit)) throw new ContextWindowExhaustedError(after, limit, model); // PREP-4
  return { messages: result.messages, events };
}
