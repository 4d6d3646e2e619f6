// The scripted summarizer (spec/protocol.md, "The scripted summarizer"): the
// harness scripts the summarizer per request; the kit plays the script as a
// callback of whatever shape the library wants, and records every call.

import { KitError, invalidParams } from './errors';
import { type Message, isObject, typeName } from './messages';
import { serialize } from './json';

/** timeout_ms absent or 0. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The max_tokens recorded for a callback that is not told one (SUM-1, SUM-9). */
export const DEFAULT_MAX_TOKENS = 1024;

/** One script: `reply` or `error`, after `delay_ms`, given up after `timeout_ms`. */
export class Script {
  readonly timeoutMs: number;
  readonly delayMs: number;
  private readonly reply: string | undefined;
  private readonly error: string | undefined;

  /** `where` names the script in error messages (`params.summarizer`, `params.summarizers[1]`). */
  constructor(script: unknown, where: string) {
    if (!isObject(script)) throw invalidParams(`${where}: must be an object, got ${typeName(script)}`);
    const given = ['reply', 'error'].filter((name) => script[name] !== undefined && script[name] !== null);
    if (given.length !== 1) throw invalidParams(`${where}: needs exactly one of reply and error`);
    const text = script[given[0]!];
    if (typeof text !== 'string') throw invalidParams(`${where}.${given[0]}: must be a string, got ${typeName(text)}`);
    if (given[0] === 'reply') this.reply = text;
    else this.error = text;
    this.delayMs = Script.milliseconds(script, 'delay_ms', where) ?? 0;
    this.timeoutMs = Script.milliseconds(script, 'timeout_ms', where) || DEFAULT_TIMEOUT_MS;
  }

  private static milliseconds(script: Record<string, unknown>, name: string, where: string): number | undefined {
    const v = script[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw invalidParams(`${where}.${name}: must be a non-negative integer number of milliseconds, got ${serialize(v)}`);
    }
    return v;
  }

  /** Plays the script once: the reply after delay_ms, or a failure (its error, or a timeout when delay_ms exceeds timeout_ms). */
  answer(): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.delayMs > this.timeoutMs) {
        setTimeout(() => reject(new Error(`the summarizer did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
        return;
      }
      setTimeout(() => (this.error !== undefined ? reject(new Error(this.error)) : resolve(this.reply!)), this.delayMs);
    });
  }
}

/** A recorded call: `{prompt, max_tokens}` (window), or `{messages}` (budget's summaryFn). */
export type SummarizerCall = { prompt: string; max_tokens: number } | { messages: readonly unknown[] };

/**
 * The summarizer of one request, in every shape a library may want; each
 * form records the call and plays the next script (the last one repeating).
 */
export class Summarizer {
  /** Every call made, in order. */
  readonly calls: SummarizerCall[] = [];

  constructor(private readonly scripts: readonly Script[]) {}

  /** How long the library should wait for the next call (it is also enforced here). */
  get timeoutMs(): number {
    return this.next().timeoutMs;
  }

  private next(): Script {
    return this.scripts[Math.min(this.calls.length, this.scripts.length - 1)]!;
  }

  private play(call: SummarizerCall): Promise<string> {
    const script = this.next();
    this.calls.push(call);
    return script.answer();
  }

  /** `(prompt, maxTokens) => Promise<string>`. */
  readonly call = (prompt: string, maxTokens: number): Promise<string> => this.play({ prompt, max_tokens: maxTokens });

  /** `(text) => Promise<string>`, recorded with max_tokens 1024. */
  readonly text = (text: string): Promise<string> => this.play({ prompt: text, max_tokens: DEFAULT_MAX_TOKENS });

  /** `(messages) => Promise<string>`: budget's summaryFn (CMP-1); recorded with the messages it got. */
  readonly messages = (messages: readonly Message[]): Promise<string> => this.play({ messages: [...messages] });
}

/** Thrown by a late-bound callback used in a request that scripts no summarizer. */
export class NoSummarizer extends Error {
  constructor() {
    super('this request provides no summarizer');
    this.name = 'NoSummarizer';
  }
}

/**
 * A summarizer fixed at construction (`new Trimmer({ summarize })`), bound
 * per request to the request's script. Called in a request that scripts none,
 * it fails, and the kit answers that request `unsupported`: a library whose
 * callback is fixed cannot trim "with no summarizer provided" (SUM-8).
 */
export class LateSummarizer {
  constructor(private readonly current: () => { summarizer: Summarizer | undefined; missed: () => void }) {}

  private bound(): Summarizer {
    const { summarizer, missed } = this.current();
    if (summarizer === undefined) {
      missed();
      throw new NoSummarizer();
    }
    return summarizer;
  }

  /** Whether the current request scripts a summarizer. */
  get provided(): boolean {
    return this.current().summarizer !== undefined;
  }

  get timeoutMs(): number {
    return this.current().summarizer?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  readonly call = async (prompt: string, maxTokens: number): Promise<string> => this.bound().call(prompt, maxTokens);
  readonly text = async (text: string): Promise<string> => this.bound().text(text);
  readonly messages = async (messages: readonly Message[]): Promise<string> => this.bound().messages(messages);
}

/** The request's outcome when a late-bound summarizer was needed but not provided. */
export const missedSummarizer = (): KitError =>
  new KitError('unsupported', 'the library called the summarizer it was constructed with, but this request provides none (SUM-8)');
