// The convspec protocol adapter (spec/protocol.md): newline-delimited
// JSON-RPC 2.0 on stdin/stdout around the library (window, history, budget).
//
//   node dist/adapter.js

import { createInterface } from 'node:readline';
import {
  DEFAULT_TARGET_PERCENT,
  ContextWindowExhaustedError,
  contextLimit,
  countTokens,
  encode,
  isApproachingLimit,
  isAtLimit,
  prepareRequest,
  pruneMessages,
  summarizeAndCompress,
} from './budget';
import { CONFIG_FORMATS, ConfigFileError, type ConfigFormat, resolveConfigFile } from './configfile';
import { buildLLMMessages, classifyConversation, pruneOrphanedUserMessages } from './history';
import { ProviderConversation, type ScriptedRun, placeRun } from './loop';
import { ConvspecError, type ErrorKind, InvalidMessageError, type Message, isObject, typeName } from './messages';
import { DEFAULT_SUMMARIZER_TIMEOUT_MS, summarize } from './summarize';
import { ConversationWindow, estimateTokens } from './window';
import { lineDecoder, serialize } from './wire';

const PROTOCOL = 1;
const IMPLEMENTATION = { name: 'convspec-example-typescript', version: '0.1.0' };
const CAPABILITIES = ['window', 'window.summarize', 'history', 'budget', 'tokens.cl100k', 'config', 'loop'];

type Kind = 'parse_error' | 'invalid_request' | 'method_not_found' | 'invalid_params' | 'internal_error' | ErrorKind;

const CODES: Record<Kind, number> = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  invalid_config: -32001,
  invalid_message: -32002,
  unknown_model: -32003,
  context_window_exhausted: -32004,
  invariant_violation: -32005,
  summarizer_failed: -32007,
};

