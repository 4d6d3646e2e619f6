'use strict';
// convspec-kit: the convspec wire protocol (spec/protocol.md) around a
// trimming library. `serve({ name, version, window: { create, trim,
// estimate }, … })` answers `conform` on stdin/stdout and declares the
// capabilities of the handlers given.
//
// One plain CommonJS file with no dependencies and no build step, so that
// `conform init node` can write it beside an adapter and the adapter runs at
// once, offline; `require('./convspec-kit.cjs')` and
// `import { serve } from './convspec-kit.cjs'` both work. Its types are in
// convspec-kit.d.cts. Node 18.14 or later.

const { isUtf8 } = require('node:buffer');
const { createInterface } = require('node:readline');
const { Transform } = require('node:stream');

// ---------------------------------------------------------------------------
// Errors (spec/protocol.md, "Errors"): the kinds, their JSON-RPC codes, and
// how whatever a handler throws becomes an error response.

const CODES = Object.freeze({
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  invalid_config: -32001,
  invalid_message: -32002,
  unknown_model: -32003,
  context_window_exhausted: -32004,
  invariant_violation: -32005,
  unsupported: -32006,
  summarizer_failed: -32007,
});

/** An error answered with its kind and, for some kinds, facts in `data`. */
class KitError extends Error {
  constructor(kind, message, data = {}) {
    super(message);
    this.name = 'KitError';
    this.kind = kind;
    this.data = data;
  }
}

const invalidParams = (message) => new KitError('invalid_params', message);
const invalidMessage = (message) => new KitError('invalid_message', message);
/** `path` is the dotted path of the offending member of a config file (CONF-4); omit it for window.create. */
const invalidConfig = (message, path) => new KitError('invalid_config', message, path === undefined ? {} : { path });
const unknownModel = (message) => new KitError('unknown_model', message);
const invariantViolation = (message) => new KitError('invariant_violation', message);
const summarizerFailed = (message) => new KitError('summarizer_failed', message);
/** The kit adds `summarizer_calls`, the number of calls the request made (PREP-4). */
const contextWindowExhausted = (message, facts) => new KitError('context_window_exhausted', message, { ...facts });
/** Declines this one request: the case is reported unsupported, not failed. */
const unsupported = (message) => new KitError('unsupported', message);

function wireError(kind, message, data = {}) {
  return { code: CODES[kind], message, data: { ...data, kind } };
}

const isKind = (k) => typeof k === 'string' && Object.prototype.hasOwnProperty.call(CODES, k);

/** Members of a library's own error object that become `data` when it has no `data` of its own. */
const FACTS = ['path', 'tokenCount', 'limit', 'model'];

/**
 * What a thrown value is answered with: an error with a `kind` of the table
 * (a KitError, or a library's own error class with a `kind` member) keeps its
 * kind, its message and its `data` (or else its `path`, `tokenCount`,
 * `limit` and `model` members); anything else is an `internal_error` with its
 * message.
 */
function fromThrown(e) {
  if (typeof e === 'object' && e !== null && isKind(e.kind)) {
    let data = {};
    if (typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data)) data = e.data;
    else for (const name of FACTS) if (e[name] !== undefined) data[name] = e[name];
    return wireError(e.kind, String(e.message ?? e.kind), data);
  }
  // A bug: its stack goes in `data.traceback` (conform shows it under the
  // failure), without the kit's own frames, the same for every request.
  const data = e instanceof Error && typeof e.stack === 'string' ? { traceback: e.stack.split('\n').filter((l) => !l.includes(__filename)).join('\n') } : {};
  return wireError('internal_error', e instanceof Error ? `${e.name}: ${e.message}` : String(e), data);
}

// ---------------------------------------------------------------------------
// JSON text out: JSON.stringify's, without the call stack and without losing
// numbers it cannot write (MSG-2).

/** A number as the wire writes it: ±Infinity (JSON.parse's `1e400`) as ±1e400, the same double (MSG-2). */
const wireNumber = (n) => (Number.isFinite(n) ? JSON.stringify(n) : n > 0 ? '1e400' : '-1e400');

/**
 * Writes a JSON value as JSON.stringify does, without the call stack (content
 * may be nested deeper than it allows). An object found in `substitute` is
 * written as the value it maps to: a message the library got back is written
 * as the input message it stands for (MSG-2).
 */
function serialize(value, substitute) {
  return write(value, substitute, wireNumber);
}

/** serialize with numbers written by `number`. */
function write(value, substitute, number) {
  const out = [];
  const stack = [];
  const open = (v) => {
    if (substitute !== undefined && typeof v === 'object' && v !== null && substitute.has(v)) v = substitute.get(v);
    switch (typeof v) {
      case 'string':
        out.push(JSON.stringify(v));
        return;
      case 'number':
        out.push(number(v));
        return;
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return;
      case 'object':
        if (Array.isArray(v)) {
          out.push('[');
          stack.push({ items: v, names: undefined, next: 0 });
          return;
        }
        if (v !== null) {
          const names = Object.keys(v).filter((name) => v[name] !== undefined);
          out.push('{');
          stack.push({ items: names.map((name) => v[name]), names, next: 0 });
          return;
        }
    }
    out.push('null');
  };
  open(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next === top.items.length) {
      out.push(top.names === undefined ? ']' : '}');
      stack.pop();
      continue;
    }
    const i = top.next++;
    if (i > 0) out.push(',');
    if (top.names !== undefined) out.push(JSON.stringify(top.names[i]) + ':');
    open(top.items[i]);
  }
  return out.join('');
}

// ---------------------------------------------------------------------------
// The byte level of the wire (spec/protocol.md, "Framing"): stdin bytes into
// lines of text without losing the fact that a line was not UTF-8.

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
function decodeLine(bytes) {
  const text = isUtf8(bytes) ? bytes.toString('utf8') : decodeLossless(bytes);
  // A raw CR can only be white space in a JSON line (inside a string it is
  // invalid, as a raw tab is). readline would end the line there, so it
  // becomes a tab, which JSON.parse treats the same.
  return text.includes('\r') ? text.replaceAll('\r', '\t') : text;
}

