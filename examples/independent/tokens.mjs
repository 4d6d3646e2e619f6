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
// (exported for tools/tokencheck.mjs, which holds the merges below to the
// library's own)
export const encodingCore = core
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

// The merges themselves (a performance change; the ranks found are those of
// getBpeRankFromBytes above, which decoded every candidate pair with a
// throwing TextDecoder: most of the CPU of a count). A piece is handled as a
// byte string, one char per UTF-8 byte (latin1), so that a pair is a slice
// and a Map key. A key of ASCII bytes is its own text, found among the
// string ranks; any other key is found in byBytes, which maps the bytes of
// every rank holding a non-ASCII byte (the string ranks' UTF-8 and the byte
// ranks) to its rank, built on the first such key. In cl100k no two ranks
// have the same bytes, so a key finds the rank it found before.
const strRanks = core.bytePairStringRankEncoder
const ASCII = /^[\x00-\x7f]*$/
let byBytes = null
function nonAsciiRanks() {
  const m = new Map()
  core.bytePairRankDecoder.forEach((v, rank) => {
    if (typeof v === 'string') {
      if (!ASCII.test(v)) m.set(Buffer.from(v, 'utf8').toString('latin1'), rank)
    } else {
      m.set(Buffer.from(v).toString('latin1'), rank)
    }
  })
  return m
}

// merge is the byte-pair merge of bytePairMerge (BytePairEncodingCore.js):
// merge the adjacent pair of lowest rank, the leftmost of equals, until no
// pair has a rank.
function merge(bin, ascii) {
  const n = bin.length
  // high[i] counts the non-ASCII bytes before i, so a slice is ASCII iff
  // high is the same at both ends.
  let high = null
  if (!ascii) {
    if (byBytes === null) byBytes = nonAsciiRanks()
    high = new Int32Array(n + 1)
    for (let i = 0; i < n; i++) high[i + 1] = high[i] + (bin.charCodeAt(i) > 0x7f ? 1 : 0)
  }
  const rankOf = (a, b) => {
    const key = bin.slice(a, b)
    return ascii || high[a] === high[b] ? strRanks.get(key) : byBytes.get(key)
  }
  const starts = n > LONG_PIECE ? mergeLong(n, rankOf) : mergeShort(n, rankOf)
  const out = []
  for (let i = 0; i < starts.length - 1; i++) {
    const r = rankOf(starts[i], starts[i + 1])
    if (r === undefined) throw new Error(`The byte-pair encoding does not contain a value for: ${bin.slice(starts[i], starts[i + 1])}`)
    out.push(r)
  }
  return out
}

// mergeShort is bytePairMerge's own loop: rescan every pair's rank at each
// merge, quadratic in the length of the piece. It returns the starts of the
// parts left (and n).
function mergeShort(n, rankOf) {
  const starts = []
  const ranks = []
  for (let i = 0; i <= n; i++) {
    starts.push(i)
    ranks.push(i < n - 1 ? rankOf(i, i + 2) ?? Infinity : Infinity)
  }
  const pairRank = (i) => (i + 2 < starts.length ? rankOf(starts[i], starts[i + 2]) ?? Infinity : Infinity)
  while (starts.length > 1) {
    let lowest = Infinity
    let at = -1
    for (let i = 0; i < ranks.length - 1; i++) {
      if (ranks[i] < lowest) { lowest = ranks[i]; at = i }
    }
    if (at === -1) break
    starts.splice(at + 1, 1)
    ranks.splice(at, 1)
    ranks[at] = pairRank(at)
    if (at > 0) ranks[at - 1] = pairRank(at - 1)
  }
  return starts
}

