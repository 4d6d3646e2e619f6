// scan.mjs encodes, with npm tiktoken, a probe text built around every code
// point from U+0000 to U+10FFFF (surrogates excepted), and writes one line
// per code point: its hexadecimal value, a space, and the first 16 hex
// digits of the SHA-256 of the probe's ids in decimal joined by ",".
// reference/tokens's TestCodePointScan compares its own encoding with that
// file, which shows whether the two agree on which code points are letters,
// numbers and white space, as Unicode versions change.
//
// Usage, from this directory (about a minute; the output is about 25 MB):
//
//	node scan.mjs /tmp/cl100k-scan.txt
//	TOKENS_NPM_SCAN=/tmp/cl100k-scan.txt go test -run TestCodePointScan ./reference/tokens
//
// The probe puts the code point c where the pattern's classes decide the
// split: before digits (a number groups with them), before 's (a letter or
// number makes it a contraction), after an apostrophe, in runs, after a
// space, before a newline. Keep it identical to probe in scan_test.go.

import { createWriteStream } from "node:fs";
import { createHash } from "node:crypto";
import { get_encoding } from "tiktoken";

const out = process.argv[2];
if (!out) {
  console.error("usage: node scan.mjs OUTPUT");
  process.exit(2);
}

function probe(c) {
  return c + "123 " + c + "'s x'" + c + "t\n" + c + c + c + c + " " + c + "!\n1" + c + " a" + c + "b  " + c + "\n";
}

const enc = get_encoding("cl100k_base");
const stream = createWriteStream(out);
let chunk = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const ids = enc.encode_ordinary(probe(String.fromCodePoint(cp)));
  const digest = createHash("sha256").update(Array.from(ids).join(",")).digest("hex").slice(0, 16);
  chunk.push(cp.toString(16) + " " + digest + "\n");
  if (chunk.length === 65536) {
    stream.write(chunk.join(""));
    chunk = [];
  }
}
stream.write(chunk.join(""));
stream.end();
enc.free();