function decodeLossless(b) {
  const out = [];
  let i = 0;
  const cont = (k, lo = 0x80, hi = 0xbf) => {
    const x = b[k];
    return x !== undefined && x >= lo && x <= hi;
  };
  while (i < b.length) {
    const x = b[i];
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
function lineDecoder() {
  let pending = [];
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

// ---------------------------------------------------------------------------
// Messages as the kit sees them: MSG-1 checked before the library is called,
// and the helpers that map rebuilt messages back to the messages given (MSG-2).

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

const hasOwn = (o, name) => Object.prototype.hasOwnProperty.call(o, name);

/** How a JSON value is named in an error message. */
function typeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

/** A UTF-16 code unit that is half of no surrogate pair (in a `u` pattern a pair is one code point). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Whether every string in a JSON value, member names included, is well-formed Unicode. */
function wellFormed(value) {
  const stack = [value]; // content may be nested deeper than the call stack allows
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return false;
    } else if (Array.isArray(v)) {
      for (const e of v) stack.push(e);
    } else if (isObject(v)) {
      for (const name of Object.keys(v)) {
        if (LONE_SURROGATE.test(name)) return false;
        stack.push(v[name]);
      }
    }
  }
  return true;
}

/** What makes a value not a message (MSG-1), or undefined. */
function messageProblem(m) {
  if (!isObject(m)) return `must be an object, got ${typeName(m)}`;
  if (!hasOwn(m, 'role')) return '"role" is missing';
  const role = m.role;
  if (typeof role !== 'string' || role === '') {
    return `"role" must be a non-empty string, got ${typeof role === 'string' ? 'an empty string' : typeName(role)}`;
  }
  if (!wellFormed(m)) return 'contains a string that is not well-formed Unicode (an unpaired surrogate or bytes that are not UTF-8)';
  return undefined;
}

/** Throws `invalid_message` naming the first element that is not a message; `where(i)` names element i. */
function checkMessages(messages, where = (i) => `messages[${i}]`) {
  messages.forEach((m, i) => {
    const problem = messageProblem(m);
    if (problem !== undefined) throw invalidMessage(`${where(i)}: ${problem}`);
  });
}

/** JSON-equality of MSG-2 (numbers as doubles, member order free), without the call stack. */
function jsonEqual(a, b) {
  const stack = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop();
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      x.forEach((e, i) => stack.push([e, y[i]]));
    } else if (isObject(x)) {
      if (!isObject(y)) return false;
      const names = Object.keys(x).filter((n) => x[n] !== undefined);
      if (names.length !== Object.keys(y).filter((n) => y[n] !== undefined).length) return false;
      for (const n of names) {
        if (!hasOwn(y, n)) return false;
        stack.push([x[n], y[n]]);
      }
    } else {
      return false; // distinct strings, numbers, booleans, or different types (NaN is not JSON)
    }
  }
  return true;
}

/**
 * Whether `rebuilt` may stand for `given`: an object each of whose members is
 * a member of `given` with a JSON-equal value (a rebuilt message may leave
 * members out, but not change or add one).
 */
function partOf(rebuilt, given) {
  if (!isObject(rebuilt)) return false;
  for (const name of Object.keys(rebuilt)) {
    if (rebuilt[name] === undefined) continue;
    if (!hasOwn(given, name) || !jsonEqual(rebuilt[name], given[name])) return false;
  }
  return true;
}

/**
 * For a library that rebuilds the messages it returns (new objects, members
 * dropped): maps each rebuilt message back to the message it stands for among
 * `given`, so that the kit answers with the exact input (MSG-2). The rebuilt
 * messages that `same` accepts (by default `partOf`: the library left members
 * out) are matched to given ones in order, each used once (results keep the
 * order of their input); where a message could stand for several, it takes
 * the first JSON-equal to it that still leaves the rest a match, or else the
 * first. A rebuilt message that matches none (a summary, say) is kept as it
 * is. Messages equal in every member the library kept are told apart by
 * order alone.
 */
function restore(rebuilt, given, same = partOf) {
  // latest[k]: the last place rebuilt[k] can take with the rest still matched (-1: it matches none).
  const latest = new Array(rebuilt.length).fill(-1);
  for (let k = rebuilt.length - 1, j = given.length - 1; k >= 0; k--) {
    let i = j;
    while (i >= 0 && !same(rebuilt[k], given[i])) i--;
    if (i >= 0) [latest[k], j] = [i, i - 1];
  }
  let from = 0;
  return rebuilt.map((r, k) => {
    const last = latest[k];
    if (last === -1) return r;
    let pick = -1;
    for (let i = from; i <= last && pick === -1; i++) if (jsonEqual(r, given[i])) pick = i;
    for (let i = from; i <= last && pick === -1; i++) if (same(r, given[i])) pick = i;
    from = pick + 1;
    return given[pick];
  });
}

/**
 * Splits off a leading system prompt, for a library that takes it as a
 * separate argument: `{ system, rest }`, where `system` is the first
 * message's content when that message has role `system` and string content.
 */
function peelSystem(messages) {
  const first = messages[0];
  if (first !== undefined && first.role === 'system' && typeof first.content === 'string') {
    return { system: first.content, rest: messages.slice(1) };
  }
  return { system: undefined, rest: [...messages] };
}

// ---------------------------------------------------------------------------
// Counters of a token-bounded trimmer (ANY-6): chars4 counts each message
// ⌈c / 4⌉ with c the characters of its content (EST-2 – EST-5), rounded per
// message. cl100k needs a tokenizer, which Node does not have: a library
// that counts with it brings its own.

