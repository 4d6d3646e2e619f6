// The byte level of the wire (spec/protocol.md, "Framing"): stdin bytes into
// lines of text without losing the fact that a line was not UTF-8.

import { isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';

const LF = 0x0a;

/**
 * Code units that stand for one byte that is not part of well-formed UTF-8.
 * Two high surrogates in a row can never become part of a surrogate pair,
 * whatever escape precedes or follows them inside a JSON string, so a message
 * holding one fails the well-formedness check of MSG-1; outside a string they
 * are not JSON, so the line is a parse error.
 */
const INVALID_BYTE = '\ud800\ud800';

/**
 * Decodes one line of bytes: well-formed UTF-8 as is; otherwise every byte
 * that is not part of a well-formed sequence becomes INVALID_BYTE instead of
 * U+FFFD, which would be a valid character.
 */
export function decodeLine(bytes: Buffer): string {
  const text = isUtf8(bytes) ? bytes.toString('utf8') : decodeLossless(bytes);
  // A raw CR can only be white space in a JSON line (inside a string it is
  // invalid, as a raw tab is). readline would end the line there, so it
  // becomes a tab, which JSON.parse treats the same.
  return text.includes('\r') ? text.replaceAll('\r', '\t') : text;
}

function decodeLossless(b: Buffer): string {
  const out: string[] = [];
  let i = 0;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const x = b[k];
    return x !== undefined && x >= lo && x <= hi;
  };
  while (i < b.length) {
    const x = b[i]!;
    let len = 0;
    if (x < 0x80) len = 1;
    else if (x >= 0xc2 && x <= 0xdf) len = cont(i + 1) ? 2 : 0;
    else if (x === 0xe0) len = cont(i + 1, 0xa0) && cont(i + 2) ? 3 : 0;
    else if (x === 0xed) len = cont(i + 1, 0x80, 0x9f) && cont(i + 2) ? 3 : 0; // no surrogates
    else if (x >= 0xe1 && x <= 0xef) len = cont(i + 1) && cont(i + 2) ? 3 : 0;
    else if (x === 0xf0) len = cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    else if (x >= 0xf1 && x <= 0xf3) len = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    else if (x === 0xf4) len = cont(i + 1, 0x80, 0x8f) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (len === 0) {
      out.push(INVALID_BYTE);
      i += 1;
    } else {
      out.push(b.subarray(i, i + len).toString('utf8'));
      i += len;
    }
  }
  return out.join('');
}

/**
 * A stream that splits bytes at LF and emits each line, decoded by
 * decodeLine and followed by '\n': what readline expects, with the UTF-8
 * decoding done here rather than by readline (which would write U+FFFD).
 */
export function lineDecoder(): Transform {
  let pending: Buffer[] = [];
  return new Transform({
    readableObjectMode: true,
    transform(chunk, _encoding, callback) {
      let start = 0;
      for (let lf = chunk.indexOf(LF, start); lf !== -1; lf = chunk.indexOf(LF, start)) {
        pending.push(chunk.subarray(start, lf));
        this.push(decodeLine(Buffer.concat(pending)) + '\n');
        pending = [];
        start = lf + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
      callback();
    },
    flush(callback) {
      if (pending.length > 0) this.push(decodeLine(Buffer.concat(pending)));
      pending = [];
      callback();
    },
  });
}
