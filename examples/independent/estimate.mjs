// The window's estimate: four characters a token, rounded up once on the
// total (EST-1 – EST-5). A character is a UTF-16 code unit (EST-2), which is
// what a JavaScript string's length counts; other content is measured in
// JSON.stringify's compact form (EST-3).
import { compact } from './jsonwrite.mjs'

// contentChars is the character count of one message's content.
export function contentChars(m) {
  const c = m.content
  if (c === undefined || c === null) return 0 // EST-4
  if (typeof c === 'string') return c.length // EST-2
  return compact(c).length // EST-3
}

export function estimate(msgs) {
  let total = 0
  for (const m of msgs) total += contentChars(m)
  return Math.ceil(total / 4)
}

// chars4 is the per-message count of a trimmer's chars4 counter (ANY-6):
// rounded per message, unlike EST-1.
export const chars4 = (m) => Math.ceil(contentChars(m) / 4)
