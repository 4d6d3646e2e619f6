// The summarizer: its scripted stand-in over the wire (protocol.md, "The
// scripted summarizer"), the prompt of SUM-1 and window.summarize (SUM-9).
import { invalidParams, RpcError } from './errors.mjs'
import { isObject } from './messages.mjs'
import { rawNumber, countOf, describeValue } from './counts.mjs'
import { compact } from './jsonwrite.mjs'
import { trimWhite, isBlank } from './whitespace.mjs'

export const INSTRUCTION = 'Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief.'
export const MAX_TOKENS = 1024
const DEFAULT_TIMEOUT_MS = 30000

function scriptTime(s, key, where) {
  if (!Object.hasOwn(s, key) || s[key] === null) return 0
  const raw = rawNumber(s, key)
  const v = raw === null ? null : countOf(raw)
  if (v === null) throw invalidParams(`${where}.${key}: must be a non-negative integer count of milliseconds, got ${describeValue(s, key)}`)
  return v
}

// parseScript reads a Summarizer object: exactly one of reply and error, both
// strings, and optional delay_ms and timeout_ms counts.
export function parseScript(s, where = 'summarizer') {
  if (!isObject(s)) throw invalidParams(`${where}: must be an object with "reply" or "error"`)
  const hasReply = Object.hasOwn(s, 'reply') && s.reply !== null
  const hasError = Object.hasOwn(s, 'error') && s.error !== null
  if (hasReply === hasError) throw invalidParams(`${where}: must have exactly one of "reply" and "error"`)
  if (hasReply && typeof s.reply !== 'string') throw invalidParams(`${where}.reply: must be a string`)
  if (hasError && typeof s.error !== 'string') throw invalidParams(`${where}.error: must be a string`)
  if (!(hasReply ? s.reply : s.error).isWellFormed()) throw invalidParams(`${where}: holds a string that is not well-formed Unicode`)
  const delay = scriptTime(s, 'delay_ms', where)
  const timeout = scriptTime(s, 'timeout_ms', where) || DEFAULT_TIMEOUT_MS
  return { reply: hasReply ? s.reply : null, error: hasError ? s.error : null, delay, timeout }
}

const MAX_TIMER = 2 ** 31 - 1
function sleep(ms) {
  return new Promise((resolve) => {
    const step = (left) => {
      if (left <= 0) return resolve()
      const d = Math.min(left, MAX_TIMER)
      setTimeout(() => step(left - d), d)
    }
    step(ms)
  })
}

// call runs a script once: it answers at once unless delay_ms reaches
// timeout_ms, in which case the call fails when the timeout expires. D-44
// (protocol.md, "The scripted summarizer"): delay_ms >= the timeout does not
// answer in time; this implementation first read the tie as an answer (R5).
export async function call(script) {
  if (script.delay >= script.timeout) {
    await sleep(script.timeout)
    return { ok: false, error: `the summarizer did not answer within ${script.timeout} ms`, timedOut: true }
  }
  // D-44: an answer is given at once; sleeping the delay would change nothing
  if (script.error !== null) return { ok: false, error: script.error }
  return { ok: true, reply: script.reply }
}

// --- the prompt (SUM-1) ---

const str = (v) => (typeof v === 'string' ? v : v === undefined ? '' : compact(v))

// renderContent is a content's parts joined by "\n" (SUM-1), built without
// recursion: tool_result blocks may nest content without bound.
class Lit {
  constructor(s) { this.s = s }
}

function renderContent(c) {
  const out = []
  const stack = [c]
  while (stack.length) {
    const x = stack.pop()
    if (x instanceof Lit) { out.push(x.s); continue }
    if (x === undefined || x === null) continue
    if (typeof x === 'string') { out.push(x); continue }
    if (!Array.isArray(x)) { out.push(compact(x)); continue }
    for (let i = x.length - 1; i >= 0; i--) {
      const b = x[i]
      if (isObject(b) && b.type === 'tool_result') {
        stack.push(b.content === null || b.content === undefined ? new Lit('') : b.content)
        stack.push(new Lit(`tool_result ${str(b.tool_use_id)}: `))
      } else {
        stack.push(new Lit(blockPart(b)))
      }
      if (i > 0) stack.push(new Lit('\n'))
    }
  }
  return out.join('')
}

const hasParts = (c) => !(c === undefined || c === null || (Array.isArray(c) && c.length === 0))

function blockPart(b) {
  if (isObject(b)) {
    if (b.type === 'text' && typeof b.text === 'string') return b.text
    if (b.type === 'tool_use') return `tool_use ${str(b.name)} ${b.input === undefined ? '{}' : compact(b.input)}`
  }
  return compact(b)
}

export function renderMessage(m) {
  const parts = []
  if (m.role === 'tool') parts.push(`tool_result ${str(m.tool_call_id)}: ${renderContent(m.content)}`)
  else if (hasParts(m.content)) parts.push(renderContent(m.content))
  if (Array.isArray(m.tool_calls)) {
    for (const tc of m.tool_calls) {
      const fn = isObject(tc) && isObject(tc.function) ? tc.function : {}
      parts.push(`tool_call ${str(fn.name)} ${str(fn.arguments)}`)
    }
  }
  return `[${m.role}] ${parts.join('\n')}`
}

export function prompt(msgs) {
  return INSTRUCTION + '\n\n' + msgs.map(renderMessage).join('\n\n')
}

// summarize is window.summarize (SUM-9): one call, the reply without its
// white space; a failure or a blank reply is summarizer_failed.
export async function summarize(msgs, script) {
  const p = prompt(msgs)
  const calls = [{ prompt: p, max_tokens: MAX_TOKENS }]
  const r = await call(script)
  if (!r.ok) throw new RpcError('summarizer_failed', `the summarizer failed: ${r.error}`)
  if (isBlank(r.reply)) throw new RpcError('summarizer_failed', 'the summarizer answered nothing but white space')
  return { summary: trimWhite(r.reply), summarizer_calls: calls }
}
