// The token budget: limits (LIM-1, LIM-2), thresholds (THR-1, THR-2),
// pruneMessages (PRN-1 – PRN-5), summarizeAndCompress (CMP-1, CMP-2) and the
// check before every provider call (PREP-1 – PREP-5).
import { RpcError, invalidParams } from './errors.mjs'
import { isObject, requireMessages, units, unitOfEach, classOf } from './messages.mjs'
import { rawNumber, countOf, percentOf, describeValue } from './counts.mjs'
import { messageTokens } from './tokens.mjs'
import { call } from './summarize.mjs'

export const DEFAULT_LIMITS = Object.freeze({ 'gemini-3-pro': 1000000, 'claude-3.5-sonnet': 200000, 'gpt-4o': 128000 })
export const WARN_PERCENT = 80
export const HARD_PERCENT = 95

// limitOf reads model and limits (protocol.md, budget.check) and returns the
// model's limit, or fails with unknown_model (LIM-2).
export function limitOf(params) {
  const model = params.model
  if (typeof model !== 'string' || model === '') throw invalidParams('"model" must be a non-empty string')
  const reg = new Map(Object.entries(DEFAULT_LIMITS))
  const lim = params.limits
  if (lim !== undefined && lim !== null) {
    if (!isObject(lim)) throw invalidParams('"limits" must be an object of model names to positive counts')
    for (const k of Object.keys(lim)) {
      const raw = rawNumber(lim, k)
      const v = raw === null ? null : countOf(raw)
      if (v === null || v === 0) throw invalidParams(`limits.${k}: must be a positive count, got ${describeValue(lim, k)}`)
      reg.set(k, v)
    }
  }
  if (!reg.has(model)) throw new RpcError('unknown_model', `unknown model ${JSON.stringify(model)}: it has no context limit`, { model })
  return { model, limit: reg.get(model) }
}

// over reports 100·c > percent·L, exactly (D-25).
export const over = (c, limit, percent) => 100n * BigInt(c) > BigInt(percent) * BigInt(limit)
const below = (c, limit, percent) => 100n * BigInt(c) < BigInt(percent) * BigInt(limit)

export function countAll(msgs) {
  const per = msgs.map(messageTokens)
  return { per, total: per.reduce((a, b) => a + b, 0) }
}

export function readPercent(params) {
  if (!Object.hasOwn(params, 'target_ratio') || params.target_ratio === null) return WARN_PERCENT
  const raw = rawNumber(params, 'target_ratio')
  const p = raw === null ? null : percentOf(raw)
  if (p === null || !(p >= 1 && p <= 100)) throw invalidParams(`target_ratio: must be a number from 0.01 to 1 with at most two decimals, got ${describeValue(params, 'target_ratio')}`)
  return p
}

// pruneCounted is pruneMessages on a well-formed conversation whose
// per-message counts are known (PRN-1 – PRN-4).
export function pruneCounted(msgs, us, per, limit, percent) {
  const n = msgs.length
  if (n === 0) throw new RpcError('invariant_violation', 'pruning an empty conversation would return a list without the system prompt (PRN-4)')
  let c = per.reduce((a, b) => a + b, 0)
  const removed = []
  if (!below(c, limit, percent)) {
    const unitOf = unitOfEach(us, n)
    const first = unitOf[0]
    const last = unitOf[n - 1]
    for (let u = first + 1; u < last; u++) {
      const [s, e] = us[u]
      for (let i = s; i < e; i++) { removed.push(i); c -= per[i] }
      if (below(c, limit, percent)) break
    }
  }
  const gone = new Set(removed)
  return { messages: msgs.filter((_, i) => !gone.has(i)), removed, tokens: c }
}

export function prune(params) {
  const msgs = requireMessages(params.messages)
  const us = units(msgs)
  const percent = readPercent(params)
  const { limit } = limitOf(params)
  const { per } = countAll(msgs)
  const r = pruneCounted(msgs, us, per, limit, percent)
  return { messages: r.messages, removed: r.removed }
}

// compress is summarizeAndCompress (CMP-1): [system, summary, last prompt].
export async function compress(msgs, script) {
  const sys = msgs.length > 0 && classOf(msgs[0]) === 'system' ? 0 : -1
  let last = -1
  for (let i = msgs.length - 1; i >= 0; i--) if (i !== sys && classOf(msgs[i]) === 'user_prompt') { last = i; break }
  const given = msgs.filter((_, i) => i !== sys && i !== last)
  const calls = [{ messages: given }]
  const r = await call(script)
  if (!r.ok) return { ok: false, error: r.error, calls }
  const out = []
  if (sys >= 0) out.push(msgs[sys])
  out.push({ role: 'assistant', content: r.reply })
  if (last >= 0) out.push(msgs[last])
  return { ok: true, messages: out, calls }
}

export async function compressRequest(msgs, script) {
  const r = await compress(msgs, script)
  if (!r.ok) throw new RpcError('summarizer_failed', `the summarizer failed: ${r.error}`)
  return { messages: r.messages, summarizer_calls: r.calls }
}

// prepare is the check before every provider call (PREP-1 – PREP-4).
export async function prepare(msgs, us, limit, model, script) {
  const { per, total } = countAll(msgs)
  if (!over(total, limit, WARN_PERCENT)) return { messages: msgs, events: [], summarizer_calls: [] } // PREP-1
  if (!over(total, limit, HARD_PERCENT)) { // PREP-2
    const r = pruneCounted(msgs, us, per, limit, WARN_PERCENT)
    return { messages: r.messages, events: [{ event: 'context_window_approaching', tokenCount: total, limit }], summarizer_calls: [] }
  }
  // PREP-3: one summarizer call, never checked or compressed itself.
  const c = await compress(msgs, script)
  let out, events, after
  if (c.ok) {
    out = c.messages
    after = countAll(out).total
    events = [{ event: 'context_compressed', originalTokenCount: total, compressedTokenCount: after }]
  } else {
    const r = pruneCounted(msgs, us, per, limit, WARN_PERCENT)
    out = r.messages
    after = r.tokens
    events = [{ event: 'context_compression_failed', error: c.error }]
  }
  if (over(after, limit, HARD_PERCENT)) { // PREP-4
    throw new RpcError('context_window_exhausted', `still ${after} tokens of the ${limit} of ${model} after compression`, { tokenCount: after, limit, model, summarizer_calls: 1 })
  }
  return { messages: out, events, summarizer_calls: c.calls }
}
