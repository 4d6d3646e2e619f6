// The sliding window: configuration (CFG-1 – CFG-6), the plan of a trim
// (WIN-1 – WIN-9), metrics (MET-1, MET-2) and summarization of what it
// evicts (SUM-2 – SUM-8).
import { invalidConfig } from './errors.mjs'
import { isObject, requireMessages, units, unitOfEach, classOf } from './messages.mjs'
import { rawNumber, countOf, describeValue } from './counts.mjs'
import { estimate } from './estimate.mjs'
import { prompt, call, MAX_TOKENS } from './summarize.mjs'
import { trimWhite, isBlank } from './whitespace.mjs'

export const DEFAULTS = Object.freeze({ max_messages: 100, summarize_on_trim: false, preserve_first_n: 1, preserve_last_n: 20 })
const COUNT_MEMBERS = ['max_messages', 'preserve_first_n', 'preserve_last_n']
const MEMBERS = new Set([...COUNT_MEMBERS, 'summarize_on_trim'])

const join = (prefix, key) => (prefix === '' ? key : `${prefix}.${key}`)

// readCountMember reads obj[key] as a count (CFG-3); path names it in errors.
export function readCountMember(obj, key, path) {
  const raw = rawNumber(obj, key)
  const v = raw === null ? null : countOf(raw)
  if (v === null) throw invalidConfig(path, `must be a non-negative integer not greater than 2^53 - 1, got ${describeValue(obj, key)}`)
  return v
}

// readConfig reads a ConversationHistoryConfig: undefined or null is {}
// (CFG-1); null members are absent (CFG-2); values are checked (CFG-3) and
// unknown members refused (CFG-4). It returns the members that were set.
export function readConfig(c, prefix) {
  if (c === undefined || c === null) return {}
  if (!isObject(c)) throw invalidConfig(prefix, `must be an object (a ConversationHistoryConfig), got ${Array.isArray(c) ? 'an array' : JSON.stringify(c)}`)
  const set = {}
  for (const k of Object.keys(c)) {
    if (!MEMBERS.has(k)) throw invalidConfig(join(prefix, k), `unknown member ${JSON.stringify(k)} (allowed: max_messages, summarize_on_trim, preserve_first_n, preserve_last_n)`)
  }
  for (const k of Object.keys(c)) {
    if (c[k] === null) continue
    if (k === 'summarize_on_trim') {
      if (typeof c[k] !== 'boolean') throw invalidConfig(join(prefix, k), `must be a boolean, got ${describeValue(c, k)}`)
      set[k] = c[k]
    } else {
      set[k] = readCountMember(c, k, join(prefix, k))
    }
  }
  return set
}

export const effective = (set) => ({
  max_messages: set.max_messages ?? DEFAULTS.max_messages,
  summarize_on_trim: set.summarize_on_trim ?? DEFAULTS.summarize_on_trim,
  preserve_first_n: set.preserve_first_n ?? DEFAULTS.preserve_first_n,
  preserve_last_n: set.preserve_last_n ?? DEFAULTS.preserve_last_n,
})

const preserveWarning = (cfg) => ({
  code: 'preserve_exceeds_max',
  message: `preserve_first_n (${cfg.preserve_first_n}) + preserve_last_n (${cfg.preserve_last_n}) >= max_messages (${cfg.max_messages}): only the preserved head and tail are kept`,
})

// creationWarnings are the warnings of window.create (CFG-6).
export function creationWarnings(cfg) {
  if (cfg.max_messages > 0 && cfg.preserve_first_n + cfg.preserve_last_n >= cfg.max_messages) return [preserveWarning(cfg)]
  return []
}

// plan splits n messages into head, middle and tail for cap places (WIN-2,
// WIN-9) and chooses the kept middle (WIN-3, WIN-4): it keeps [0, headEnd),
// [keepStart, tailStart) and [tailStart, n).
export function plan(us, unitOf, n, cap, h, t) {
  const hc = Math.min(h, n)
  const headEnd = hc === 0 ? 0 : us[unitOf[hc - 1]][1]
  const tc = Math.min(t, n - headEnd)
  const tailStart = tc === 0 ? n : us[unitOf[n - tc]][0]
  const fixed = headEnd + (n - tailStart)
  if (fixed >= cap) return { headEnd, tailStart, keepStart: tailStart, win3: true }
  const k = cap - fixed
  let keepStart = tailStart
  while (keepStart > headEnd) {
    const s = us[unitOf[keepStart - 1]][0]
    if (s < tailStart - k) break
    keepStart = s
  }
  return { headEnd, tailStart, keepStart, win3: false }
}

