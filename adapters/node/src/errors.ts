// Error kinds and their JSON-RPC codes (spec/protocol.md, "Errors"), and how
// whatever a handler throws becomes an error response.

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

export const CODES: Readonly<Record<Kind, number>> = {
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
  unsupported: -32006,
  summarizer_failed: -32007,
};

/** An error answered with its kind and, for some kinds, facts in `data`. */
export class KitError extends Error {
  constructor(
    readonly kind: Kind,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'KitError';
  }
}

export const invalidParams = (message: string): KitError => new KitError('invalid_params', message);
export const invalidMessage = (message: string): KitError => new KitError('invalid_message', message);
/** `path` is the dotted path of the offending member of a config file (CONF-4); omit it for window.create. */
export const invalidConfig = (message: string, path?: string): KitError =>
  new KitError('invalid_config', message, path === undefined ? {} : { path });
export const unknownModel = (message: string): KitError => new KitError('unknown_model', message);
export const invariantViolation = (message: string): KitError => new KitError('invariant_violation', message);
export const summarizerFailed = (message: string): KitError => new KitError('summarizer_failed', message);
/** The kit adds `summarizer_calls`, the number of calls the request made (PREP-4). */
export const contextWindowExhausted = (message: string, facts: { tokenCount: number; limit: number; model: string }): KitError =>
  new KitError('context_window_exhausted', message, { ...facts });
/** Declines this one request: the case is reported unsupported, not failed. */
export const unsupported = (message: string): KitError => new KitError('unsupported', message);

/** The error object of a response. */
export interface WireError {
  code: number;
  message: string;
  data: Record<string, unknown>;
}

export function wireError(kind: Kind, message: string, data: Record<string, unknown> = {}): WireError {
  return { code: CODES[kind], message, data: { ...data, kind } };
}

const isKind = (k: unknown): k is Kind => typeof k === 'string' && Object.prototype.hasOwnProperty.call(CODES, k);

/** Members of a library's own error object that become `data` when it has no `data` of its own. */
const FACTS = ['path', 'tokenCount', 'limit', 'model'];

/**
 * What a thrown value is answered with: an error with a `kind` of the table
 * (a KitError, or a library's own error class with a `kind` member) keeps its
 * kind, its message and its `data` (or else its `path`, `tokenCount`,
 * `limit` and `model` members); anything else is an `internal_error` with its
 * message.
 */
export function fromThrown(e: unknown): WireError {
  if (typeof e === 'object' && e !== null && isKind((e as { kind?: unknown }).kind)) {
    const err = e as Record<string, unknown>;
    let data: Record<string, unknown> = {};
    if (typeof err.data === 'object' && err.data !== null && !Array.isArray(err.data)) data = err.data as Record<string, unknown>;
    else for (const name of FACTS) if (err[name] !== undefined) data[name] = err[name];
    return wireError(err.kind as Kind, String(err.message ?? err.kind), data);
  }
  return wireError('internal_error', e instanceof Error ? `${e.name}: ${e.message}` : String(e));
}
