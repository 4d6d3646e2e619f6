// Typed errors of the wire protocol (protocol.md, "Errors"): the kind is the
// stable identity the harness checks; the code follows JSON-RPC.

export const CODES = {
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
}

// An RpcError is an answer, not a fault: its stack is never shown, so none
// is captured (a performance change: capturing one cost more than the rest
// of many a refused request).
export class RpcError extends Error {
  constructor(kind, message, data = {}) {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      super(message)
    } finally {
      Error.stackTraceLimit = limit
    }
    if (!(kind in CODES)) throw new Error(`unknown error kind ${kind}`)
    this.kind = kind
    this.data = data
  }
}

export const invalidParams = (msg, data) => new RpcError('invalid_params', msg, data)
export const invalidMessage = (msg, data) => new RpcError('invalid_message', msg, data)
export const invalidConfig = (path, msg) =>
  new RpcError('invalid_config', path === '' ? msg : `${path}: ${msg}`, { path })
