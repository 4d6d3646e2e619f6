// Holds tokens.mjs's byte-pair merges (merge, bytePairEncode) to the
// library's own bytePairMerge with the rank lookup tokens.mjs gives it
// (getBpeRankFromBytes), and countText to the count of those tokens: every rank's text, and random texts drawn from
// ASCII, whitespace (U+0085, U+FEFF, CR LF), Latin-1, CJK, astral, combining
// marks and lone surrogates, must encode alike. `node tools/tokencheck.mjs
// [N]` prints the number of texts compared, or the first difference and
// exits 1.
import { encode, countText, forgetCounts, encodingCore as core } from '../tokens.mjs'
import { BytePairEncodingCore } from 'gpt-tokenizer/esm/BytePairEncodingCore'

const library = BytePairEncodingCore.prototype.bytePairEncode
const mine = core.bytePairEncode
const ORDINARY = { disallowedSpecial: new Set() }
function both(text) {
  core.clearMergeCache()
  core.bytePairEncode = library
  const want = core.encodeNative(text, new Set())
  core.clearMergeCache()
  core.bytePairEncode = mine
  const got = core.encodeNative(text, new Set())
  return [want, got]
}

let seed = 1
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n }
const POOLS = [
  [0x20, 0x7e], [0x61, 0x7a], [0x30, 0x39], [0x09, 0x0d], [0x85, 0x85], [0xa0, 0xff], [0xfeff, 0xfeff],
  [0x300, 0x36f], [0x400, 0x4ff], [0x4e00, 0x4fff], [0x3040, 0x30ff], [0x1f300, 0x1f6ff], [0x10000, 0x10fff],
  [0xd800, 0xdfff], [0x2000, 0x206f], [0x600, 0x6ff],
]
function randomText() {
  // now and then a long text of one or two pools, whose pieces are long
  // (tokens.mjs merges a piece over LONG_PIECE bytes with a heap)
  const long = rnd(25) === 0
  const len = 1 + rnd(long ? 3000 : rnd(10) === 0 ? 400 : 40)
  const pools = [POOLS[rnd(POOLS.length)], POOLS[rnd(POOLS.length)], POOLS[rnd(POOLS.length)]]
  if (long) pools[2] = pools[0]
  let s = ''
  for (let i = 0; i < len; i++) {
    const [a, b] = pools[rnd(3)]
    s += String.fromCodePoint(a + rnd(b - a + 1))
  }
  return s
}

const n = Number(process.argv[2] ?? 20000)
let compared = 0
const check = (text) => {
  const [want, got] = both(text)
  compared++
  if (want.length !== got.length || want.some((t, i) => t !== got[i])) {
    console.log(`differ on ${JSON.stringify(text)}: library ${JSON.stringify(want)}, tokens.mjs ${JSON.stringify(got)}`)
    process.exit(1)
  }
  // countText counts what encode gives, and again from its memo
  for (let k = 0; k < 2; k++) {
    const c = countText(text)
    if (c !== want.length) {
      console.log(`countText ${JSON.stringify(text)} = ${c}, ${want.length} tokens`)
      process.exit(1)
    }
  }
  if (compared % 1000 === 0) forgetCounts()
}
// every rank's text, alone and run together with its neighbours
const texts = []
core.bytePairRankDecoder.forEach((v) => texts.push(typeof v === 'string' ? v : Buffer.from(v).toString('latin1')))
for (let i = 0; i < texts.length; i++) check(texts[i])
for (let i = 0; i + 3 < texts.length; i += 3) check(texts[i] + texts[i + 1] + texts[i + 2])
for (let i = 0; i < n; i++) check(randomText())
if (encode('\ufeff\r\n').join() !== '3305,319') { console.log('U+FEFF: ' + encode('\ufeff\r\n')); process.exit(1) }
console.log(`${compared} texts encode alike`)
