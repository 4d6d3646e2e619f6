// Exact cl100k_base counts (TOK-1) and what a message counts (TOK-2).
// gpt-tokenizer ships the encoding's ranks in the package (no network, no
// download) and does the byte-pair merges. Its pre-tokenizing pattern,
// though, is written with JavaScript's \s, which holds U+FEFF and lacks
// U+0085, while tiktoken's pattern is read by Rust's regex, whose \s is
// Unicode White_Space: so the split is tiktoken's own cl100k pattern, with
// \s spelled out as White_Space and (?i:…) as explicit case alternatives
// (Rust's case folding matches 's to 'ſ as well).
import { GptEncoding } from 'gpt-tokenizer/esm/GptEncoding'
import bpeRanks from 'gpt-tokenizer/esm/bpeRanks/cl100k_base'
import { Cl100KBase } from 'gpt-tokenizer/esm/encodingParams/cl100k_base'
import { isObject } from './messages.mjs'
import { compact } from './jsonwrite.mjs'

const WS = '\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const SPLIT = new RegExp(
  `'(?:[sS\\u017f]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])` +
  `|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+` +
  `|\\p{N}{1,3}` +
  `| ?[^${WS}\\p{L}\\p{N}]+[\\r\\n]*` +
  `|[${WS}]*[\\r\\n]+` +
  `|[${WS}]+(?![^${WS}])` +
  `|[${WS}]+`,
  'gu',
)
const encoding = new GptEncoding({ ...Cl100KBase(bpeRanks), tokenSplitRegex: SPLIT })
// gpt-tokenizer turns a byte sequence back into a string with a TextDecoder
// that drops a leading byte-order mark, so EF BB BF (U+FEFF, rank 3305) was
// never found and vanished from "\ufeff\r\n"; and a few valid UTF-8 ranks
// are stored only as bytes. Look bytes up with the mark kept, then among the
// byte ranks.
const core = encoding.bytePairEncodingCoreProcessor
const keepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
core.getBpeRankFromBytes = (key) => {
  let s
  try { s = keepBom.decode(key) } catch { s = undefined }
  if (s !== undefined) {
    const r = core.getBpeRankFromString(s)
    if (r !== undefined) return r
  }
  const i = core.binarySearch(key)
  return i === -1 ? undefined : core.bytePairNonUtfSortedEncoder[i][1]
}
const cl100k = encoding.encode
const ORDINARY = { disallowedSpecial: new Set() } // special-token text is plain text

export const encode = (text) => (text === '' ? [] : cl100k(text, ORDINARY))
export const countText = (text) => encode(text).length

// fallback is 003's Math.ceil(JSON.stringify(value).length / 4) (TOK-2, D-23).
export const fallback = (v) => Math.ceil(compact(v).length / 4)

// contentTokens counts content without recursion: tool_result blocks may
// nest content without bound.
function contentTokens(c) {
  let sum = 0
  const stack = [c]
  while (stack.length) {
    const x = stack.pop()
    if (x === undefined || x === null) continue
    if (typeof x === 'string') { sum += countText(x); continue }
    if (!Array.isArray(x)) { sum += fallback(x); continue }
    for (const b of x) {
      if (isObject(b) && b.type === 'text' && typeof b.text === 'string') sum += countText(b.text)
      else if (isObject(b) && b.type === 'tool_result') stack.push(b.content)
      else sum += fallback(b)
    }
  }
  return sum
}

export function messageTokens(m) {
  let n = countText(m.role) + contentTokens(m.content)
  if (m.tool_calls !== undefined && m.tool_calls !== null) n += fallback(m.tool_calls)
  return n
}