/**
 * The characters of a message's content (EST-2 – EST-5): UTF-16 code units
 * of a string; of the compact JSON serialization (JSON.stringify's, a number
 * too large for a double written `null`) of any other content; 0 for absent
 * or null content. Nothing but content counts.
 */
function contentChars(message) {
  const c = isObject(message) ? message.content : undefined;
  if (c === undefined || c === null) return 0;
  if (typeof c === 'string') return c.length;
  return write(c, undefined, (n) => (Number.isFinite(n) ? JSON.stringify(n) : 'null')).length;
}

/** A message's chars4 count: ⌈characters / 4⌉ (ANY-6). */
const chars4 = (message) => Math.ceil(contentChars(message) / 4);

/** The chars4 count of a list: the per-message counts, summed (not EST-1's single division). */
const countChars4 = (messages) => messages.reduce((n, m) => n + chars4(m), 0);

// ---------------------------------------------------------------------------
// Declarations of the handshake (spec/protocol.md, "initialize"): levels,
// formats and trimmers (ANY-10), checked when serve starts, so that a wrong
// one is the adapter author's error at once, never a protocol error later.

const LEVELS = ['core', 'validation', 'diagnostics'];
const FORMATS = ['openai', 'anthropic'];
const GUARANTEES = ['subsequence', 'units', 'system', 'last_prompt', 'last_unit', 'bound', 'fits', 'idempotent', 'total'];

/** A list of names from `known`, or undefined when absent; throws naming what is wrong. */
function names(value, what, known) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw new TypeError(`convspec-kit: ${what} must be a non-empty array of ${known.join(', ')}`);
  for (const v of value) if (!known.includes(v)) throw new TypeError(`convspec-kit: ${what}: unknown ${JSON.stringify(v)} (known: ${known.join(', ')})`);
  if (new Set(value).size !== value.length) throw new TypeError(`convspec-kit: ${what}: a name is given twice`);
  return [...value];
}

/** The trimmers' declarations as the handshake writes them, and their trim functions by name. */
function trimmerDeclarations(trimmers) {
  if (trimmers === undefined) return undefined;
  if (!Array.isArray(trimmers) || trimmers.length === 0) throw new TypeError('convspec-kit: trimmers must be a non-empty array');
  const decls = [];
  const trims = new Map();
  const counts = new Map();
  trimmers.forEach((t, i) => {
    const at = `trimmers[${i}]`;
    if (!isObject(t)) throw new TypeError(`convspec-kit: ${at} must be an object`);
    if (typeof t.name !== 'string' || t.name === '') throw new TypeError(`convspec-kit: ${at}.name must be a non-empty string`);
    if (trims.has(t.name)) throw new TypeError(`convspec-kit: ${at}.name ${JSON.stringify(t.name)} is declared twice`);
    if (t.bound !== 'messages' && t.bound !== 'tokens') throw new TypeError(`convspec-kit: ${at}.bound must be "messages" or "tokens"`);
    if (t.bound === 'tokens' && t.counter !== 'chars4' && t.counter !== 'cl100k' && t.counter !== 'native') throw new TypeError(`convspec-kit: ${at}.counter must be "chars4", "cl100k" or "native" for a token bound`);
    if (t.bound === 'messages' && t.counter !== undefined) throw new TypeError(`convspec-kit: ${at}.counter must be absent for a message bound`);
    if (typeof t.trim !== 'function') throw new TypeError(`convspec-kit: ${at}.trim must be a function (messages, limit) => messages`);
    const decl = { name: t.name, bound: t.bound };
    if (t.counter !== undefined) decl.counter = t.counter;
    if (t.formats !== undefined) decl.formats = names(t.formats, `${at}.formats`, FORMATS);
    decl.guarantees = t.guarantees === undefined ? [] : t.guarantees;
    if (!Array.isArray(decl.guarantees)) throw new TypeError(`convspec-kit: ${at}.guarantees must be an array`);
    for (const g of decl.guarantees) {
      if (MEMBER_CLAIMS[g]) throw new TypeError(`convspec-kit: ${at}.guarantees: ${JSON.stringify(g)} is not listed; it is claimed by the member ${MEMBER_CLAIMS[g]} (version 2)`);
    }
    if (decl.guarantees.length > 0) names(decl.guarantees, `${at}.guarantees`, GUARANTEES);
    Object.assign(decl, version2(t, at));
    if (t.counter === 'native' && typeof t.nativeCount !== 'function') throw new TypeError(`convspec-kit: ${at}.nativeCount must be a function (messages) => number for counter "native"`);
    if (t.counter !== 'native' && t.nativeCount !== undefined) throw new TypeError(`convspec-kit: ${at}.nativeCount is given, but the counter is not "native"`);
    decls.push(decl);
    trims.set(t.name, t.trim.bind(t));
    if (t.nativeCount) counts.set(t.name, t.nativeCount.bind(t));
  });
  return { decls, trims, counts };
}

// The second declaration (SPEC ANY-10, D-60): optional members, each one
// sentence of what a library promises; they need `version: 2`, and one that
// contradicts the others is refused naming it, as the harness refuses it.
const MEMBER_CLAIMS = { head: '"head"', start: '"start"', counter: '"counter": "native"', fallback: '"fallback"' };
const V2_MEMBERS = ['system', 'head', 'markers', 'slack', 'results', 'limit_min', 'start', 'count', 'refuses', 'fallback'];