/** An error answered to the harness with its kind (and, for some kinds, facts in `data`). */
class RpcError extends Error {
  constructor(
    readonly kind: Kind,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Id = string | number | null;
type Params = Record<string, unknown>;

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

const windows = new Map<string, ConversationWindow>();
let windowCount = 0;

/** params as an object; `{}` when absent and not required. */
function objectParams(req: Record<string, unknown>, required = true): Params {
  if (!hasOwn(req, 'params') || req.params === null) {
    if (required) throw new RpcError('invalid_params', 'params: missing');
    return {};
  }
  const params = req.params;
  if (!isObject(params)) throw new RpcError('invalid_params', 'params: must be an object');
  return params;
}

/** A required member of params (null counts as missing). */
function member(params: Params, name: string): unknown {
  if (!hasOwn(params, name) || params[name] === null) throw new RpcError('invalid_params', `params.${name}: missing`);
  return params[name];
}

function messagesParam(params: Params): unknown[] {
  const messages = member(params, 'messages');
  if (!Array.isArray(messages)) throw new RpcError('invalid_params', 'params.messages: must be an array of messages');
  return messages;
}

function stringParam(params: Params, name: string): string {
  const v = member(params, name);
  if (typeof v !== 'string') throw new RpcError('invalid_params', `params.${name}: must be a string, got ${typeName(v)}`);
  return v;
}

/** `model`: a non-empty string (protocol.md, budget.check). */
function modelParam(params: Params): string {
  const model = stringParam(params, 'model');
  if (model === '') throw new RpcError('invalid_params', 'params.model: must not be empty');
  return model;
}

/** A count (CFG-3): a number whose value is an integer from 0 to 2^53 − 1. */
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** `limits`: extra models and their limits, each a positive count (LIM-1). */
function limitsParam(params: Params): Map<string, number> {
  const limits = new Map<string, number>();
  if (!hasOwn(params, 'limits') || params.limits === null) return limits;
  if (!isObject(params.limits)) throw new RpcError('invalid_params', `params.limits: must be an object, got ${typeName(params.limits)}`);
  for (const [model, limit] of Object.entries(params.limits)) {
    if (!isCount(limit) || limit === 0) {
      throw new RpcError('invalid_params', `params.limits[${JSON.stringify(model)}]: must be a positive integer, got ${serialize(limit)}`);
    }
    limits.set(model, limit);
  }
  return limits;
}

/** `target_ratio`: above 0, at most 1, at most two decimals; as a percentage. */
function targetPercentParam(params: Params): number {
  if (!hasOwn(params, 'target_ratio') || params.target_ratio === null) return DEFAULT_TARGET_PERCENT;
  const r = params.target_ratio;
  const percent = typeof r === 'number' ? Math.round(r * 100) : NaN;
  if (typeof r !== 'number' || !(r > 0 && r <= 1) || Math.abs(r * 100 - percent) > 1e-9) {
    throw new RpcError('invalid_params', `params.target_ratio: must be a number above 0 and at most 1 with at most two decimals, got ${serialize(r)}`);
  }
  return percent;
}

/**
 * The summarizer callback as the harness scripts it (protocol.md, "The
 * scripted summarizer"): answers after `delay_ms` with `reply` or fails with
 * `error`. The library gives up after `timeoutMs`.
 */
class Script {
  readonly timeoutMs: number;
  private readonly delayMs: number;
  private readonly reply: string | undefined;
  private readonly error: string | undefined;

  /** `where` names the script in error messages (`params.summarizer`, `params.summarizers[1]`). */
  constructor(script: unknown, where = 'params.summarizer') {
    if (!isObject(script)) throw new RpcError('invalid_params', `${where}: must be an object, got ${typeName(script)}`);
    const given = ['reply', 'error'].filter((name) => script[name] !== undefined && script[name] !== null);
    if (given.length !== 1) throw new RpcError('invalid_params', `${where}: needs exactly one of reply and error`);
    const text = script[given[0]!];
    if (typeof text !== 'string') throw new RpcError('invalid_params', `${where}.${given[0]}: must be a string, got ${typeName(text)}`);
    if (given[0] === 'reply') this.reply = text;
    else this.error = text;
    this.delayMs = Script.milliseconds(script, 'delay_ms', where) ?? 0;
    this.timeoutMs = Script.milliseconds(script, 'timeout_ms', where) ?? DEFAULT_SUMMARIZER_TIMEOUT_MS;
  }

  private static milliseconds(script: Record<string, unknown>, name: string, where: string): number | undefined {
    const v = script[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) {
      throw new RpcError('invalid_params', `${where}.${name}: must be a non-negative number of milliseconds, got ${serialize(v)}`);
    }
    return v;
  }

  /** Plays the script once. */
  answer(): Promise<string> {
    return new Promise((resolve, reject) => {
      setTimeout(() => (this.error !== undefined ? reject(new Error(this.error)) : resolve(this.reply!)), this.delayMs);
    });
  }
}

function summarizerParam(params: Params): Script {
  return new Script(member(params, 'summarizer'));
}

function windowParam(params: Params): ConversationWindow {
  const handle = member(params, 'window');
  if (typeof handle !== 'string') throw new RpcError('invalid_params', 'params.window: must be a window handle (a string)');
  const window = windows.get(handle);
  if (window === undefined) throw new RpcError('invalid_params', `params.window: unknown window ${serialize(handle)}`);
  return window;
}

/** `config` of config.resolve and loop.run: a config file, `{"format": "yaml" | "json", "text": string}`. */
function configFileParam(params: Params): { format: ConfigFormat; text: string } {
  const source = member(params, 'config');
  if (!isObject(source)) throw new RpcError('invalid_params', `params.config: must be an object with format and text, got ${typeName(source)}`);
  const { format, text } = source;
  if (typeof format !== 'string' || !(CONFIG_FORMATS as readonly string[]).includes(format)) {
    throw new RpcError('invalid_params', `params.config.format: must be ${CONFIG_FORMATS.map((f) => JSON.stringify(f)).join(' or ')}, got ${serialize(format ?? null)}`);
  }
  if (typeof text !== 'string') throw new RpcError('invalid_params', `params.config.text: must be a string, got ${typeName(text)}`);
  return { format: format as ConfigFormat, text };
}

/** An array member of an object of params; `where` names the object. */
function arrayMember(o: Record<string, unknown>, name: string, where: string): unknown[] {
  const v = o[name];
  if (!Array.isArray(v)) throw new RpcError('invalid_params', `${where}.${name}: must be an array, got ${v === undefined ? 'nothing' : typeName(v)}`);
  return v;
}

/** `initial` and `iterations` of loop.run: the run the harness scripts. */
function scriptedRunParam(params: Params): ScriptedRun {
  const initial = arrayMember(params, 'initial', 'params');
  const iterations = arrayMember(params, 'iterations', 'params').map((it, i) => {
    const where = `params.iterations[${i}]`;
    if (!isObject(it)) throw new RpcError('invalid_params', `${where}: must be an object with prompt and turns, got ${typeName(it)}`);
    if (it.prompt === undefined || it.prompt === null) throw new RpcError('invalid_params', `${where}.prompt: missing`);
    const turns = arrayMember(it, 'turns', where).map((turn, j) => {
      const at = `${where}.turns[${j}]`;
      if (!isObject(turn)) throw new RpcError('invalid_params', `${at}: must be an object with response and results, got ${typeName(turn)}`);
      if (turn.response === undefined || turn.response === null) throw new RpcError('invalid_params', `${at}.response: missing`);
      // No results (the final answer): `[]`, absent or null.
      const results = turn.results === undefined || turn.results === null ? [] : arrayMember(turn, 'results', at);
      return { response: turn.response, results };
    });
    return { prompt: it.prompt, turns };
  });
  return { initial, iterations };
}

/** `summarizers` of loop.run: scripts for the successive calls; absent or empty, no summarizer. */
function summarizersParam(params: Params): Script[] {
  if (!hasOwn(params, 'summarizers') || params.summarizers === null) return [];
  return arrayMember(params, 'summarizers', 'params').map((s, i) => new Script(s, `params.summarizers[${i}]`));
}

/** Parses `max_messages` of history.build: a count (CFG-3). */
function maxMessagesParam(params: Params): number {
  const v = member(params, 'max_messages');
  if (!isCount(v)) throw new RpcError('invalid_params', `params.max_messages: must be a non-negative integer, got ${serialize(v)}`);
  return v === 0 ? 0 : v; // -0 is 0
}

const methods: Record<string, (params: Params | undefined, req: Record<string, unknown>) => unknown> = {
  initialize(_, req) {
    const params = objectParams(req);
    if (params.protocol !== PROTOCOL) {
      throw new RpcError('invalid_params', `params.protocol: unsupported protocol ${serialize(params.protocol)}, this implementation speaks ${PROTOCOL}`);
    }
    return { protocol: PROTOCOL, implementation: IMPLEMENTATION, capabilities: CAPABILITIES };
  },

  shutdown() {
    return null;
  },

  'window.create'(_, req) {
    const params = objectParams(req, false);
    // `config` absent or null is the configuration {} (protocol.md, CFG-2).
    const window = new ConversationWindow(params.config ?? undefined);
    const handle = `w${++windowCount}`;
    windows.set(handle, window);
    return { window: handle, config: window.config, warnings: window.warnings };
  },

  async 'window.trim'(params) {
    const window = windowParam(params!);
    const messages = messagesParam(params!);
    if (params!.summarizer === undefined || params!.summarizer === null) return { ...window.trim(messages), summarizer_calls: [] };
    const script = summarizerParam(params!);
    const calls: Array<{ prompt: string; max_tokens: number }> = [];
    const result = await window.trimAndSummarize(
      messages,
      (prompt, maxTokens) => {
        calls.push({ prompt, max_tokens: maxTokens });
        return script.answer();
      },
      { timeoutMs: script.timeoutMs },
    );
    return { ...result, summarizer_calls: calls };
  },

  'window.estimate'(params) {
    return { tokens: estimateTokens(messagesParam(params!)) };
  },

  async 'window.summarize'(params) {
    const messages = messagesParam(params!);
    const script = summarizerParam(params!);
    const calls: Array<{ prompt: string; max_tokens: number }> = [];
    const summary = await summarize(
      messages,
      (prompt, maxTokens) => {
        calls.push({ prompt, max_tokens: maxTokens });
        return script.answer();
      },
      script.timeoutMs,
    );
    return { summary, summarizer_calls: calls };
  },

  'history.classify'(params) {
    return classifyConversation(messagesParam(params!));
  },

  'history.prune'(params) {
    return pruneOrphanedUserMessages(messagesParam(params!));
  },

  'history.build'(params) {
    const messages = messagesParam(params!);
    return buildLLMMessages(messages, maxMessagesParam(params!));
  },

  'tokens.encode'(params) {
    const ids = encode(stringParam(params!, 'text'));
    return { tokens: ids, count: ids.length };
  },

  'budget.count'(params) {
    const { tokens, perMessage } = countTokens(messagesParam(params!));
    return { tokens, per_message: perMessage };
  },

  'budget.check'(params) {
    const limit = contextLimit(modelParam(params!), limitsParam(params!));
    const { tokens } = countTokens(messagesParam(params!));
    return { tokens, limit, approaching: isApproachingLimit(tokens, limit), at_limit: isAtLimit(tokens, limit) };
  },

  'budget.prune'(params) {
    const limit = contextLimit(modelParam(params!), limitsParam(params!));
    const percent = targetPercentParam(params!);
    return pruneMessages(messagesParam(params!), limit, percent);
  },

  async 'budget.compress'(params) {
    const messages = messagesParam(params!);
    const script = summarizerParam(params!);
    const calls: Array<{ messages: Message[] }> = [];
    const compressed = await summarizeAndCompress(
      messages,
      (given) => {
        calls.push({ messages: given });
        return script.answer();
      },
      { timeoutMs: script.timeoutMs },
    );
    return { messages: compressed, summarizer_calls: calls };
  },

  'config.resolve'(params) {
    const { format, text } = configFileParam(params!);
    return resolveConfigFile(format, text);
  },

  async 'loop.run'(params) {
    const { format, text } = configFileParam(params!);
    const run = scriptedRunParam(params!);
    const scripts = summarizersParam(params!);
    const { config } = resolveConfigFile(format, text);
    const places = placeRun(run); // MSG-1, naming the place in the run
    // The scripts play the summarizer's successive calls, the last one repeating.
    const calls: Array<{ prompt: string; max_tokens: number }> = [];
    const nextScript = (): Script => scripts[Math.min(calls.length, scripts.length - 1)]!;
    const conversation = new ProviderConversation(
      config,
      run.initial as Message[], // checked by placeRun
      scripts.length === 0
        ? {}
        : {
            summarizer: (prompt, maxTokens) => {
              const script = nextScript();
              calls.push({ prompt, max_tokens: maxTokens });
              return script.answer();
            },
            timeoutMs: () => nextScript().timeoutMs,
          },
    );
    const requests: Array<{ iteration: number; messages: Message[] }> = [];
    const iterations = [];
    let i = 0;
    try {
      for (const it of run.iterations) {
        conversation.startIteration(it.prompt as Message);
        for (const turn of it.turns) {
          requests.push({ iteration: i, messages: await conversation.request() });
          conversation.append(turn.response as Message, ...(turn.results as Message[]));
        }
        iterations.push(await conversation.finishIteration());
        i++;
      }
    } catch (e) {
      // A broken tool structure (UNIT-2), found by a trim: named by its place in the run.
      if (!(e instanceof InvalidMessageError)) throw e;
      const state = conversation.messages;
      const place = (m: string, k: string): string => places.get(state[Number(k)]) ?? `the conversation's ${m}`;
      throw new InvalidMessageError(`iteration ${i}: ${e.message.replace(/messages\[(\d+)\]/g, place)}`);
    }
    return { config, requests, iterations, summarizer_calls: calls };
  },

  async 'budget.prepare'(params) {
    const model = modelParam(params!);
    const limits = limitsParam(params!);
    const messages = messagesParam(params!);
    const script = summarizerParam(params!);
    const calls: Array<{ messages: Message[] }> = [];
    try {
      const prepared = await prepareRequest(
        messages,
        model,
        (given) => {
          calls.push({ messages: given });
          return script.answer();
        },
        { limits, timeoutMs: script.timeoutMs },
      );
      return { ...prepared, summarizer_calls: calls };
    } catch (e) {
      if (e instanceof ContextWindowExhaustedError) {
        throw new RpcError(e.kind, e.message, { tokenCount: e.tokenCount, limit: e.limit, model: e.model, summarizer_calls: calls.length });
      }
      throw e;
    }
  },
};

/** Methods that take no params object. */
const NO_PARAMS = new Set(['initialize', 'shutdown', 'window.create']);

interface Response {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data: Record<string, unknown> };
}

function errorResponse(id: Id, kind: Kind, message: string, data: Record<string, unknown> = {}): Response {
  return { jsonrpc: '2.0', id, error: { code: CODES[kind], message, data: { ...data, kind } } };
}

/** Handles one line; the response is undefined for a notification. */
async function handle(line: string): Promise<{ response: Response | undefined; exit: boolean }> {
  let req: unknown;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { response: errorResponse(null, 'parse_error', `not JSON: ${(e as Error).message}`), exit: false };
  }
  if (!isObject(req)) return { response: errorResponse(null, 'invalid_request', 'a request must be a JSON object'), exit: false };

