// megabyte.mjs computes, with npm tiktoken, the expected count and digest
// of reference/tokens's TestMegabyteWordWithoutSpaces: the cl100k_base ids
// of the xorshift word of 1,000,000 ASCII letters (alphabet a-z then A-Z,
// seed 1; the random recipe of gen.mjs). npm tiktoken cannot encode it in
// one call: a piece of a million letters exceeds its fancy-regex backtrack
// limit (a panic, "RuntimeError: unreachable"), and its merge is quadratic.
//
// So the word is cut at positions p that no token of the vocabulary spans:
// no substring s[a:b] with a < p < b is a token. Every part the byte-pair
// merge ever builds is a token, so no part ever spans p, the pair across p
// is never a candidate, and the merges on either side happen in the same
// order as when each side is encoded alone. Hence encode(s) =
// encode(left) ++ encode(right), exactly. The vocabulary of the check is npm
// tiktoken's own (encoders/cl100k_base.json), and each chunk, letters only
// and so one piece, is encoded by npm tiktoken's encode_ordinary.
//
// With --whole, it checks the result without any cut, at the price of the
// quadratic merge (40 minutes for a million letters on a shared machine):
// it encodes the word in one call with npm tiktoken's own Tiktoken over the
// cl100k_base ranks but the pattern [\s\S]+, which has no look-around, so
// that fancy-regex hands it to the regex crate and no backtrack limit
// applies. On a text of letters only, cl100k_base's pattern also yields the
// whole text as one piece, so the ids are cl100k_base's.
//
// Usage, from this directory after npm ci (about a minute without --whole):
//
//	node megabyte.mjs [length [max-chunk]]   # defaults 1000000 10000
//	node megabyte.mjs --whole [length]
//
// It prints the length, the number of chunks, the count, and sha256, the
// SHA-256 of the ids in decimal joined by ",". With length 100000 it
// reproduces the golden case tok-large-letters-100000, which npm tiktoken
// encodes in one call: a check of the method.

import { createHash } from "node:crypto";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { get_encoding, Tiktoken } = require("tiktoken");
const cl100k = require("tiktoken/encoders/cl100k_base.json");

function xorshiftString(alphabet, length, seed) {
  const points = Array.from(alphabet);
  let x = seed >>> 0;
  const out = new Array(length);
  for (let i = 0; i < length; i++) {
    x = (x ^ (x << 13)) >>> 0; x = (x ^ (x >>> 17)) >>> 0; x = (x ^ (x << 5)) >>> 0;
    out[i] = points[Math.floor((x * points.length) / 4294967296)];
  }
  return out.join("");
}

// The vocabulary: "! offset tok tok ..." segments, ranks counting up from
// offset; tokens are base64. Keep them as latin1 strings (byte = char).
const tokens = new Set();
let count = 0, maxLen = 0;
const fields = cl100k.bpe_ranks.split(/\s+/).filter((f) => f !== "");
for (let i = 0; i < fields.length; i++) {
  if (fields[i] === "!") { i++; continue; } // "! offset": ranks are not needed
  const t = Buffer.from(fields[i], "base64").toString("latin1");
  tokens.add(t); count++;
  maxLen = Math.max(maxLen, t.length);
}
const prefixes = new Set();
for (const t of tokens) for (let k = 1; k <= t.length; k++) prefixes.add(t.slice(0, k));
console.error(`vocabulary: ${count} tokens (${tokens.size} distinct), longest ${maxLen} bytes`);

const whole = process.argv[2] === "--whole";
const args = process.argv.slice(whole ? 3 : 2);
const n = parseInt(args[0] ?? "1000000");
const maxChunk = parseInt(args[1] ?? "10000");
const s = xorshiftString("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", n, 1);
if (!/^[A-Za-z]*$/.test(s)) throw new Error("the word is not ASCII letters only");

if (whole) {
  const enc = new Tiktoken(cl100k.bpe_ranks, cl100k.special_tokens, "[\\s\\S]+");
  const t0 = Date.now();
  const ids = Array.from(enc.encode_ordinary(s));
  enc.free();
  console.log(JSON.stringify({
    n, chunks: 1, count: ids.length, sha256: createHash("sha256").update(ids.join(",")).digest("hex"), ms: Date.now() - t0,
  }));
  process.exit(0);
}

// spanned[p] > 0 when some token s[a:b] has a < p < b.
const diff = new Int32Array(n + 2);
for (let a = 0; a < n; a++) {
  for (let b = a + 2; b <= Math.min(n, a + maxLen); b++) {
    const sub = s.slice(a, b);
    if (!prefixes.has(sub)) break;
    if (tokens.has(sub)) { diff[a + 1]++; diff[b]--; }
  }
}
const free = [];
let cover = 0;
for (let p = 1; p < n; p++) {
  cover += diff[p];
  if (cover === 0) free.push(p);
}
console.error(`${free.length} positions of ${n - 1} are spanned by no token`);

// Cut at the last free position before each chunk would exceed maxChunk.
const cuts = [0];
let fi = 0;
while (n - cuts[cuts.length - 1] > maxChunk) {
  const start = cuts[cuts.length - 1];
  let best = -1;
  while (fi < free.length && free[fi] <= start + maxChunk) { if (free[fi] > start) best = free[fi]; fi++; }
  if (best < 0) throw new Error(`no free position in (${start}, ${start + maxChunk}]`);
  cuts.push(best);
}
cuts.push(n);

const enc = get_encoding("cl100k_base");
const ids = [];
const t0 = Date.now();
for (let i = 0; i + 1 < cuts.length; i++) {
  for (const id of enc.encode_ordinary(s.slice(cuts[i], cuts[i + 1]))) ids.push(id);
}
console.log(JSON.stringify({
  n, chunks: cuts.length - 1, largest_chunk: Math.max(...cuts.slice(1).map((c, i) => c - cuts[i])),
  count: ids.length, sha256: createHash("sha256").update(ids.join(",")).digest("hex"), ms: Date.now() - t0,
  textsha: createHash("sha256").update(s).digest("hex"),
}));