function version2(t, at) {
  const bad = (member, why) => new TypeError(`convspec-kit: ${at}.${member} ${why}`);
  const claims = (g) => (t.guarantees || []).includes(g);
  const out = {};
  if (t.version !== undefined && t.version !== 1 && t.version !== 2) throw bad('version', `must be 1 or 2, got ${JSON.stringify(t.version)}`);
  if (t.version !== 2) {
    for (const m of V2_MEMBERS) if (t[m] !== undefined) throw bad(m, 'needs "version": 2');
    if (t.counter === 'native') throw bad('counter', '"native" needs "version": 2');
    if (t.version === 1) out.version = 1;
    return out;
  }
  out.version = 2;
  const count = (v) => Number.isInteger(v) && v >= 0;
  if (t.system !== undefined) {
    if (!['leading', 'first', 'first_anywhere', 'all'].includes(t.system)) throw bad('system', 'must be "leading", "first", "first_anywhere" or "all"');
    if (!claims('system')) throw bad('system', 'says which system messages are kept, but the trimmer does not claim "system"');
    out.system = t.system;
  }
  if (t.head !== undefined) {
    if (!count(t.head)) throw bad('head', 'must be a count of messages');
    out.head = t.head;
  }
  if (t.markers !== undefined) {
    if (!isObject(t.markers) || typeof t.markers.prefix !== 'string' || t.markers.prefix === '') throw bad('markers.prefix', 'is missing: a marker is recognized by the text it starts with');
    if (t.markers.role !== undefined && !['system', 'user', 'assistant'].includes(t.markers.role)) throw bad('markers.role', 'must be "system", "user" or "assistant"');
    out.markers = t.markers.role === undefined ? { prefix: t.markers.prefix } : { role: t.markers.role, prefix: t.markers.prefix };
  }
  if (t.slack !== undefined) {
    if (t.slack !== 'unit') throw bad('slack', 'must be "unit"');
    if (!claims('bound')) throw bad('slack', 'qualifies the bound, but the trimmer does not claim "bound"');
    out.slack = t.slack;
  }
  if (t.results !== undefined) {
    if (t.results !== 'one') throw bad('results', 'must be "one"');
    if (t.bound !== 'messages') throw bad('results', `counts messages, but the bound is ${JSON.stringify(t.bound)}`);
    out.results = t.results;
  }
  if (t.limit_min !== undefined) {
    if (!count(t.limit_min)) throw bad('limit_min', 'must be a count');
    out.limit_min = t.limit_min;
  }
  if (t.start !== undefined) {
    if (t.start !== 'user') throw bad('start', 'must be "user"');
    out.start = t.start;
  }
  if (t.refuses !== undefined) {
    if (t.refuses !== 'nothing_fits') throw bad('refuses', 'must be "nothing_fits"');
    out.refuses = t.refuses;
  }
  if (t.fallback !== undefined) {
    // ANY-14, D-76: the lone last message, when nothing fits.
    if (t.fallback !== 'last_message') throw bad('fallback', 'must be "last_message"');
    for (const g of ['units', 'last_prompt', 'last_unit']) if (claims(g)) throw bad('fallback', `keeps the last message alone when nothing fits, which contradicts the claim "${g}"`);
    if (t.refuses !== undefined) throw bad('fallback', 'answers the last message when nothing fits, but refuses says the trimmer refuses then');
    out.fallback = t.fallback;
  }
  if (t.count !== undefined) {
    const c = t.count;
    if (!isObject(c)) throw bad('count', 'must be an object {over?, separator?, tool_payloads?}');
    if (t.bound !== 'tokens') throw bad('count', `says how tokens are counted, but the bound is ${JSON.stringify(t.bound)}`);
    if (c.over !== undefined && c.over !== 'message' && c.over !== 'joined') throw bad('count.over', 'must be "message" or "joined"');
    if (c.separator !== undefined && (typeof c.separator !== 'string' || c.over !== 'joined')) throw bad('count.separator', 'joins texts: a string, with count.over "joined"');
    if (c.tool_payloads !== undefined && typeof c.tool_payloads !== 'boolean') throw bad('count.tool_payloads', 'must be a boolean');
    if (t.counter === 'native' && (c.separator !== undefined || c.tool_payloads !== undefined)) throw bad('count', 'of a native counter may only say "over": it counts what the library counts');
    out.count = {};
    for (const k of ['over', 'separator', 'tool_payloads']) if (c[k] !== undefined) out.count[k] = c[k];
  }
  return out;
}

// ---------------------------------------------------------------------------
// The scripted summarizer (spec/protocol.md, "The scripted summarizer"): the
// harness scripts the summarizer per request; the kit plays the script as a
// callback of whatever shape the library wants, and records every call.

/** timeout_ms absent or 0. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** The max_tokens recorded for a callback that is not told one (SUM-1, SUM-9). */
const DEFAULT_MAX_TOKENS = 1024;

/** The longest time setTimeout can wait (a longer one would fire at once): the clock's end (D-40). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One script: `reply` or `error`, and the outcome its numbers fix (D-44):
 * with delay_ms below timeout_ms the call answers at once; otherwise it does
 * not answer in time.
 */
class Script {
  /** `where` names the script in error messages (`params.summarizer`, `params.summarizers[1]`). */
  constructor(script, where) {
    if (!isObject(script)) throw invalidParams(`${where}: must be an object, got ${typeName(script)}`);
    const given = ['reply', 'error'].filter((name) => script[name] !== undefined && script[name] !== null);
    if (given.length !== 1) throw invalidParams(`${where}: needs exactly one of reply and error`);
    const text = script[given[0]];
    if (typeof text !== 'string') throw invalidParams(`${where}.${given[0]}: must be a string, got ${typeName(text)}`);
    this.reply = given[0] === 'reply' ? text : undefined;
    this.error = given[0] === 'error' ? text : undefined;
    this.delayMs = Script.milliseconds(script, 'delay_ms', where) ?? 0;
    this.timeoutMs = Script.milliseconds(script, 'timeout_ms', where) || DEFAULT_TIMEOUT_MS;
  }

  static milliseconds(script, name, where) {
    const v = script[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw invalidParams(`${where}.${name}: must be a non-negative integer number of milliseconds, got ${serialize(v)}`);
    }
    return v;
  }

