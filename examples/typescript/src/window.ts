/**
 * A sliding-window conversation history, as specified by convspec
 * (spec/SPEC.md, capabilities `window` and `window.summarize`).
 *
 * The module is a library: it knows nothing of JSON-RPC. Messages are the
 * plain values `JSON.parse` builds; they are never copied or rewritten, so a
 * trim returns the very objects it was given (MSG-2, MSG-3). A trim never
 * splits a tool call from its results (WIN-9, UNIT-3).
 */

import { writeJSON } from './json';
import { InvalidConfigError, type Message, typeName, unitStarts, validateMessages } from './messages';
import { type Summarizer, SummarizerError, callSummarizer, hasText, summaryPrompt, trimWhiteSpace } from './summarize';

export * from './messages';
export * from './summarize';

/** The configuration a window is created from; every member is optional. */
export interface ConversationHistoryConfig {
  max_messages?: number | null;
  summarize_on_trim?: boolean | null;
  preserve_first_n?: number | null;
  preserve_last_n?: number | null;
}

/** The configuration with every default applied (CFG-1). */
export interface EffectiveConfig {
  max_messages: number;
  summarize_on_trim: boolean;
  preserve_first_n: number;
  preserve_last_n: number;
}

export interface Warning {
  code: string;
  message: string;
}

export interface ConversationMetrics {
  totalMessages: number;
  preservedMessages: number;
  evictedMessages: number;
  estimatedTokens: number;
}

export interface TrimResult {
  trimmed: Message[];
  evicted: Message[];
  metrics: ConversationMetrics;
  warnings: Warning[];
  /** The summary message inserted into `trimmed`, or null (SUM-2). */
  summary: Message | null;
}

export const PRESERVE_EXCEEDS_MAX = 'preserve_exceeds_max';

export const DEFAULT_CONFIG: Readonly<EffectiveConfig> = Object.freeze({
  max_messages: 100,
  summarize_on_trim: false,
  preserve_first_n: 1,
  preserve_last_n: 20,
});

type CountMember = 'max_messages' | 'preserve_first_n' | 'preserve_last_n';

const COUNT_MEMBERS: ReadonlySet<string> = new Set<CountMember>([
  'max_messages',
  'preserve_first_n',
  'preserve_last_n',
]);

/** How a JSON value is shown in an error message (shortened). */
function show(value: unknown): string {
  const text = writeJSON(value, (n) => (Number.isFinite(n) ? JSON.stringify(n) : n > 0 ? '1e400' : '-1e400'));
  if (text.length <= 80) return text;
  const cut = /[\ud800-\udbff]$/.test(text.slice(0, 77)) ? 76 : 77; // do not split a surrogate pair
  return text.slice(0, cut) + '...';
}

/**
 * Applies the defaults to a configuration and validates it (CFG-1 – CFG-4).
 * `undefined` is the configuration `{}`.
 */
export function resolveConfig(config: unknown): EffectiveConfig {
  if (config === undefined) config = {};
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new InvalidConfigError(`config: must be an object, got ${typeName(config)}`);
  }
  const effective: EffectiveConfig = { ...DEFAULT_CONFIG };
  const given = config as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    const value = given[name];
    if (name === 'summarize_on_trim') {
      if (value === null) continue; // CFG-2: null means absent
      if (typeof value !== 'boolean') {
        throw new InvalidConfigError(`config.summarize_on_trim: must be a boolean, got ${show(value)}`);
      }
      effective.summarize_on_trim = value;
    } else if (COUNT_MEMBERS.has(name)) {
      if (value === null) continue;
      if (!isCount(value)) {
        throw new InvalidConfigError(`config.${name}: must be a non-negative integer, got ${show(value)}`);
      }
      effective[name as CountMember] = value === 0 ? 0 : value; // -0 is the count 0
    } else {
      throw new InvalidConfigError(
        `config.${name}: unknown member (known: max_messages, summarize_on_trim, preserve_first_n, preserve_last_n)`,
      );
    }
  }
  return effective;
}

/** CFG-3: a JSON number whose value is an integer from 0 to 2^53 − 1. */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= Number.MAX_SAFE_INTEGER;
}

/** The `preserve_exceeds_max` condition (CFG-6, WIN-3): head and tail fill the cap. */
function preserveFillsCap(c: EffectiveConfig): boolean {
  return c.max_messages > 0 && c.preserve_first_n + c.preserve_last_n >= c.max_messages;
}

