// Framing and JSON-RPC 2.0 (protocol.md, "Framing", "Lifecycle", "Errors"):
// one line of UTF-8 JSON per message, one response per request, requests
// handled one at a time in order.
import { writeSync } from 'node:fs'
import { CODES, RpcError } from './errors.mjs'
import { decodeUtf8, parse, JsonSyntaxError, NUMRAW } from './jsonparse.mjs'
import { serialize } from './jsonwrite.mjs'

export const MAX_LINE = 64 * 1024 * 1024
export const MAX_RESULT_BYTES = 64 * 1024 * 1024 - 1024
const MEMBERS = ['jsonrpc', 'id', 'method', 'params']

function writeLine(s) {
  const buf = Buffer.from(s + '\n', 'utf8')
  let off = 0
  while (off < buf.length) {
    try {
      off += writeSync(1, buf, off, buf.length - off)
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e
    }
  }
}

function errorLine(idText, err) {
  const data = { kind: err.kind, ...err.data }
  return `{"jsonrpc":"2.0","id":${idText},"error":${serialize({ code: CODES[err.kind], message: err.message, data })}}`
}

// readRequest turns a line into {idText, method, params} or a response line
// to send at once (an error), or null for a notification.
function readRequest(line) {
  let req
  try {
    req = parse(line)
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { reply: errorLine('null', new RpcError('parse_error', `the line is not JSON: ${e.message}`)) }
    throw e
  }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    return { reply: errorLine('null', new RpcError('invalid_request', 'a request must be a JSON-RPC 2.0 object')) }
  }
  let idText = 'null'
  let idOk = true
  const hasId = Object.hasOwn(req, 'id')
  if (hasId) {
    const id = req.id
    if (typeof id === 'number' && Number.isFinite(id)) idText = req[NUMRAW]?.id ?? String(id)
    else if (typeof id === 'string' && id.isWellFormed()) idText = JSON.stringify(id)
    else if (id === null) idText = 'null'
    else idOk = false
  }
  const bad = (msg) => ({ reply: errorLine(idOk ? idText : 'null', new RpcError('invalid_request', msg)) })
  for (const k of Object.keys(req)) {
    const lower = k.toLowerCase()
    const m = MEMBERS.find((x) => x === lower)
    if (m && m !== k) return bad(`member ${JSON.stringify(k)} is not the protocol's ${JSON.stringify(m)}: member names are exact`)
  }
  if (!idOk) return { reply: errorLine('null', new RpcError('invalid_request', '"id" must be a number, a well-formed UTF-8 string or null')) }
  if (req.jsonrpc !== '2.0') return bad('"jsonrpc" must be "2.0"')
  if (typeof req.method !== 'string') return bad('"method" must be a string')
  if (!hasId) return null // a notification
  return { idText, method: req.method, params: req.params }
}

// serve reads requests from stdin and answers each with handle(method,
// params), an async function returning the result or throwing RpcError.
export function serve(handle) {
  let queue = Promise.resolve()
  let ended = false
  let busy = 0
  const chunks = []
  let size = 0
  let overflow = false

  const process1 = async (buf) => {
    const line = decodeUtf8(buf)
    if (/^[ \t\r\n]*$/.test(line)) return
    const r = readRequest(line)
    if (r === null) return
    if (r.reply) { writeLine(r.reply); return }
    let out
    try {
      const result = await handle(r.method, r.params)
      if (result === undefined) throw new RpcError('internal_error', 'no result')
      const text = serialize(result)
      if (Buffer.byteLength(text, 'utf8') > MAX_RESULT_BYTES) throw new RpcError('invalid_params', `the result would exceed the result limit of ${MAX_RESULT_BYTES} bytes`)
      out = `{"jsonrpc":"2.0","id":${r.idText},"result":${text}}`
    } catch (e) {
      if (!(e instanceof RpcError)) {
        process.stderr.write(`internal error: ${e && e.stack ? e.stack : e}\n`)
        e = new RpcError('internal_error', `internal error: ${e && e.message ? e.message : e}`)
      }
      out = errorLine(r.idText, e)
    }
    writeLine(out)
    if (r.method === 'shutdown') process.exit(0)
  }

  const enqueue = (buf) => {
    busy++
    queue = queue.then(() => process1(buf)).catch((e) => process.stderr.write(`${e.stack ?? e}\n`)).finally(() => {
      busy--
      if (ended && busy === 0) process.exit(0)
    })
  }
  const tooLong = () => {
    busy++
    queue = queue.then(() => writeLine(errorLine('null', new RpcError('invalid_request', `the line exceeds the limit of ${MAX_LINE} bytes`)))).finally(() => {
      busy--
      if (ended && busy === 0) process.exit(0)
    })
  }

  process.stdin.on('data', (data) => {
    let start = 0
    for (;;) {
      const nl = data.indexOf(10, start)
      const piece = nl < 0 ? data.subarray(start) : data.subarray(start, nl)
      if (!overflow) {
        size += piece.length
        if (size > MAX_LINE) { overflow = true; chunks.length = 0 } else if (piece.length) chunks.push(piece)
      }
      if (nl < 0) break
      if (overflow) tooLong()
      else enqueue(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
      chunks.length = 0
      size = 0
      overflow = false
      start = nl + 1
    }
  })
  process.stdin.on('end', () => {
    ended = true
    if (chunks.length && !overflow) enqueue(Buffer.concat(chunks))
    chunks.length = 0
    if (busy === 0) process.exit(0)
    // stdin is closed: answer what is under way, but never linger
    setTimeout(() => process.exit(0), 1500).unref()
  })
}