  /**
   * Plays the script once. The outcome is fixed by the numbers, never by
   * two timers racing (D-44): with delay_ms < timeout_ms the reply or the
   * error comes at once (the delay is not slept); with delay_ms ≥
   * timeout_ms the reply never comes — the call fails with a timeout error
   * after timeout_ms (one timer), or, when the library passes its own
   * cancellation `signal` (it enforces its timeout itself), waits until the
   * library aborts it.
   */
  answer(signal) {
    if (this.delayMs < this.timeoutMs) {
      return this.error !== undefined ? Promise.reject(new Error(this.error)) : Promise.resolve(this.reply);
    }
    return new Promise((_resolve, reject) => {
      if (signal !== undefined && signal !== null) {
        const cancelled = () => reject(signal.reason ?? new Error('the summarizer call was cancelled'));
        if (signal.aborted) cancelled();
        else signal.addEventListener('abort', cancelled, { once: true });
        return;
      }
      setTimeout(() => reject(new Error(`the summarizer did not answer within ${this.timeoutMs} ms`)), Math.min(this.timeoutMs, MAX_TIMER_MS));
    });
  }
}

/**
 * The summarizer of one request, in every shape a library may want; each
 * form records the call and plays the next script (the last one repeating).
 */
class Summarizer {
  constructor(scripts) {
    this.scripts = scripts;
    /** Every call made, in order: `{prompt, max_tokens}` (window), or `{messages}` (budget's summaryFn). */
    this.calls = [];
    // Each takes an optional `{ signal }`: a library that enforces its own
    // timeout passes its AbortSignal, and a call that does not answer in
    // time waits for it instead of failing on the kit's timer (D-44).
    /** `(prompt, maxTokens, { signal }?) => Promise<string>`. */
    this.call = (prompt, maxTokens, options) => this.play({ prompt, max_tokens: maxTokens }, options);
    /** `(text, { signal }?) => Promise<string>`, recorded with max_tokens 1024. */
    this.text = (text, options) => this.play({ prompt: text, max_tokens: DEFAULT_MAX_TOKENS }, options);
    /** `(messages, { signal }?) => Promise<string>`: budget's summaryFn (CMP-1); recorded with the messages it got. */
    this.messages = (messages, options) => this.play({ messages: [...messages] }, options);
  }

  /** How long the library should wait for the next call (it is also enforced here). */
  get timeoutMs() {
    return this.next().timeoutMs;
  }

  next() {
    return this.scripts[Math.min(this.calls.length, this.scripts.length - 1)];
  }

  play(call, options) {
    const script = this.next();
    this.calls.push(call);
    return script.answer(options?.signal);
  }
}

/** Thrown by a late-bound callback used in a request that scripts no summarizer. */
class NoSummarizer extends Error {
  constructor() {
    super('this request provides no summarizer');
    this.name = 'NoSummarizer';
  }
}

/**
 * A summarizer fixed at construction (`new Trimmer({ summarize })`), bound
 * per request to the request's script. Called in a request that scripts none,
 * it fails, and the kit answers that request `unsupported`: a library whose
 * callback is fixed cannot trim "with no summarizer provided" (SUM-8).
 */
class LateSummarizer {
  constructor(current) {
    this.current = current;
    this.call = async (prompt, maxTokens, options) => this.bound().call(prompt, maxTokens, options);
    this.text = async (text, options) => this.bound().text(text, options);
    this.messages = async (messages, options) => this.bound().messages(messages, options);
  }

  bound() {
    const { summarizer, missed } = this.current();
    if (summarizer === undefined) {
      missed();
      throw new NoSummarizer();
    }
    return summarizer;
  }

  /** Whether the current request scripts a summarizer. */
  get provided() {
    return this.current().summarizer !== undefined;
  }

  get timeoutMs() {
    return this.current().summarizer?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }
}

/** The request's outcome when a late-bound summarizer was needed but not provided. */
const missedSummarizer = () =>
  new KitError('unsupported', 'the library called the summarizer it was constructed with, but this request provides none (SUM-8)');

// ---------------------------------------------------------------------------
// Reading the params of each method (spec/protocol.md, "Methods"): every
// member checked, and a bad one answered `invalid_params` naming it.

