// Types of convspec-kit.cjs, written by hand: the kit is one JavaScript file
// with no build step, and these declarations are its whole TypeScript API.

type Awaitable<T> = T | Promise<T>;

/** Node's AbortSignal, declared here so that the kit needs no @types/node. */
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
}

/** A message (MSG-1): a JSON object with a non-empty string `role`; anything else is allowed. */
export interface Message {
  role: string;
  content?: unknown;
  [member: string]: unknown;
}

/** Every error kind of protocol v1. */
export type Kind =
  | 'parse_error'
  | 'invalid_request'
  | 'method_not_found'
  | 'invalid_params'
  | 'internal_error'
  | 'invalid_config'
  | 'invalid_message'
  | 'unknown_model'
  | 'context_window_exhausted'
  | 'invariant_violation'
  | 'unsupported'
  | 'summarizer_failed';

export declare const CODES: Readonly<Record<Kind, number>>;

/** An error answered with its kind and, for some kinds, facts in `data`. */
export declare class KitError extends Error {
  constructor(kind: Kind, message: string, data?: Record<string, unknown>);
  readonly kind: Kind;
  readonly data: Record<string, unknown>;
}

export declare function invalidParams(message: string): KitError;
export declare function invalidMessage(message: string): KitError;
/** `path` is the dotted path of the offending member of a config file (CONF-4); omit it for window.create. */
export declare function invalidConfig(message: string, path?: string): KitError;
export declare function unknownModel(message: string): KitError;
export declare function invariantViolation(message: string): KitError;
export declare function summarizerFailed(message: string): KitError;
/** The kit adds `summarizer_calls`, the number of calls the request made (PREP-4). */
export declare function contextWindowExhausted(message: string, facts: { tokenCount: number; limit: number; model: string }): KitError;
/** Declines this one request: the case is reported unsupported, not failed. */
export declare function unsupported(message: string): KitError;

/**
 * How a call may be cancelled: a library that enforces its own timeout
 * passes its AbortSignal, and a call that does not answer in time (delay_ms
 * ≥ timeout_ms) then waits for it rather than failing on the kit's timer
 * (D-44).
 */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * The summarizer callbacks a handler is given (per request, or fixed at
 * window.create). The script's numbers fix each call's outcome (D-44): with
 * delay_ms < timeout_ms it answers at once; otherwise it fails with a
 * timeout error after timeout_ms, or waits for `signal` to abort it.
 */
export interface SummarizerCallbacks {
  /** `(prompt, maxTokens) => Promise<string>`. */
  readonly call: (prompt: string, maxTokens: number, options?: CallOptions) => Promise<string>;
  /** `(text) => Promise<string>` (recorded with max_tokens 1024). */
  readonly text: (text: string, options?: CallOptions) => Promise<string>;
  /** `(messages) => Promise<string>`: budget's summaryFn. */
  readonly messages: (messages: readonly Message[], options?: CallOptions) => Promise<string>;
  /** How long to wait for the next call before treating it as failed (the kit enforces it too). */
  readonly timeoutMs: number;
}

export interface Warning {
  code: string;
  message: string;
}

export interface TrimOutcome {
  trimmed: readonly unknown[];
  evicted: readonly unknown[];
  metrics: { totalMessages: number; preservedMessages: number; evictedMessages: number; estimatedTokens: number };
  warnings?: readonly Warning[];
  summary?: unknown;
}

export interface WindowHandlers<W> {
  /**
   * A new window for `config` (undefined: `{}`); answers the effective
   * configuration and warnings. `summarizer` is for a library that takes its
   * summarizer at construction: it plays each request's script.
   */
  create(config: unknown, summarizer: SummarizerCallbacks): Awaitable<{ window: W; config: unknown; warnings?: readonly Warning[] }>;
  /** `summarizer` is undefined when the request provides none (SUM-8). */
  trim(window: W, messages: Message[], summarizer: SummarizerCallbacks | undefined): Awaitable<TrimOutcome>;
  estimate(messages: Message[]): Awaitable<number>;
  /** window.summarize (SUM-9); given, the kit declares `window.summarize`. */
  summarize?(messages: Message[], summarizer: SummarizerCallbacks): Awaitable<string>;
}