function preserveWarning(c: EffectiveConfig): Warning {
  return {
    code: PRESERVE_EXCEEDS_MAX,
    message:
      `preserve_first_n (${c.preserve_first_n}) + preserve_last_n (${c.preserve_last_n}) >= ` +
      `max_messages (${c.max_messages}): only the preserved head and tail are kept`,
  };
}

/**
 * The characters a message's content counts (EST-2 – EST-5): a string counts
 * its UTF-16 code units, absent and null content nothing, anything else its
 * `JSON.stringify` form.
 */
function contentLength(m: Message): number {
  const content = m.content;
  if (content === undefined || content === null) return 0;
  if (typeof content === 'string') return content.length;
  try {
    return JSON.stringify(content).length;
  } catch (e) {
    // JSON.stringify recurses; content nested deeper than the call stack
    // allows is measured by the iterative writer, which writes the same text.
    if (e instanceof RangeError) return writeJSON(content, (n) => JSON.stringify(n)).length;
    throw e;
  }
}

/**
 * Estimates the tokens of a list of messages at four characters a token,
 * rounded up once on the total (EST-1). Throws InvalidMessageError if the
 * list holds something that is not a message.
 */
export function estimateTokens(messages: readonly unknown[]): number {
  validateMessages(messages);
  return estimateValid(messages);
}

function estimateValid(messages: readonly Message[]): number {
  let characters = 0;
  for (const m of messages) characters += contentLength(m);
  return Math.ceil(characters / 4);
}

/**
 * Where a trim cuts a conversation: head `[0, headEnd)`, evicted
 * `[headEnd, keepFrom)`, kept middle `[keepFrom, tailStart)`, tail
 * `[tailStart, n)`; `fills` when head and tail alone fill the cap (WIN-3).
 */
interface Cut {
  headEnd: number;
  keepFrom: number;
  tailStart: number;
  fills: boolean;
}

export const SUMMARY_FAILED = 'summary_failed';
export const SUMMARY_EMPTY = 'summary_empty';
export const SUMMARY_SKIPPED_NO_TEXT = 'summary_skipped_no_text';

/** At most one summary per this many evicted messages (SUM-5). */
export const SUMMARIZE_EVERY = 10;
const SUMMARY_PREFIX = '[Conversation Summary]\n';

export interface SummarizeOptions {
  /** How long to wait for the summarizer before the call counts as failed (default 30 s). */
  timeoutMs?: number;
}

/**
 * A window over a conversation: keeps a preserved head and tail and the most
 * recent middle; with `summarize_on_trim` and a summarizer, condenses what it
 * evicts into one summary message.
 */
export class ConversationWindow {
  /** The effective configuration (every default applied). */
  readonly config: Readonly<EffectiveConfig>;
  /** Warnings about the configuration itself (CFG-6). */
  readonly warnings: readonly Warning[];
  /** Messages evicted since the last summary, not yet offered to one (SUM-4). */
  private pending: Message[] = [];

  /** Throws InvalidConfigError if `config` breaks CFG-3 or CFG-4. */
  constructor(config?: ConversationHistoryConfig | unknown) {
    this.config = Object.freeze(resolveConfig(config));
    this.warnings = Object.freeze(preserveFillsCap(this.config) ? [preserveWarning(this.config)] : []);
  }

  /** Estimates the tokens of `messages` (EST-1); does not depend on the configuration. */
  estimateTokens(messages: readonly unknown[]): number {
    return estimateTokens(messages);
  }

  /**
   * Trims `messages` to the window (WIN-1 – WIN-9), without summarizing. The
   * input is not modified; the result holds the same message objects, in
   * input order. Throws InvalidMessageError for an invalid message or a
   * broken tool structure (MSG-1, CLS-2, UNIT-2).
   */
  trim(messages: readonly unknown[]): TrimResult {
    const starts = unitStarts(messages);
    const valid = messages as readonly Message[];
    const max = this.config.max_messages;
    if (max === 0 || valid.length <= max) return this.result(valid, undefined); // WIN-1, CFG-5
    return this.result(valid, this.cut(starts, max));
  }