const read = {
  /** params as an object; `{}` when absent and not required. */
  objectParams(req, required) {
    if (!hasOwn(req, 'params') || req.params === null) {
      if (required) throw invalidParams('params: missing');
      return {};
    }
    if (!isObject(req.params)) throw invalidParams('params: must be an object');
    return req.params;
  },

  /** A required member (null counts as missing). */
  member(params, name) {
    if (!hasOwn(params, name) || params[name] === null) throw invalidParams(`params.${name}: missing`);
    return params[name];
  },

  absent: (params, name) => !hasOwn(params, name) || params[name] === null,

  /** `messages`: an array of messages (MSG-1). */
  messages(params) {
    const v = read.member(params, 'messages');
    if (!Array.isArray(v)) throw invalidParams('params.messages: must be an array of messages');
    checkMessages(v);
    return v;
  },

  string(params, name) {
    const v = read.member(params, name);
    if (typeof v !== 'string') throw invalidParams(`params.${name}: must be a string, got ${typeName(v)}`);
    return v;
  },

  /** `model`: a non-empty string. */
  model(params) {
    const v = read.string(params, 'model');
    if (v === '') throw invalidParams('params.model: must not be empty');
    return v;
  },

  /** `limits`: extra models and their limits, each a positive count (LIM-1). */
  limits(params) {
    const out = new Map();
    if (read.absent(params, 'limits')) return out;
    const v = params.limits;
    if (!isObject(v)) throw invalidParams(`params.limits: must be an object, got ${typeName(v)}`);
    for (const [name, limit] of Object.entries(v)) {
      if (!isCount(limit) || limit === 0) {
        throw invalidParams(`params.limits[${JSON.stringify(name)}]: must be a positive integer, got ${serialize(limit)}`);
      }
      out.set(name, limit);
    }
    return out;
  },

  /** `target_ratio`: above 0, at most 1, at most two decimals; 0.80 when absent. */
  targetRatio(params) {
    if (read.absent(params, 'target_ratio')) return 0.8;
    const r = params.target_ratio;
    if (typeof r !== 'number' || !(r > 0 && r <= 1) || Math.abs(r * 100 - Math.round(r * 100)) > 1e-9) {
      throw invalidParams(`params.target_ratio: must be a number above 0 and at most 1 with at most two decimals, got ${serialize(r)}`);
    }
    return r;
  },

  /** A count member (CFG-3): `max_messages` of history.build, `limit` of trimmer.trim. */
  count(params, name) {
    const v = read.member(params, name);
    if (!isCount(v)) throw invalidParams(`params.${name}: must be a non-negative integer, got ${serialize(v)}`);
    return v === 0 ? 0 : v; // -0 is 0
  },

  /** `summarizer`: one script; undefined when absent. */
  summarizer(params) {
    return read.absent(params, 'summarizer') ? undefined : new Script(params.summarizer, 'params.summarizer');
  },

  /** `summarizers` of loop.run: scripts for the successive calls; absent or empty, none. */
  summarizers(params) {
    if (read.absent(params, 'summarizers')) return [];
    return array(params, 'summarizers', 'params').map((s, i) => new Script(s, `params.summarizers[${i}]`));
  },

  /** A config file, `{"format": "yaml" | "json", "text": string}`. */
  configFile(params) {
    const v = read.member(params, 'config');
    if (!isObject(v)) throw invalidParams(`params.config: must be an object with format and text, got ${typeName(v)}`);
    const { format, text } = v;
    if (format !== 'yaml' && format !== 'json') {
      throw invalidParams(`params.config.format: must be "yaml" or "json", got ${serialize(format ?? null)}`);
    }
    if (typeof text !== 'string') throw invalidParams(`params.config.text: must be a string, got ${typeName(text)}`);
    return { format, text };
  },

  /**
   * `initial` and `iterations` of loop.run, every message checked (MSG-1) and
   * named by its place in the run (`iterations[0].turns[1].results[0]`), which
   * `place` records.
   */
  scriptedRun(params, place) {
    const msg = (m, where) => {
      checkMessages([m], () => where);
      place(m, where);
      return m;
    };
    const initialRaw = array(params, 'initial', 'params');
    const iterationsRaw = array(params, 'iterations', 'params');
    const iterations = iterationsRaw.map((it, i) => {
      const where = `params.iterations[${i}]`;
      if (!isObject(it)) throw invalidParams(`${where}: must be an object with prompt and turns, got ${typeName(it)}`);
      if (it.prompt === undefined || it.prompt === null) throw invalidParams(`${where}.prompt: missing`);
      const turns = array(it, 'turns', where).map((turn, j) => {
        const at = `${where}.turns[${j}]`;
        if (!isObject(turn)) throw invalidParams(`${at}: must be an object with response and results, got ${typeName(turn)}`);
        if (turn.response === undefined || turn.response === null) throw invalidParams(`${at}.response: missing`);
        // No results (the final answer): `[]`, absent or null.
        const results = turn.results === undefined || turn.results === null ? [] : array(turn, 'results', at);
        return { response: turn.response, results };
      });
      return { prompt: it.prompt, turns };
    });
    // Checked after the shape, so that a malformed run is invalid_params before any invalid_message.
    const initial = initialRaw.map((m, i) => msg(m, `initial[${i}]`));
    return {
      initial,
      iterations: iterations.map((it, i) => ({
        prompt: msg(it.prompt, `iterations[${i}].prompt`),
        turns: it.turns.map((t, j) => ({
          response: msg(t.response, `iterations[${i}].turns[${j}].response`),
          results: t.results.map((r, k) => msg(r, `iterations[${i}].turns[${j}].results[${k}]`)),
        })),
      })),
    };
  },
};

/** A count (CFG-3): a number whose value is an integer from 0 to 2^53 − 1. */
const isCount = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function array(o, name, where) {
  const v = o[name];
  if (!Array.isArray(v)) throw invalidParams(`${where}.${name}: must be an array, got ${v === undefined ? 'nothing' : typeName(v)}`);
  return v;
}

// ---------------------------------------------------------------------------
// serve: the whole protocol around a library's handlers — framing, JSON-RPC,
// handles, params, the scripted summarizer, message identity and errors.

/** The capabilities the handlers given implement, in the protocol's order. */
function capabilities(o) {
  const caps = [];
  if (o.window) caps.push('window');
  if (o.window?.summarize) caps.push('window.summarize');
  if (o.history) caps.push('history');
  if (o.budget) caps.push('budget');
  if (o.tokens) caps.push('tokens.cl100k');
  if (o.config) caps.push('config');
  if (o.loop) caps.push('loop');
  if (o.trimmers !== undefined && o.trimmers.length > 0) caps.push('trimmer');
  return caps;
}

/** Pairs every message of a list the library is given with the one received. */
function link(current, given, received) {
  if (!Array.isArray(received)) return;
  given.forEach((m, i) => {
    if (typeof m === 'object' && m !== null) current.substitute.set(m, received[i]);
  });
}

/** An error the kit raises with a wire error already made (not a library's). */
class WireErrorBox extends Error {
  constructor(error) {
    super(error.message);
    this.error = error;
  }
}

const wireErrorOf = (kind, message) => new WireErrorBox(wireError(kind, message));
const errorResponse = (id, error) => ({ jsonrpc: '2.0', id, error });

/**
 * Serves the protocol on stdin/stdout with the handlers given, and declares
 * the capabilities they implement. Returns at once; the process exits after
 * `shutdown` or at the end of input.
 */