export interface HistoryHandlers {
  classify(messages: Message[]): Awaitable<{ classes: readonly string[]; units: ReadonlyArray<readonly [number, number]> }>;
  prune(messages: Message[]): Awaitable<{ messages: readonly unknown[]; removed: readonly number[] }>;
  build(messages: Message[], maxMessages: number): Awaitable<{ messages: readonly unknown[]; warnings: readonly unknown[] }>;
}

export interface BudgetHandlers {
  count(messages: Message[]): Awaitable<{ tokens: number; per_message: readonly number[] }>;
  /** `limits` adds models for this request (LIM-1). */
  check(messages: Message[], model: string, limits: Map<string, number>): Awaitable<{ tokens: number; limit: number; approaching: boolean; at_limit: boolean }>;
  prune(messages: Message[], model: string, limits: Map<string, number>, targetRatio: number): Awaitable<{ messages: readonly unknown[]; removed: readonly number[] }>;
  compress(messages: Message[], summarizer: SummarizerCallbacks): Awaitable<readonly unknown[]>;
  prepare(messages: Message[], model: string, limits: Map<string, number>, summarizer: SummarizerCallbacks): Awaitable<{ messages: readonly unknown[]; events: readonly unknown[] }>;
}

/** A config file, `{"format": "yaml" | "json", "text": string}`. */
export interface ConfigFile {
  format: 'yaml' | 'json';
  text: string;
}

/** The run loop.run scripts: the conversation before it, then per iteration a prompt and the model's turns. */
export interface ScriptedRun {
  initial: Message[];
  iterations: Array<{ prompt: Message; turns: Array<{ response: Message; results: Message[] }> }>;
}

/** One provider loop's conversation (capability `loop`), driven by the kit through the scripted run. */
export interface LoopConversation {
  /** The effective configuration, answered as `config`. */
  readonly config: unknown;
  /** The conversation as it stands, to name the place of a broken message a trim finds. */
  readonly messages?: readonly unknown[];
  startIteration(prompt: Message): Awaitable<void>;
  /** What the next model call is sent (LOOP-1). */
  request(): Awaitable<readonly unknown[]>;
  append(...messages: Message[]): Awaitable<void>;
  finishIteration(): Awaitable<{ state: readonly unknown[]; metrics: unknown; events: readonly unknown[] }>;
}

/** A level of SPEC.md an implementation may declare (D-42). */
export type Level = 'core' | 'validation' | 'diagnostics';
/** A provider format of the messages an implementation reads (D-42). */
export type Format = 'openai' | 'anthropic';
/** A guarantee a trimmer may claim (ANY-1 – ANY-9). */
export type Guarantee = 'subsequence' | 'units' | 'system' | 'last_prompt' | 'last_unit' | 'bound' | 'fits' | 'idempotent' | 'total';
// head, start, counter and fallback (ANY-11 – ANY-14) are claimed by the members head, start, counter "native" and fallback, never listed.

/**
 * One trimmer of capability `trimmer` (ANY-10): its declaration and its
 * function. `counter` is given exactly for a token bound; `formats` absent
 * means both; it is checked on the guarantees it claims alone.
 */
export type Trimmer = {
  name: string;
  formats?: readonly Format[];
  guarantees: readonly Guarantee[];
  /** What the trimmer keeps of `messages` under `limit` (a count); answered as the exact input (MSG-2). */
  trim(messages: Message[], limit: number): Awaitable<readonly unknown[]>;
} & TrimmerDecl2 & (
  | { bound: 'messages'; counter?: undefined; nativeCount?: undefined }
  | { bound: 'tokens'; counter: 'chars4' | 'cl100k'; nativeCount?: undefined }
  | { bound: 'tokens'; counter: 'native'; version: 2; /** The library's own count of `messages`, answered to trimmer.count (ANY-13). */ nativeCount(messages: Message[]): Awaitable<number> }
);

/**
 * The second declaration's members (SPEC ANY-10, D-60), each optional and
 * each needing `version: 2`; the kit refuses one that contradicts the
 * others when serve starts, naming it.
 */