function range(msgs, a, b) {
  const out = []
  for (let i = a; i < b; i++) out.push(msgs[i])
  return out
}

function applyPlan(msgs, p, summary = null) {
  const trimmed = range(msgs, 0, p.headEnd)
  if (summary) trimmed.push(summary)
  for (let i = p.keepStart; i < msgs.length; i++) trimmed.push(msgs[i])
  return { trimmed, evicted: range(msgs, p.headEnd, p.keepStart) }
}

// text of a covered message counts when it is a string content or the text
// of a text block, and holds more than white space (SUM-6).
function hasText(msgs) {
  for (const m of msgs) {
    if (classOf(m) === 'tool_result') continue
    const c = m.content
    if (typeof c === 'string' && !isBlank(c)) return true
    if (Array.isArray(c)) {
      for (const b of c) if (isObject(b) && b.type === 'text' && typeof b.text === 'string' && !isBlank(b.text)) return true
    }
  }
  return false
}

export class Window {
  constructor(cfg) {
    this.config = cfg
    this.pending = [] // evicted since the last summary (SUM-4)
  }

  // trim is window.trim; script is the scripted summarizer or null. It
  // returns the result of protocol.md with the messages as given.
  async trim(msgs, script = null, name = 'messages') {
    requireMessages(msgs, name)
    const us = units(msgs, name)
    const n = msgs.length
    const cfg = this.config
    const max = cfg.max_messages
    const calls = []
    const finish = (trimmed, evicted, warnings, summary = null) => ({
      trimmed,
      evicted,
      metrics: {
        totalMessages: n,
        preservedMessages: trimmed.length - (summary ? 1 : 0),
        evictedMessages: evicted.length,
        estimatedTokens: estimate(trimmed),
      },
      warnings,
      summary,
      summarizer_calls: calls,
    })
    if (max === 0 || n <= max) return finish(msgs.slice(), [], []) // WIN-1, CFG-5
    const unitOf = unitOfEach(us, n)
    const h = cfg.preserve_first_n
    const t = cfg.preserve_last_n
    const plain = () => {
      const p = plan(us, unitOf, n, max, h, t)
      const r = applyPlan(msgs, p)
      return { ...r, warnings: p.win3 ? [preserveWarning(cfg)] : [] }
    }
    if (!cfg.summarize_on_trim || !script) {
      const r = plain() // SUM-8: the pending list is neither used nor extended
      return finish(r.trimmed, r.evicted, r.warnings)
    }
    const sp = plan(us, unitOf, n, max - 1, h, t) // SUM-3
    const evictedS = range(msgs, sp.headEnd, sp.keepStart)
    const c = this.pending.length + evictedS.length
    if (evictedS.length === 0 || c < 10) { // SUM-5
      const r = plain()
      this.pending.push(...r.evicted)
      return finish(r.trimmed, r.evicted, r.warnings)
    }
    const covered = this.pending.concat(evictedS) // SUM-4
    if (!hasText(covered)) { // SUM-6
      const r = plain()
      this.pending = []
      r.warnings.push({ code: 'summary_skipped_no_text', message: `the ${covered.length} messages to summarize hold no text beyond white space; evicted without a summary` })
      return finish(r.trimmed, r.evicted, r.warnings)
    }
    calls.push({ prompt: prompt(covered), max_tokens: MAX_TOKENS })
    const reply = await call(script)
    if (!reply.ok || isBlank(reply.reply)) { // SUM-7
      const r = plain()
      this.pending = this.pending.concat(r.evicted)
      r.warnings.push(reply.ok
        ? { code: 'summary_empty', message: 'the summarizer answered nothing but white space; evicted without a summary' }
        : { code: 'summary_failed', message: `the summarizer failed (${reply.error}); evicted without a summary` })
      return finish(r.trimmed, r.evicted, r.warnings)
    }
    const summary = { role: 'assistant', content: '[Conversation Summary]\n' + trimWhite(reply.reply) } // SUM-2
    const r = applyPlan(msgs, sp, summary)
    this.pending = []
    return finish(r.trimmed, r.evicted, sp.win3 ? [preserveWarning(cfg)] : [], summary)
  }
}
