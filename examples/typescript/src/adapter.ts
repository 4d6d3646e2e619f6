// The convspec protocol adapter (spec/protocol.md): newline-delimited
// JSON-RPC 2.0 on stdin/stdout around the ConversationWindow library.
//
//   node dist/adapter.js

import { createInterface } from 'node:readline';
import { ConversationWindow, ConvspecError, estimateTokens } from './window';
import { lineDecoder, serialize } from './wire';

const PROTOCOL = 1;
const IMPLEMENTATION = { name: 'convspec-example-typescript', version: '0.1.0' };

type Kind =
  | 'parse_error'
  | 'invalid_request'
  | 'method_not_found'
  | 'invalid_params'
  | 'internal_error'
  | 'invalid_config'
  | 'invalid_message';

const CODES: Record<Kind, number> = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  invalid_config: -32001,
  invalid_message: -32002,
};

/** An error answered to the harness with its kind. */
class RpcError extends Error {
  constructor(
    readonly kind: Kind,
    message: string,
  ) {
    super(message);
  }
}

type Id = string | number | null;
type Params = Record<string, unknown>;

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const windows = new Map<string, ConversationWindow>();
let windowCount = 0;

/** params as an object; `undefined` when absent. */
function objectParams(req: Record<string, unknown>, required: boolean): Params | undefined {
  if (!hasOwn(req, 'params')) {
    if (required) throw new RpcError('invalid_params', 'params: missing');
    return undefined;
  }
  const params = req.params;
  if (!isObject(params)) throw new RpcError('invalid_params', 'params: must be an object');
  return params;
}

function messagesParam(params: Params): unknown[] {
  if (!hasOwn(params, 'messages')) throw new RpcError('invalid_params', 'params.messages: missing');
  const messages = params.messages;
  if (!Array.isArray(messages)) throw new RpcError('invalid_params', 'params.messages: must be an array of messages');
  return messages;
}

const methods: Record<string, (req: Record<string, unknown>) => unknown> = {
  initialize(req) {
    const params = objectParams(req, true)!;
    if (params.protocol !== PROTOCOL) {
      throw new RpcError('invalid_params', `params.protocol: unsupported protocol ${serialize(params.protocol)}, this implementation speaks ${PROTOCOL}`);
    }
    return { protocol: PROTOCOL, implementation: IMPLEMENTATION, capabilities: ['window'] };
  },

  'window.create'(req) {
    const params = objectParams(req, false) ?? {};
    // `config` absent or null is the configuration {} (protocol.md, CFG-2).
    const config = params.config ?? undefined;
    const window = new ConversationWindow(config);
    const handle = `w${++windowCount}`;
    windows.set(handle, window);
    return { window: handle, config: window.config, warnings: window.warnings };
  },

  'window.trim'(req) {
    const params = objectParams(req, true)!;
    const handle = params.window;
    if (typeof handle !== 'string') throw new RpcError('invalid_params', 'params.window: must be a window handle (a string)');
    const window = windows.get(handle);
    if (window === undefined) throw new RpcError('invalid_params', `params.window: unknown window ${serialize(handle)}`);
    return window.trim(messagesParam(params));
  },

  'window.estimate'(req) {
    const params = objectParams(req, true)!;
    return { tokens: estimateTokens(messagesParam(params)) };
  },

  shutdown() {
    return null;
  },
};

interface Response {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data: { kind: Kind } };
}

function errorResponse(id: Id, kind: Kind, message: string): Response {
  return { jsonrpc: '2.0', id, error: { code: CODES[kind], message, data: { kind } } };
}

/** Handles one line; returns the response, or undefined for a notification. */
function handle(line: string): { response: Response | undefined; exit: boolean } {
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
  if (!Object.prototype.hasOwnProperty.call(methods, method)) {
    response = errorResponse(id, 'method_not_found', `unknown method ${serialize(method)}`);
  } else {
    try {
      response = { jsonrpc: '2.0', id, result: methods[method]!(req) };
    } catch (e) {
      if (e instanceof RpcError || e instanceof ConvspecError) response = errorResponse(id, e.kind, e.message);
      else response = errorResponse(id, 'internal_error', String(e));
    }
  }
  return { response: isNotification ? undefined : response, exit: method === 'shutdown' };
}

const JSON_WHITE_SPACE = /^[ \t\r\n]*$/;

const lines = createInterface({ input: process.stdin.pipe(lineDecoder()), terminal: false });

let exiting = false;

lines.on('line', (line) => {
  if (exiting || JSON_WHITE_SPACE.test(line)) return; // blank lines are ignored
  const { response, exit } = handle(line);
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
});

// Exit promptly at end of input, whether or not shutdown came first.
lines.on('close', () => {
  if (!exiting) process.stdout.write('', () => process.exit(0));
});
