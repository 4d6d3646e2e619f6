// adapter.js — the shape of a convspec adapter: one JSON-RPC request a line
// on stdin, one response a line on stdout (spec/protocol.md). The window here
// keeps the last max_messages; put your library's calls in its place.
const CODES = { parse_error: -32700, invalid_request: -32600, method_not_found: -32601, invalid_params: -32602, internal_error: -32603, invalid_config: -32001, invalid_message: -32002 };
class Failure extends Error { constructor(kind, message) { super(message); this.kind = kind; } }
const fail = (kind, message) => { throw new Failure(kind, message); };
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const windows = new Map(); // handle → your library's window

function messagesOf(p) {
  if (!Array.isArray(p.messages)) fail('invalid_params', 'params.messages: must be an array of messages');
  p.messages.forEach((m, i) => isObject(m) && typeof m.role === 'string' && m.role !== '' || fail('invalid_message', `messages[${i}]: needs a non-empty string role`));
  return p.messages;
}

const methods = {
  initialize: () => ({ protocol: 1, implementation: { name: 'my-agent', version: '1.0.0' }, capabilities: ['window'] }),
  shutdown: () => null,
  'window.create': (p) => {
    const max = p.config?.max_messages ?? 100; // your library: new Window(p.config), its errors as invalid_config
    if (!Number.isSafeInteger(max) || max < 0) fail('invalid_config', `max_messages: must be a non-negative integer, got ${JSON.stringify(max)}`);
    windows.set(`w${windows.size + 1}`, { max });
    return { window: `w${windows.size}`, config: { max_messages: max, summarize_on_trim: false, preserve_first_n: 0, preserve_last_n: 0 }, warnings: [] };
  },
  'window.trim': (p) => {
    const w = windows.get(p.window) ?? fail('invalid_params', `params.window: unknown window ${JSON.stringify(p.window ?? null)}`);
    const messages = messagesOf(p), cut = Math.max(0, messages.length - w.max);
    const metrics = { totalMessages: messages.length, preservedMessages: messages.length - cut, evictedMessages: cut, estimatedTokens: 0 };
    return { trimmed: messages.slice(cut), evicted: messages.slice(0, cut), metrics, warnings: [] };
  },
  'window.estimate': (p) => ({ tokens: Math.ceil(messagesOf(p).reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0) / 4) }),
};

function answer(line) {
  let req;
  try {
    req = JSON.parse(line); // inside the try: a line that is not JSON is answered, never a crash
  } catch (e) {
    return { id: null, error: { code: CODES.parse_error, message: `not JSON: ${e.message}`, data: { kind: 'parse_error' } } };
  }
  const id = isObject(req) && (typeof req.id === 'string' || typeof req.id === 'number') ? req.id : null;
  try {
    if (!isObject(req) || req.jsonrpc !== '2.0' || typeof req.method !== 'string') fail('invalid_request', 'not a JSON-RPC 2.0 request');
    if (req.params !== undefined && !isObject(req.params)) fail('invalid_params', 'params: must be an object');
    if (!Object.hasOwn(methods, req.method)) fail('method_not_found', `unknown method ${JSON.stringify(req.method)}`);
    return { id, result: methods[req.method](req.params ?? {}), exit: req.method === 'shutdown' };
  } catch (e) {
    const kind = e instanceof Failure ? e.kind : 'internal_error';
    return { id, error: { code: CODES[kind], message: String(e.message), data: { kind } } };
  }
}

require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return; // blank lines are ignored
  const { exit, ...response } = answer(line);
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...response }) + '\n', () => exit && process.exit(0));
}).on('close', () => process.exit(0)); // at the end of input, exit at once