  /**
   * Trims `messages` like `trim`, and with `summarize_on_trim` condenses the
   * evicted messages into a summary placed right after the head (SUM-2 –
   * SUM-8): at most once per ten evicted messages, covering everything
   * evicted since the last summary. A summarizer that fails, answers nothing
   * or does not answer in time leaves a warning and plain eviction; the trim
   * itself succeeds.
   */
  async trimAndSummarize(messages: readonly unknown[], summarizer: Summarizer, options: SummarizeOptions = {}): Promise<TrimResult> {
    const starts = unitStarts(messages);
    const valid = messages as readonly Message[];
    const max = this.config.max_messages;
    if (max === 0 || valid.length <= max) return this.result(valid, undefined);
    const plain = this.cut(starts, max);
    if (!this.config.summarize_on_trim) return this.result(valid, plain); // SUM-8
    const plainEvicted = valid.slice(plain.headEnd, plain.keepFrom);

    // SUM-3: the summary takes a place of the cap.
    const planned = this.cut(starts, max - 1);
    const evicted = valid.slice(planned.headEnd, planned.keepFrom);
    const covered = [...this.pending, ...evicted]; // SUM-4
    if (evicted.length === 0 || covered.length < SUMMARIZE_EVERY) {
      // SUM-5: not yet; plain eviction, remembered for the next summary.
      this.pending.push(...plainEvicted);
      return this.result(valid, plain);
    }
    if (!hasText(covered)) {
      // SUM-6: nothing to lose.
      this.pending = [];
      return this.result(valid, plain, undefined, [
        { code: SUMMARY_SKIPPED_NO_TEXT, message: `the ${covered.length} messages to summarize hold no text; no summary was made` },
      ]);
    }
    let reply: string;
    try {
      reply = trimWhiteSpace(await callSummarizer(summarizer, summaryPrompt(covered), options.timeoutMs));
    } catch (e) {
      if (!(e instanceof SummarizerError)) throw e;
      // SUM-7: plain eviction; the next summary covers these too.
      this.pending.push(...plainEvicted);
      return this.result(valid, plain, undefined, [
        {
          code: SUMMARY_FAILED,
          message: `summarization failed, evicted without a summary (${this.pending.length} messages wait for the next attempt): ${e.reason}`,
        },
      ]);
    }
    if (reply === '') {
      this.pending.push(...plainEvicted);
      return this.result(valid, plain, undefined, [
        { code: SUMMARY_EMPTY, message: "the summarizer's reply is empty; evicted without a summary, the next summary will cover them" },
      ]);
    }
    this.pending = [];
    return this.result(valid, planned, { role: 'assistant', content: SUMMARY_PREFIX + reply });
  }

  /** Plans the trim of a conversation longer than `cap` (WIN-2 – WIN-4, WIN-9). */
  private cut(starts: readonly number[], cap: number): Cut {
    const n = starts.length;
    const { preserve_first_n: h, preserve_last_n: t } = this.config;
    // The unit boundaries: b is one when a unit starts at b, or b = n.
    const isBoundary = (b: number): boolean => b === n || starts[b] === b;
    // Three zones that never overlap, cut between units; head and tail grow
    // to whole units.
    let headEnd = Math.min(h, n);
    while (!isBoundary(headEnd)) headEnd++;
    let tailStart = n - Math.min(t, n - headEnd);
    if (tailStart < n) tailStart = starts[tailStart]!;
    const preserved = headEnd + (n - tailStart);
    if (preserved >= cap) return { headEnd, keepFrom: tailStart, tailStart, fills: true }; // WIN-3
    // WIN-4: keep the most recent whole middle units that hold at most
    // k messages: the middle from the first boundary at or after tailStart − k.
    let keepFrom = tailStart - (cap - preserved);
    while (!isBoundary(keepFrom)) keepFrom++;
    return { headEnd, keepFrom, tailStart, fills: false };
  }

  private result(messages: readonly Message[], cut: Cut | undefined, summary?: Message, extra: readonly Warning[] = []): TrimResult {
    let trimmed: Message[];
    let evicted: Message[];
    const warnings: Warning[] = [];
    if (cut === undefined) {
      trimmed = messages.slice();
      evicted = [];
    } else {
      trimmed = [
        ...messages.slice(0, cut.headEnd),
        ...(summary === undefined ? [] : [summary]),
        ...messages.slice(cut.keepFrom, cut.tailStart),
        ...messages.slice(cut.tailStart),
      ];
      evicted = messages.slice(cut.headEnd, cut.keepFrom);
      if (cut.fills) warnings.push(preserveWarning(this.config));
    }
    warnings.push(...extra);
    return {
      trimmed,
      evicted,
      metrics: {
        totalMessages: messages.length,
        preservedMessages: trimmed.length - (summary === undefined ? 0 : 1), // input messages only (SUM-2)
        evictedMessages: evicted.length,
        estimatedTokens: estimateValid(trimmed),
      },
      warnings,
      summary: summary ?? null,
    };
  }
}
