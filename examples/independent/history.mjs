// history.classify, history.prune (PRUNE-1 – PRUNE-4) and history.build
// (BUILD-1 – BUILD-5).
import { requireMessages, classOf, units, structures, codeText } from './messages.mjs'

export function classifyAll(msgs) {
  requireMessages(msgs)
  const us = units(msgs) // UNIT-2: a malformed structure is refused
  return { classes: msgs.map(classOf), units: us }
}

// prunePositions returns the positions of the orphaned prompts: of every run
// of user prompts with no assistant message between them, all but the last
// (PRUNE-1); only assistant messages end a run (PRUNE-2).
export function prunePositions(msgs) {
  const removed = []
  let last = -1
  for (let i = 0; i < msgs.length; i++) {
    const c = classOf(msgs[i])
    if (c === 'user_prompt') {
      if (last >= 0) removed.push(last)
      last = i
    } else if (c === 'assistant_text' || c === 'tool_call') {
      last = -1
    }
  }
  return removed
}

export function prune(msgs) {
  requireMessages(msgs)
  const removed = prunePositions(msgs)
  const gone = new Set(removed)
  return { messages: msgs.filter((_, i) => !gone.has(i)), removed }
}

// build is buildLLMMessages: repair, then prune, then window (BUILD-1).
export function build(msgs, max) {
  requireMessages(msgs)
  // BUILD-2: drop every malformed structure, one warning each.
  const warnings = []
  const keptPos = []
  for (const s of structures(msgs)) {
    if (s.code) warnings.push({ code: s.code, message: `dropped messages ${s.indexes.join(', ')}: ${codeText(s.code)}`, indexes: s.indexes })
    else for (const i of s.indexes) keptPos.push(i)
  }
  let list = keptPos.map((i) => msgs[i])
  // PRUNE-1 on the repaired list.
  const gone = new Set(prunePositions(list))
  list = list.filter((_, i) => !gone.has(i))
  // BUILD-3: the leading system messages, then a suffix of the rest.
  let lead = 0
  while (lead < list.length && classOf(list[lead]) === 'system') lead++
  const rest = list.slice(lead)
  const r = rest.length
  if (max === 0 || r <= max) return { messages: list, warnings }
  const us = units(rest)
  let start = -1
  for (const [s] of us) { // 1. the earliest user prompt that fits
    if (r - s <= max && classOf(rest[s]) === 'user_prompt') { start = s; break }
  }
  if (start < 0) { // 2. the earliest unit boundary that fits
    for (const [s] of us) if (r - s <= max) { start = s; break }
  }
  if (start < 0) start = us[us.length - 1][0] // 3. the last unit alone (BUILD-4)
  return { messages: list.slice(0, lead).concat(rest.slice(start)), warnings }
}
