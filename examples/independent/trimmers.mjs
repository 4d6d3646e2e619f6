// Trimmers of this implementation's own design (section 8d, ANY-1 – ANY-10).
// All three keep a floor — what their claimed guarantees require — and then
// as many of the newest units as fit under the limit, newest first, stopping
// at the first unit that does not fit (a contiguous recent suffix). Each is
// declared with exactly the guarantees that design keeps:
//  - recent-messages: bound messages; keeps the leading system messages, the
//    latest user prompt and the last unit;
//  - recent-chars4:   bound tokens (chars4); keeps the leading system messages
//    and the last unit, but not the latest prompt (an honest FIFO that may
//    drop the question when a long tool exchange follows it);
//  - recent-cl100k:   bound tokens (cl100k, TOK-2); keeps the leading system
//    messages, the latest user prompt and the last unit.
import { invalidParams } from './errors.mjs'
import { requireMessages, units, classOf } from './messages.mjs'
import { chars4 } from './estimate.mjs'
import { messageTokens } from './tokens.mjs'
import { rawNumber, countOf, describeValue } from './counts.mjs'

const ALL = ['subsequence', 'units', 'system', 'last_prompt', 'last_unit', 'bound', 'fits', 'idempotent', 'total']

const TRIMMERS = {
  'recent-messages': { decl: { name: 'recent-messages', bound: 'messages', guarantees: ALL }, count: () => 1, keepPrompt: true },
  'recent-chars4': { decl: { name: 'recent-chars4', bound: 'tokens', counter: 'chars4', guarantees: ALL.filter((g) => g !== 'last_prompt') }, count: chars4, keepPrompt: false },
  'recent-cl100k': { decl: { name: 'recent-cl100k', bound: 'tokens', counter: 'cl100k', guarantees: ALL }, count: messageTokens, keepPrompt: true },
}

export const declarations = () => Object.values(TRIMMERS).map((t) => t.decl)

function trimWith(t, msgs, limit) {
  const n = msgs.length
  if (n === 0) return []
  const us = units(msgs)
  const per = msgs.map(t.count)
  const total = per.reduce((a, b) => a + b, 0)
  if (total <= limit) return msgs.slice() // ANY-7
  // the floor (ANY-6): leading system messages, latest prompt, last unit
  const keep = new Array(n).fill(false)
  let lead = 0
  while (lead < n && classOf(msgs[lead]) === 'system') keep[lead++] = true
  if (t.keepPrompt) {
    for (let i = n - 1; i >= 0; i--) if (classOf(msgs[i]) === 'user_prompt') { keep[i] = true; break }
  }
  const [ls, le] = us[us.length - 1]
  for (let i = ls; i < le; i++) keep[i] = true
  let used = 0
  for (let i = 0; i < n; i++) if (keep[i]) used += per[i]
  if (used <= limit) {
    // newest units first, while they fit
    for (let u = us.length - 1; u >= 0; u--) {
      const [s, e] = us[u]
      if (keep[s]) continue
      let cost = 0
      for (let i = s; i < e; i++) cost += per[i]
      if (used + cost > limit) break
      for (let i = s; i < e; i++) keep[i] = true
      used += cost
    }
  }
  return msgs.filter((_, i) => keep[i])
}

export function trim(params) {
  const name = params.trimmer
  if (typeof name !== 'string' || !Object.hasOwn(TRIMMERS, name)) throw invalidParams(`trimmer: no trimmer named ${JSON.stringify(name ?? null)} is declared`)
  const raw = rawNumber(params, 'limit')
  const limit = raw === null ? null : countOf(raw)
  if (limit === null) throw invalidParams(`limit: must be a non-negative integer count, got ${describeValue(params, 'limit')}`)
  const msgs = requireMessages(params.messages)
  return { messages: trimWith(TRIMMERS[name], msgs, limit) }
}