  const isNotification = !hasOwn(req, 'id');
  const rawId = req.id;
  const validId = rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number';
  const id: Id = validId && rawId !== undefined ? (rawId as Id) : null;
  if (!validId) return { response: errorResponse(null, 'invalid_request', 'id: must be a string, a number or null'), exit: false };
  if (req.jsonrpc !== '2.0') return { response: errorResponse(id, 'invalid_request', 'jsonrpc: must be "2.0"'), exit: false };
  if (typeof req.method !== 'string') return { response: errorResponse(id, 'invalid_request', 'method: must be a string'), exit: false };

  const method = req.method;
  let response: Response;
  if (!hasOwn(methods, method)) {
    response = errorResponse(id, 'method_not_found', `unknown method ${serialize(method)}`);
  } else {
    try {
      const params = NO_PARAMS.has(method) ? undefined : objectParams(req);
      response = { jsonrpc: '2.0', id, result: await methods[method]!(params, req) };
    } catch (e) {
      if (e instanceof RpcError) response = errorResponse(id, e.kind, e.message, e.data);
      else if (e instanceof ConfigFileError) response = errorResponse(id, e.kind, e.message, { path: e.path });
      else if (e instanceof ConvspecError) response = errorResponse(id, e.kind, e.message);
      else response = errorResponse(id, 'internal_error', e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    }
  }
  return { response: isNotification ? undefined : response, exit: method === 'shutdown' };
}

const JSON_WHITE_SPACE = /^[ \t\r\n]*$/;

const lines = createInterface({ input: process.stdin.pipe(lineDecoder()), terminal: false });

let exiting = false;
// Requests are answered one at a time, in order.
let queue: Promise<void> = Promise.resolve();

async function answer(line: string): Promise<void> {
  if (exiting) return;
  const { response, exit } = await handle(line);
  let out = '';
  if (response !== undefined) {
    try {
      out = serialize(response) + '\n';
    } catch (e) {
      // e.g. content nested deeper than the call stack allows
      out = serialize(errorResponse(response.id, 'internal_error', `cannot write the response: ${String(e)}`)) + '\n';
    }
  }
  if (exit) {
    exiting = true;
    process.stdout.write(out, () => process.exit(0));
  } else if (out !== '') {
    process.stdout.write(out);
  }
}

lines.on('line', (line) => {
  if (JSON_WHITE_SPACE.test(line)) return; // blank lines are ignored
  queue = queue.then(() => answer(line));
});

// Exit promptly at end of input, whether or not shutdown came first (after
// answering what was read).
lines.on('close', () => {
  queue = queue.then(() => {
    if (!exiting) process.stdout.write('', () => process.exit(0));
  });
});
