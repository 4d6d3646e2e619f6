// Exact cl100k_base counts (TOK-1) and what a message counts (TOK-2).
// gpt-tokenizer ships the encoding in the package: no network, no download.
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { isObject } from './messages.mjs'
import { compact } from './jsonwrite.mjs'

const ORDINARY = { disallowedSpecial: new Set() } // special-token text is plain text

export const encode = (text) => (text === '' ? [] : cl100k(text, ORDINARY))
export const countText = (text) => encode(text).length

// fallback is 003's Math.ceil(JSON.stringify(value).length / 4) (TOK-2, D-23).
export const fallback = (v) => Math.ceil(compact(v).length / 4)

function contentTokens(c) {
  if (c === undefined || c === null) return 0
  if (typeof c === 'string') return countText(c)
  if (Array.isArray(c)) {
    let sum = 0
    for (const b of c) {
      if (isObject(b) && b.type === 'text' && typeof b.text === 'string') sum += countText(b.text)
      else if (isObject(b) && b.type === 'tool_result') sum += contentTokens(b.content)
      else sum += fallback(b)
    }
    return sum
  }
  return fallback(c)
}

export function messageTokens(m) {
  let n = countText(m.role) + contentTokens(m.content)
  if (m.tool_calls !== undefined && m.tool_calls !== null) n += fallback(m.tool_calls)
  return n
}
