// corpus.mjs generates internal/tokenvectors/corpus.json.gz, the exact
// token vectors conform checks tokens.encode and budget.count against
// (TOK-1, TOK-2): the golden cases of ../../tokens/cl100k_base.json and a
// corpus of generated texts, every one with the cl100k_base ids npm
// tiktoken (pinned by package-lock.json) gives it. conform embeds the file,
// so it needs neither Node nor the network at run time.
//
// The texts reach the pre-tokenizer's corners on purpose: runs of
// characters of every Unicode general category and of many scripts, white
// space of every kind and length (White_Space only, U+2028, U+2029, NBSP),
// contractions in every letter case and after every apostrophe, digit runs
// of every length in every script, letters with combining marks, astral
// characters, special-token text, long repetitions. A 32-bit xorshift
// generator with a fixed seed draws them, so the file is the same on every
// run.
//
// Usage (Node 18 or later), from this directory:
//
//	npm ci                   # once
//	node corpus.mjs          # (re)write ../../../../internal/tokenvectors/corpus.json.gz
//	node corpus.mjs --check  # exit 1 if it is stale

import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync, gunzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { get_encoding } from "tiktoken";

const here = dirname(fileURLToPath(import.meta.url));
const goldenPath = join(here, "..", "..", "tokens", "cl100k_base.json");
const outputPath = join(here, "..", "..", "..", "..", "internal", "tokenvectors", "corpus.json.gz");
const tiktokenVersion = JSON.parse(readFileSync(join(here, "node_modules", "tiktoken", "package.json"), "utf8")).version;
const COUNT = 3000;
const SEED = 0x5eed19;

let x = SEED;
function next() {
  x = (x ^ (x << 13)) >>> 0;
  x = (x ^ (x >>> 17)) >>> 0;
  x = (x ^ (x << 5)) >>> 0;
  return x;
}
const int = (n) => Math.floor((next() * n) / 4294967296); // 0 … n-1
const pick = (a) => a[int(a.length)];

// The code points of each general category and script, by scanning the
// whole range once with Node's Unicode property escapes.
const categories = ["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po",
  "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cn"];
const scripts = ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Devanagari", "Bengali", "Thai", "Georgian",
  "Hangul", "Hiragana", "Katakana", "Han", "Ethiopic", "Cherokee", "Tamil", "Mongolian", "Tibetan", "Khmer", "Sinhala"];
const tables = {};
for (const name of categories) tables[name] = [];
for (const name of scripts) tables[name] = [];
const catRe = categories.map((c) => [c, new RegExp(`^\\p{gc=${c}}$`, "u")]);
const scRe = scripts.map((s) => [s, new RegExp(`^\\p{sc=${s}}$`, "u")]);
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (cp >= 0xf0000) { if (cp % 4096 !== 0) continue; } // private use planes: a sample
  const ch = String.fromCodePoint(cp);
  for (const [c, re] of catRe) if (re.test(ch)) { tables[c].push(cp); break; }
  for (const [s, re] of scRe) if (re.test(ch)) { tables[s].push(cp); break; }
}
const ofTable = (name, n) => {
  const t = tables[name];
  let s = "";
  for (let i = 0; i < n; i++) {
    // favour the first and last code points of the table
    const k = int(8) === 0 ? pick([0, t.length - 1]) : int(t.length);
    s += String.fromCodePoint(t[k]);
  }
  return s;
};

const spaces = [" ", "\t", "\n", "\r", "\r\n", "\v", "\f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u2028",
  "\u2029", "\u202f", "\u205f", "\u3000"];
const contractions = ["s", "t", "re", "ve", "m", "ll", "d"];
const mixed = (s) => Array.from(s).map((c) => (int(2) ? c.toUpperCase() : c)).join("");
const fragments = ["Hello", "What's the weather in Paris?", "😀", "👩‍💻", "🇫🇷", "你好，世界", "e\u0301", "naïve café", "\ufeff",
  "\u0000", "\u007f", "<b>bold</b>", "{\"k\": [1, 2]}", "https://example.com/x?y=1&z=2", "\\n", "    return x;\n}"];

