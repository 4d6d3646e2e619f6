/**
 * A sliding-window conversation history, as specified by convspec
 * (spec/SPEC.md, capability `window`).
 *
 * The module is a library: it knows nothing of JSON-RPC. Messages are the
 * plain values `JSON.parse` builds; they are never copied or rewritten, so a
 * trim returns the very objects it was given (MSG-2, MSG-3). A trim never
 * splits a tool call from its results (WIN-9, UNIT-3).
 */

import { writeJSON } from './json';
import { InvalidConfigError, type Message, typeName, unitStarts, validateMessages } from './messages';

export * from './messages';

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

/** A window over a conversation: keeps a preserved head and tail and the most recent middle. */
export class ConversationWindow {
  /** The effective configuration (every default applied). */
  readonly config: Readonly<EffectiveConfig>;
  /** Warnings about the configuration itself (CFG-6). */
  readonly warnings: readonly Warning[];

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
   * Trims `messages` to the window (WIN-1 – WIN-8). The input is not modified;
   * the result holds the same message objects, in input order.
   */
  trim(messages: readonly unknown[]): TrimResult {
    const starts = unitStarts(messages); // validates; throws InvalidMessageError (MSG-1, CLS-2, UNIT-2)
    const valid = messages as readonly Message[];
    const { max_messages: max, preserve_first_n: h, preserve_last_n: t } = this.config;
    const n = valid.length;
    // The unit boundaries: b is one when a unit starts at b, or b = n.
    const isBoundary = (b: number): boolean => b === n || starts[b] === b;
    const warnings: Warning[] = [];
    let trimmed: Message[];
    let evicted: Message[];

    if (max === 0 || n <= max) {
      // WIN-1, CFG-5: nothing changes.
      trimmed = valid.slice();
      evicted = [];
    } else {
      // WIN-2, WIN-9: three zones that never overlap, cut between units;
      // head and tail grow to whole units.
      let headEnd = Math.min(h, n);
      if (headEnd > 0) while (!isBoundary(headEnd)) headEnd++;
      let tailStart = n - Math.min(t, n - headEnd);
      if (tailStart < n) tailStart = starts[tailStart]!;
      const head = valid.slice(0, headEnd);
      const tail = valid.slice(tailStart);
      if (head.length + tail.length >= max) {
        // WIN-3: head and tail fill the cap; only they are kept.
        trimmed = [...head, ...tail];
        evicted = valid.slice(headEnd, tailStart);
        warnings.push(preserveWarning(this.config));
      } else {
        // WIN-4: keep the most recent whole middle units that hold at most
        // k messages: the middle from the first boundary at or after
        // tailStart − k.
        const k = max - head.length - tail.length;
        let cut = tailStart - k;
        while (!isBoundary(cut)) cut++;
        trimmed = [...head, ...valid.slice(cut, tailStart), ...tail];
        evicted = valid.slice(headEnd, cut);
      }
    }

    return {
      trimmed,
      evicted,
      metrics: {
        totalMessages: n,
        preservedMessages: trimmed.length,
        evictedMessages: evicted.length,
        estimatedTokens: estimateValid(trimmed),
      },
      warnings,
    };
  }
}