function serve(options) {
  const caps = capabilities(options);
  const levels = names(options.levels, 'levels', LEVELS);
  const formats = names(options.formats, 'formats', FORMATS);
  const trimmers = trimmerDeclarations(options.trimmers);
  const windows = new Map();
  /** The state of the request being answered (requests are answered one at a time). */
  let current = { summarizer: undefined, missed: false, substitute: new Map() };
  /** The request as received (parsed a second time), beside the copy the library is given. */
  let received = {};
  const params = () => (isObject(received) && isObject(received.params) ? received.params : {});
  const late = new LateSummarizer(() => ({ summarizer: current.summarizer, missed: () => (current.missed = true) }));

  /** The request's summarizer for `scripts` (none for no script). */
  const scripted = (scripts) => (current.summarizer = scripts.length === 0 ? undefined : new Summarizer(scripts));
  const required = (p) => {
    const s = scripted([read.summarizer(p)].filter((x) => x !== undefined));
    if (s === undefined) throw invalidParams('params.summarizer: missing');
    return s;
  };
  const calls = () => current.summarizer?.calls ?? [];
  /** messages, paired with the received ones. */
  const messages = (p, rec) => {
    const m = read.messages(p);
    link(current, m, rec.messages);
    return m;
  };

  const methods = {};
  const { window: win, history, budget, tokens, config, loop } = options;
  if (win) {
    methods['window.create'] = async (p) => {
      const created = await win.create(p.config ?? undefined, late);
      const handle = `w${windows.size + 1}`;
      windows.set(handle, created.window);
      return { window: handle, config: created.config, warnings: created.warnings ?? [] };
    };
    methods['window.trim'] = async (p) => {
      const handle = read.member(p, 'window');
      if (typeof handle !== 'string') throw invalidParams('params.window: must be a window handle (a string)');
      if (!windows.has(handle)) throw invalidParams(`params.window: unknown window ${serialize(handle)}`);
      const w = windows.get(handle);
      const m = messages(p, params());
      const s = win.summarize ? scripted([read.summarizer(p)].filter((x) => x !== undefined)) : undefined;
      const r = await win.trim(w, m, s);
      return { trimmed: r.trimmed, evicted: r.evicted, metrics: r.metrics, warnings: r.warnings ?? [], summary: r.summary ?? null, summarizer_calls: calls() };
    };
    methods['window.estimate'] = async (p) => ({ tokens: await win.estimate(messages(p, params())) });
    if (win.summarize) {
      const summarize = win.summarize.bind(win);
      methods['window.summarize'] = async (p) => {
        const m = messages(p, params());
        return { summary: await summarize(m, required(p)), summarizer_calls: calls() };
      };
    }
  }
  if (history) {
    methods['history.classify'] = async (p) => history.classify(messages(p, params()));
    methods['history.prune'] = async (p) => history.prune(messages(p, params()));
    methods['history.build'] = async (p) => {
      const m = messages(p, params());
      return history.build(m, read.count(p, 'max_messages'));
    };
  }
  if (tokens) {
    methods['tokens.encode'] = async (p) => {
      const ids = await tokens.encode(read.string(p, 'text'));
      return { tokens: ids, count: ids.length };
    };
  }
  if (budget) {
    methods['budget.count'] = async (p) => budget.count(messages(p, params()));
    methods['budget.check'] = async (p) => {
      const [model, limits] = [read.model(p), read.limits(p)];
      return budget.check(messages(p, params()), model, limits);
    };
    methods['budget.prune'] = async (p) => {
      const [model, limits, ratio] = [read.model(p), read.limits(p), read.targetRatio(p)];
      return budget.prune(messages(p, params()), model, limits, ratio);
    };
    methods['budget.compress'] = async (p) => {
      const m = messages(p, params());
      return { messages: await budget.compress(m, required(p)), summarizer_calls: calls() };
    };
    methods['budget.prepare'] = async (p) => {
      const [model, limits] = [read.model(p), read.limits(p)];
      const m = messages(p, params());
      return { ...(await budget.prepare(m, model, limits, required(p))), summarizer_calls: calls() };
    };
  }
  if (config) {
    methods['config.resolve'] = async (p) => {
      const { format, text } = read.configFile(p);
      return config.resolve(format, text);
    };
  }
  if (loop) methods['loop.run'] = async (p) => runLoop(loop, p, params());
  if (trimmers) {
    methods['trimmer.trim'] = async (p) => {
      const name = read.string(p, 'trimmer');
      const trim = trimmers.trims.get(name);
      if (trim === undefined) throw invalidParams(`params.trimmer: unknown trimmer ${serialize(name)} (declared: ${[...trimmers.trims.keys()].join(', ')})`);
      const limit = read.count(p, 'limit');
      const kept = await trim(messages(p, params()), limit);
      if (!Array.isArray(kept)) throw new TypeError(`trimmer ${name} returned ${typeName(kept)}, not an array of messages`);
      return { messages: kept };
    };
    methods['trimmer.count'] = async (p) => {
      const name = read.string(p, 'trimmer');
      const count = trimmers.counts.get(name);
      if (count === undefined) throw invalidParams(`params.trimmer: no trimmer ${serialize(name)} declares counter "native"`);
      const n = await count(messages(p, params()));
      if (!Number.isInteger(n)) throw new TypeError(`the native counter of ${name} returned ${typeName(n)}, not an integer`);
      return { count: n };
    };
  }

  /** loop.run: drives the conversation through the scripted run (LOOP-1 – LOOP-6). */
  async function runLoop(handlers, p, rec) {
    const file = read.configFile(p);
    const places = new Map();
    const run = read.scriptedRun(p, (m, where) => places.set(m, where));
    const s = scripted(read.summarizers(p));
    linkRun(run, rec);
    const conversation = await handlers.conversation(file, run.initial, s);
    const requests = [];
    const iterations = [];
    let i = 0;
    try {
      for (const it of run.iterations) {
        await conversation.startIteration(it.prompt);
        for (const turn of it.turns) {
          requests.push({ iteration: i, messages: await conversation.request() });
          await conversation.append(turn.response, ...turn.results);
        }
        iterations.push(await conversation.finishIteration());
        i++;
      }
    } catch (e) {
      // A broken tool structure (UNIT-2) found by a trim: named by its place in the run.
      const state = conversation.messages;
      if (!isObject(e) || e.kind !== 'invalid_message' || state === undefined) throw e;
      const place = (m, k) => places.get(state[Number(k)]) ?? `the conversation's ${m}`;
      throw wireErrorOf('invalid_message', `iteration ${i}: ${String(e.message).replace(/messages\[(\d+)\]/g, place)}`);
    }
    return { config: conversation.config, requests, iterations, summarizer_calls: calls() };
  }

  function linkRun(run, rec) {
    link(current, run.initial, rec.initial);
    const its = rec.iterations;
    run.iterations.forEach((it, i) => {
      const rit = its[i];
      current.substitute.set(it.prompt, rit.prompt);
      const turns = rit.turns;
      it.turns.forEach((t, j) => {
        current.substitute.set(t.response, turns[j].response);
        link(current, t.results, turns[j].results);
      });
    });
  }

  async function handle(line) {
    let req;
    try {
      req = JSON.parse(line);
      received = JSON.parse(line); // the library gets `req`; answers are written with these messages
    } catch (e) {
      return { response: errorResponse(null, wireError('parse_error', `not JSON: ${e.message}`)), exit: false };
    }
    if (!isObject(req)) return { response: errorResponse(null, wireError('invalid_request', 'a request must be a JSON object')), exit: false };
    const notification = !hasOwn(req, 'id');
    const rawId = req.id;
    if (!(rawId === undefined || rawId === null || typeof rawId === 'string' || typeof rawId === 'number')) {
      return { response: errorResponse(null, wireError('invalid_request', 'id: must be a string, a number or null')), exit: false };
    }
    const id = rawId ?? null;
    if (req.jsonrpc !== '2.0') return { response: errorResponse(id, wireError('invalid_request', 'jsonrpc: must be "2.0"')), exit: false };
    const method = req.method;
    if (typeof method !== 'string') return { response: errorResponse(id, wireError('invalid_request', 'method: must be a string')), exit: false };

    current = { summarizer: undefined, missed: false, substitute: new Map() };
    let response;
    try {
      response = { jsonrpc: '2.0', id, result: await dispatch(method, req) };
      if (current.missed) throw missedSummarizer();
    } catch (e) {
      const err = e instanceof WireErrorBox ? e.error : fromThrown(current.missed ? missedSummarizer() : e);
      if (err.data.kind === 'context_window_exhausted' && current.summarizer) err.data.summarizer_calls = current.summarizer.calls.length;
      response = errorResponse(id, err);
    }
    return { response: notification ? undefined : response, exit: method === 'shutdown' };
  }

  async function dispatch(method, req) {
    switch (method) {
      case 'initialize': {
        const p = read.objectParams(req, true);
        if (p.protocol !== 1) throw invalidParams(`params.protocol: unsupported protocol ${serialize(p.protocol ?? null)}, this implementation speaks 1`);
        const result = { protocol: 1, implementation: { name: options.name, version: options.version }, capabilities: caps };
        if (levels) result.levels = levels;
        if (formats) result.formats = formats;
        if (trimmers) result.trimmers = trimmers.decls;
        return result;
      }
      case 'shutdown':
        return null;
    }
    const handler = hasOwn(methods, method) ? methods[method] : undefined;
    if (handler === undefined) throw wireErrorOf('method_not_found', `unknown method ${serialize(method)}`);
    return handler(read.objectParams(req, method !== 'window.create'));
  }

  const output = options.output ?? process.stdout;
  const exit = options.exit ?? (() => process.exit(0));
  let exiting = false;
  let queue = Promise.resolve(); // requests are answered one at a time, in order

  async function answer(line) {
    if (exiting) return;
    const { response, exit: last } = await handle(line);
    let out = '';
    if (response !== undefined) {
      try {
        out = serialize(response, current.substitute) + '\n';
      } catch (e) {
        // e.g. content nested deeper than the call stack allows
        out = serialize(errorResponse(response.id, wireError('internal_error', `cannot write the response: ${String(e)}`))) + '\n';
      }
    }
    if (last) {
      exiting = true;
      output.write(out, () => exit());
    } else if (out !== '') {
      output.write(out);
    }
  }

  const lines = createInterface({ input: (options.input ?? process.stdin).pipe(lineDecoder()), terminal: false });
  lines.on('line', (line) => {
    if (/^[ \t\r\n]*$/.test(line)) return; // blank lines are ignored
    queue = queue.then(() => answer(line));
  });
  // Exit promptly at end of input, whether or not shutdown came first (after answering what was read).
  lines.on('close', () => {
    queue = queue.then(() => {
      if (!exiting) output.write('', () => exit());
    });
  });
}

// Each export on a line of its own, so that Node's ES-module loader finds the
// names (`import { serve } from './convspec-kit.cjs'`).
exports.serve = serve;
exports.capabilities = capabilities;
exports.CODES = CODES;
exports.KitError = KitError;
exports.contextWindowExhausted = contextWindowExhausted;
exports.invalidConfig = invalidConfig;
exports.invalidMessage = invalidMessage;
exports.invalidParams = invalidParams;
exports.invariantViolation = invariantViolation;
exports.summarizerFailed = summarizerFailed;
exports.unknownModel = unknownModel;
exports.unsupported = unsupported;
exports.checkMessages = checkMessages;
exports.jsonEqual = jsonEqual;
exports.partOf = partOf;
exports.peelSystem = peelSystem;
exports.restore = restore;
exports.DEFAULT_MAX_TOKENS = DEFAULT_MAX_TOKENS;
exports.DEFAULT_TIMEOUT_MS = DEFAULT_TIMEOUT_MS;
exports.serialize = serialize;
exports.contentChars = contentChars;
exports.chars4 = chars4;
exports.countChars4 = countChars4;
/** The kit's inner parts, for its unit tests; not an API. */
exports._internal = { fromThrown, decodeLine, Script, Summarizer };