function piece() {
  switch (int(13)) {
    case 0: case 1: return ofTable(pick(categories), 1 + int(4));
    case 2: return ofTable(pick(scripts), 1 + int(6));
    case 3: return pick(spaces).repeat(1 + int(24));
    case 4: { let s = ""; for (let i = 1 + int(8); i > 0; i--) s += pick(spaces); return s; }
    case 5: return mixed(pick(["it", "we", "they", "I", "don", "can", "x", ""])) + pick(["'", "'", "\u2019", "`"]) + mixed(pick(contractions));
    case 6: return int(2) ? Array.from({ length: 1 + int(12) }, () => String(int(10))).join("") : ofTable("Nd", 1 + int(8));
    case 7: return ofTable(pick(["Lu", "Ll", "Lo"]), 1) + ofTable("Mn", 1 + int(3));
    case 8: return String.fromCodePoint(pick([0x1f600, 0x1f469, 0x200d, 0x1f4bb, 0x1d518, 0x20000, 0x2a6d6, 0x10000, 0x10fffd, 0x1f1eb, 0xe0001]));
    case 9: return pick(fragments);
    case 10: return Array.from({ length: 1 + int(16) }, () => pick(Array.from("abcdefghijklmnopqrstuvwxyzABCXYZ .,;:!?-_()[]{}<>/\\\"'@#$%^&*+=~|"))).join("");
    case 11: return pick(["<|endoftext|>", "<|fim_prefix|>", "<|im_start|>", "<|endofprompt|>", "<|"]);
    default: return pick(["a", "ab", "😀", "中", "0", "!", " ", "\n"]).repeat(8 + int(200));
  }
}

function text() {
  switch (int(12)) {
    case 0: return "";
    case 1: { let s = ""; for (let i = 1 + int(4); i > 0; i--) s += pick(spaces).repeat(1 + int(6)); return s; }
    default: { let s = ""; for (let i = 1 + int(8); i > 0; i--) s += piece(); return s; }
  }
}

const enc = get_encoding("cl100k_base");
let corpus;
try {
  const user = Array.from(enc.encode_ordinary("user"));
  const golden = JSON.parse(readFileSync(goldenPath, "utf8")).cases
    .filter((c) => c.text !== undefined)
    .map((c) => ({ id: c.id, text: c.text, tokens: c.tokens }));
  const seen = new Set(golden.map((c) => c.text));
  const generated = [];
  while (generated.length < COUNT) {
    const t = text();
    if (seen.has(t)) continue;
    seen.add(t);
    const tokens = Array.from(enc.encode_ordinary(t));
    const plain = Array.from(enc.encode(t, [], []));
    if (plain.length !== tokens.length || plain.some((v, i) => v !== tokens[i])) throw new Error(`encode differs from encode_ordinary on ${JSON.stringify(t)}`);
    generated.push({ id: `gen-${generated.length + 1}`, text: t, tokens });
  }
  corpus = {
    description: "Exact cl100k_base token ids for conform's tokens.encode and budget.count checks: the golden cases with text, then generated texts. Do not edit; rerun testdata/golden/gen/tokens/corpus.mjs.",
    generated_by: `testdata/golden/gen/tokens/corpus.mjs with npm tiktoken ${tiktokenVersion}, seed ${SEED}`,
    encoding: "cl100k_base",
    role_user_tokens: user.length,
    cases: [...golden, ...generated],
  };
} finally {
  enc.free();
}
const json = JSON.stringify(corpus) + "\n";

if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = gunzipSync(readFileSync(outputPath)).toString("utf8");
  } catch {
    // missing: stale
  }
  if (current !== json) {
    console.error(`${outputPath} is stale: run node testdata/golden/gen/tokens/corpus.mjs`);
    process.exit(1);
  }
  console.log(`${outputPath} is up to date (${corpus.cases.length} cases)`);
} else {
  writeFileSync(outputPath, gzipSync(Buffer.from(json, "utf8"), { level: 9 }));
  console.log(`wrote ${outputPath} (${corpus.cases.length} cases, ${json.length} characters before compression)`);
}