// mergeLong makes the same merges as mergeShort in n log n: the pairs with a
// rank wait in a heap ordered by rank and then by the start of their left
// part (the leftmost of equal ranks first, as mergeShort's scan finds it).
// A part is named by its start; an entry whose left part is gone or whose
// pair has since changed (its stamp is old) is passed over.
const LONG_PIECE = 64
function mergeLong(n, rankOf) {
  const next = new Int32Array(n + 1) // start of the next part, n at the end
  const prev = new Int32Array(n + 1) // start of the previous part, -1 first
  const stamp = new Int32Array(n + 1) // bumped when the pair at a start changes
  const alive = new Uint8Array(n + 1)
  for (let i = 0; i <= n; i++) { next[i] = i + 1; prev[i] = i - 1; alive[i] = 1 }
  const hr = [] // heap of rank, start, stamp, in three parallel arrays
  const hs = []
  const ht = []
  const less = (a, b) => hr[a] < hr[b] || (hr[a] === hr[b] && hs[a] < hs[b])
  const swap = (a, b) => {
    let t = hr[a]; hr[a] = hr[b]; hr[b] = t
    t = hs[a]; hs[a] = hs[b]; hs[b] = t
    t = ht[a]; ht[a] = ht[b]; ht[b] = t
  }
  const push = (r, st) => {
    let i = hr.length
    hr.push(r); hs.push(st); ht.push(stamp[st])
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!less(i, p)) break
      swap(i, p)
      i = p
    }
  }
  const pop = () => {
    const last = hr.length - 1
    swap(0, last)
    hr.pop(); hs.pop(); ht.pop()
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      if (l >= hr.length) break
      const c = l + 1 < hr.length && less(l + 1, l) ? l + 1 : l
      if (!less(c, i)) break
      swap(c, i)
      i = c
    }
  }
  // the pair whose left part starts at st: ranked if both parts exist
  const offer = (st) => {
    stamp[st]++
    const b = next[st]
    if (b >= n) return
    const r = rankOf(st, next[b])
    if (r !== undefined) push(r, st)
  }
  for (let i = 0; i < n - 1; i++) offer(i)
  while (hr.length > 0) {
    const st = hs[0]
    const t = ht[0]
    pop()
    if (!alive[st] || t !== stamp[st]) continue
    // merge the part at st with the next one
    const gone = next[st]
    alive[gone] = 0
    next[st] = next[gone]
    if (next[gone] <= n) prev[next[gone]] = st
    offer(st)
    if (prev[st] >= 0) offer(prev[st])
  }
  const starts = []
  for (let i = 0; i <= n; i = next[i]) starts.push(i)
  return starts
}

// bytePairEncode replaces the library's (same cache, same merges) so that a
// piece is encoded to UTF-8 once, as a byte string; Buffer's UTF-8, like
// TextEncoder's, writes U+FFFD for a lone surrogate.
core.bytePairEncode = function (input) {
  const cache = this.mergeCache
  if (cache?.has(input)) {
    const result = cache.get(input)
    cache.delete(input)
    cache.set(input, result)
    return result
  }
  const ascii = ASCII.test(input)
  const result = merge(ascii ? input : Buffer.from(input, 'utf8').toString('latin1'), ascii)
  this.addToMergeCache(input, result)
  return result
}
const cl100k = encoding.encode
const ORDINARY = { disallowedSpecial: new Set() } // special-token text is plain text

export const encode = (text) => (text === '' ? [] : cl100k(text, ORDINARY))

// countText is encode(text).length (a performance change): the library's
// count runs the same pieces and merges as its encode, with no special
// tokens allowed or refused (ORDINARY's configuration), without building the
// array; and a text counted once in a request is not counted again (a
// conversation often holds the same text many times). The memo is emptied
// when a request is answered (forgetCounts, called by adapter.mjs), so that
// it never keeps a request's text alive after its answer.
const counted = new Map()
export const forgetCounts = () => counted.clear()
export function countText(text) {
  let n = counted.get(text)
  if (n === undefined) {
    n = text === '' ? 0 : core.countNative(text, undefined)
    counted.set(text, n)
  }
  return n
}

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
