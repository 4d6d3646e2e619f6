// serve: the whole protocol around a library's handlers — framing, JSON-RPC,
// handles, params, the scripted summarizer, message identity and errors.

import { createInterface } from 'node:readline';
import { type Kind, type WireError, fromThrown, invalidParams, wireError } from './errors';
import { type Message, hasOwn, isObject } from './messages';
import * as read from './params';
import { type ConfigFile, type ScriptedRun } from './params';
import { LateSummarizer, Summarizer, missedSummarizer } from './summarizer';
import { serialize } from './json';
import { lineDecoder } from './wire';

type Awaitable<T> = T | Promise<T>;

/** The summarizer callbacks a handler is given (per request, or fixed at window.create). */
export interface SummarizerCallbacks {
  /** `(prompt, maxTokens) => Promise<string>`. */
  readonly call: (prompt: string, maxTokens: number) => Promise<string>;
  /** `(text) => Promise<string>` (recorded with max_tokens 1024). */
  readonly text: (text: string) => Promise<string>;
  /** `(messages) => Promise<string>`: budget's summaryFn. */
  readonly messages: (messages: readonly Message[]) => Promise<string>;
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

export interface ServeOptions<W> {
  name: string;
  version: string;
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
export function capabilities(o: ServeOptions<unknown>): string[] {
  const caps: string[] = [];
  if (o.window) caps.push('window');
  if (o.window?.summarize) caps.push('window.summarize');
  if (o.history) caps.push('history');
  if (o.budget) caps.push('budget');
  if (o.tokens) caps.push('tokens.cl100k');
  if (o.config) caps.push('config');
  if (o.loop) caps.push('loop');
  return caps;
}

type Id = string | number | null;
type Handler = (params: read.Params) => Promise<unknown>;

/** The state of the request being answered (requests are answered one at a time). */
interface Current {
  summarizer: Summarizer | undefined;
  missed: boolean;
  /** The params the library sees → the params as received, for each message (MSG-2). */
  substitute: Map<object, unknown>;
}

/** Pairs every message of a list the library is given with the one received. */
function link(current: Current, given: readonly unknown[], received: unknown): void {
  if (!Array.isArray(received)) return;
  given.forEach((m, i) => {
    if (typeof m === 'object' && m !== null) current.substitute.set(m, received[i]);
  });
}

/**
 * Serves the protocol on stdin/stdout with the handlers given, and declares
 * the capabilities they implement. Returns at once; the process exits after
 * `shutdown` or at the end of input.
 */
export function serve<W>(options: ServeOptions<W>): void {
  const caps = capabilities(options as ServeOptions<unknown>);
  const windows = new Map<string, W>();
  let current: Current = { summarizer: undefined, missed: false, substitute: new Map() };
  /** The request as received (parsed a second time), beside the copy the library is given. */
  let received: unknown = {};
  const params = (): read.Params => (isObject(received) && isObject(received.params) ? received.params : {});
  const late = new LateSummarizer(() => ({ summarizer: current.summarizer, missed: () => (current.missed = true) }));

  /** The request's summarizer for `scripts` (none for no script). */
  const scripted = (scripts: ReturnType<typeof read.summarizers>): Summarizer | undefined =>
    (current.summarizer = scripts.length === 0 ? undefined : new Summarizer(scripts));
  const required = (p: read.Params): Summarizer => {
    const s = scripted([read.summarizer(p)].filter((x) => x !== undefined));
    if (s === undefined) throw invalidParams('params.summarizer: missing');
    return s;
  };
  const calls = () => current.summarizer?.calls ?? [];
  /** messages, paired with the received ones. */
  const messages = (p: read.Params, received: read.Params): Message[] => {
    const m = read.messages(p);
    link(current, m, received.messages);
    return m;
  };

  const methods: Record<string, Handler> = {};
  const { window: win, history, budget, tokens, config, loop } = options;
  if (win) {
    methods['window.create'] = async (p) => {
      const created = await win.create(p.config ?? undefined, late);
      const handle = `w${windows.size + 1}`;
      windows.set(handle, created.window);
      return { window: handle, config: created.config, warnings: created.warnings ?? [] };
    };
    methods['window.trim'] = async (p) => {
      const handle = read.member(p, 'window');
      if (typeof handle !== 'string') throw invalidParams('params.window: must be a window handle (a string)');
      const w = windows.get(handle);
      if (w === undefined) throw invalidParams(`params.window: unknown window ${serialize(handle)}`);
      const m = messages(p, params());
      const s = win.summarize ? scripted([read.summarizer(p)].filter((x) => x !== undefined)) : undefined;
      const r = await win.trim(w, m, s);
      return { trimmed: r.trimmed, evicted: r.evicted, metrics: r.metrics, warnings: r.warnings ?? [], summary: r.summary ?? null, summarizer_calls: calls() };
    };
    methods['window.estimate'] = async (p) => ({ tokens: await win.estimate(messages(p, params())) });
    if (win.summarize) {
      const summarize = win.summarize.bind(win);
      methods['window.summarize'] = async (p) => {
        const m = messages(p, params());
        return { summary: await summarize(m, required(p)), summarizer_calls: calls() };
      };
    }
  }
  if (history) {
    methods['history.classify'] = async (p) => history.classify(messages(p, params()));
    methods['history.prune'] = async (p) => history.prune(messages(p, params()));
    methods['history.build'] = async (p) => {
      const m = messages(p, params());
      return history.build(m, read.maxMessages(p));
    };
  }
  if (tokens) {
    methods['tokens.encode'] = async (p) => {
      const ids = await tokens.encode(read.string(p, 'text'));
      return { tokens: ids, count: ids.length };
    };
  }
  if (budget) {
    methods['budget.count'] = async (p) => budget.count(messages(p, params()));
    methods['budget.check'] = async (p) => {
      const [model, limits] = [read.model(p), read.limits(p)];
      return budget.check(messages(p, params()), model, limits);
    };
    methods['budget.prune'] = async (p) => {
      const [model, limits, ratio] = [read.model(p), read.limits(p), read.targetRatio(p)];
      return budget.prune(messages(p, params()), model, limits, ratio);
    };
    methods['budget.compress'] = async (p) => {
      const m = messages(p, params());
      return { messages: await budget.compress(m, required(p)), summarizer_calls: calls() };
    };
    methods['budget.prepare'] = async (p) => {
      const [model, limits] = [read.model(p), read.limits(p)];
      const m = messages(p, params());
      return { ...(await budget.prepare(m, model, limits, required(p))), summarizer_calls: calls() };
    };
  }
  if (config) methods['config.resolve'] = async (p) => {
    const { format, text } = read.configFile(p);
    return config.resolve(format, text);
  };
  if (loop) methods['loop.run'] = async (p) => runLoop(loop, p, params());

  /** loop.run: drives the conversation through the scripted run (LOOP-1 – LOOP-6). */
  async function runLoop(handlers: NonNullable<ServeOptions<W>['loop']>, p: read.Params, received: read.Params) {
    const file = read.configFile(p);
    const places = new Map<unknown, string>();
    const run: ScriptedRun = read.scriptedRun(p, (m, where) => places.set(m, where));
    const s = scripted(read.summarizers(p));
    linkRun(run, received);
    const conversation = await handlers.conversation(file, run.initial, s);
    const requests: Array<{ iteration: number; messages: readonly unknown[] }> = [];
    const iterations = [];
    let i = 0;
    try {
      for (const it of run.iterations) {
        await conversation.startIteration(it.prompt);
        for (const turn of it.turns) {
          requests.push({ iteration: i, messages: await conversation.request() });
          await conversation.append(turn.response, ...turn.results);
        }
        iterations.push(await conversation.finishIteration());
        i++;
      }
    } catch (e) {
      // A broken tool structure (UNIT-2) found by a trim: named by its place in the run.
      const state = conversation.messages;
      if (!isObject(e) || e.kind !== 'invalid_message' || state === undefined) throw e;
      const place = (m: string, k: string): string => places.get(state[Number(k)]) ?? `the conversation's ${m}`;
      throw wireErrorOf('invalid_message', `iteration ${i}: ${String(e.message).replace(/messages\[(\d+)\]/g, place)}`);
    }
    return { config: conversation.config, requests, iterations, summarizer_calls: calls() };
  }

  function linkRun(run: ScriptedRun, received: read.Params): void {
    link(current, run.initial, received.initial);
    const its = received.iterations as Array<Record<string, unknown>>;
    run.iterations.forEach((it, i) => {
      const rit = its[i]!;
      current.substitute.set(it.prompt, rit.prompt);
      const turns = rit.turns as Array<Record<string, unknown>>;
      it.turns.forEach((t, j) => {
        current.substitute.set(t.response, turns[j]!.response);
        link(current, t.results, turns[j]!.results);
      });
    });
  }


  async function handle(line: string): Promise<{ response: Response | undefined; exit: boolean }> {
    let req: unknown;
    try {
      req = JSON.parse(line);
      received = JSON.parse(line); // the library gets `req`; answers are written with these messages
    } catch (e) {
      return { response: errorResponse(null, wireError('parse_error', `not JSON: ${(e as Error).message}`)), exit: false };
    }
    if (!isObject(req)) return { response: errorResponse(null, wireError('invalid_request', 'a request must be a JSON object')), exit: false };
    const notification = !hasOwn(req, 'id');
    const rawId = req.id;
    if (!(rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number')) {
      return { response: errorResponse(null, wireError('invalid_request', 'id: must be a string, a number or null')), exit: false };
    }
    const id: Id = rawId ?? null;
    if (req.jsonrpc !== '2.0') return { response: errorResponse(id, wireError('invalid_request', 'jsonrpc: must be "2.0"')), exit: false };
    const method = req.method;
    if (typeof method !== 'string') return { response: errorResponse(id, wireError('invalid_request', 'method: must be a string')), exit: false };

    current = { summarizer: undefined, missed: false, substitute: new Map() };
    let response: Response;
    try {
      response = { jsonrpc: '2.0', id, result: await dispatch(method, req) };
      if (current.missed) throw missedSummarizer();
    } catch (e) {
      const err = e instanceof WireErrorBox ? e.error : fromThrown(current.missed ? missedSummarizer() : e);
      if (err.data.kind === 'context_window_exhausted' && current.summarizer) err.data.summarizer_calls = current.summarizer.calls.length;
      response = errorResponse(id, err);
    }
    return { response: notification ? undefined : response, exit: method === 'shutdown' };
  }

  async function dispatch(method: string, req: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'initialize': {
        const p = read.objectParams(req, true);
        if (p.protocol !== 1) throw invalidParams(`params.protocol: unsupported protocol ${serialize(p.protocol ?? null)}, this implementation speaks 1`);
        return { protocol: 1, implementation: { name: options.name, version: options.version }, capabilities: caps };
      }
      case 'shutdown':
        return null;
    }
    const handler = hasOwn(methods, method) ? methods[method] : undefined;
    if (handler === undefined) throw wireErrorOf('method_not_found', `unknown method ${serialize(method)}`);
    return handler(read.objectParams(req, method !== 'window.create'));
  }

  const output = options.output ?? process.stdout;
  const exit = options.exit ?? (() => process.exit(0));
  let exiting = false;
  let queue: Promise<void> = Promise.resolve(); // requests are answered one at a time, in order

  async function answer(line: string): Promise<void> {
    if (exiting) return;
    const { response, exit: last } = await handle(line);
    let out = '';
    if (response !== undefined) {
      try {
        out = serialize(response, current.substitute) + '\n';
      } catch (e) {
        // e.g. content nested deeper than the call stack allows
        out = serialize(errorResponse(response.id, wireError('internal_error', `cannot write the response: ${String(e)}`))) + '\n';
      }
    }
    if (last) {
      exiting = true;
      output.write(out, () => exit());
    } else if (out !== '') {
      output.write(out);
    }
  }

  const lines = createInterface({ input: (options.input ?? process.stdin).pipe(lineDecoder()), terminal: false });
  lines.on('line', (line) => {
    if (/^[ \t\r\n]*$/.test(line)) return; // blank lines are ignored
    queue = queue.then(() => answer(line));
  });
  // Exit promptly at end of input, whether or not shutdown came first (after answering what was read).
  lines.on('close', () => {
    queue = queue.then(() => {
      if (!exiting) output.write('', () => exit());
    });
  });
}

interface Response {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: WireError;
}

const errorResponse = (id: Id, error: WireError): Response => ({ jsonrpc: '2.0', id, error });

/** An error the kit raises with a wire error already made (not a library's). */
class WireErrorBox extends Error {
  constructor(readonly error: WireError) {
    super(error.message);
  }
}

const wireErrorOf = (kind: Kind, message: string): WireErrorBox => new WireErrorBox(wireError(kind, message));