export type TrimmerDecl2 = {
  version?: 1 | 2;
  /** Which system messages `system` keeps: leading (default), in[0], the first anywhere, all. */
  system?: 'leading' | 'first' | 'first_anywhere' | 'all';
  /** The first `head` messages, always kept (ANY-11). */
  head?: number;
  /** Messages the trimmer inserts, recognized by role and the text they start with. */
  markers?: { role?: 'system' | 'user' | 'assistant'; prefix: string };
  /** The bound may be overshot by the unit the cut falls in. */
  slack?: 'unit';
  /** A message bound counting a call's results as one message. */
  results?: 'one';
  /** The least limit of the domain; total holds above it. */
  limit_min?: number;
  /** After the kept messages, the output starts on a user prompt (ANY-12). */
  start?: 'user';
  /** It answers with an error (not a crash) when no message beyond the kept ones fits (ANY-9). */
  refuses?: 'nothing_fits';
  /** When the last message does not fit with the kept ones, the output is they and the last message (ANY-14); not with units, last_prompt, last_unit or refuses. */
  fallback?: 'last_message';
  /** How a token bound counts: per message or over the joined texts, with or without tool payloads. */
  count?: { over?: 'message' | 'joined'; separator?: string; tool_payloads?: boolean };
};

export interface ServeOptions<W> {
  name: string;
  version: string;
  /** The levels implemented; absent: all. The cases of the others are not applicable. */
  levels?: readonly Level[];
  /** The provider formats read; absent: both. Scenarios in another format are not applicable. */
  formats?: readonly Format[];
  /** Given (non-empty), the kit declares `trimmer` and answers `trimmer.trim` with them. */
  trimmers?: readonly Trimmer[];
  window?: WindowHandlers<W>;
  history?: HistoryHandlers;
  budget?: BudgetHandlers;
  /** Given, the kit declares `tokens.cl100k`: the cl100k_base ids of the text (TOK-1). */
  tokens?: { encode(text: string): Awaitable<readonly number[]> };
  config?: { resolve(format: 'yaml' | 'json', text: string): Awaitable<unknown> };
  /** A conversation for a config file and the messages before the first iteration. */
  loop?: { conversation(config: ConfigFile, initial: Message[], summarizer: SummarizerCallbacks | undefined): Awaitable<LoopConversation> };
  /** Where requests come from (default: stdin) and responses go (default: stdout); for tests. */
  input?: { pipe<T>(destination: T): T };
  output?: { write(chunk: string, callback?: (err?: Error | null) => void): boolean };
  /** Called instead of process.exit(0) after shutdown or end of input. */
  exit?: () => void;
}

/** The capabilities the handlers given implement, in the protocol's order. */
export declare function capabilities(o: ServeOptions<unknown>): string[];

/**
 * Serves the protocol on stdin/stdout with the handlers given, and declares
 * the capabilities they implement. Returns at once; the process exits after
 * `shutdown` or at the end of input.
 */
export declare function serve<W>(options: ServeOptions<W>): void;

/** Throws `invalid_message` naming the first element that is not a message; `where(i)` names element i. */
export declare function checkMessages(messages: readonly unknown[], where?: (i: number) => string): asserts messages is Message[];
/** JSON-equality of MSG-2 (numbers as doubles, member order free). */
export declare function jsonEqual(a: unknown, b: unknown): boolean;
/** Whether `rebuilt` may stand for `given`: each of its members is one of `given`'s, JSON-equal. */
export declare function partOf(rebuilt: unknown, given: Message): boolean;
/** Maps each rebuilt message back to the given message it stands for (MSG-2); one that matches none stays. */
export declare function restore<T>(rebuilt: readonly T[], given: readonly Message[], same?: (rebuilt: T, given: Message) => boolean): Array<T | Message>;
/** `{ system, rest }` for a library that takes the system prompt as a separate argument. */
export declare function peelSystem(messages: readonly Message[]): { system: string | undefined; rest: Message[] };

/** timeout_ms absent or 0. */
export declare const DEFAULT_TIMEOUT_MS: number;
/** The max_tokens recorded for a callback that is not told one (SUM-1, SUM-9). */
export declare const DEFAULT_MAX_TOKENS: number;

/** The characters of a message's content (EST-2 – EST-5): UTF-16 code units of a string, of the compact JSON of other content; 0 when absent or null. */
export declare function contentChars(message: unknown): number;
/** A message's chars4 count, ⌈contentChars / 4⌉ (ANY-6). */
export declare function chars4(message: unknown): number;
/** The chars4 count of a list: per message, rounded up, summed (ANY-6; not EST-1's single division). */
export declare function countChars4(messages: readonly unknown[]): number;

/** Writes a JSON value as JSON.stringify does, without the call stack; objects in `substitute` as what they map to. */
export declare function serialize(value: unknown, substitute?: ReadonlyMap<object, unknown>): string;
