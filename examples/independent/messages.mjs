// The message model (MSG-1), classification (CLS-1, CLS-2) and tool-call
// units (UNIT-1, UNIT-2), shared by every operation.
import { invalidMessage, invalidParams } from './errors.mjs'

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
export { isObject }

// wellFormed reports whether every string in v, member names included, is
// well-formed Unicode (MSG-1, D-9). Invalid UTF-8 bytes were read as lone
// surrogates (jsonparse.mjs), so they fail here too.
export function wellFormed(v) {
  const stack = [v]
  while (stack.length) {
    const x = stack.pop()
    if (typeof x === 'string') {
      if (!x.isWellFormed()) return false
    } else if (Array.isArray(x)) {
      for (const e of x) if (typeof e === 'string' || (e !== null && typeof e === 'object')) stack.push(e)
    } else if (x !== null && typeof x === 'object') {
      for (const k of Object.keys(x)) {
        if (!k.isWellFormed()) return false
        const e = x[k]
        if (typeof e === 'string' || (e !== null && typeof e === 'object')) stack.push(e)
      }
    }
  }
  return true
}

const nonEmptyString = (v) => typeof v === 'string' && v !== ''

// valid holds the message objects messageProblem has found valid, so that a
// message checked again (the provider loop trims its whole state at every
// turn) is not walked again: a performance change; no message object is
// changed after it is read or built.
const valid = new WeakSet()

// messageProblem returns why message m is invalid (MSG-1, CLS-2), or null.
function messageProblem(m) {
  if (valid.has(m)) return null
  const p = problemOf(m)
  if (p === null) valid.add(m)
  return p
}

function problemOf(m) {
  if (!isObject(m)) return `a message must be a JSON object, got ${m === null ? 'null' : Array.isArray(m) ? 'an array' : typeof m}`
  if (!Object.hasOwn(m, 'role')) return '"role" is missing'
  if (typeof m.role !== 'string') return '"role" must be a string'
  if (m.role === '') return '"role" must not be empty'
  if (!wellFormed(m)) return 'holds a string that is not well-formed Unicode (an unpaired surrogate or bytes that are not UTF-8)'
  // CLS-2: the tool members a message's class is read from.
  if (m.role === 'assistant') {
    const tc = m.tool_calls
    if (tc !== undefined && tc !== null) {
      if (!Array.isArray(tc)) return '"tool_calls" must be an array of objects or null'
      for (let i = 0; i < tc.length; i++) {
        if (!isObject(tc[i])) return `"tool_calls"[${i}] must be an object`
        if (!nonEmptyString(tc[i].id)) return `"tool_calls"[${i}] needs a non-empty string "id"`
      }
    }
    if (Array.isArray(m.content)) {
      for (let i = 0; i < m.content.length; i++) {
        const b = m.content[i]
        if (isObject(b) && b.type === 'tool_use' && !nonEmptyString(b.id)) return `the tool_use block content[${i}] needs a non-empty string "id"`
      }
    }
  } else if (m.role === 'user') {
    if (Array.isArray(m.content)) {
      for (let i = 0; i < m.content.length; i++) {
        const b = m.content[i]
        if (isObject(b) && b.type === 'tool_result' && !nonEmptyString(b.tool_use_id)) return `the tool_result block content[${i}] needs a non-empty string "tool_use_id"`
      }
    }
  } else if (m.role === 'tool') {
    if (!nonEmptyString(m.tool_call_id)) return 'a tool message needs a non-empty string "tool_call_id"'
  }
  return null
}

// requireMessages checks that v is an array of valid messages; name is the
// parameter's name for errors.
export function requireMessages(v, name = 'messages') {
  if (v === undefined) throw invalidParams(`"${name}" is missing`)
  if (!Array.isArray(v)) throw invalidParams(`"${name}" must be an array of messages`)
  for (let i = 0; i < v.length; i++) {
    const p = messageProblem(v[i])
    if (p) throw invalidMessage(`${name}[${i}]: ${p}`, { index: i })
  }
  return v
}

export function checkMessage(v, where) {
  const p = messageProblem(v)
  if (p) throw invalidMessage(`${where}: ${p}`)
  return v
}

