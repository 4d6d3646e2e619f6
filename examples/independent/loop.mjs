// loop.run: the provider's tool-call loop (LOOP-1 – LOOP-7), simulated from
// a scripted run.
import { invalidParams, invalidMessage, RpcError } from './errors.mjs'
import { isObject, checkMessage } from './messages.mjs'
import { resolveParam } from './config.mjs'
import { Window } from './window.mjs'
import { parseScript } from './summarize.mjs'
import { estimate } from './estimate.mjs'
import { serialize } from './jsonwrite.mjs'

export const MAX_RESULT_BYTES = 64 * 1024 * 1024 - 1024

function readRun(params) {
  const initial = params.initial ?? []
  if (!Array.isArray(initial)) throw invalidParams('"initial" must be an array of messages')
  initial.forEach((m, i) => checkMessage(m, `initial[${i}]`))
  const iterations = params.iterations ?? []
  if (!Array.isArray(iterations)) throw invalidParams('"iterations" must be an array')
  iterations.forEach((it, i) => {
    const w = `iterations[${i}]`
    if (!isObject(it)) throw invalidParams(`${w} must be an object with "prompt" and "turns"`)
    if (it.prompt === undefined) throw invalidParams(`${w}.prompt is missing`)
    checkMessage(it.prompt, `${w}.prompt`)
    const turns = it.turns ?? []
    if (!Array.isArray(turns)) throw invalidParams(`${w}.turns must be an array`)
    turns.forEach((t, j) => {
      const tw = `${w}.turns[${j}]`
      if (!isObject(t)) throw invalidParams(`${tw} must be an object with "response" and "results"`)
      if (t.response === undefined) throw invalidParams(`${tw}.response is missing`)
      checkMessage(t.response, `${tw}.response`)
      const results = t.results ?? []
      if (!Array.isArray(results)) throw invalidParams(`${tw}.results must be an array of messages`)
      results.forEach((m, k) => checkMessage(m, `${tw}.results[${k}]`))
    })
  })
  const summ = params.summarizers ?? []
  if (!Array.isArray(summ)) throw invalidParams('"summarizers" must be an array of summarizer scripts')
  const scripts = summ.map((s, i) => parseScript(s, `summarizers[${i}]`))
  return { initial, iterations, scripts }
}

// size measures what the result will take, so that a run whose answer would
// pass the result limit is refused before it is built (protocol.md, Limits).
const sizeCache = new WeakMap()
function messageBytes(m) {
  if (m !== null && typeof m === 'object' && sizeCache.has(m)) return sizeCache.get(m)
  const b = Buffer.byteLength(serialize(m), 'utf8') + 1
  if (m !== null && typeof m === 'object') sizeCache.set(m, b)
  return b
}

export async function run(params) {
  if (params.config === undefined) throw invalidParams('"config" is missing')
  const resolved = await resolveParam(params.config)
  const { initial, iterations, scripts } = readRun(params)
  const cfg = resolved.config
  // LOOP-2: the first message is never evicted in the loop.
  const raised = cfg.preserve_first_n === 0
  const win = new Window({ ...cfg, preserve_first_n: Math.max(1, cfg.preserve_first_n) })
  let callNo = 0
  const summarizerCalls = []
  // successive summarizer calls use successive scripts, the last repeating
  const nextScript = () => {
    if (scripts.length === 0) return null
    return scripts[Math.min(callNo, scripts.length - 1)]
  }
  const requests = []
  const out = []
  let bytes = 0
  let state = initial.slice()
  for (let it = 0; it < iterations.length; it++) {
    const iter = iterations[it]
    const events = []
    if (it === 0 && raised && cfg.max_messages > 0) {
      events.push({ code: 'preserve_first_raised', message: 'preserve_first_n 0 is raised to 1 in the provider loop: the first message is always kept' })
    }
    const trim = async (where) => {
      const script = nextScript()
      let r
      try {
        r = await win.trim(state, script, 'state')
      } catch (e) {
        if (e instanceof RpcError && e.kind === 'invalid_message') throw invalidMessage(`iterations[${it}], ${where}: ${e.message}`)
        throw e
      }
      if (r.summarizer_calls.length) {
        callNo += r.summarizer_calls.length
        summarizerCalls.push(...r.summarizer_calls)
      }
      if (r.metrics.evictedMessages > 0) {
        events.push({ code: 'conversation_trimmed', message: `Trimmed conversation: ${r.metrics.evictedMessages} messages removed, ${r.metrics.preservedMessages} kept (~${r.metrics.estimatedTokens} tokens)` })
      }
      events.push(...r.warnings)
      return r.trimmed
    }
    state.push(iter.prompt)
    const turns = iter.turns ?? []
    for (let t = 0; t < turns.length; t++) {
      const trimmed = await trim(`before the model call of turns[${t}]`)
      requests.push({ iteration: it, messages: trimmed })
      for (const m of trimmed) bytes += messageBytes(m)
      if (bytes > MAX_RESULT_BYTES) throw invalidParams(`the result of this run would exceed the result limit of ${MAX_RESULT_BYTES} bytes`)
      state = trimmed.concat([turns[t].response], turns[t].results ?? [])
    }
    state = await trim('after the last turn') // LOOP-3
    for (const m of state) bytes += messageBytes(m)
    if (bytes > MAX_RESULT_BYTES) throw invalidParams(`the result of this run would exceed the result limit of ${MAX_RESULT_BYTES} bytes`)
    const count = state.length
    const tokens = estimate(state)
    events.push({ code: 'conversation_metrics', message: `Conversation: ${count} messages (~${tokens} tokens)` })
    const max = cfg.max_messages
    if (max > 0 && 100 * count > 80 * max) { // LOOP-5
      events.push({ code: 'conversation_approaching_limit', message: `Conversation approaching limit (${count}/${max} messages)` })
    }
    out.push({ state: state.slice(), metrics: { messageCount: count, estimatedTokens: tokens }, events })
  }
  return { config: cfg, requests, iterations: out, summarizer_calls: summarizerCalls }
}