// classify returns a message's class and, for tool calls and results, its
// ids (CLS-1). The message is valid.
export function classify(m) {
  const role = m.role
  if (role === 'system' || role === 'developer') return { cls: 'system' }
  if (role === 'assistant') {
    const ids = []
    if (Array.isArray(m.tool_calls)) for (const c of m.tool_calls) ids.push(c.id)
    if (Array.isArray(m.content)) for (const b of m.content) if (isObject(b) && b.type === 'tool_use') ids.push(b.id)
    return ids.length ? { cls: 'tool_call', ids } : { cls: 'assistant_text' }
  }
  if (role === 'tool') return { cls: 'tool_result', ids: [m.tool_call_id] }
  if (role === 'user') {
    const ids = []
    if (Array.isArray(m.content)) for (const b of m.content) if (isObject(b) && b.type === 'tool_result') ids.push(b.tool_use_id)
    return ids.length ? { cls: 'tool_result', ids } : { cls: 'user_prompt' }
  }
  return { cls: 'other' }
}

export const classOf = (m) => classify(m).cls

// structures scans a conversation into tool structures (BUILD-2): a call
// with the results that directly follow it while some of its ids are
// unanswered, up to and including the first that answers an id the call does
// not declare; any other tool result alone. Each has its first applicable
// code in the order of D-32 (null when well-formed), the position that code
// names, and its input positions.
export function structures(msgs) {
  const info = msgs.map(classify)
  const out = []
  const declared = new Set()
  let i = 0
  while (i < msgs.length) {
    const c = info[i]
    if (c.cls === 'tool_call') {
      const ids = c.ids
      let dup = false
      const own = new Set()
      for (const id of ids) {
        if (declared.has(id) || own.has(id)) dup = true
        own.add(id)
      }
      for (const id of ids) declared.add(id)
      const remaining = new Set(own)
      const answered = new Set()
      let twice = false
      let orphanAt = -1
      let j = i + 1
      while (j < msgs.length && info[j].cls === 'tool_result' && remaining.size > 0) {
        for (const id of info[j].ids) {
          if (!own.has(id)) { if (orphanAt < 0) orphanAt = j } else if (answered.has(id)) twice = true
          else { answered.add(id); remaining.delete(id) }
        }
        j++
        if (orphanAt >= 0) break
      }
      const indexes = []
      for (let k = i; k < j; k++) indexes.push(k)
      let code = null
      let at = i
      if (dup) code = 'duplicate_tool_call_id'
      else if (twice) code = 'tool_call_answered_twice'
      else if (orphanAt >= 0) { code = 'orphan_tool_result'; at = orphanAt } else if (remaining.size > 0) code = 'unanswered_tool_call'
      out.push({ start: i, end: j, code, at, indexes })
      i = j
    } else if (c.cls === 'tool_result') {
      out.push({ start: i, end: i + 1, code: 'orphan_tool_result', at: i, indexes: [i] })
      i++
    } else {
      out.push({ start: i, end: i + 1, code: null, at: i, indexes: [i] })
      i++
    }
  }
  return out
}

const CODE_TEXT = {
  duplicate_tool_call_id: 'a call id is declared twice in the conversation',
  tool_call_answered_twice: 'a call id is answered by two results',
  orphan_tool_result: 'a tool result does not directly follow the call that declares its id',
  unanswered_tool_call: 'a tool call has ids with no result before the next message that is not a tool result',
}
export const codeText = (code) => CODE_TEXT[code]

// units returns the units of a well-formed conversation as half-open
// ranges (UNIT-1), or throws invalid_message naming the first malformed
// structure's index and code (UNIT-2).
export function units(msgs, name = 'messages') {
  const out = []
  for (const s of structures(msgs)) {
    if (s.code) throw invalidMessage(`${name}[${s.at}]: ${s.code}: ${CODE_TEXT[s.code]}`, { index: s.at, code: s.code })
    out.push([s.start, s.end])
  }
  return out
}

// unitIndex maps every position to the index of its unit.
export function unitOfEach(us, n) {
  const u = new Array(n)
  us.forEach(([s, e], k) => { for (let i = s; i < e; i++) u[i] = k })
  return u
}
